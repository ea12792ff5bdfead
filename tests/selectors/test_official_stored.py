"""The stored Abgleich read back: the verdict that counts per tournament (the newest list's), the imports with
their counts in an area, the rows of an area, cause and club."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from ratings.models import ListImport, ListImportStatus, OfficialDifference, OfficialVerdict, Tournament
from ratings.selectors.official_stored import (
    compared_imports,
    difference_clubs,
    latest_verdicts,
    stored_differences,
)
from tests.factories import ClubFactory, PlayerFactory
from tests.official_planted import members_of

pytestmark = pytest.mark.django_db


def _import(as_of, name="x.zip"):
    return ListImport.objects.create(
        file_name=name, as_of=as_of, status=ListImportStatus.DONE, summary={"abgleich": {}}
    )


def _difference(list_import, player, cause):
    return OfficialDifference.objects.create(
        list_import=list_import,
        player=player,
        cause=cause,
        official_index=1,
        window_end=list_import.as_of,
        our_index=2,
    )


def test_latest_verdicts_take_the_newest_list_in_one_query(django_assert_num_queries):
    day = datetime.date(2025, 5, 1)
    t1, t2, t3 = (Tournament.objects.create(name=f"T{i}", start_date=day, end_date=day) for i in range(3))
    older, newer = _import(datetime.date(2025, 6, 1)), _import(datetime.date(2025, 12, 1))
    later_upload_of_older_list = _import(datetime.date(2025, 6, 1))
    now = timezone.now()
    OfficialVerdict.objects.create(tournament=t1, list_import=older, state="differs", checked_at=now)
    OfficialVerdict.objects.create(tournament=t1, list_import=newer, state="confirmed", checked_at=now)
    OfficialVerdict.objects.create(tournament=t2, list_import=older, state="pending", checked_at=now)
    OfficialVerdict.objects.create(
        tournament=t2, list_import=later_upload_of_older_list, state="differs", checked_at=now
    )
    with django_assert_num_queries(1):
        verdicts = latest_verdicts(tournament_ids=[t1.pk, t2.pk, t3.pk])
        assert verdicts[t1.pk].list_import.as_of == datetime.date(2025, 12, 1)
    assert verdicts[t1.pk].state == "confirmed"
    assert verdicts[t2.pk].state == "differs"  # the same date: the later import
    assert t3.pk not in verdicts
    with django_assert_num_queries(0):
        assert latest_verdicts(tournament_ids=[]) == {}


def test_rows_and_counts_by_area_cause_and_club():
    here, there = ClubFactory(zps="C0501"), ClubFactory(zps="C0601")
    a, b, c = PlayerFactory(surname="Adler"), PlayerFactory(surname="Bär"), PlayerFactory(surname="Cäsar")
    members_of(here, [a, b])
    members_of(there, [c])
    li = _import(datetime.date(2025, 12, 1))
    _difference(li, b, "chain_parts")
    _difference(li, a, "dsb_extra")
    _difference(li, c, "ours_extra")
    everyone = list(stored_differences(list_import=li))
    assert [d.player.surname for d in everyone] == ["Cäsar", "Adler", "Bär"]  # by cause, then name
    assert [d.player_id for d in stored_differences(list_import=li, club_ids={here.pk})] == [a.pk, b.pk]
    assert [d.player_id for d in stored_differences(list_import=li, cause="chain_parts")] == [b.pk]
    assert [d.player_id for d in stored_differences(list_import=li, club=there)] == [c.pk]
    assert list(stored_differences(list_import=li, club_ids=set())) == []
    assert set(difference_clubs(list_import=li)) == {here, there}
    assert list(difference_clubs(list_import=li, club_ids={there.pk})) == [there]
    assert [i.area_differences for i in compared_imports()] == [3]
    assert [i.area_differences for i in compared_imports(club_ids={here.pk})] == [2]
    assert [i.area_differences for i in compared_imports(club_ids=set())] == [None]


def test_compared_imports_leave_out_dry_runs_and_imports_without_abgleich():
    _import(datetime.date(2025, 12, 1), "ok.zip")
    ListImport.objects.create(
        file_name="dry.zip", status=ListImportStatus.DONE, dry_run=True, summary={"abgleich": {}}
    )
    ListImport.objects.create(file_name="old.zip", status=ListImportStatus.DONE, summary={"rows": 1})
    ListImport.objects.create(file_name="queued.zip")
    assert [i.file_name for i in compared_imports()] == ["ok.zip"]
