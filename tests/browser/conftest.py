import os

import pytest

from tests.conftest import CHROMIUM


def pytest_collection_modifyitems(config, items):
    """Browser tests skip only when no Chromium is installed."""
    if os.path.exists(CHROMIUM):
        return
    skip = pytest.mark.skip(reason=f"Chromium not installed at {CHROMIUM}")
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(skip)
