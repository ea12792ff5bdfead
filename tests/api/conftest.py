"""The public data (``tests/public_fixtures.py``) the JSON API serves: the spec's examples E1 and E2."""

from tests.public_fixtures import e1, e2, federation, populate  # noqa: F401 - fixtures
