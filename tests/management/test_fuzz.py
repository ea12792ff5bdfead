"""Forty cases per command of bench/fuzz.py in the suite: mutated contract, TRF and DSB list files through
the commands, in-process. Each ends in exit 0, 1 or 2, never in another exception. Deterministic (derandomized
hypothesis drawing the mutation seed), so a failure here fails every run until fixed."""

from __future__ import annotations

import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.models import Club, Organisation
from tests.conftest import examples
from tests.fuzzing import COMMANDS, Sources, make_case, run_case

SOURCES = Sources()
FUZZ = settings(
    max_examples=examples(40),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def club(db):
    dsb = Organisation.objects.create(code="000", name="Deutscher Schachbund")
    return Club.objects.create(zps="C0501", name="SV Stuttgart", organisation=dsb)


@pytest.mark.parametrize("command", COMMANDS)
@FUZZ
@given(seed=st.integers(0, 2**32))
def test_mutated_files_are_answered_not_crashed(command, seed, club, tmp_path):
    case = make_case(command, SOURCES, random.Random(seed))
    with transaction.atomic():
        outcome = run_case(case, tmp_path)
        transaction.set_rollback(True)
    assert outcome.exit in (0, 1, 2), outcome.error
