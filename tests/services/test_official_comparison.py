"""The Abgleich stored with a list import (issue 28 §3): its differences with their causes and tournaments,
the verdicts of the tournaments the list's players reach, the counts on the import's report; the background
import and the command both store it after the import's commit."""

from __future__ import annotations

import dataclasses
import datetime
import io
import random
import uuid

import pytest
from django.core.management import call_command

from ratings.models import (
    AuditEvent,
    DifferenceCause,
    ListImport,
    ListImportStatus,
    OfficialDifference,
    OfficialVerdict,
    Player,
    Tournament,
    TournamentSubmission,
    VerdictState,
)
from ratings.models.audit import AuditAction
from ratings.services.dsb_list import list_import_run
from ratings.services.official_comparison import abgleich_line, official_comparison_store
from tests.builders import round_robin, save_tournament
from tests.dsb_lists import generate
from tests.official_planted import plant, store

pytestmark = pytest.mark.django_db


def test_the_three_planted_causes_are_stored_with_their_tournaments_and_counts():
    planted = plant()
    counts = store(planted)
    rows = {d.player_id: d for d in OfficialDifference.objects.filter(list_import=planted.list_import)}
    missing = planted.world.tournaments[planted.missing]
    for p in missing.entries.values_list("player_id", flat=True):
        assert rows[p].cause == DifferenceCause.OURS_EXTRA
        assert rows[p].tournaments == [
            {"id": missing.pk, "name": "T12", "code": "", "date": missing.end_date.isoformat()}
        ]
        assert rows[p].our_index == rows[p].official_index + 1
        assert "nicht ausgewertet" in rows[p].message
    for p in planted.dsb_only:
        assert rows[p.pk].cause == DifferenceCause.DSB_EXTRA and rows[p.pk].tournaments == []
        assert rows[p.pk].official_index == rows[p.pk].our_index + 1
    for p in planted.pair:
        assert rows[p.pk].cause == DifferenceCause.CHAIN_PARTS
        assert [t["name"] for t in rows[p.pk].tournaments] == ["T02"]
    assert counts["differences"] == len(rows)
    assert counts["ours_extra"] == 4 and counts["dsb_extra"] == 4
    assert counts["chain_parts"] == len(rows) - 8
    assert counts["compared"] == 32
    assert abgleich_line(counts=counts) == (
        f"Abgleich: {len(rows)} Abweichungen (4 hier mehr, 4 beim DSB mehr, {len(rows) - 8} Kette)"
    )


def test_the_verdicts_of_the_tournaments_the_list_reaches_are_stored():
    planted = plant()
    counts = store(planted)
    verdicts = {v.tournament.name: v for v in OfficialVerdict.objects.select_related("tournament")}
    assert set(verdicts) == set(planted.world.tournaments)  # every tournament of ours lies in the list
    assert verdicts["T12"].state == VerdictState.DIFFERS
    assert {d["cause"] for d in verdicts["T12"].differences} >= {"ours_extra"}
    assert verdicts["T02"].state == VerdictState.DIFFERS
    pair = {p.key for p in planted.pair}
    assert pair <= {d["key"] for d in verdicts["T02"].differences}
    assert verdicts["T00"].state == VerdictState.CONFIRMED  # before every planted change, nobody of it
    assert sum(counts["tournaments"].values()) == len(verdicts)
    assert counts["tournaments"]["differs"] == sum(v.state == "differs" for v in verdicts.values())


def test_storing_again_replaces_the_rows_of_that_import():
    planted = plant()
    first = store(planted)
    again = official_comparison_store(list_import=planted.list_import)
    assert again == first
    assert OfficialDifference.objects.count() == first["differences"]
    assert OfficialVerdict.objects.count() == sum(first["tournaments"].values())


def _list_without_weeks(rows: int = 60, seed: int = 5):
    """A generated list whose players give no week of their last evaluation: each is compared as of the
    list's date."""
    generated = generate(rows, seed=seed)
    generated.players = [dataclasses.replace(r, last_evaluation="") for r in generated.players]
    return generated.zip_bytes()


def _run(data: bytes, as_of: datetime.date, **kwargs) -> ListImport:
    list_import = ListImport.objects.create(
        file_name="LV-0-csv.zip", data=data, as_of=as_of, total=7, **kwargs
    )
    return list_import_run(list_import=list_import)


