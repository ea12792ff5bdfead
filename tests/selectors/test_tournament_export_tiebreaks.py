"""The tie-breaks and final ranks a TRF file supplies: stored on import, used for the placing, exported."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from ratings.formats.trf import read_trf
from ratings.selectors.tournament_export import tournament_standings, trf_export
from ratings.selectors.trf_import import decisions_from_matches, head_from_file, trf_match, trf_read
from ratings.services.trf_import import trf_save

pytestmark = pytest.mark.django_db

KARL_MALA = Path(__file__).resolve().parents[1] / "data" / "trf" / "fide-example1-karl-mala-2005.trf"


def _import(data: bytes):
    t = trf_read(data)
    decisions = decisions_from_matches(trf_match(t), create_unknown=True)
    return t, trf_save(tournament=t, head=head_from_file(t), decisions=decisions).tournament


def _with_head_line(line: str) -> bytes:
    """The real file with one more head record before the player lines."""
    data = KARL_MALA.read_bytes()
    at = data.index(b"\n001 ") + 1
    return data[:at] + line.encode() + b"\r\n" + data[at:]


def test_file_ranks_are_stored_and_shown(client):
    t, tournament = _import(KARL_MALA.read_bytes())
    assert tournament.tiebreaks == ""  # the 2005 file names none: Buchholz and Sonneborn-Berger
    stored = dict(tournament.entries.values_list("start_rank", "file_rank"))
    assert stored == {p.start_rank: (p.rank or None) for p in t.players}
    assert sum(rank is not None for rank in stored.values()) > 250
    page = client.get(reverse("ratings:tournament-detail", args=[tournament.pk])).content.decode()
    assert "Rang laut Datei" in page and "Buchholz und Sonneborn-Berger" in page
    standings, _numbers = tournament_standings(tournament)
    assert [tb.code for tb in standings.tiebreaks] == ["BH", "SB"]


def test_file_tiebreaks_decide_the_placing_and_are_exported(client):
    _t, tournament = _import(_with_head_line("202 BH/C1,BH,SB"))
    assert tournament.tiebreak_codes == ["BH/C1", "BH", "SB"]
    standings, _numbers = tournament_standings(tournament)
    assert [tb.code for tb in standings.tiebreaks] == ["BH/C1", "BH", "SB"]
    assert standings.ignored == ()
    page = client.get(reverse("ratings:tournament-detail", args=[tournament.pk])).content.decode()
    assert "die die Turnierdatei nennt" in page
    assert ">BH/C1</abbr>" in page and ">BH</abbr>" in page
    # The export names the same tie-breaks; reading it back gives the same codes.
    exported = read_trf(trf_export(tournament=tournament).encode())
    assert exported.head.tiebreaks == ["BH/C1", "BH", "SB"]


def test_standings_record_212_without_points_and_unknown_codes(client):
    _t, tournament = _import(_with_head_line("212 PTS,XYZ,SB"))
    assert tournament.tiebreaks == "XYZ,SB"
    standings, _numbers = tournament_standings(tournament)
    assert [tb.code for tb in standings.tiebreaks] == ["SB"] and standings.ignored == ("XYZ",)
    page = client.get(reverse("ratings:tournament-detail", args=[tournament.pk])).content.decode()
    assert "Nicht berechnet (unbekannte Feinwertung der Datei): XYZ." in page


def test_placing_against_the_file_ranks():
    """How close the computed placing (BH, SB) is to the ranks the pairing program wrote (a figure, not a
    rule: the 2005 program's tie-breaks are unknown); by points the two agree."""
    _t, tournament = _import(KARL_MALA.read_bytes())
    standings, numbers = tournament_standings(tournament)
    by_number = standings.by_player()
    file_rank = dict(tournament.entries.values_list("player_id", "file_rank"))
    same = sum(1 for pk, n in numbers.items() if file_rank[pk] and by_number[n].rank == file_rank[pk])
    points_rank_ok = all(
        by_number[numbers[a]].points >= by_number[numbers[b]].points
        for a, ra in file_rank.items()
        for b, rb in file_rank.items()
        if ra and rb and ra < rb and by_number[numbers[a]].points != by_number[numbers[b]].points
    )
    assert points_rank_ok  # the file ranks by points first, as the page does
    ranked = sum(1 for r in file_rank.values() if r)
    print(f"karl-mala: {same} of {ranked} computed places equal the file's rank")
