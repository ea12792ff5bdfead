"""The officer fixtures (``tests/officer_fixtures.py``) for the admin's officer, audit and link tests."""

from tests.officer_fixtures import login, players, tournament, tree, users  # noqa: F401 - fixtures
