"""Live preview of a tournament's DWZ changes on unsaved data. Writes nothing and takes no lock: the later
tournaments a save or delete re-evaluates come from the recalculation's reach (``reach_of_save``,
``reach_of_delete``), the figures its report will give.

The engine input is the officer's unsaved participants and games plus each player's rating state just before
this tournament in the spec §9 order, read from the stored evaluations, dated adjustments, start values and
Restpartien (the same data the recalculation replays).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction

from ratings.dwz import evaluate, sets_rating
from ratings.dwz.replay import OrderKey, PlayerState, adjustment_order, tournament_order
from ratings.dwz.types import GameInput, PlayerInput, PlayerResult, RestpartieValue, TournamentInput
from ratings.enums import PAIRING_RESULTS, AdjustmentKind
from ratings.models.adjustment import RatingAdjustment
from ratings.models.evaluation import Evaluation, Restpartie
from ratings.models.player import Player
from ratings.models.tournament import Game, Tournament, TournamentEntry
from ratings.recalculation import reach_of_delete, reach_of_save
from ratings.tournament_checks import TournamentGone, games_validate

THOUSAND = Decimal(1000)


def _order_of(tournament: Tournament) -> OrderKey:
    return tournament_order(tournament.end_date, tournament.code, tournament.pk or 10**18)


def _stored_order(end: datetime.date, code: str | None, tid: int) -> OrderKey:
    return tournament_order(end, code, tid)


def rating_states_before(*, tournament: Tournament, player_ids: Iterable[int]) -> dict[int, PlayerState]:
    """Each player's DWZ, index, FIDE start value and Restpartien just before ``tournament`` (spec §9)."""
    ids = set(player_ids)
    before = _order_of(tournament)
    last: dict[int, tuple[OrderKey, int | None, int | None]] = {}
    rows = Evaluation.objects.filter(player_id__in=ids, end_date__lte=tournament.end_date).values_list(
        "player_id", "tournament_id", "tournament__code", "end_date", "status", "n", "dwz_new", "index_new"
    )
    for player_id, tid, code, end, status, n, dwz, index in rows:
        if tid == tournament.pk:
            continue
        order = _stored_order(end, code, tid)
        if (
            sets_rating(status, n)
            and order < before
            and (player_id not in last or order > last[player_id][0])
        ):
            last[player_id] = (order, dwz, index)
    adjustments = RatingAdjustment.objects.filter(
        player_id__in=ids, date__isnull=False, date__lte=tournament.end_date
    ).values_list("pk", "player_id", "date", "dwz", "index")
    for pk, player_id, date, dwz, index in adjustments:
        assert date is not None  # filtered above
        order = adjustment_order(date, pk)
        if order < before and (player_id not in last or order > last[player_id][0]):
            last[player_id] = (order, dwz, index)
    starts = {
        player_id: (dwz, index, fide)
        for player_id, dwz, index, fide in RatingAdjustment.objects.filter(
            player_id__in=ids, kind=AdjustmentKind.START
        ).values_list("player_id", "dwz", "index", "fide_elo")
    }
    states: dict[int, PlayerState] = {}
    for pk in ids:
        start_dwz, start_index, fide = starts.get(pk, (None, None, None))
        if pk in last:
            _order, dwz, index = last[pk]
        else:
            dwz, index = start_dwz, (start_index or 0) if start_dwz is not None else None
        states[pk] = PlayerState(dwz, index, fide)
    unrated = [pk for pk, s in states.items() if s.dwz is None and s.fide_elo is None]
    if unrated:
        found: dict[int, list[tuple[OrderKey, int, RestpartieValue]]] = defaultdict(list)
        oldest = datetime.date(max(tournament.end_date.year - 2, 1), 1, 1)
        stored = Restpartie.objects.filter(
            player_id__in=unrated, end_date__gte=oldest, end_date__lte=tournament.end_date
        ).values_list(
            "player_id", "tournament_id", "tournament__code", "seq", "opponent_rating", "score", "end_date"
        )
        for player_id, tid, code, seq, opp, score, end in stored:
            order = _stored_order(end, code, tid)
            if order < before:
                found[player_id].append((order, seq, RestpartieValue(opp, int(score * THOUSAND), end)))
        for pk, items in found.items():
            s = states[pk]
            states[pk] = PlayerState(s.dwz, s.index, s.fide_elo, tuple(rp for *_k, rp in sorted(items)))
    return states


