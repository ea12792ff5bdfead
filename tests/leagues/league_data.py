"""Support for the league service tests (not a test module): a generated division in the import contract
and its games actually played, derived by hand from the matches (home has white on odd boards)."""

from __future__ import annotations

import datetime
import random

from ratings.models import Club, Organisation

D = datetime.date
TEAMS = [
    ("T1", "SK Nord 1", "C0501"),
    ("T2", "SF Süd 1", "C0502"),
    ("T3", "SV Ost 1", "C0503"),
    ("T4", "SK Nord 2", "C0501"),
]
BOARDS = 4
# Double round robin of 4 teams: (home, away) per round.
PAIRINGS = [
    [("T1", "T4"), ("T2", "T3")],
    [("T4", "T3"), ("T1", "T2")],
    [("T2", "T4"), ("T3", "T1")],
    [("T4", "T1"), ("T3", "T2")],
    [("T3", "T4"), ("T2", "T1")],
    [("T4", "T2"), ("T1", "T3")],
]
ROUND_DATES = [
    D(2025, 9, 14),
    D(2025, 10, 5),
    D(2025, 11, 2),
    D(2025, 11, 30),
    D(2026, 1, 18),
    D(2026, 2, 15),
]
POSTPONED = D(2026, 3, 22)  # round 3's T3–T1, played after the last round
FLIP = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2"}


def clubs() -> None:
    org = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    for zps, name in (("C0501", "SK Nord"), ("C0502", "SF Süd"), ("C0503", "SV Ost")):
        Club.objects.create(zps=zps, name=name, organisation=org)


def generated_division(seed: int = 7) -> dict:
    """Four teams of six players, four boards, six rounds; round 2's T1–T2 lost by T2 (forfeit), a board
    left empty in round 1, a forfeited board in round 4, round 3's T3–T1 postponed, and in round 5 a board
    played 0-1 but scored 1-0 for the table."""
    rng = random.Random(seed)
    players, teams = [], []
    for t, (tid, name, zps) in enumerate(TEAMS):
        line_up = []
        for k in range(6):
            pid = f"P{t + 1}{k + 1}"
            players.append(
                {
                    "id": pid,
                    "name": f"Spieler{t + 1}{k + 1}, Test",
                    "birth_year": 1970 + k,
                    "dwz": 2000 - 60 * k - 15 * t,
                    "index": 10 + k,
                }
            )
            line_up.append(pid)
        teams.append({"id": tid, "name": name, "club": zps, "line_up": line_up})
    line_ups = {t["id"]: t["line_up"] for t in teams}
    matches = []
    for r, pairs in enumerate(PAIRINGS, start=1):
        for home, away in pairs:
            day = POSTPONED if (r, home) == (3, "T3") else ROUND_DATES[r - 1]
            if (r, home) == (2, "T1"):
                matches.append(
                    {
                        "round": r,
                        "date": day.isoformat(),
                        "home": home,
                        "away": away,
                        "status": "away_forfeit",
                    }
                )
                continue
            boards = []
            for b in range(1, BOARDS + 1):
                h, a = line_ups[home][(b - 1 + r) % 6], line_ups[away][(b - 1 + 2 * r) % 6]
                board = {"board": b, "home": h, "away": a, "result": rng.choice(["1-0", "0-1", "1/2-1/2"])}
                boards.append(board)
            if r == 1 and home == "T2":
                boards[3] = {"board": 4, "home": boards[3]["home"], "away": None, "result": "+-"}
            if r == 4 and home == "T4":
                boards[1]["result"] = "-+"
            if r == 5 and home == "T3":
                boards[0]["result"], boards[0]["rated_result"] = "1-0", "0-1"
            matches.append(
                {
                    "round": r,
                    "date": day.isoformat(),
                    "home": home,
                    "away": away,
                    "status": "played",
                    "boards": boards,
                }
            )
    return {
        "season": {"name": "2025/26", "organisation": "C05", "reference_date": "2025-08-01"},
        "division": {"name": "Bezirksliga Nord", "boards": BOARDS, "rounds": 6, "cycles": 2},
        "players": players,
        "teams": teams,
        "matches": matches,
    }


def played_games(data: dict) -> list[tuple[str, str, str]]:
    """(white, black, result from white's side) of every board actually played, by hand from the data."""
    games = []
    for m in data["matches"]:
        if m["status"] != "played":
            continue
        for b in m["boards"]:
            result = b.get("rated_result") or b["result"]
            if b["home"] is None or b["away"] is None or result not in FLIP:
                continue
            if b["board"] % 2 == 1:
                games.append((b["home"], b["away"], result))
            else:
                games.append((b["away"], b["home"], FLIP[result]))
    return games


def small_league(boards: int = 8) -> dict:
    """Two clubs, one team each with a captain, ranking lists of ten rated players, a director and a
    rating officer, and two rounds scheduled (round 2 a return match 10 weeks after round 1)."""
    from django.contrib.auth import get_user_model

    from leagues.models import Division, Match, RankingEntry, RankingList, Season, Team
    from ratings.enums import AdjustmentKind
    from ratings.models import Membership, Player, RatingAdjustment
    from ratings.services import adjustment_save

    users = get_user_model().objects
    org = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    season = Season.objects.create(organisation=org, name="2025/26", reference_date=D(2025, 8, 1))
    director = users.create_user(username="staffelleiter", password="geheim-123")
    officer = users.create_user(username="referent", password="geheim-123")
    division = Division.objects.create(
        season=season, name="Kreisliga", boards=boards, rounds=2, director=director, rating_officer=officer
    )
    out = {
        "season": season,
        "division": division,
        "director": director,
        "officer": officer,
        "teams": [],
        "players": [],
    }
    for t, (zps, name) in enumerate((("C0501", "SK Nord"), ("C0502", "SF Süd"))):
        club = Club.objects.create(zps=zps, name=name, organisation=org)
        captain = users.create_user(username=f"mf{t + 1}", password="geheim-123")
        team = Team.objects.create(
            division=division, club=club, name=f"{name} 1", captain=captain, draw_number=t + 1
        )
        ranking = RankingList.objects.create(season=season, club=club)
        players = []
        for k in range(10):
            p = Player.objects.create(
                key=f"{zps}-{k + 1}", surname=f"{name.split()[1]}{k + 1}", first_name="Test", birth_year=1980
            )
            Membership.objects.create(player=p, club=club, member_number=str(k + 1))
            adjustment_save(
                adjustment=RatingAdjustment(
                    player=p, kind=AdjustmentKind.START, dwz=2100 - 40 * k - 10 * t, index=20
                )
            )
            RankingEntry.objects.create(
                ranking_list=ranking, player=p, rank=k + 1, team_number=1 if k < boards else None
            )
            players.append(p)
        out["teams"].append(team)
        out["players"].append(players)
        out[f"captain{t + 1}"] = captain
    home, away = out["teams"]
    out["match1"] = Match.objects.create(
        division=division, round=1, home=home, away=away, scheduled_date=D(2025, 10, 5)
    )
    out["match2"] = Match.objects.create(
        division=division, round=2, home=away, away=home, scheduled_date=D(2025, 12, 21)
    )
    return out
