"""Generated data for the Abgleich tests: a small federation whose tournaments are saved through the services,
the DSB's list taken from one state of it (the "DSB world") and the truth about another (ours): for every
player the first tournament where the two chains of evaluations part, read from the stored rows of both."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from ratings.enums import AdjustmentKind
from ratings.models import (
    Evaluation,
    Game,
    OfficialRating,
    Player,
    RatingAdjustment,
    Tournament,
    TournamentEntry,
)
from ratings.services import tournament_delete, tournament_save_results
from tests.builders import player, save_tournament

AS_OF = datetime.date(2025, 12, 1)
FIRST = datetime.date(2025, 1, 5)  # a Sunday: tournament k ends on the Sunday k weeks later
PLAYERS = 16
# Who plays in tournament k (round robins of four): each meets each other player at most once a block.
PLAN = (
    (0, 1, 2, 3),
    (4, 5, 6, 7),
    (8, 9, 10, 11),
    (12, 13, 14, 15),
    (0, 4, 8, 12),
    (1, 5, 9, 13),
    (2, 6, 10, 14),
    (3, 7, 11, 15),
    (0, 5, 10, 15),
    (1, 6, 11, 12),
    (2, 7, 8, 13),
    (3, 4, 9, 14),
)
RESULTS = ("1-0", "0-1", "1/2-1/2")


def block_plan(players: int = 32, rounds: int = 3, seed: int = 11) -> tuple[tuple[int, ...], ...]:
    """A larger federation's plan: in each of ``rounds`` blocks every player plays one round robin of four
    (a random partition), so most players meet a planted change late or never."""
    rng = random.Random(seed)
    plan = []
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        plan.extend(tuple(sorted(order[i : i + 4])) for i in range(0, players, 4))
    return tuple(plan)


def week(day: datetime.date | None) -> str:
    if day is None:
        return ""
    year, number, _ = day.isocalendar()
    return f"{year}{number:02d}"


def name(k: int) -> str:
    return f"T{k:02d}"


@dataclass
class World:
    players: list[Player]
    tournaments: dict[str, Tournament]


def federation(size: int = PLAYERS, seed: int = 7) -> list[Player]:
    rng = random.Random(seed)
    return [
        player(dwz=rng.randint(1300, 2100), index=rng.randint(5, 40), birth_year=rng.randint(1950, 2005))
        for _ in range(size)
    ]


def games_of(members: list[Player], label: str) -> list[tuple[Player, Player, str]]:
    rng = random.Random(label)  # the same results in every world
    return [(a, b, rng.choice(RESULTS)) for i, a in enumerate(members) for b in members[i + 1 :]]


def add(world: World, label: str, members, end: datetime.date) -> Tournament:
    chosen = [world.players[i] for i in members]
    t, _report = save_tournament(chosen, games_of(chosen, label), end=end, name=label)
    world.tournaments[label] = t
    return t


def build(
    *,
    skip: tuple[int, ...] = (),
    extra: dict[str, tuple[tuple[int, ...], datetime.date]] | None = None,
    plan: tuple[tuple[int, ...], ...] = PLAN,
):
    world = World(federation(1 + max(max(m) for m in plan)), {})
    for k, members in enumerate(plan):
        if k not in skip:
            add(world, name(k), members, FIRST + datetime.timedelta(weeks=k))
    for label, (members, end) in (extra or {}).items():
        add(world, label, members, end)
    return world


def chains() -> dict[int, list[tuple[str, datetime.date, int | None, int | None]]]:
    """Every player's rating-setting evaluations in evaluation order: (tournament, end, DWZ, index)."""
    out: dict[int, list] = {}
    rows = Evaluation.objects.setting_rating().in_evaluation_order()
    for pk, label, end, dwz, index in rows.values_list(
        "player_id", "tournament__name", "end_date", "dwz_new", "index_new"
    ):
        out.setdefault(pk, []).append((label, end, dwz, index))
    return out


