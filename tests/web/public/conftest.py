"""The public pages' data (``tests/public_fixtures.py``): the spec's examples E1 and E2 and a federation."""

from tests.frozen_list_fixtures import area  # noqa: F401 - fixtures
from tests.privacy_fixtures import hidden_area  # noqa: F401 - fixtures
from tests.public_fixtures import e1, e2, federation, populate  # noqa: F401 - fixtures
