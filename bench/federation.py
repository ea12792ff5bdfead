"""Benchmark at federation scale (issue 16): generate a seeded federation, then time the recalculation phases
and the public pages.

    .venv/bin/python bench/federation.py --evaluations 200000     # SQLite: bench/federation.sqlite3
    .venv/bin/python bench/federation.py --evaluations 2000000 \\
        --database-url postgres://postgres@127.0.0.1:5432/dwz_fed2m
    .venv/bin/python bench/federation.py --skip-generate --phases again,late,pages --database-url ...

The federation scales with ``--evaluations`` N: N/20 players (100,000 at 2 M), N/900 clubs in 19
Landesverbände and their Bezirke, over ten years (2017–2026, so both rule editions: tournaments before
and after 2026-06-07). Club championships (round robins of 6–12), opens of 50–300 (Swiss, 5–9 rounds),
league seasons (teams of clubs, 6 or 8 boards, team round robin), clubs' Swiss tournaments; about 35
evaluations and 130 games per tournament. Newcomers join over the years without a rating and earn a first
one; a few start from Elo only; 1.5 % of the games are forfeits, odd Swiss fields get byes, a few foreign
players in opens are not DSB members. Most tournaments carry a DSB code (``YYWW-ZZZ-KKK``), some a portal
UUID, some none. Rows are written with ``ratings.bulk.insert_rows`` (COPY on PostgreSQL):
generation is set-up, not measured, and refuses a database that already has players (``--replace`` empties
it first).

Each phase runs in a child process of this script (``--phase``), so its ``peak_rss_mb`` (``os.wait4``'s
``ru_maxrss`` of that child) is its own, and so is ``cpu_seconds``; one JSON line per phase, with the
1-minute load average of the (shared) machine in ``load`` and the CPU seconds of a fixed pure-Python
workload in ``reference_seconds`` (``reference_seconds()``, after the phase): this machine's speed differs
by up to a factor of two from one boot to the next, so only figures with about the same reference compare.

* ``fresh``: full ``recalculate()`` with no evaluations stored (it removes them first, untimed, so it can run
  again on a generated database);
* ``again``: full ``recalculate()`` again, nothing changed;
* ``late``: a club round robin of 10 ending one year before the newest tournament, saved through
  ``tournament_create`` as an officer would: ``seconds`` is the officer's wait (the configured background
  threshold), ``chain`` the whole chain in the request, ``job`` the background replay (rolled back after
  each, so every run measures the same chain);
* ``verify``: ``ratings_verify()``;
* ``pages``: median time of 5 requests of each page of issue 16 (``django.test.Client`` in-process, DEBUG off)
  and the response size;
* ``league`` (issue 29): the public division page and ``/api/divisions/<id>`` of the largest division, and a
  match report save (the captain's ``match_report_save`` changing one board + the director's
  ``match_approve``: the division's DWZ tournament replaced, the chronological recalculation after it) of a
  match of the latest season and of the season five years back, rolled back after each run; median of 5,
  the ratings side (``dwz_ms``: ``tournament_replace``) and the league side (``league_ms``) apart. The league
  rows of the divisions measured are checked against their tournaments first (all of them up to 200).

The league seasons are league rows as well (issue 29): a ``Season`` per season (``2025/26``) and organiser, a
``Division`` per league tournament with its ``DivisionPart`` linked to it, a ``Team`` per club, the matches
(played and approved, each round on its day: the first on the tournament's start, the last on its end) and
their boards (the tournament's games from the home side, home white on odd boards, forfeits as forfeits),
written with ``insert_rows`` from the same plans and games, so the division's rated games are the
tournament's played games (``league_disagreements``). The rating rows are the same as before for the same
seed.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SQLITE_DEFAULT = f"sqlite:///{ROOT / 'bench' / 'federation.sqlite3'}"
PHASES = ("fresh", "again", "late", "verify", "pages", "league")

FIRST = datetime.date(2017, 1, 1)
LAST = datetime.date(2026, 11, 30)
SPAN = (LAST - FIRST).days
EDITION_CHANGE = datetime.date(2026, 6, 7)
# Landesverband letters valid both as an organisation code and as a ZPS's first character.
LV_CHARS = "123456789ABCDEFGHLM"
DIGITS36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SURNAMES = (  # noqa: SIM905 - a word list reads best as one string
    "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter "
    "Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner "
    "Schmitz Krause Meier Lehmann Schmid Schulze Maier Köhler Herrmann König Walter Mayer Huber Kaiser Fuchs "
    "Peters Lang Scholz Möller Weiß Jung Hahn Schubert Vogel Friedrich Keller Günther Frank Berger Winkler "
    "Roth Beck Lorenz Baumann Franke Albrecht Schuster Simon Ludwig Böhm Winter Kraus Martin Schumacher "
    "Krämer Vogt Stein Jäger Otto Sommer Groß Seidel Heinrich Brandt Haas Schreiber Graf Schulte Dietrich "
    "Ziegler Kuhn Kühn Pohl Engel Horn Busch Bergmann Thomas Voigt Sauer Arnold Wolff Pfeiffer Öztürk Nowak "
    "Kowalski Petrović Yılmaz Dąbrowski Ivanov"
).split()
FIRST_NAMES = (  # noqa: SIM905
    "Peter Michael Thomas Andreas Wolfgang Klaus Jürgen Stefan Frank Uwe Christian Markus Jörg Bernd Ralf "
    "Sven Jan Lukas Felix Jonas Leon Maximilian Paul Elias Noah Ben Finn Tim Niklas Moritz Sabine Petra "
    "Andrea Claudia Monika Susanne Julia Anna Lena Marie Sophie Laura Hannah Lea Emma Mia Jörn Björn Jürgen"
).split()
# One player in eight has a common surname (Zipf-like: Müller about 2 % of all players), the others one of
# some 400 compounds ("Rosenberg", "Obermüller").
NAME_STEMS = "Ober Unter Grün Schön Rosen Linden Eichen Berg Wald Stein Hoch Kalt Born Brück Fried Lieb Kirch Mühl Hof Strauß Wies Acker Dorn Sand".split()  # noqa: E501, SIM905
NAME_ENDS = "mann er berg feld hoff bach dorf hausen ert inger meier müller ke ner stätter huber".split()  # noqa: SIM905
SURNAME_WEIGHTS = list(itertools.accumulate(1 / (i + 1) ** 0.9 for i in range(len(SURNAMES))))


def base36(number: int, width: int) -> str:
    digits = ""
    for _ in range(width):
        number, digit = divmod(number, 36)
        digits = DIGITS36[digit] + digits
    if number:
        raise ValueError(f"{number} does not fit {width} base-36 digits")
    return digits


# --- the federation -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Plan:
    """A tournament before it is written: ids of its players (in start order) and its pairings."""

    pk: int
    kind: str  # rr, club_swiss, open, league:<teams>:<boards>
    start: datetime.date
    end: datetime.date
    organiser: int  # club pk, or organisation pk for opens (negative)
    players: list[int]
    rounds: int
    code: str | None = None
    non_members: set[int] = field(default_factory=set)


@dataclass
class Federation:
    organisations: list[tuple] = field(default_factory=list)  # (pk, code, name, parent pk)
    clubs: list[tuple] = field(default_factory=list)  # (pk, zps, name, organisation pk)
    club_district: dict[int, str] = field(default_factory=dict)  # club pk: district code (the ZZZ of codes)
    players: list[tuple] = field(default_factory=list)  # Player rows (see PLAYER_FIELDS)
    strength: list[int] = field(default_factory=list)  # index = player pk
    joined: list[datetime.date] = field(default_factory=list)  # index = player pk
    club_members: dict[int, list[int]] = field(default_factory=dict)
    memberships: list[tuple] = field(default_factory=list)
    starts: list[tuple] = field(default_factory=list)
    plans: list[Plan] = field(default_factory=list)
    foreign: list[int] = field(default_factory=list)  # non-members (no membership, member=False in opens)


def build(evaluations: int, seed: int) -> Federation:  # noqa: C901, PLR0912, PLR0915 -- existing; issue 27
    """The whole federation except the games (those are drawn per tournament while they are written)."""
    rng = random.Random(seed)
    fed = Federation()
    n_players = max(200, evaluations // 20)
    n_clubs = max(4, round(evaluations / 900))
    n_districts = max(2, round(n_clubs / 16))
    fed.organisations.append((1, "000", "Deutscher Schachbund", None))
    lvs = []
    for i, char in enumerate(LV_CHARS[: max(1, min(len(LV_CHARS), n_districts // 4))]):
        lvs.append((i + 2, f"{char}00", f"Landesverband {char}", 1))
    fed.organisations += lvs
    districts = []
    for i in range(n_districts):
        lv = lvs[i % len(lvs)]
        code = f"{lv[1][0]}{base36(i // len(lvs) + 1, 2)}"
        districts.append((len(fed.organisations) + len(districts) + 1, code, f"Bezirk {code}", lv[0]))
    fed.organisations += districts
    for i in range(n_clubs):
        district = districts[i % len(districts)]
        zps = f"{district[1]}{base36(i // len(districts) + 1, 2)}"
        pk = i + 1
        fed.clubs.append((pk, zps, f"SK {zps} {rng.choice(SURNAMES)}", district[0]))
        fed.club_district[pk] = district[1]
        fed.club_members[pk] = []

    # Club sizes vary (a few big clubs): players go to clubs by a skewed weight.
    club_weights = list(itertools.accumulate(rng.paretovariate(1.6) for _ in range(n_clubs)))
    now = datetime.datetime(2026, 12, 1, 12, tzinfo=datetime.UTC)
    fed.strength = [0]
    fed.joined = [FIRST]
    numbers: dict[int, int] = {}
    for pk in range(1, n_players + 1):
        newcomer = rng.random() < 0.3  # joins during the ten years, without a rating
        joined = FIRST + datetime.timedelta(days=rng.randint(0, SPAN - 60)) if newcomer else FIRST
        birth = rng.randint(2005, 2018) if newcomer and rng.random() < 0.7 else rng.randint(1940, 2008)
        strength = max(500, min(2650, int(rng.gauss(1250 if newcomer else 1600, 300))))
        if rng.random() < 0.125:
            surname = SURNAMES[bisect_left(SURNAME_WEIGHTS, rng.random() * SURNAME_WEIGHTS[-1])]
        else:
            surname = rng.choice(NAME_STEMS) + rng.choice(NAME_ENDS)
        first = rng.choice(FIRST_NAMES)
        foreign = not newcomer and rng.random() < 0.01
        club = 0 if foreign else bisect_left(club_weights, rng.random() * club_weights[-1]) + 1
        if foreign:
            key, dsb_id = f"FIDE-{9000000 + pk}", None
        numbers[club] = number = numbers.get(club, 1000) + 1
        if newcomer and rng.random() < 0.5:  # not yet known to the DSB: keyed by ZPS and member number
            key, dsb_id = f"{fed.clubs[club - 1][1]}-{number}", None
        else:
            key, dsb_id = f"NU{4000000 + pk}", f"NU{4000000 + pk}"
        fide_id = 4600000 + pk if strength > 2000 or foreign else None
        elo = strength + rng.randint(-80, 80) if fide_id else None
        fed.players.append(
            (pk, key, surname, first, rng.choice("mmmmw"), birth, dsb_id, fide_id, elo, "", "", "A", now, now)
        )
        fed.strength.append(strength)
        fed.joined.append(joined)
        if foreign:
            fed.foreign.append(pk)
            fed.starts.append((pk, "start", None, None, None, elo, "", now))  # Elo only
            continue
        fed.club_members[club].append(pk)
        member_number = str(number)
        if not newcomer and rng.random() < 0.1:  # a former club, left before the current one
            old = bisect_left(club_weights, rng.random() * club_weights[-1]) + 1
            if old != club:
                left = FIRST + datetime.timedelta(days=rng.randint(200, SPAN // 2))
                fed.memberships.append((pk, old, "", "A", FIRST - datetime.timedelta(days=3000), left))
                joined_club = left
            else:
                joined_club = None
        else:
            joined_club = joined if newcomer else None
        fed.memberships.append((pk, club, member_number, "A", joined_club, None))
        if not newcomer:
            if rng.random() < 0.01:
                fed.starts.append((pk, "start", None, None, None, strength, "", now))  # Elo only
            else:
                fed.starts.append((pk, "start", None, strength, rng.randint(5, 120), None, "", now))
    _plan_tournaments(fed, evaluations, rng)
    return fed


def _date(rng: random.Random, month_lo: int = 1, month_hi: int = 12) -> datetime.date:
    while True:
        day = FIRST + datetime.timedelta(days=rng.randint(0, SPAN))
        if month_lo <= day.month <= month_hi:
            return day


def _available(fed: Federation, players: list[int], day: datetime.date) -> list[int]:
    return [p for p in players if fed.joined[p] <= day]


def _plan_tournaments(fed: Federation, evaluations: int, rng: random.Random) -> None:
    players = range(1, len(fed.players) + 1)
    # Activity: most players a few tournaments a year, a few play everything (hundreds of evaluations).
    activity = list(itertools.accumulate(rng.lognormvariate(0, 1.1) for _ in players))
    clubs = [c for c in fed.club_members if len(fed.club_members[c]) >= 6]
    club_weights = list(itertools.accumulate(len(fed.club_members[c]) for c in clubs))
    foreign = set(fed.foreign)
    codes: dict[tuple[int, int, str], int] = {}
    made = 0
    while made < evaluations:
        pk = len(fed.plans) + 1
        roll = rng.random()
        if roll < 0.54:  # club championship: a round robin of the club's members
            field = _club_field(fed, rng, clubs, club_weights, activity, 6, 14, least=4)
            if field is None:
                continue
            club, end, group = field
            start = end - datetime.timedelta(days=rng.randint(30, 200))
            plan = Plan(pk, "rr", start, end, club, group, len(group) - 1)
        elif roll < 0.735:  # a club's Swiss tournament (cup, winter tournament), 7 rounds
            field = _club_field(fed, rng, clubs, club_weights, activity, 8, 24, least=6)
            if field is None:
                continue
            club, end, group = field
            start = end - datetime.timedelta(days=rng.randint(1, 90))
            plan = Plan(pk, "club_swiss", start, end, club, group, 7)
        elif roll < 0.89:  # a league season: teams of several clubs
            end = _date(rng, 3, 6)
            plan = _league(fed, pk, end, clubs, club_weights, activity, rng)
            if plan is None:
                continue
        else:  # an open of 50-300 (Swiss), players from everywhere, some foreign non-members
            end = _date(rng)
            size = min(len(fed.players) // 2, int(50 + 250 * rng.random() ** 2.5))
            group = []
            seen: set[int] = set()
            while len(group) < size:
                p = bisect_left(activity, rng.random() * activity[-1]) + 1
                if p not in seen and fed.joined[p] <= end:
                    seen.add(p)
                    group.append(p)
            group.sort(key=lambda p: -fed.strength[p])
            organiser = -int(fed.organisations[rng.randrange(1, len(fed.organisations))][0])
            rounds = rng.choice((7, 9, 9))
            plan = Plan(
                pk, "open", end - datetime.timedelta(days=rng.randint(2, 8)), end, organiser, group, rounds
            )
            plan.non_members = {p for p in group if p in foreign}
        plan.code = _code(fed, plan, rng, codes)
        fed.plans.append(plan)
        made += len(plan.players)


def _club_field(
    fed: Federation, rng: random.Random, clubs, club_weights, activity, lo: int, hi: int, *, least: int
) -> tuple[int, datetime.date, list[int]] | None:
    """A club, an end date and ``lo``–``hi`` of the members who had joined by then (None: under ``least``)."""
    club = clubs[bisect_left(club_weights, rng.random() * club_weights[-1])]
    end = _date(rng)
    pool = _available(fed, fed.club_members[club], end)
    size = min(len(pool), rng.randint(lo, hi))
    if size < least:
        return None
    return club, end, _weighted_sample(rng, pool, size, fed, activity)


def _weighted_sample(rng: random.Random, pool: list[int], size: int, fed: Federation, activity) -> list[int]:
    weights = [activity[p - 1] - (activity[p - 2] if p > 1 else 0) for p in pool]
    keys = sorted(range(len(pool)), key=lambda i: -(rng.random() ** (1 / weights[i])))
    group = [pool[i] for i in keys[:size]]
    rng.shuffle(group)
    return group


def _league(fed: Federation, pk, end, clubs, club_weights, activity, rng: random.Random) -> Plan | None:
    teams = rng.choice((8, 10))
    boards = rng.choice((6, 8))
    if len(clubs) < teams:  # a small federation: too few clubs for this league (the loop below never ends)
        return None
    chosen: list[int] = []
    while len(chosen) < teams:
        club = clubs[bisect_left(club_weights, rng.random() * club_weights[-1])]
        if club not in chosen:
            chosen.append(club)
    rosters = []
    for club in chosen:
        pool = _available(fed, fed.club_members[club], end)
        if len(pool) < boards + 2:
            return None
        roster = _weighted_sample(rng, pool, boards + 2, fed, activity)
        rosters.append(sorted(roster, key=lambda p: -fed.strength[p]))
    players = [p for roster in rosters for p in roster]
    if len(set(players)) != len(players):
        return None
    plan = Plan(pk, "league", end - datetime.timedelta(days=230), end, chosen[0], players, teams - 1)
    plan.organiser = -fed.organisations[rng.randrange(1, len(fed.organisations))][0]
    plan.kind = f"league:{teams}:{boards}"
    return plan


def _code(fed: Federation, plan: Plan, rng: random.Random, codes: dict) -> str | None:
    roll = rng.random()
    if roll < 0.08:
        return None
    if roll < 0.16:
        return str(uuid.UUID(int=rng.getrandbits(128), version=4))
    year, week, _ = plan.end.isocalendar()
    zzz = fed.club_district[plan.organiser] if plan.organiser > 0 else _org_code(fed, -plan.organiser)
    # KKK: a running number per week and organiser (base 36), so codes never collide.
    kkk = codes[year, week, zzz] = codes.get((year, week, zzz), 0) + 1
    return f"{year % 100:02d}{week:02d}-{zzz}-{base36(kkk, 3)}"


def _org_code(fed: Federation, pk: int) -> str:
    return fed.organisations[pk - 1][1]


# --- games --------------------------------------------------------------------------------------------


def _result(rng: random.Random, white: int, black: int) -> str:
    roll = rng.random()
    if roll < 0.015:
        return "+-" if roll < 0.007 else ("-+" if roll < 0.014 else "--")
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    draw = 0.3 * (1 - abs(2 * expected - 1))
    x = rng.random()
    if x < expected - draw / 2:
        return "1-0"
    if x < expected + draw / 2:
        return "1/2-1/2"
    return "0-1"


def games_of(plan: Plan, strength: list[int], seed: int):
    """(round, board, white, black, result) of ``plan``, drawn from its own seed (reproducible alone)."""
    rng = random.Random(seed * 1_000_003 + plan.pk)
    players = plan.players
    if plan.kind == "rr":
        # Berger tables: each player once per round.
        ids = [*players, None] if len(players) % 2 else list(players)
        n = len(ids)
        for rnd in range(1, n):
            for board in range(n // 2):
                a, b = ids[board], ids[n - 1 - board]
                if a is None or b is None:
                    continue
                w, bl = (a, b) if (rnd + board) % 2 else (b, a)
                yield rnd, board + 1, w, bl, _result(rng, strength[w], strength[bl])
            ids = [ids[0], ids[-1], *ids[1:-1]]
        return
    if plan.kind.startswith("league"):
        _, teams, boards = plan.kind.split(":")
        t, b = int(teams), int(boards)
        rosters = [players[i * (b + 2) : (i + 1) * (b + 2)] for i in range(t)]
        order = list(range(t))
        for rnd in range(1, t):
            for m in range(t // 2):
                home, away = order[m], order[t - 1 - m]
                line_h = sorted(rng.sample(rosters[home], b), key=rosters[home].index)
                line_a = sorted(rng.sample(rosters[away], b), key=rosters[away].index)
                for board in range(b):
                    w, bl = (
                        (line_h[board], line_a[board]) if board % 2 == 0 else (line_a[board], line_h[board])
                    )
                    yield rnd, m * b + board + 1, w, bl, _result(rng, strength[w], strength[bl])
            order = [order[0], order[-1], *order[1:-1]]
        return
    # Swiss: pair neighbours by points, then strength; an odd field gives the last one a bye.
    points = dict.fromkeys(players, 0.0)
    met: set[tuple[int, int]] = set()
    for rnd in range(1, plan.rounds + 1):
        order = sorted(players, key=lambda p: (-points[p], -strength[p] + rng.randint(-150, 150)))
        board = 0
        if len(order) % 2:
            bye = order.pop()
            points[bye] += 1
            yield rnd, None, bye, None, "+"
        while order:
            a = order.pop(0)
            k = next((i for i, p in enumerate(order[:8]) if (a, p) not in met), 0)
            bl = order.pop(k)
            met.add((a, bl))
            met.add((bl, a))
            w, bl = (a, bl) if rng.random() < 0.5 else (bl, a)
            result = _result(rng, strength[w], strength[bl])
            points[w] += {"1-0": 1, "+-": 1, "1/2-1/2": 0.5}.get(result, 0)
            points[bl] += {"0-1": 1, "-+": 1, "1/2-1/2": 0.5}.get(result, 0)
            board += 1
            yield rnd, board, w, bl, result


# --- writing --------------------------------------------------------------------------------------------

PLAYER_FIELDS = (
    "id", "key", "surname", "first_name", "sex", "birth_year", "dsb_id", "fide_id", "fide_elo", "fide_title",
    "fide_federation", "status", "created_at", "updated_at",
)  # fmt: skip
TOURNAMENT_FIELDS = (
    "id", "code", "name", "place", "start_date", "end_date", "rounds", "organiser_club",
    "organiser_organisation", "notes", "rated", "tiebreaks", "time_control", "source_digest", "created_at",
    "updated_at", "version", "announced",
)  # fmt: skip
NAMES = {"rr": "Vereinsmeisterschaft", "club_swiss": "Vereinsturnier", "open": "Open"}


def write(fed: Federation, seed: int) -> dict:
    from django.db import connection, transaction

    from leagues.models import Division, Match, Season, Team
    from ratings.bulk import insert_rows
    from ratings.models import (
        Club,
        Game,
        Membership,
        Organisation,
        Player,
        RatingAdjustment,
        Tournament,
        TournamentEntry,
        TournamentEntryMode,
    )
    from ratings.recalculation import add_new_spans

    now = datetime.datetime(2026, 12, 1, 12, tzinfo=datetime.UTC)
    with transaction.atomic():
        insert_rows(Organisation, ("id", "code", "name", "parent"), fed.organisations)
        insert_rows(Club, ("id", "zps", "name", "organisation"), fed.clubs)
        insert_rows(Player, PLAYER_FIELDS, fed.players)
        add_new_spans([row[0] for row in fed.players])  # as a new player gets them (no DWZ yet)
        insert_rows(
            Membership,
            ("player", "club", "member_number", "status", "valid_from", "valid_until"),
            fed.memberships,
        )
        insert_rows(
            RatingAdjustment,
            ("player", "kind", "date", "dwz", "index", "fide_elo", "reason", "created_at"),
            fed.starts,
        )
        insert_rows(
            Tournament,
            TOURNAMENT_FIELDS,
            (
                (p.pk, p.code, f"{NAMES.get(p.kind, 'Liga')} {p.end.year} ({p.pk})", "", p.start, p.end,
                 p.rounds, p.organiser if p.organiser > 0 else None,
                 -p.organiser if p.organiser < 0 else None, "", True, "", "", "", now, now, 1, False)
                for p in fed.plans
            ),
        )  # fmt: skip
        insert_rows(
            TournamentEntryMode,
            ("tournament", "mode"),
            ((p.pk, "rr" if p.kind == "rr" else "swiss") for p in fed.plans),
        )
        insert_rows(
            TournamentEntry,
            ("tournament", "player", "start_rank", "member"),
            (
                (p.pk, player, rank, player not in p.non_members)
                for p in fed.plans
                for rank, player in enumerate(p.players, 1)
            ),
        )
        games = insert_rows(
            Game,
            ("tournament", "round", "board", "white", "black", "result"),
            ((p.pk, *g) for p in fed.plans for g in games_of(p, fed.strength, seed)),
        )
        leagues = write_leagues(fed, seed)
        if connection.vendor == "postgresql":
            from django.core.management.color import no_style

            with connection.cursor() as cursor:
                for sql in connection.ops.sequence_reset_sql(
                    no_style(), [Organisation, Club, Player, Tournament, Season, Division, Team, Match]
                ):
                    cursor.execute(sql)
    return {
        "players": len(fed.players),
        "clubs": len(fed.clubs),
        "organisations": len(fed.organisations),
        "tournaments": len(fed.plans),
        "entries": sum(len(p.players) for p in fed.plans),
        "games": games,
        "newest": max(p.end for p in fed.plans).isoformat(),
        "after_2026_06_07": sum(p.end > EDITION_CHANGE for p in fed.plans),
        **leagues,
    }


# --- league rows (issue 29) -------------------------------------------------------------------------------

FLIP = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2", "+-": "-+", "-+": "+-", "--": "--"}


def round_dates(plan: Plan) -> list[datetime.date]:
    """The day of each round of a league season: the first on its start, the last on its end, evenly
    between (the tournament's dates are the first and the last game day, as the division's)."""
    days = (plan.end - plan.start).days
    return [
        plan.start + datetime.timedelta(days=round(r * days / (plan.rounds - 1))) for r in range(plan.rounds)
    ]


def league_rows(fed: Federation, seed: int) -> dict[str, list[dict]]:
    """The league rows of the generator's league seasons: a Season per season (``2019/20``) and organiser,
    a Division per league tournament with its DivisionPart linked to the tournament, a Team per club,
    its matches (played, approved, on the round's day) and boards (the tournament's games, from the home
    team's side; forfeits as forfeits). Rows as dicts of field values (the other fields: model defaults)."""
    from leagues.core import types as core
    from leagues.core.table import match_score

    club_of = {p: club for club, members in fed.club_members.items() for p in members}
    names = {pk: name for pk, _zps, name, _org in fed.clubs}
    rows: dict[str, list[dict]] = {k: [] for k in ("season", "division", "part", "team", "match", "board")}
    seasons: dict[tuple[int, int], int] = {}
    numbers: dict[tuple[int, int], int] = {}  # (season, club): teams so far (a club's team number)
    approved = datetime.datetime(2026, 12, 1, 12, tzinfo=datetime.UTC)
    for plan in fed.plans:
        if not plan.kind.startswith("league"):
            continue
        _, teams, boards = (int(x) if x.isdigit() else x for x in plan.kind.split(":"))
        year, org = plan.end.year, -plan.organiser
        season = seasons.get((year, org))
        if season is None:
            season = seasons[year, org] = len(seasons) + 1
            rows["season"].append({
                "id": season, "organisation_id": org, "name": f"{year - 1}/{year % 100:02d}",
                "start_date": datetime.date(year - 1, 7, 1), "end_date": datetime.date(year, 6, 30),
                "reference_date": datetime.date(year - 1, 8, 1),
            })  # fmt: skip
        division = len(rows["division"]) + 1
        rows["division"].append({
            "id": division, "season_id": season, "name": f"Liga {plan.pk}", "boards": boards,
            "rounds": plan.rounds,
        })  # fmt: skip
        rows["part"].append({"division_id": division, "number": 1, "tournament_id": plan.pk})
        team_ids = []
        for i in range(teams):
            club = club_of[plan.players[i * (boards + 2)]]
            number = numbers[season, club] = numbers.get((season, club), 0) + 1
            team_ids.append(len(rows["team"]) + 1)
            rows["team"].append({
                "id": team_ids[-1], "division_id": division, "club_id": club, "number": number,
                "draw_number": i + 1, "name": f"{names[club]} {number}",
            })  # fmt: skip
        dates = round_dates(plan)
        games = {(r, board): (w, b, res) for r, board, w, b, res in games_of(plan, fed.strength, seed)}
        order = list(range(teams))
        for rnd in range(1, teams):
            for m in range(teams // 2):
                home, away = order[m], order[teams - 1 - m]
                match = len(rows["match"]) + 1
                core_boards = []
                for board in range(1, boards + 1):
                    white, black, result = games[rnd, m * boards + board]
                    home_player, away_player = (white, black) if board % 2 else (black, white)
                    home_result = result if board % 2 else FLIP[result]
                    rows["board"].append({
                        "match_id": match, "number": board, "home_player_id": home_player,
                        "away_player_id": away_player, "result": home_result,
                    })  # fmt: skip
                    core_boards.append(core.Board(board, str(home_player), str(away_player), home_result))
                score = match_score(
                    core.Match(rnd, "h", "a", dates[rnd - 1], core.MatchStatus.PLAYED, tuple(core_boards)),
                    boards,
                )
                assert score is not None
                rows["match"].append({
                    "id": match, "division_id": division, "round": rnd, "home_id": team_ids[home],
                    "away_id": team_ids[away], "scheduled_date": dates[rnd - 1], "status": "played",
                    "home_board_points_halves": score.home_halves,
                    "away_board_points_halves": score.away_halves,
                    "home_match_points": score.home_match_points,
                    "away_match_points": score.away_match_points,
                    "reported_at": approved, "approved_at": approved,
                })  # fmt: skip
            order = [order[0], order[-1], *order[1:-1]]
    return rows


def insert_dicts(model, rows: list[dict]) -> int:
    """``insert_rows`` of dicts: every concrete field, the ones not given with the model's default."""
    from ratings.bulk import insert_rows

    fields = [
        f for f in model._meta.concrete_fields if not (f.primary_key and rows and f.attname not in rows[0])
    ]
    defaults = {f.attname: f.get_default() for f in fields}
    names = [f.name for f in fields]
    return insert_rows(
        model, names, ([row.get(f.attname, defaults[f.attname]) for f in fields] for row in rows)
    )


def write_leagues(fed: Federation, seed: int) -> dict:
    """The league rows of ``league_rows`` (inside ``write``'s transaction)."""
    from leagues.models import Board, Division, DivisionPart, Match, Season, Team

    rows = league_rows(fed, seed)
    counts = {}
    for key, model in (("season", Season), ("division", Division), ("part", DivisionPart), ("team", Team),
                       ("match", Match), ("board", Board)):  # fmt: skip
        counts[f"league_{key}s"] = insert_dicts(model, rows[key])
    return counts


# --- set-up -----------------------------------------------------------------------------------------------


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "dwzsite.settings"
    os.environ["DJANGO_DEBUG"] = "False"  # DEBUG on logs every query: not what production does
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-not-secret")
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()


def prepare_database(url: str, *, replace: bool) -> None:
    """Create the database if missing (PostgreSQL), empty it with ``--replace``, then migrate."""
    if url.startswith("sqlite"):
        path = Path(url.removeprefix("sqlite:///"))
        if replace and path.exists():
            path.unlink()
    else:
        import psycopg

        base, name = url.rsplit("/", 1)
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if exists and replace:
                conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
                exists = None
            if not exists:
                conn.execute(f'CREATE DATABASE "{name}"')
    setup_django(url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)  # the API's throttle (a database cache), as deployed


# --- phases (each in its own child process) ---------------------------------------------------------------


def phase_fresh() -> dict:
    """A full recalculation with no derived data stored (removed first, not timed)."""
    from django.db import transaction

    from ratings.models import Evaluation, EvaluationDigest, Player, Restpartie

    with transaction.atomic():
        EvaluationDigest.objects.all().delete()
        Restpartie.objects.all().delete()
        Evaluation.objects.all().delete()
        Player.objects.update(dwz=None, index=None, last_evaluated=None)
    return phase_again()


def phase_again() -> dict:
    from ratings.recalculation import recalculate

    server = database_cpu_seconds()
    started = time.perf_counter()
    report = recalculate()
    seconds = time.perf_counter() - started
    db_cpu = database_cpu_seconds(server)
    return {
        "seconds": seconds,
        "evaluations": report.evaluations,
        "reused": report.reused,  # certified by their digest, not evaluated again
        "db_cpu_seconds": db_cpu,
    }


def phase_late() -> dict:
    """A club round robin of 10 ending one year before the newest tournament, saved through
    ``tournament_create`` three times on the same database (each rolled back, so every run measures the same
    chain): ``request`` with the configured background threshold (the officer's wait), ``job`` the background
    replay that save scheduled, run at once in this process, and ``chain`` the whole chain in the request
    (threshold raised). ``seconds`` is the officer's wait; ``evaluations`` and ``tournaments`` the chain's
    reach. Each part reports wall and CPU seconds, its queries and their time; on PostgreSQL the deferred
    foreign-key checks a COMMIT would run are forced inside the timing."""
    from django.db import transaction
    from django.db.models import Count, Max, Q
    from django.test import override_settings

    from ratings.models import Club, Game, Player, RecalculationJob, Tournament, TournamentEntry
    from ratings.services import tournament_create
    from ratings.services.background import job_run

    rng = random.Random(2)
    newest = Tournament.objects.aggregate(d=Max("end_date"))["d"]
    end = newest - datetime.timedelta(days=365)
    # The club with the most rated members (a club championship among regulars).
    club = (
        Club.objects.annotate(n=Count("memberships", filter=Q(memberships__player__dwz__isnull=False)))
        .order_by("-n", "pk")
        .first()
    )
    group = list(
        Player.objects.filter(
            memberships__club=club, memberships__valid_until__isnull=True, dwz__isnull=False
        ).order_by("pk")[:10]
    )
    results = [rng.choice(["1-0", "0-1", "1/2-1/2"]) for _ in range(45)]

    def save() -> object:
        tournament = Tournament(name="Nachtrag (bench)", start_date=end, end_date=end)
        entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(group, 1)]
        pairs = [(r, w, b) for r, round_pairs in enumerate(_berger(group), start=1) for w, b in round_pairs]
        games = [
            Game(round=r, white=w, black=b, result=res) for (r, w, b), res in zip(pairs, results, strict=True)
        ]
        return tournament_create(tournament=tournament, entries=entries, games=games)

    parts: dict[str, dict] = {}
    with transaction.atomic():
        start = transaction.savepoint()
        report, parts["request"] = _measured(save)
        job = RecalculationJob.objects.filter(status="pending").order_by("-pk").first()
        if job is not None:
            _, parts["job"] = _measured(lambda: job_run(job_id=job.pk))
        transaction.savepoint_rollback(start)
        with override_settings(RECALCULATION_BACKGROUND_SECONDS=float("inf")):
            chain, parts["chain"] = _measured(save)
        transaction.set_rollback(True)
    parts["request"].update(tournaments=len(report.tournaments), evaluations=report.evaluations)
    parts["chain"].update(tournaments=len(chain.tournaments), evaluations=chain.evaluations)
    return {
        "seconds": parts["request"]["seconds"],
        "evaluations": chain.evaluations,
        "tournaments": len(chain.tournaments),
        "background": job is not None,
        "end_date": end.isoformat(),
        **parts,
    }


def _measured(work) -> tuple[object, dict]:
    """``work()`` and its wall / CPU seconds, query count and query seconds (``execute_wrapper``: works with
    DEBUG off). On PostgreSQL the deferred constraint checks run before the clock stops."""
    from django.db import connection

    queries = [0, 0.0]

    def count(execute, sql, params, many, context):
        t0 = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            queries[0] += 1
            queries[1] += time.perf_counter() - t0

    started, cpu = time.perf_counter(), time.process_time()
    with connection.execute_wrapper(count):
        result = work()
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    return result, {
        "seconds": round(time.perf_counter() - started, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "queries": queries[0],
        "sql_seconds": round(queries[1], 3),
    }


def _berger(group: list) -> list[list[tuple]]:
    """The pairings of a round robin (Berger tables), one list of (white, black) per round."""
    pairs = []
    ids = list(group)
    n = len(ids)
    for _rnd in range(1, n):
        pairs.append([(ids[b], ids[n - 1 - b]) for b in range(n // 2)])
        ids = [ids[0], ids[-1], *ids[1:-1]]
    return pairs


def phase_verify() -> dict:
    from django.db.models import Count

    from ratings.models import Evaluation
    from ratings.recalculation import ratings_verify

    started = time.perf_counter()
    problems = ratings_verify()
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "evaluations": Evaluation.objects.aggregate(n=Count("pk"))["n"],
            "differences": len(problems), "first": problems[:3]}  # fmt: skip


def page_urls() -> dict[str, str]:
    from django.db.models import Count, Q
    from django.urls import reverse

    from ratings.models import Club, Player, Tournament

    club = (
        Club.objects.annotate(n=Count("memberships", filter=Q(memberships__valid_until__isnull=True)))
        .order_by("-n", "pk")
        .first()
    )
    largest = Tournament.objects.annotate(n=Count("entries")).order_by("-n", "pk").first()
    busiest = Player.objects.annotate(n=Count("evaluations")).order_by("-n", "pk").first()
    assert club and largest and busiest, "an empty database: generate first"
    ranking = reverse("ratings:rating-list")
    return {
        "home": reverse("ratings:home"),
        "tournament_list": reverse("ratings:tournament-list"),
        "club": reverse("ratings:club-detail", args=[club.zps]),
        "rating_list": ranking,
        "rating_list_sorted_page_100": f"{ranking}?sort=name&page=100",
        "search": f"{reverse('ratings:search')}?q=Müller",
        "export_csv": f"{ranking}?_export=csv",
        "export_xlsx": f"{ranking}?_export=xlsx",
        # Issue 30: the same list at a Stichtag (every player's value at the day computed by the database).
        "rating_list_page_50": f"{ranking}?page=50",
        "rating_list_rated": f"{ranking}?mit_dwz=on",
        "rating_list_stichtag": f"{ranking}?stichtag=2021-01-01",
        "rating_list_stichtag_page_50": f"{ranking}?page=50&stichtag=2021-01-01",
        "rating_list_stichtag_page_100": f"{ranking}?sort=name&page=100&stichtag=2021-01-01",
        "rating_list_stichtag_rated": f"{ranking}?mit_dwz=on&stichtag=2021-01-01",
        "rating_list_u20w": f"{ranking}?liste=u20w",
        "rating_list_stichtag_u20w": f"{ranking}?liste=u20w&stichtag=2021-01-01",
        "rating_list_by_last": f"{ranking}?sort=-last_evaluated",
        "rating_list_stichtag_by_last": f"{ranking}?sort=-last_evaluated&stichtag=2021-01-01",
        "club_stichtag": reverse("ratings:club-detail", args=[club.zps]) + "?stichtag=2021-01-01",
        "export_csv_stichtag": f"{ranking}?_export=csv&stichtag=2021-01-01",
        "tournament_largest": reverse("ratings:tournament-detail", args=[largest.pk]),
        "player_busiest": reverse("ratings:player-detail", args=[busiest.key]),
    }


def phase_pages(repeat: int = 5) -> dict:
    import warnings

    from django.db import connection
    from django.test import Client, override_settings

    warnings.filterwarnings("ignore", message="No directory at")  # WhiteNoise: no collectstatic needed here
    if connection.vendor == "postgresql":
        # Planner statistics and visibility maps, as autovacuum keeps them on a live database: a freshly
        # generated (COPY-loaded) one has none, and the planner then scans players for a 300-player
        # tournament; without the visibility map of the player table the list's count and ranks cannot be
        # index-only scans (the rank query took 111 instead of 1.9 ms at 200 k). Untimed.
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("VACUUM (ANALYZE)")
    urls = page_urls()
    pages = {}
    started = time.perf_counter()
    # Plain static storage: the manifest of collectstatic is not needed to time the server's work.
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages):
        client = Client()
        for name, url in urls.items():
            times: list[float] = []
            cpu: list[float] = []
            size = status = 0
            for i in range(repeat):
                if i == 3 and min(times) > 5:  # a page of many seconds: three requests tell enough
                    break
                t0, c0 = time.perf_counter(), time.process_time()
                response = client.get(url)
                body = b"".join(response.streaming_content) if response.streaming else response.content
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                size, status = len(body), response.status_code
            pages[name] = {
                "url": url,
                "ms": round(statistics.median(times) * 1000, 1),
                # This process's CPU (on SQLite the database's too): less noisy on a shared machine.
                "cpu_ms": round(statistics.median(cpu) * 1000, 1),
                "kb": round(size / 1024, 1),
                "status": status,
            }
    return {"seconds": time.perf_counter() - started, "pages": pages}


def league_disagreements(*, divisions) -> list[str]:
    """Divisions whose rated games (``division_rated_games``: the played boards of the approved matches)
    differ from their DWZ tournament's played games (round, white, black, result): empty when the league
    rows and the tournament agree."""
    from leagues.selectors.division_games import division_rated_games
    from ratings.models import Game

    played = ("1-0", "0-1", "1/2-1/2")
    problems = []
    for division in divisions:
        league = sorted(
            (g.round, int(g.white), int(g.black), g.result) for g in division_rated_games(division=division)
        )
        tournament_id = division.parts.get(number=1).tournament_id
        stored = sorted(
            Game.objects.filter(tournament_id=tournament_id, result__in=played).values_list(
                "round", "white_id", "black_id", "result"
            )
        )
        if league != stored:
            problems.append(f"{division.name}: {len(league)} rated games, tournament {len(stored)}")
    return problems


def _league_division(season=None):
    """The largest division (most teams, then boards), of ``season`` if given."""
    from django.db.models import Count

    from leagues.models import Division

    divisions = Division.objects.select_related("season")
    if season is not None:
        divisions = divisions.filter(season__name=season)
    return divisions.annotate(n=Count("teams")).order_by("-n", "-boards", "pk").first()


@contextlib.contextmanager
def _timed(module, name: str):
    """Wall seconds spent in ``module.name`` while the block runs (a list: its one item is set at the end)."""
    original, spent = getattr(module, name), [0.0]

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started

    setattr(module, name, timed)
    try:
        yield spent
    finally:
        setattr(module, name, original)


def _report_save(division, repeat: int, *, staff: bool = False) -> dict:
    """A captain's report changing one board of an approved match of the division's last round, and the
    director's approval (``match_report_save`` + ``match_approve``: the division's tournament re-saved, the
    chronological recalculation after it); each run rolled back to a savepoint. The match is set back to
    reported-not-approved first (untimed): a captain may no longer change an approved report; before the
    first run the division's tournament is synchronised once (untimed: the rows as the product keeps
    them, not as the generator numbered them). ``staff``: the director is an administrator (a correction
    outside the officers' one-year window)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from leagues.models import Match, Team
    from leagues.services import division_tournament
    from leagues.services.matches import BoardReport, match_approve, match_report_save
    from ratings.models import RecalculationJob

    runs: list[dict] = []
    with transaction.atomic():
        user_model = get_user_model()
        captain = user_model.objects.create(username="bench-captain")
        # A correction of a season more than a year back: only an administrator may (WO 6.2 window).
        director = user_model.objects.create(username="bench-director", is_staff=staff)
        match = Match.objects.filter(division=division).order_by("-round", "pk").first()
        assert match is not None
        Team.objects.filter(pk=match.home_id).update(captain=captain)
        type(division).objects.filter(pk=division.pk).update(director=director)
        # The tournament as the product keeps it (untimed): the generator numbers boards and start ranks
        # its own way, which a division's tournament never has after its first approval, so the first
        # save would rewrite every row where the product writes only the board changed.
        jobs = RecalculationJob.objects.values_list("pk", flat=True)
        known = set(jobs)
        division_tournament.division_tournament_sync(division=division)
        RecalculationJob.objects.exclude(pk__in=known).delete()
        flip = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}
        for _ in range(repeat):
            start = transaction.savepoint()
            Match.objects.filter(pk=match.pk).update(approved_at=None, approved_by=None)
            m = Match.objects.select_related("division", "division__season", "home", "away").get(pk=match.pk)
            boards = [
                BoardReport(b.number, b.home_player_id, b.away_player_id, b.result)
                for b in m.boards.order_by("number")
            ]
            changed = next(i for i, b in enumerate(boards) if b.result in flip)
            boards[changed] = BoardReport(
                boards[changed].number, boards[changed].home_player, boards[changed].away_player,
                flip[boards[changed].result],
            )  # fmt: skip

            def save(m=m, boards=boards) -> None:
                match_report_save(match=m, boards=boards, user=captain)
                match_approve(match=m, user=director)

            with _timed(division_tournament, "tournament_replace") as dwz:
                _, part = _measured(save)
            part["dwz_seconds"] = dwz[0]
            part["background"] = RecalculationJob.objects.filter(status="pending").exists()
            runs.append(part)
            transaction.savepoint_rollback(start)
        transaction.set_rollback(True)
    median = statistics.median(r["seconds"] for r in runs)
    return {
        "ms": round(median * 1000, 1),
        "cpu_ms": round(statistics.median(r["cpu_seconds"] for r in runs) * 1000, 1),
        "queries": runs[0]["queries"],
        "sql_ms": round(statistics.median(r["sql_seconds"] for r in runs) * 1000, 1),
        # The ratings side: ``tournament_replace`` of the division's tournament with its recalculation.
        "dwz_ms": round(statistics.median(r["dwz_seconds"] for r in runs) * 1000, 1),
        "league_ms": round(statistics.median(r["seconds"] - r["dwz_seconds"] for r in runs) * 1000, 1),
        "background": runs[0]["background"],
        "division": division.pk,
        "season": division.season.name,
        "match": match.pk,
        "runs_ms": [round(r["seconds"] * 1000) for r in runs],
    }


def _timed_get(client, url: str, repeat: int) -> dict:
    from django.db import connection

    queries = [0]

    def count(execute, sql, params, many, context):
        queries[0] += 1
        return execute(sql, params, many, context)

    times: list[float] = []
    cpu: list[float] = []
    size = status = 0
    for _ in range(repeat):
        queries[0] = 0
        t0, c0 = time.perf_counter(), time.process_time()
        with connection.execute_wrapper(count):
            response = client.get(url)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        size, status = len(response.content), response.status_code
    return {
        "url": url, "ms": round(statistics.median(times) * 1000, 1),
        "cpu_ms": round(statistics.median(cpu) * 1000, 1), "queries": queries[0], "kb": round(size / 1024, 1),
        "status": status,
    }  # fmt: skip


def phase_league(repeat: int = 5) -> dict:
    """Issue 29 at federation scale: the public page and the API of the largest division, and a match report
    save (captain's report + director's approval) in the latest season and in the season five years back
    (the late chain). Median of ``repeat``; the league rows are checked against the tournaments first."""
    import warnings

    from django.db import connection
    from django.test import Client, override_settings
    from django.urls import reverse

    from leagues.models import Division, Season

    warnings.filterwarnings("ignore", message="No directory at")
    if connection.vendor == "postgresql":
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("VACUUM (ANALYZE)")  # as autovacuum would (see phase_pages); untimed
    largest = _league_division()
    assert largest is not None, "no league rows: generate with this version of the bench"
    latest = Season.objects.order_by("-reference_date", "pk").first()
    assert latest is not None
    year = latest.reference_date.year - 5
    early = Season.objects.filter(reference_date__year=year).order_by("pk").first()
    late = _league_division(latest.name)
    back = _league_division(early.name if early else latest.name)
    checked = [largest, late, back]
    if Division.objects.count() <= 200:
        checked = list(Division.objects.all())
    disagreements = league_disagreements(divisions=checked)
    assert not disagreements, disagreements
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    started = time.perf_counter()
    with override_settings(STORAGES=storages):
        client = Client()
        result = {
            "division": largest.pk,
            "division_page": _timed_get(client, reverse("leagues:division", args=[largest.pk]), repeat),
            "division_api": _timed_get(client, f"/api/divisions/{largest.pk}", repeat),
            "report_save_latest": _report_save(late, repeat),
            "report_save_five_years_back": _report_save(back, repeat, staff=True),
        }
    return {"seconds": time.perf_counter() - started, "divisions_checked": len(checked), **result}


PHASE_FUNCTIONS = {
    "fresh": phase_fresh,
    "again": phase_again,
    "late": phase_late,
    "verify": phase_verify,
    "pages": phase_pages,
    "league": phase_league,
}


def run_child(args: argparse.Namespace, phase: str) -> dict:
    command = [sys.executable, __file__, "--phase", phase, "--database-url", args.database_url]
    child = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert child.stdout is not None
    output = child.stdout.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        return {"phase": phase, "error": f"exit status {child.returncode}"}
    line = json.loads(output.decode().strip().splitlines()[-1])
    line["peak_rss_mb"] = round(usage.ru_maxrss / 1024)  # kilobytes on Linux
    # The child's CPU time: on a shared machine less noisy than wall time (PostgreSQL's own not included).
    line["cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 2)
    return line


APP_NAME = f"dwz-bench-{os.getpid()}"  # every connection of a phase's process (libpq's PGAPPNAME)


class ServerCpu:
    """CPU seconds of every PostgreSQL backend of this process, read from ``/proc`` (the server runs on this
    machine): on a shared machine the wall time of a query says little, its CPU time does. A full
    recalculation reads the next window on a second connection, so the backends are found by their
    application name and sampled every 0.2 s by a thread on its own connection; a backend's work after its
    last sample (under 0.2 s) is missed. Parallel workers, autovacuum and the WAL writer are not included.
    """

    def __init__(self, url: str) -> None:
        import threading

        import psycopg

        self.sampler = psycopg.connect(url, autocommit=True, application_name=f"{APP_NAME}-sampler")
        self.baseline: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.lock = threading.Lock()
        self.sample(first=True)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stop.wait(0.2):
            self.sample()

    def sample(self, first: bool = False) -> None:
        pids = [pid for (pid,) in self.sampler.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", [APP_NAME])]  # fmt: skip
        with self.lock:
            for pid in pids:
                try:
                    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
                if pid not in self.baseline:
                    self.baseline[pid] = seconds if first else 0.0  # a new backend: all its work is ours
                self.last[pid] = seconds

    def total(self) -> float:
        self.sample()
        with self.lock:
            return sum(self.last[pid] - self.baseline[pid] for pid in self.last)


METER: ServerCpu | None = None


def database_cpu_seconds(since: float | None = None) -> float | None:
    """CPU seconds of this process's PostgreSQL backends (``ServerCpu``) minus ``since``; None on SQLite."""
    if METER is None:
        return None
    return round(METER.total() - (since or 0), 2)


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def reference_seconds() -> float:
    """CPU seconds of a fixed pure-Python workload (dict stores and integer arithmetic, the best of three):
    the speed of the host the phase ran on."""

    def work() -> int:
        table: dict[int, int] = {}
        total = 0
        for i in range(2_000_000):
            table[i & 1023] = total
            total += i * 3 // 7
        return total

    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return round(best, 3)


def commit() -> str:
    """The commit of the code measured (``+`` if the checkout has uncommitted changes under ratings/)."""
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run(
        [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run([*git, "status", "--porcelain", "ratings"], capture_output=True, text=True).stdout
    return head + ("+" if dirty.strip() else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--evaluations", type=int, default=200_000)
    parser.add_argument("--database-url", default=SQLITE_DEFAULT)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--skip-generate", action="store_true", help="reuse an already generated database (migrated)"
    )
    parser.add_argument("--replace", action="store_true", help="empty the database before generating")
    parser.add_argument("--phases", default=",".join(PHASES), help=f"comma-separated subset of {PHASES}")
    parser.add_argument("--phase", choices=PHASES, help=argparse.SUPPRESS)  # run one phase (child process)
    args = parser.parse_args()

    if args.phase:
        global METER
        os.environ["PGAPPNAME"] = APP_NAME
        setup_django(args.database_url)
        if args.database_url.startswith("postgres"):
            from django.db import connection

            connection.ensure_connection()
            METER = ServerCpu(args.database_url)
        server = database_cpu_seconds()
        result = PHASE_FUNCTIONS[args.phase]()
        if server is not None and "db_cpu_seconds" not in result:
            result["db_cpu_seconds"] = database_cpu_seconds(server)
        line = {"phase": args.phase, **result, "load": load_average(), "commit": commit()}
        line["reference_seconds"] = reference_seconds()
        print(json.dumps(line, default=str), flush=True)
        return

    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    unknown = set(phases) - set(PHASES)
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")
    # Migrate a reused database as well: it may have been generated by an older checkout.
    prepare_database(args.database_url, replace=args.replace and not args.skip_generate)
    if not args.skip_generate:
        from ratings.models import Player

        if Player.objects.exists():
            parser.error("the database has players: use --skip-generate, --replace or another database")
        started = time.perf_counter()
        fed = build(args.evaluations, args.seed)
        built = time.perf_counter() - started
        counts = write(fed, args.seed)
        from django.db import connection

        with connection.cursor() as cursor:
            # Planner statistics, as autovacuum would gather them on a live database: without them
            # PostgreSQL scanned all 7.7 M games for each window of the recalculation.
            cursor.execute("ANALYZE")
        line = {"phase": "generate", "seconds": time.perf_counter() - started, "build_seconds": built}
        line["commit"] = commit()
        print(
            json.dumps({**line, "evaluations": counts["entries"], **counts, "load": load_average()}),
            flush=True,
        )
        del fed
    from django.db import connection

    connection.close()  # the children open their own
    for phase in phases:
        line = run_child(args, phase)
        print(json.dumps(line, default=str), flush=True)


if __name__ == "__main__":
    main()
