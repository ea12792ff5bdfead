"""``make run`` listens where ``HOST`` and ``PORT`` say, and prints that address (issue 32)."""

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


def _dry_run(*variables: str) -> list[str]:
    """The commands ``make run`` would run (``make -n``: nothing is run)."""
    out = subprocess.run(
        ["make", "-n", "-C", str(ROOT), "run", *variables], capture_output=True, text=True, check=True
    ).stdout
    return [line for line in out.splitlines() if "seed_demo" in line or "runserver" in line]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
@pytest.mark.parametrize(
    ("variables", "listen", "site"),
    [
        ((), "127.0.0.1:8000", "http://127.0.0.1:8000/"),
        (("PORT=8123",), "127.0.0.1:8123", "http://127.0.0.1:8123/"),
        (("HOST=0.0.0.0", "PORT=9000"), "0.0.0.0:9000", "http://127.0.0.1:9000/"),
        (("HOST=localhost", "PORT=8001"), "localhost:8001", "http://localhost:8001/"),
    ],
)
def test_make_run_listens_and_prints_where_host_and_port_say(variables, listen, site):
    seed, serve = _dry_run(*variables)
    assert seed.endswith(f"seed_demo --site {site}")
    assert serve.endswith(f"runserver {listen}")


@pytest.mark.django_db
def test_seed_demo_prints_the_site_it_is_given():
    out = io.StringIO()
    call_command("seed_demo", "--no-federation", "--site", "http://127.0.0.1:8123/", stdout=out)
    assert "Site: http://127.0.0.1:8123/" in out.getvalue()
    assert "8000" not in out.getvalue()


def test_readme_says_how_to_choose_host_and_port():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make run PORT=8080" in readme and "make run HOST=0.0.0.0 PORT=8080" in readme
