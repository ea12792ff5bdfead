"""Merging duplicate player records and finding them."""

from __future__ import annotations

import datetime
import random

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ratings.enums import AdjustmentKind
from ratings.models import AuditEvent, Membership, Player, RatingAdjustment
from ratings.recalculation import ratings_verify
from ratings.services.merge import duplicate_candidates, players_merge
from tests.builders import player, round_robin, save_tournament
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def _field():
    rng = random.Random(5)
    a, b, c, d = (player(dwz=1500 + 100 * i, index=10, surname=f"S{i}") for i in range(4))
    listed = player(dwz=1700, index=30, surname="Müller", first_name="Jörg", birth_year=1970, dsb_id="NU123")
    typed = player(surname="Mueller", first_name="Jörg", birth_year=1970)  # typed in by an officer, no DWZ
    save_tournament([a, b, listed], round_robin([a, b, listed], rng), end=datetime.date(2025, 3, 1))
    save_tournament([c, d, typed], round_robin([c, d, typed], rng), end=datetime.date(2025, 6, 1))
    save_tournament([a, c, typed], round_robin([a, c, typed], rng), end=datetime.date(2025, 9, 1))
    return listed, typed, (a, b, c, d)


def test_merge_moves_the_history_and_recalculates():
    listed, typed, others = _field()
    club = ClubFactory()
    Membership.objects.create(player=typed, club=club, member_number="0099")
    before = {p.pk: Player.objects.get(pk=p.pk).dwz for p in others}
    preview = players_merge(keep=listed, drop=typed, dry_run=True)
    assert Player.objects.filter(pk=typed.pk).exists()  # nothing written by the preview
    assert len(preview.report.tournaments) >= 2
    result = players_merge(keep=listed, drop=typed)
    assert not Player.objects.filter(pk=typed.pk).exists()
    kept = Player.objects.get(pk=listed.pk)
    assert kept.key == listed.key and kept.dsb_id == "NU123"
    assert kept.entries.count() == 3 and kept.memberships.get().member_number == "0099"
    assert result.report.tournaments == preview.report.tournaments
    assert result.report.rating_changes == preview.report.rating_changes
    # the typed-in record entered without DWZ; merged, he brings his 1700 into those tournaments
    after = {p.pk: Player.objects.get(pk=p.pk).dwz for p in others}
    assert after != before
    assert ratings_verify() == []
    events = AuditEvent.objects.filter(object_type="player").order_by("pk")
    assert any(e.changes.get("merged_into") == [None, listed.key] for e in events)


def test_merge_refuses_two_records_in_the_same_tournament():
    listed, _typed, (a, _b, c, _d) = _field()
    with pytest.raises(ValidationError) as error:
        players_merge(keep=a, drop=c)
    assert "selben Turnier" in str(error.value)
    with pytest.raises(ValidationError):
        players_merge(keep=a, drop=a)
    other = player(surname="X", dsb_id="NU999")
    with pytest.raises(ValidationError, match="DSB-Personen-ID"):
        players_merge(keep=listed, drop=other)


def test_start_value_of_the_kept_record_wins():
    a = player(dwz=1500, index=5, surname="A")
    b = player(dwz=1600, index=7, surname="A")
    players_merge(keep=a, drop=b)
    assert RatingAdjustment.objects.get(player=a, kind=AdjustmentKind.START).dwz == 1500
    assert Player.objects.get(pk=a.pk).dwz == 1500


def test_duplicate_finder():
    listed, typed, _ = _field()
    pairs = duplicate_candidates()
    assert {(a.pk, b.pk) for a, b, _ in pairs} == {(listed.pk, typed.pk)}
    x = player(surname="Y", fide_id=4711)
    y = player(surname="Z", fide_id=4711)
    reasons = {frozenset((a.pk, b.pk)): reason for a, b, reason in duplicate_candidates()}
    assert reasons[frozenset((x.pk, y.pk))] == "gleiche FIDE-ID"


def test_admin_finder_confirmation_and_merge(client, django_user_model):
    listed, typed, _ = _field()
    client.force_login(django_user_model.objects.create_superuser("chef", "c@example.org", "geheim-123"))
    page = client.get(reverse("admin:ratings_player_duplicates")).content.decode()
    assert "Mueller" in page and "prüfen und zusammenführen" in page
    url = reverse("admin:ratings_player_merge")
    page = client.get(url, {"keep": listed.pk, "drop": typed.pk}).content.decode()
    assert 'id="merge-tournaments"' in page and "Zusammenführen" in page
    assert Player.objects.filter(pk=typed.pk).exists()
    response = client.post(url, {"keep": listed.pk, "drop": typed.pk})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=typed.pk).exists()
    # the admin action leads to the same page
    a, b = player(surname="Q"), player(surname="Q")
    response = client.post(
        reverse("admin:ratings_player_changelist"),
        {"action": "merge_players_action", "_selected_action": [a.pk, b.pk]},
    )
    assert response.status_code == 302 and "zusammenfuehren" in response["Location"]
