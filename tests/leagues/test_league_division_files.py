"""The pure division files (``leagues.formats.division_files``): no Django; the TRF team record's columns;
start numbers team by team; the part filter by date; on the worked example of ``league_example``."""

from __future__ import annotations

import ast
import datetime
import uuid
from pathlib import Path

import leagues.formats
from leagues.core.rated import rated_games
from leagues.formats.division_files import (
    ExportPlayer,
    ExportTeam,
    Head,
    dsb_report,
    games_between,
    start_numbers,
    team_of_players,
    team_record,
    trf_text,
)
from ratings.formats import dsb_xml
from ratings.formats.trf import read_trf
from tests.leagues.league_example import MATCHES, POSTPONED

TEAMS = [
    ExportTeam("C", "SC Gamma 1", "C0503"),
    ExportTeam("A", "SK Alpha 1", "C0501"),
    ExportTeam("B", "SV Beta 1", "C0502"),
    ExportTeam("D", "SF Delta 1", "C0504"),
]


def test_formats_are_pure():
    for path in Path(leagues.formats.__file__).resolve().parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] != "django", path
                assert not node.module.startswith(
                    ("leagues.models", "leagues.selectors", "ratings.models")
                ), path


def test_team_record_columns():
    line = team_record("SK Musterstadt 2", [1, 2, 3, 4, 5, 6, 7, 8])
    assert line[:4] == "013 " and line[4:36].rstrip() == "SK Musterstadt 2"
    assert line[36:40] == "   1" and line[41:45] == "   2" and line[71:75] == "   8"
    assert team_record("x" * 40, [12])[4:36] == "x" * 32


def test_start_numbers_team_by_team():
    games = rated_games(MATCHES)
    numbers = start_numbers(MATCHES, TEAMS, games)
    # C first (the table's order), its players by board; D's players only played D's annulled matches,
    # which are still rated games (WO: every game played counts).
    assert [p for p, _ in sorted(numbers.items(), key=lambda i: i[1])][:4] == ["C1", "C2", "C3", "C4"]
    assert sorted(numbers.values()) == list(range(1, len(numbers) + 1))
    team_of = team_of_players(MATCHES, TEAMS)
    assert team_of["A1"] == "A" and team_of["D4"] == "D"


def test_games_of_a_part_and_both_files():
    games = rated_games(MATCHES)
    late = games_between(games, POSTPONED)
    assert {g.played_on for g in late} == {POSTPONED} and len(late) == 4
    assert len(games_between(games, None, POSTPONED)) == len(games) - 4
    numbers = start_numbers(MATCHES, TEAMS, games)
    players = {p: ExportPlayer(p, f"Spieler{p}", "Max", 1990) for p in numbers}
    team_of = team_of_players(MATCHES, TEAMS)
    head = Head("Bezirksliga", None, None, 6, city="Stuttgart")
    trf = read_trf(
        trf_text(head, teams=TEAMS, players=players, games=games, numbers=numbers, team_of=team_of)
    )
    assert len(trf.rated_games) == len(games)
    header = dsb_xml.Header(
        datetime.datetime(2026, 5, 1, tzinfo=datetime.UTC), "Bezirk", "dwzsite", uuid.uuid4()
    )
    report = dsb_report(
        header=header, head=head, tournament_uuid=uuid.uuid4(), teams=TEAMS, players=players, games=games,
        numbers=numbers, team_of=team_of,
    )  # fmt: skip
    assert report.tournament.type == "TR" and report.tournament.end_date == POSTPONED
    assert {p.club for p in report.players} == {t.name for t in TEAMS}
    assert dsb_xml.parse(dsb_xml.write(report)).games == report.games
