"""Not only tournaments re-rate a player: an officer's adjustment, a merge of duplicates and a DSB list import
mail his followers too, once each, saying what caused it; a merge hands the dropped record's followers on."""

from __future__ import annotations

import dataclasses
import datetime

import pytest
from django.core import mail

from following.models import NoticeKind, RatingNotice, Subscription
from ratings.enums import AdjustmentKind, RatingChangeCause
from ratings.formats.dsb_list import read_list_bytes
from ratings.models import Evaluation, Player, RatingAdjustment
from ratings.services import adjustment_delete, adjustment_save
from ratings.services.dsb_list import dsb_list_import
from ratings.services.merge import players_merge
from tests.builders import player, save_tournament
from tests.dsb_lists import generate
from tests.following.support import follow, history

pytestmark = pytest.mark.django_db


def _mails_to(address):
    return [m for m in mail.outbox if m.to == [address]]


def test_an_adjustment_mails_the_followers_of_every_player_it_re_rates(django_capture_on_commit_callbacks):
    h = history()
    c_before = Evaluation.objects.get(tournament=h.later, player=h.c).dwz_new
    follow("fan-c@example.org", player=h.c)
    follow("fan-b@example.org", player=h.b)  # b played a in January only: untouched
    correction = RatingAdjustment(
        player=h.a, kind=AdjustmentKind.CORRECTION, date=datetime.date(2025, 2, 1), dwz=1900, index=12
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        adjustment_save(adjustment=correction)
    assert len(callbacks) == 1
    c_after = Evaluation.objects.get(tournament=h.later, player=h.c).dwz_new
    assert c_after != c_before
    (message,) = _mails_to("fan-c@example.org")
    assert "DWZ-Korrektur des Wertungsreferenten" in message.body
    assert f"DWZ {c_before} → {c_after}" in message.body
    assert _mails_to("fan-b@example.org") == []
    notice = RatingNotice.objects.get(player=h.c)
    assert (notice.kind, notice.cause) == (NoticeKind.REVISED, RatingChangeCause.ADJUSTMENT)

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        adjustment_delete(adjustment=RatingAdjustment.objects.get(pk=correction.pk))
    assert Evaluation.objects.get(tournament=h.later, player=h.c).dwz_new == c_before
    assert RatingNotice.objects.filter(player=h.c, cause=RatingChangeCause.ADJUSTMENT).count() == 2


def test_a_merge_hands_on_the_followers_and_mails_the_revision(django_capture_on_commit_callbacks):
    h = history()
    # A duplicate record of a beat d in February: merged into a, his March game against c counts that.
    duplicate = player(dwz=1600, index=10, surname=h.a.surname, first_name=h.a.first_name)
    save_tournament([duplicate, h.d], [(h.d, duplicate, "1-0")], end=datetime.date(2025, 2, 15), name="Feb")
    c_before = Evaluation.objects.get(tournament=h.later, player=h.c).dwz_new
    follow("fan-c@example.org", player=h.c)
    follow("beide@example.org", player=duplicate)
    follow("beide@example.org", player=h.a)
    follow("nur-dublette@example.org", player=duplicate)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        players_merge(keep=h.a, drop=duplicate)

    c_after = Evaluation.objects.get(tournament=h.later, player=h.c).dwz_new
    assert c_after != c_before
    (message,) = _mails_to("fan-c@example.org")
    assert "Zusammenführen doppelter Spielerdaten" in message.body
    # The dropped record's followers follow the kept one; an address following both keeps one subscription.
    assert sorted(Subscription.objects.filter(player=h.a).values_list("email", flat=True)) == [
        "beide@example.org",
        "nur-dublette@example.org",
    ]
    assert len(_mails_to("beide@example.org")) == 1
    assert len(_mails_to("nur-dublette@example.org")) == 1


def test_a_dry_run_merge_mails_nobody(django_capture_on_commit_callbacks):
    h = history()
    duplicate = player(dwz=1600, index=10)
    save_tournament([duplicate, h.d], [(h.d, duplicate, "1-0")], end=datetime.date(2025, 2, 15), name="Feb")
    follow("fan-c@example.org", player=h.c)
    follow("dublette@example.org", player=duplicate)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        players_merge(keep=h.a, drop=duplicate, dry_run=True)
    assert mail.outbox == []
    assert Subscription.objects.filter(player=duplicate).exists()


def test_a_dsb_list_import_mails_the_followers_of_a_player_it_gives_another_dwz(
    django_capture_on_commit_callbacks,
):
    generated = generate(40, seed=7)
    as_of = datetime.date(2026, 3, 1)
    dsb_list_import(dsb_list=read_list_bytes(generated.zip_bytes(), "LV-0-csv.zip"), as_of=as_of)
    row = next(r for r in generated.players if r.dwz is not None and r.member_number)
    subject = Player.objects.get(dsb_id=row.person_id) if row.person_id else None
    if subject is None:  # generation 1 lists carry no id: find him by name
        subject = Player.objects.get(
            surname=row.surname, first_name=row.first_name, birth_year=row.birth_year
        )
    assert subject.dwz == row.dwz
    follow("fan@example.org", player=subject)
    newer = dataclasses.replace(generated)
    newer.players = [dataclasses.replace(r, dwz=r.dwz + 50) if r is row else r for r in generated.players]
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        dsb_list_import(
            dsb_list=read_list_bytes(newer.zip_bytes(), "LV-0-csv.zip"), as_of=datetime.date(2026, 4, 1)
        )

    subject.refresh_from_db()
    assert subject.dwz == row.dwz + 50
    (message,) = _mails_to("fan@example.org")
    assert "Import der DSB-Liste" in message.body
    assert f"DWZ {row.dwz} → {row.dwz + 50}" in message.body
