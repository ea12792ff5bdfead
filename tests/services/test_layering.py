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


# --- the layers around the services (issue 27) -------------------------------------------------------

ROOT = SERVICES.parent.parent
RATINGS = ROOT / "ratings"

# What a read may ask the recalculation: what a save would reach and how long it would take, no write.
RECALCULATION_READS = {
    "END_OF_TIME",
    "Reach",
    "RecalculationReport",
    "background_estimate",
    "earliest",
    "first_event_of",
    "player_first_event",
    "reach_of_delete",
    "reach_of_save",
    "recalculation_estimate",
    "span_of",
    "stored_since",
    "tournaments_of",
}


def _from_imports(path: Path) -> list[tuple[str, list[str]]]:
    """(absolute module, imported names) of every import in ``path``, relative ones resolved."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found.append((module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
    return found


def test_every_public_function_of_the_services_is_keyword_only():
    positional = {}
    for path in sorted(SERVICES.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            public = isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
            if public and (node.args.args or node.args.posonlyargs):
                positional.setdefault(path.name, set()).add(node.name)
    assert positional == {}


def test_selectors_import_no_service_and_no_write_of_the_recalculation():
    for path in sorted((RATINGS / "selectors").glob("*.py")):
        for module, names in _from_imports(path):
            assert not module.startswith("ratings.services"), f"{path.name} imports {module}"
            if module == "ratings.recalculation":
                assert set(names) <= RECALCULATION_READS, (
                    f"{path.name} imports {set(names) - RECALCULATION_READS}"
                )
            else:
                assert not module.startswith("ratings.recalculation"), f"{path.name} imports {module}"
            assert not (module == "ratings" and {"services", "recalculation"} & set(names)), path.name


def test_only_the_recalculation_imports_its_private_modules():
    package = RATINGS / "recalculation"
    paths = [
        p for folder in ("ratings", "bench", "dwzsite", "scripts") for p in (ROOT / folder).rglob("*.py")
    ]
    for path in paths:
        if package in path.parents:
            continue
        for module, names in _from_imports(path):
            private = module.startswith("ratings.recalculation._") or (
                module == "ratings.recalculation" and any(name.startswith("_") for name in names)
            )
            assert not private, f"{path.relative_to(ROOT)} imports {module} {names}"


def test_the_recalculation_names_its_api():
    import ratings.recalculation

    assert sorted(ratings.recalculation.__all__) == sorted(
        name for name in vars(ratings.recalculation) if not name.startswith("_")
    )
    assert all(path.name.startswith("_") for path in (RATINGS / "recalculation").glob("*.py"))
