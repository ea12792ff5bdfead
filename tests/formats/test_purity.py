"""The format readers and writers are pure, typed Python: no Django import, mypy --strict clean."""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ratings.formats

PACKAGE = Path(ratings.formats.__file__).resolve().parent
MODULES = [
    PACKAGE / "trf.py",
    PACKAGE / "trf_export.py",
    PACKAGE / "standings.py",
    PACKAGE / "pairing_input.py",
    PACKAGE / "result_entry.py",
    PACKAGE / "time_control.py",
    PACKAGE / "dsb_xml.py",
]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", [p for p in MODULES if p.exists()], ids=lambda p: p.name)
def test_no_django_and_no_project_imports(path):
    assert not _imports(path) & {"django", "ratings"}


def test_mypy_strict(tmp_path):
    if shutil.which("mypy", path=str(Path(sys.executable).parent)) is None:
        pytest.fail("mypy is part of requirements-dev.txt; run make install")
    paths = [str(p) for p in MODULES if p.exists()]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",
            "--cache-dir",
            str(tmp_path),
            *paths,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
