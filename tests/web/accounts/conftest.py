"""The officer fixtures (``tests/officer_fixtures.py``): the accounts are the five roles' logins."""

from tests.officer_fixtures import login, players, tournament, tree, users  # noqa: F401 - fixtures
