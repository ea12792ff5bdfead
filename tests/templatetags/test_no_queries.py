"""Template tags only format: what a page shows is read by its view (or a presenter or selector) and passed
in the context. No module in ``ratings/templatetags/`` imports the models, the selectors, the services or
the permissions (which read the officer's scope), nor touches a manager's ``.objects``."""

import ast
from pathlib import Path

import pytest

import ratings.templatetags

TAGS = sorted(Path(ratings.templatetags.__file__).parent.glob("*.py"))
FORBIDDEN = ("ratings.models", "ratings.selectors", "ratings.services", "ratings.permissions")


def _imported(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_there_are_tag_modules():
    assert {path.stem for path in TAGS} >= {"officer", "public"}


@pytest.mark.parametrize("path", TAGS, ids=lambda path: path.stem)
def test_a_tag_module_reads_nothing_from_the_database(path):
    tree = ast.parse(path.read_text())
    imported = _imported(tree)
    assert not {
        name
        for name in imported
        for forbidden in FORBIDDEN
        if name == forbidden or name.startswith(f"{forbidden}.")
    }
    assert not [
        node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "objects"
    ]
