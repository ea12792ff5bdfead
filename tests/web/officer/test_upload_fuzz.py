"""The officer's TRF upload with mutated real files (tests/fuzzing.py): upload, review, preview and save of
every line as a new player answer a page or a redirect, never a 500. Derandomized, so deterministic."""

from __future__ import annotations

import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.formats.trf import TrfError, read_trf
from tests.conftest import examples
from tests.fuzzing import mutate_bytes, trf_sources

pytestmark = pytest.mark.django_db
SOURCES = trf_sources()


@settings(
    max_examples=examples(20),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32))
def test_a_mutated_upload_is_answered_not_crashed(client, users, tree, seed):
    rng = random.Random(seed)
    data = mutate_bytes(rng.choice(SOURCES), rng, columns=True)
    client.force_login(users["officer_a"])
    response = client.post(reverse("ratings:trf-upload"), {"file": SimpleUploadedFile("t.trf", data)})
    assert response.status_code in (200, 302)
    if response.status_code != 302:
        return
    review = response["Location"]
    page = client.get(review)
    assert page.status_code == 200
    try:
        ranks = [p.start_rank for p in read_trf(data).players]
    except TrfError:
        ranks = []
    post = {
        "name": "Fuzz-Open",
        "place": "Ulm",
        "start_date": "2024-07-01",
        "end_date": "2024-07-02",
        "code": "",
        "organiser": f"c{tree['club_a'].pk}",
        "new_player_club": tree["club_a"].pk,
        "rated": "on",
        **{f"p-{rank}": "new" for rank in ranks},
    }
    assert client.post(review, {**post, "preview": "1"}).status_code == 200
    assert client.post(review, {**post, "save": "1"}).status_code in (200, 302)