def publish(as_of: datetime.date = AS_OF) -> dict[int, list]:
    """The DSB's list of this state (every player's DWZ, index and week of his last evaluation) stored as
    ``OfficialRating`` rows; returns the chains it came from."""
    history = chains()
    starts = {
        a.player_id: (a.dwz, a.index) for a in RatingAdjustment.objects.filter(kind=AdjustmentKind.START)
    }
    for p in Player.objects.all():
        last = history.get(p.pk, [])
        done = [row for row in last if row[1] <= as_of]
        dwz, index = (done[-1][2], done[-1][3]) if done else starts.get(p.pk, (None, None))
        OfficialRating.objects.create(
            player=p,
            as_of=as_of,
            dwz=dwz,
            index=index,
            last_evaluation=week(done[-1][1]) if done else "",
        )
    return history


def flip(tournament: Tournament, white: Player, black: Player) -> None:
    """Change one game's result (a win for the other side; a draw becomes a white win)."""
    games = []
    for g in tournament.games.all():
        result = g.result
        if {g.white_id, g.black_id} == {white.pk, black.pk}:
            result = {"1-0": "0-1", "0-1": "1-0"}.get(result, "1-0")
        games.append(Game(round=g.round, white_id=g.white_id, black_id=g.black_id, result=result))
    entries = [
        TournamentEntry(
            player_id=e.player_id, start_rank=e.start_rank, member=e.member, file_rank=e.file_rank
        )
        for e in tournament.entries.all()
    ]
    tournament_save_results(tournament=tournament, entries=entries, games=games)


def remove(tournament: Tournament) -> None:
    tournament_delete(tournament=tournament)


def parting(dsb: dict[int, list], ours: dict[int, list], pk: int, end: datetime.date) -> str | None:
    """The truth: the first of his tournaments (ours, up to ``end``) that the DSB lacks or evaluated with
    another result; None if ours agree with the DSB's up to there."""
    theirs = {label: (dwz, index) for label, _end, dwz, index in dsb.get(pk, [])}
    for label, day, dwz, index in ours.get(pk, []):
        if day > end:
            break
        if theirs.get(label) != (dwz, index):
            return label
    return None


def differing_tournaments(dsb: dict[int, list], ours: dict[int, list], windows: dict[int, datetime.date]):
    """The truth per tournament of ours: the labels where some listed player's evaluation (in his window)
    differs from the DSB's, and the labels covered by some listed player."""
    theirs = {(pk, label): (dwz, index) for pk, rows in dsb.items() for label, _e, dwz, index in rows}
    differs, covered = set(), set()
    for pk, rows in ours.items():
        for label, day, dwz, index in rows:
            if pk not in windows or day > windows[pk]:
                continue
            covered.add(label)
            if theirs.get((pk, label)) != (dwz, index):
                differs.add(label)
    return differs, covered


def divergence(dsb: dict[int, list], ours: dict[int, list], pk: int) -> tuple[datetime.date, str] | None:
    """The truth in both directions: the first event (end date, tournament) of either chain that the other
    lacks or has with another result."""
    mine = {label: (dwz, index) for label, _end, dwz, index in ours.get(pk, [])}
    theirs = {label: (dwz, index) for label, _end, dwz, index in dsb.get(pk, [])}
    events = [
        (end, label) for label, end, dwz, index in ours.get(pk, []) if theirs.get(label) != (dwz, index)
    ]
    events += [(end, label) for label, end, _dwz, _index in dsb.get(pk, []) if label not in mine]
    return min(events, default=None)


def explained(dsb: dict[int, list], ours: dict[int, list], pk: int, label: str, end: datetime.date) -> bool:
    """Whether naming ``label`` for him is sound: it is where his chain parts, or an earlier tournament of
    his where a co-participant's chain had already parted (the input differed; only rounding kept his
    result the same)."""
    if label == parting(dsb, ours, pk, end):
        return True
    day = next(day for name_, day, _d, _i in ours[pk] if name_ == label)
    others = [q for q, rows in ours.items() if q != pk and any(row[0] == label for row in rows)]
    return any((d := divergence(dsb, ours, q)) is not None and d[0] < day for q in others)
