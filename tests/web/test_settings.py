"""Settings come from the environment only; production-like settings pass Django's deploy checks."""

import pytest

from tests.builders import PRODUCTION, run_manage


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
