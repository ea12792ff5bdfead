"""The officer fixtures (``tests/officer_fixtures.py``): a federation tree, the five roles, a round robin."""

from tests.officer_fixtures import players, tournament, tree, users  # noqa: F401 - fixtures
