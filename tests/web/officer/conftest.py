"""The officer tests' federation tree, roles and round robin (``tests/officer_fixtures.py``)."""

from tests.officer_fixtures import login, players, tournament, tree, users  # noqa: F401 - fixtures
