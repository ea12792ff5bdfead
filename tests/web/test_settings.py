"""Settings come from the environment only; production-like settings pass Django's deploy checks."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "dwzsite.settings",
    "DJANGO_DEBUG": "False",
    "DJANGO_SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "DJANGO_ALLOWED_HOSTS": "dwz.example.org",
    "DJANGO_SECURE_SSL_REDIRECT": "True",
    "DJANGO_HSTS_SECONDS": "31536000",
}


def test_check_deploy_is_clean_with_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_missing_secret_key_without_debug_is_refused():
    result = run_manage("check", DJANGO_SETTINGS_MODULE="dwzsite.settings", DJANGO_DEBUG="False")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


@pytest.mark.parametrize("value", ["yes", "maybe", "2"])
def test_env_bool_is_strict(value):
    result = run_manage("check", DJANGO_SETTINGS_MODULE="dwzsite.settings", DJANGO_DEBUG=value)
    assert result.returncode != 0
    assert "DJANGO_DEBUG must be True or False" in result.stderr


def test_unconfigured_checkout_runs_commands_in_development_mode():
    result = run_manage("check")
    assert result.returncode == 0, result.stderr
