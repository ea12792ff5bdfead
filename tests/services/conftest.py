"""The frozen lists' club and players (``tests/frozen_list_fixtures.py``)."""

from tests.frozen_list_fixtures import area  # noqa: F401 - fixtures
