"""The league core is pure Python: no Django, and from ``ratings`` only the pure engine (``ratings.dwz``)."""

from __future__ import annotations

import ast
from pathlib import Path

import leagues.core

PACKAGE = Path(leagues.core.__file__).resolve().parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_is_pure():
    offenders = {
        path.name: sorted(
            m
            for m in _imports(path)
            if m.split(".")[0] in {"django", "leagues"}
            or (m.startswith("ratings") and not m.startswith("ratings.dwz"))
        )
        for path in PACKAGE.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    assert len(offenders) >= 7


def test_no_long_functions():
    too_long = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.end_lineno - node.lineno + 1 > 80:  # type: ignore[operator]
                too_long.append(f"{path.name}:{node.name}")
    assert too_long == []
