"""The league app is installed and depends on ``ratings`` only, never the other way round."""

import ast
from pathlib import Path

from django.apps import apps

import ratings


def test_leagues_is_installed():
    assert apps.get_app_config("leagues").verbose_name


def test_ratings_never_imports_leagues():
    root = Path(ratings.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            offenders += [f"{path}: {name}" for name in names if name.split(".")[0] == "leagues"]
    assert offenders == []
