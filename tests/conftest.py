import os
import shutil

import pytest

# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls there otherwise.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "de-DE"}


# Test kinds by folder: the pure engine and file formats are unit tests, the browser tests end-to-end,
# everything else works against the database (integration). Select with ``-m unit`` and the like.
KINDS = {"dwz": "unit", "formats": "unit", "browser": "e2e"}


def pytest_collection_modifyitems(config, items):
    root = config.rootpath / "tests"
    for item in items:
        parts = item.path.relative_to(root).parts if item.path.is_relative_to(root) else ()
        kind = KINDS.get(parts[0], "integration") if len(parts) > 1 else "integration"
        item.add_marker(getattr(pytest.mark, kind))