def later_tournaments(*, tournament: Tournament, player_ids: Iterable[int]) -> list[int]:
    """Rated tournaments after ``tournament`` in the §9 order that share a player with it, transitively
    (a later tournament of a player whose DWZ may change changes its other players' DWZ too): exactly the
    tournaments a save re-evaluates at most."""
    before = _order_of(tournament)
    candidates = sorted(
        (
            (_stored_order(end, code, pk), pk)
            for pk, end, code in Tournament.objects.filter(rated=True, end_date__gte=tournament.end_date)
            .exclude(pk=tournament.pk)
            .values_list("pk", "end_date", "code")
        ),
    )
    candidates = [(order, pk) for order, pk in candidates if order > before]
    if not candidates:
        return []
    players: dict[int, set[int]] = defaultdict(set)
    for tid, player_id in TournamentEntry.objects.filter(
        tournament_id__in=[pk for _o, pk in candidates]
    ).values_list("tournament_id", "player_id"):
        players[tid].add(player_id)
    reached = set(player_ids)
    out = []
    for _order, pk in candidates:
        if players[pk] & reached:
            out.append(pk)
            reached |= players[pk]
    return out


@contextmanager
def _snapshot() -> Iterator[None]:
    """The reads inside see one state of the database: a save or delete committing meanwhile lies wholly
    before or after them (PostgreSQL's REPEATABLE READ, also READ ONLY: the database refuses any write).
    Only as the outermost transaction, where that can still be set; SQLite gets none (its transactions
    here are IMMEDIATE: they would queue behind every rating write; see ``_gone_meanwhile``)."""
    connection = transaction.get_connection()
    if connection.in_atomic_block:  # a savepoint: a failed read leaves the caller's transaction usable
        with transaction.atomic():
            yield
    elif connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
    else:
        yield


def _stored_head(tournament: Tournament) -> Tournament:
    """The stored head (only the rows are previewed); ``TournamentGone`` if it was deleted meanwhile."""
    head = Tournament.objects.filter(pk=tournament.pk).first()
    if head is None:
        raise TournamentGone(tournament.pk)
    return head


def _gone_meanwhile(tournament: Tournament) -> bool:
    """Without a snapshot a delete committing while the reach is read may leave it inconsistent reads:
    whatever they raised, the answer is that the tournament is gone."""
    return not Tournament.objects.filter(pk=tournament.pk).exists()


def later_after_save(
    *, tournament: Tournament, players: Sequence[Player], games: Sequence, non_members: Collection[int] = ()
) -> tuple[list[int], bool] | None:
    """The later tournaments saving these participants and games re-evaluates in the request, exactly as the
    report will list them, and whether the save leaves the rest of its chain to the background (then the
    list is not all it reaches): ``reach_of_save``, which writes nothing and takes no lock. None if the
    save would be refused or the tournament is not stored yet; ``TournamentGone`` if it was deleted."""
    if tournament.pk is None:
        return None
    entries = [
        TournamentEntry(player_id=p.pk, start_rank=i, member=p.pk not in non_members)
        for i, p in enumerate(players, start=1)
    ]
    rows = [
        Game(round=g.round, board=g.board, white_id=g.white_id, black_id=g.black_id, result=str(g.result))
        for g in games
    ]
    try:
        games_validate(entered=[p.pk for p in players], games=rows)
    except ValidationError:
        return None
    try:
        with _snapshot():
            reach = reach_of_save(tournament=_stored_head(tournament), entries=entries, games=rows)
    except Exception:
        if _gone_meanwhile(tournament):
            raise TournamentGone(tournament.pk) from None
        raise
    return reach.tournaments, reach.background


