"""The services import each other one way only, and ``audit`` is a leaf."""

import ast
from pathlib import Path

import ratings.services

SERVICES = Path(ratings.services.__file__).parent


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in SERVICES.glob("*.py"):
        if path.stem == "__init__":
            continue
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level == 1 and module:
                    found.add(module.split(".")[0])
                elif node.level == 1:
                    found.update(alias.name for alias in node.names)
                elif module.startswith("ratings.services."):
                    found.add(module.split(".")[2])
                elif module == "ratings.services":
                    found.update(alias.name for alias in node.names)
        graph[path.stem] = found
    return graph


def test_no_import_cycles_among_services():
    graph = _imports()
    state: dict[str, str] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for target in graph.get(name, ()):
            if target not in graph:
                continue
            assert state.get(target) != "open", " -> ".join([*path, target])
            if target not in state:
                visit(target, [*path, target])
        state[name] = "done"

    for name in graph:
        if name not in state:
            visit(name, [name])


def test_audit_imports_no_other_service():
    assert _imports()["audit"] == set()
