"""League rows built directly with the models (the services of issue 29 part 1 are built in parallel).

``small_division``: the hand-computed example of the public pages, API and exports (2 boards, 4 teams,
single round robin, 2/1/0):

    R1 A–B  1-0, ½-½                      1½:½   A wins
    R1 C–D  (C's board 1 empty) -+, 1-0   1:1    draw
    R2 A–C  C did not come (away forfeit)  2:0    A wins
    R2 B–D  0-1, 0-1                       0:2    D wins
    R3 A–D  ½-½, 0-1                       ½:1½   D wins
    R3 B–C  scheduled

    team  played  MP          BP (halves)
    D     3       1+2+2 = 5   2+4+3 = 9  (4½)
    A     3       2+2+0 = 4   3+4+1 = 8  (4)
    C     2       1+0   = 1   2+0   = 2  (1)
    B     2       0+0   = 0   1+0   = 1  (½)

Rated games (both players present, played result): R1 A–B 2, R1 C–D board 2, R2 B–D 2, R3 A–D 2 = 7.
``round_robin_division``: a generated division of any size on existing or new players (query counts, bench).
"""

from __future__ import annotations

import datetime
import itertools
import random
from dataclasses import dataclass, field

from leagues.models import Board, Division, DivisionPart, Match, MatchStatus, Season, Team
from ratings.models import Club, Organisation, Player

D = datetime.date
ROUND_DATES = {1: D(2025, 9, 14), 2: D(2025, 10, 5), 3: D(2025, 10, 26)}


@dataclass
class League:
    division: Division
    teams: dict[str, Team] = field(default_factory=dict)
    players: dict[str, Player] = field(default_factory=dict)
    matches: dict[str, Match] = field(default_factory=dict)


def _organisation() -> Organisation:
    return Organisation.objects.get_or_create(code="C05", defaults={"name": "Bezirk Stuttgart"})[0]


def _player(key: str, surname: str, dwz: int | None, birth_year: int | None = 1980) -> Player:
    return Player.objects.create(
        key=key, surname=surname, first_name="Erik", birth_year=birth_year, dwz=dwz, index=5 if dwz else None
    )


def _board(match: Match, number: int, home: Player | None, away: Player | None, result: str) -> Board:
    return Board.objects.create(match=match, number=number, home_player=home, away_player=away, result=result)


def small_division(*, birth_years: bool = True) -> League:
    organisation = _organisation()
    season = Season.objects.create(
        organisation=organisation, name="2025/26", reference_date=D(2025, 8, 1),
        start_date=D(2025, 9, 1), end_date=D(2026, 4, 30),
    )  # fmt: skip
    division = Division.objects.create(
        season=season, name="Kreisklasse Süd", boards=2, rounds=3, time_control="90/40+30+30s"
    )
    league = League(division)
    for n, (letter, name) in enumerate(
        (("A", "SK Alpha 1"), ("B", "SV Beta 1"), ("C", "SC Gamma 1"), ("D", "SF Delta 1")), start=1
    ):
        club = Club.objects.create(zps=f"C09{n:02d}", name=name[:-2], organisation=organisation)
        league.teams[letter] = Team.objects.create(division=division, club=club, name=name, draw_number=n)
        for b in (1, 2):
            year = 1980 + b if birth_years or letter != "D" else None
            league.players[f"{letter}{b}"] = _player(
                f"L{letter}{b}", f"{name.split()[1]}{b}", 1500 + 100 * b, year
            )
    t, p = league.teams, league.players

    def match(r: int, home: str, away: str, status: str = MatchStatus.PLAYED) -> Match:
        m = Match.objects.create(
            division=division,
            round=r,
            home=t[home],
            away=t[away],
            scheduled_date=ROUND_DATES[r],
            status=status,
        )
        league.matches[f"{r}{home}{away}"] = m
        return m

    m = match(1, "A", "B")
    _board(m, 1, p["A1"], p["B1"], "1-0")
    _board(m, 2, p["A2"], p["B2"], "1/2-1/2")
    m = match(1, "C", "D")
    _board(m, 1, None, p["D1"], "-+")
    _board(m, 2, p["C2"], p["D2"], "1-0")
    match(2, "A", "C", MatchStatus.AWAY_FORFEIT)
    m = match(2, "B", "D")
    _board(m, 1, p["B1"], p["D1"], "0-1")
    _board(m, 2, p["B2"], p["D2"], "0-1")
    m = match(3, "A", "D")
    _board(m, 1, p["A1"], p["D1"], "1/2-1/2")
    _board(m, 2, p["A2"], p["D2"], "0-1")
    match(3, "B", "C", MatchStatus.SCHEDULED)
    DivisionPart.objects.create(division=division, number=1)
    return league


def round_robin_division(
    *, teams: int, boards: int, rounds_played: int | None = None, players: list[Player] | None = None,
    seed: int = 1, name: str = "Bezirksliga",
) -> Division:  # fmt: skip
    """A single round robin of ``teams`` (even) with ``boards`` boards, the first ``rounds_played`` rounds
    played with random results (now and then an empty board), the rest scheduled. ``players`` (enough for
    ``teams × boards``) are used in order, else new players are made."""
    rng = random.Random(seed)
    organisation = _organisation()
    season = Season.objects.create(
        organisation=organisation, name=f"{seed}/{teams}", reference_date=D(2025, 8, 1)
    )
    division = Division.objects.create(season=season, name=name, boards=boards, rounds=teams - 1)
    needed = teams * boards
    pool = list(players or [])[:needed]
    pool += [_player(f"G{seed}-{i}", f"Spieler{i}", 1200 + i % 900) for i in range(len(pool), needed)]
    team_rows = []
    for n in range(teams):
        club = Club.objects.create(
            zps=f"G{seed % 10}{n:03d}", name=f"Verein {seed}-{n}", organisation=organisation
        )
        team_rows.append(
            Team.objects.create(division=division, club=club, name=f"Verein {seed}-{n} 1", draw_number=n + 1)
        )
    roster = {team.pk: pool[i * boards : (i + 1) * boards] for i, team in enumerate(team_rows)}
    played = teams - 1 if rounds_played is None else rounds_played
    ids = list(range(teams))
    board_rows = []
    for r in range(1, teams):
        day = D(2025, 9, 14) + datetime.timedelta(weeks=3 * (r - 1))
        for i in range(teams // 2):
            home, away = team_rows[ids[i]], team_rows[ids[teams - 1 - i]]
            status = MatchStatus.PLAYED if r <= played else MatchStatus.SCHEDULED
            m = Match.objects.create(
                division=division, round=r, home=home, away=away, scheduled_date=day, status=status
            )
            if r > played:
                continue
            for b, (hp, ap) in enumerate(itertools.zip_longest(roster[home.pk], roster[away.pk]), start=1):
                if rng.random() < 0.03:
                    board_rows.append(Board(match=m, number=b, home_player=None, away_player=ap, result="-+"))
                else:
                    result = rng.choice(["1-0", "0-1", "1/2-1/2"])
                    board_rows.append(Board(match=m, number=b, home_player=hp, away_player=ap, result=result))
        ids = [ids[0], ids[-1], *ids[1:-1]]
    Board.objects.bulk_create(board_rows)
    DivisionPart.objects.create(division=division, number=1)
    return division