def later_after_delete(*, tournament: Tournament) -> tuple[list[int], bool]:
    """The tournaments deleting ``tournament`` re-evaluates in the request, exactly as the report will list
    them, and whether the delete leaves the rest of its chain to the background: ``reach_of_delete``,
    which writes nothing and takes no lock. ``TournamentGone`` if it was deleted meanwhile."""
    try:
        with _snapshot():
            reach = reach_of_delete(tournament=_stored_head(tournament))
    except Exception:
        if _gone_meanwhile(tournament):
            raise TournamentGone(tournament.pk) from None
        raise
    return reach.tournaments, reach.background


@dataclass
class PreviewRow:
    player: Player
    result: PlayerResult

    @property
    def points(self) -> Decimal:
        return Decimal(self.result.points) / THOUSAND

    @property
    def expected(self) -> Decimal | None:
        return None if self.result.expected is None else Decimal(self.result.expected) / THOUSAND

    @property
    def change(self) -> int | None:
        r = self.result
        if r.dwz_new is None or r.dwz_old is None:
            return None
        return r.dwz_new - r.dwz_old


@dataclass
class Preview:
    edition: str
    rows: list[PreviewRow] = field(default_factory=list)
    later: list[int] = field(default_factory=list)
    rated: bool = True
    # Saving evaluates this tournament at once and leaves the rest of the chain to a background job: ``later``
    # then holds only what the request re-evaluates.
    background: bool = False


def preview_tournament(
    *, tournament: Tournament, players: Sequence[Player], games: Sequence, non_members: Collection[int] = ()
) -> Preview:
    """Evaluate the unsaved ``players`` / ``games`` (objects with white_id, black_id, result) as they would be
    evaluated at ``tournament``'s place in the order; count the later tournaments a save re-evaluates.
    ``non_members``: player ids entered as not members of a DSB club (WO 3.4.3)."""
    ids = [p.pk for p in players]
    states = rating_states_before(tournament=tournament, player_ids=ids)
    inputs = []
    for p in players:
        s = states.get(p.pk) or PlayerState()
        member = p.pk not in non_members
        if s.dwz is not None:
            inputs.append(PlayerInput(str(p.pk), p.birth_year, s.dwz, s.index or 0, member=member))
        elif s.fide_elo is not None:
            inputs.append(PlayerInput(str(p.pk), p.birth_year, fide_elo=s.fide_elo, member=member))
        else:
            inputs.append(PlayerInput(str(p.pk), p.birth_year, restpartien=s.restpartien, member=member))
    engine_games = tuple(
        GameInput(str(g.white_id), str(g.black_id), str(g.result))
        for g in games
        if g.black_id is not None and str(g.result) in PAIRING_RESULTS
    )
    result = evaluate(
        TournamentInput(
            end_date=tournament.end_date,
            players=tuple(inputs),
            games=engine_games,
            code=tournament.code,
            name=tournament.name,
        )
    )
    by_id = {p.pk: p for p in players}
    # Saving re-evaluates the later tournaments of the players now in the tournament and of those dropped.
    old = set(TournamentEntry.objects.filter(tournament_id=tournament.pk).values_list("player_id", flat=True))
    reevaluated = (
        later_after_save(tournament=tournament, players=players, games=games, non_members=non_members)
        if tournament.rated
        else ([], False)
    )
    if reevaluated is None:
        reevaluated = later_tournaments(tournament=tournament, player_ids=set(ids) | old), False
    return Preview(
        edition=result.edition,
        rows=[PreviewRow(by_id[int(r.id)], r) for r in result.players],
        later=reevaluated[0],
        rated=tournament.rated,
        background=reevaluated[1],
    )