def test_the_background_import_stores_the_abgleich_after_the_list():
    """A first list gives start values (nothing differs); a tournament of four of its players follows; the
    next list, without it, finds the four with a lower DSB index and names the tournament."""
    data = _list_without_weeks()
    first = _run(data, datetime.date(2025, 1, 1))
    assert first.status == ListImportStatus.DONE
    assert first.summary["abgleich"]["differences"] == 0
    assert first.summary["abgleich"]["compared"] == Player.objects.count()
    four = list(Player.objects.filter(dwz__isnull=False).order_by("pk")[:4])
    t, _report = save_tournament(
        four, round_robin(four, random.Random(2)), end=datetime.date(2025, 2, 2), name="Stadtmeisterschaft"
    )
    second = _run(data, datetime.date(2025, 3, 1))
    counts = second.summary["abgleich"]
    assert (counts["differences"], counts["ours_extra"], counts["dsb_extra"], counts["chain_parts"]) == (
        4,
        4,
        0,
        0,
    )
    rows = OfficialDifference.objects.filter(list_import=second)
    assert {d.player_id for d in rows} == {p.pk for p in four}
    assert {d.tournaments[0]["name"] for d in rows} == {"Stadtmeisterschaft"}
    verdict = OfficialVerdict.objects.get(list_import=second, tournament=t)
    assert verdict.state == VerdictState.DIFFERS and len(verdict.differences) == 4
    assert not OfficialDifference.objects.filter(list_import=first).exists()


def test_a_dry_run_stores_no_abgleich():
    dry = _run(_list_without_weeks(), datetime.date(2025, 1, 1), dry_run=True)
    assert dry.status == ListImportStatus.DONE and "abgleich" not in dry.summary
    assert not OfficialDifference.objects.exists() and not OfficialVerdict.objects.exists()


def test_a_failed_comparison_leaves_the_import_done_with_the_error(monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("kaputt")

    monkeypatch.setattr("ratings.services.dsb_list.official_comparison_store", broken)
    done = _run(_list_without_weeks(), datetime.date(2025, 1, 1))
    assert done.status == ListImportStatus.DONE and done.exit_code is not None
    assert done.summary["abgleich"] == {"error": "RuntimeError: kaputt"}
    assert Player.objects.exists()


def test_the_command_records_the_import_and_prints_the_count(tmp_path):
    path = tmp_path / "LV-0-csv.zip"
    path.write_bytes(_list_without_weeks())
    out = io.StringIO()
    call_command("import_dsb_list", str(path), "--as-of", "2025-01-01", stdout=out)
    assert "Abgleich: 0 Abweichungen (0 hier mehr, 0 beim DSB mehr, 0 Kette)" in out.getvalue()
    recorded = ListImport.objects.get()
    assert (recorded.file_name, recorded.as_of, recorded.status) == (
        "LV-0-csv.zip",
        datetime.date(2025, 1, 1),
        ListImportStatus.DONE,
    )
    assert recorded.summary["abgleich"]["compared"] == Player.objects.count()
    assert recorded.report and recorded.data is None


def test_the_commands_dry_run_records_nothing(tmp_path):
    path = tmp_path / "LV-0-csv.zip"
    path.write_bytes(_list_without_weeks())
    out = io.StringIO()
    call_command("import_dsb_list", str(path), "--dry-run", stdout=out)
    assert "Abgleich" not in out.getvalue()
    assert not ListImport.objects.exists()


def test_a_submitted_tournament_judged_by_a_later_list_gets_an_audit_row_once():
    """§2: "Audit trail entries for each state change" — the Abgleich moves a tournament submitted before the
    list's date to "bestätigt" or "abweichend"; storing the same verdicts again records nothing more, and a
    tournament never submitted has no state to change."""
    planted = plant()
    confirmed, differs = (Tournament.objects.get(name=name) for name in ("T00", "T12"))
    for t in (confirmed, differs):
        TournamentSubmission.objects.create(tournament=t, file_uuid=uuid.uuid4(), digest="0" * 64)
    day_before = datetime.datetime.combine(
        planted.list_import.as_of - datetime.timedelta(days=1), datetime.time(12), tzinfo=datetime.UTC
    )
    TournamentSubmission.objects.update(submitted_at=day_before)
    store(planted)
    rows = {
        (e.tournament_ref, e.action) for e in AuditEvent.objects.filter(action__in=["confirm", "deviate"])
    }
    assert rows == {(confirmed.pk, AuditAction.CONFIRM), (differs.pk, AuditAction.DEVIATE)}
    official_comparison_store(list_import=planted.list_import)
    assert AuditEvent.objects.filter(action__in=["confirm", "deviate"]).count() == 2
