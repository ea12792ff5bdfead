"""The officer fixtures (``tests/officer_fixtures.py``): a federation tree, the five roles, a round robin;
the frozen lists' club and players (``tests/frozen_list_fixtures.py``)."""

from tests.frozen_list_fixtures import area  # noqa: F401 - fixtures
from tests.officer_fixtures import players, tournament, tree, users  # noqa: F401 - fixtures
