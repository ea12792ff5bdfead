"""Read queries of the public pages (rating lists, player card, tournament evaluation, search).

Everything numeric comes from stored rows (``Player.dwz``/``index``, ``Evaluation``) or from the engine
(``ratings.dwz``); this module only selects, annotates and arranges. Each function issues a fixed number
of queries, independent of the number of rows (see the query-count tests).
"""

from __future__ import annotations

import datetime
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import (
    Count,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    Window,
)
from django.db.models.functions import Coalesce, Lower, Rank, Replace
from django.utils.translation import gettext_noop

from ratings.dwz import CATEGORIES, expected_score
from ratings.enums import EvaluationStatus, PlayerStatus, ResultCode
from ratings.models import (
    Club,
    Evaluation,
    Game,
    Membership,
    Organisation,
    Player,
    RatingAdjustment,
    Tournament,
    TournamentEntry,
)
from ratings.models.player import current_membership_q

# The strength categories' German labels, marked for translation (the engine keeps them as plain data).
CATEGORY_LABELS = [
    gettext_noop("Anfänger"),
    gettext_noop("Fortgeschrittener"),
    gettext_noop("Normaler Vereinsspieler"),
    gettext_noop("Überdurchschnittlicher Vereinsspieler"),
    gettext_noop("Herausragender Vereinsspieler"),
    gettext_noop("Oberligaspieler"),
    gettext_noop("Bundesligaspieler"),
    gettext_noop("Großmeister"),
    gettext_noop("Weltklassespieler"),
]
assert [c.label_de for c in CATEGORIES] == CATEGORY_LABELS

# ---------------------------------------------------------------------------------------------------------
# Umlaut-insensitive search
# ---------------------------------------------------------------------------------------------------------

# Upper and lower case explicitly: SQLite's lower() folds ASCII only.
_CHAR_FOLDS = [
    ("Ä", "a"),
    ("ä", "a"),
    ("Ö", "o"),
    ("ö", "o"),
    ("Ü", "u"),
    ("ü", "u"),
    ("ß", "ss"),
    ("ẞ", "ss"),
]
# After lower-casing: the transliterations ae/oe/ue fold to the same key as ä/ö/ü.
_PAIR_FOLDS = [("ae", "a"), ("oe", "o"), ("ue", "u")]


def search_key(text: str) -> str:
    """The search key of a text: case-folded, ä/ae → a, ö/oe → o, ü/ue → u, ß → ss (other accents stay).

    "Müller", "Mueller" and "MULLER" all give "muller". The database side (``search_key_expression``)
    applies the same folds, so both sides meet.
    """
    text = text.strip()
    for src, dst in _CHAR_FOLDS:
        text = text.replace(src, dst)
    text = text.casefold()
    for src, dst in _PAIR_FOLDS:
        text = text.replace(src, dst)
    return re.sub(r"\s+", " ", text)


def search_key_expression(field_name: str):
    """A database expression computing ``search_key`` of a column (portable: nested REPLACE and LOWER)."""
    expr = F(field_name)
    for src, dst in _CHAR_FOLDS:
        expr = Replace(expr, Value(src), Value(dst))
    expr = Lower(expr)
    for src, dst in _PAIR_FOLDS:
        expr = Replace(expr, Value(src), Value(dst))
    return expr


def _terms(query: str) -> list[str]:
    return [t for t in re.split(r"[\s,]+", search_key(query)) if t]


def player_search_filter(query: str) -> Q | None:
    """Players matching a name query: "Nachname, Vorname", "Vorname Nachname" or parts of either.

    Expects the queryset to be annotated with ``surname_key`` and ``first_name_key``.
    """
    query = query.strip()
    if not query:
        return None
    if "," in query:
        surname, _, first = query.partition(",")
        q = Q()
        if search_key(surname):
            q &= Q(surname_key__startswith=search_key(surname))
        if search_key(first):
            q &= Q(first_name_key__startswith=search_key(first))
        return q
    if re.fullmatch(r"[Nn][Uu][0-9]{1,10}", query):  # a nu person id
        return Q(dsb_id=query.upper())
    if query.isascii() and query.isdecimal():  # a DSB person id or FIDE id (not "²": isdigit, no int)
        return Q(dsb_id=query) | Q(fide_id=int(query)) if len(query) <= 9 else Q(pk__in=[])
    q = Q()
    for term in _terms(query):
        q &= Q(surname_key__contains=term) | Q(first_name_key__contains=term)
    return q


def with_search_keys(qs: QuerySet[Player]) -> QuerySet[Player]:
    return qs.annotate(
        surname_key=search_key_expression("surname"), first_name_key=search_key_expression("first_name")
    )


# ---------------------------------------------------------------------------------------------------------
# Rating lists
# ---------------------------------------------------------------------------------------------------------


def _first_membership(player_ref: str = "pk") -> QuerySet[Membership]:
    """The player's primary club: current memberships, A over P (formats.md §3.2)."""
    return Membership.objects.current().filter(player=OuterRef(player_ref)).primary_first()


def rating_list_queryset() -> QuerySet[Player]:
    """Players with their first club (name, ZPS, member number) and a rank by DWZ among the filtered rows."""
    first = _first_membership()
    return (
        Player.objects.annotate(
            club_name=Subquery(first.values("club__name")[:1]),
            club_zps=Subquery(first.values("club__zps")[:1]),
            member_number=Subquery(first.values("member_number")[:1]),
            # Sort keys with unrated/unknown values below every real one, on SQLite and PostgreSQL alike.
            dwz_sort=Coalesce("dwz", Value(-1)),
            elo_sort=Coalesce("fide_elo", Value(-1)),
            last_sort=Coalesce("last_evaluated", Value(datetime.date(1900, 1, 1))),
        )
        .annotate(rank=Window(Rank(), order_by=F("dwz").desc(nulls_last=True)))
        .order_by(F("dwz").desc(nulls_last=True), "surname", "first_name", "pk")
    )


def club_members_queryset(club: Club) -> QuerySet[Player]:
    """The rating list of a club's members, with their member number in this club."""
    number = Membership.objects.current().filter(player=OuterRef("pk"), club=club).values("member_number")[:1]
    return rating_list_queryset().filter(players_in_club(club)).annotate(club_member_number=Subquery(number))


def organisation_subtree_q(organisation: Organisation, prefix: str = "") -> Q:
    """Q for rows whose ``<prefix>organisation`` is the organisation or one below it (up to 5 levels)."""
    q = Q()
    path = f"{prefix}organisation"
    for _depth in range(6):
        q |= Q(**{path: organisation})
        path += "__parent"
    return q


def players_in_organisation(organisation: Organisation) -> Q:
    return Q(
        Exists(
            Membership.objects.current()
            .filter(player=OuterRef("pk"))
            .filter(organisation_subtree_q(organisation, prefix="club__"))
        )
    )


def players_in_club(club: Club) -> Q:
    return Q(Exists(Membership.objects.current().filter(player=OuterRef("pk"), club=club)))


def players_in_clubs(clubs: QuerySet[Club]) -> Q:
    return Q(Exists(Membership.objects.current().filter(player=OuterRef("pk"), club__in=clubs)))


def active_q() -> Q:
    return Q(status=PlayerStatus.ACTIVE)


# ---------------------------------------------------------------------------------------------------------
# Lists of clubs and tournaments
# ---------------------------------------------------------------------------------------------------------


def club_list_queryset() -> QuerySet[Club]:
    return (
        Club.objects.select_related("organisation")
        .annotate(members=Count("memberships", filter=current_membership_q("memberships__"), distinct=True))
        .order_by("zps")
    )


def tournament_list_queryset() -> QuerySet[Tournament]:
    return (
        Tournament.objects.select_related("organiser_club", "organiser_organisation")
        .annotate(players=Count("entries", distinct=True))
        .order_by("-end_date", "-pk")
    )


def latest_tournaments(limit: int = 8) -> list[Tournament]:
    """The latest evaluated tournaments (those with stored evaluations), newest first."""
    evaluated = Evaluation.objects.filter(tournament=OuterRef("pk"))
    return list(
        Tournament.objects.filter(Exists(evaluated))
        .select_related("organiser_club", "organiser_organisation")
        .annotate(players=Count("entries", distinct=True))
        .order_by("-end_date", "-pk")[:limit]
    )


def club_past_members(club: Club) -> QuerySet[Membership]:
    """Ended memberships of the club (the membership history), latest first."""
    return (
        Membership.objects.filter(club=club, valid_until__isnull=False)
        .select_related("player", "club")
        .order_by("-valid_until", "player__surname", "player__first_name", "pk")
    )


def club_tournaments(club: Club) -> QuerySet[Tournament]:
    """Tournaments organised by the club or with one of its members taking part."""
    members = Membership.objects.current().filter(club=club).values("player_id")
    return (
        tournament_list_queryset()
        .filter(Q(organiser_club=club) | Q(entries__player__in=members))
        .distinct()
        .order_by("-end_date", "-pk")
    )


# ---------------------------------------------------------------------------------------------------------
# Search (start page, /suche/)
# ---------------------------------------------------------------------------------------------------------


@dataclass
class SearchResults:
    query: str
    players: list[Player] = field(default_factory=list)
    clubs: list[Club] = field(default_factory=list)
    tournaments: list[Tournament] = field(default_factory=list)
    more_players: bool = False

    @property
    def empty(self) -> bool:
        return not (self.players or self.clubs or self.tournaments)


def search(query: str, *, limit: int = 25) -> SearchResults:
    """Players by name, clubs by name or ZPS, tournaments by name or code (three queries)."""
    query = (query or "").strip()[:100]
    results = SearchResults(query=query)
    if not query:
        return results
    key = search_key(query)
    player_q = player_search_filter(query)
    if player_q is not None:
        players = list(
            with_search_keys(rating_list_queryset())
            .filter(player_q)
            .order_by("surname", "first_name", "pk")[: limit + 1]
        )
        results.players, results.more_players = players[:limit], len(players) > limit
    results.clubs = list(
        Club.objects.select_related("organisation")
        .annotate(name_key=search_key_expression("name"))
        .filter(Q(zps__iexact=query) | Q(zps__istartswith=query.upper()) | Q(name_key__contains=key))
        .order_by("zps")[:limit]
    )
    results.tournaments = list(
        Tournament.objects.annotate(name_key=search_key_expression("name"))
        .filter(Q(code__istartswith=query) | Q(name_key__contains=key))
        .order_by("-end_date", "-pk")[:limit]
    )
    return results


# ---------------------------------------------------------------------------------------------------------
# Player card (Karteikarte)
# ---------------------------------------------------------------------------------------------------------


@dataclass
class HistoryRow:
    """One row of a player's history: an evaluation or a rating adjustment."""

    number: int | None  # running number of rating-changing evaluations
    date: datetime.date | None
    kind: str  # "evaluation" or "adjustment"
    evaluation: Evaluation | None = None
    adjustment: RatingAdjustment | None = None

    @property
    def dwz_after(self) -> int | None:
        if self.evaluation is not None:
            return self.evaluation.dwz_new
        return self.adjustment.dwz if self.adjustment else None

    @property
    def index_after(self) -> int | None:
        if self.evaluation is not None:
            return self.evaluation.index_new
        return self.adjustment.index if self.adjustment else None

    @property
    def change(self) -> int | None:
        e = self.evaluation
        if e is None or e.dwz_new is None or e.dwz_old is None:
            return None
        return e.dwz_new - e.dwz_old


def player_detail(key: str) -> Player | None:
    """The player with memberships (club, organisation; primary first, then the ended ones) prefetched."""
    memberships = Membership.objects.select_related("club__organisation").primary_first()
    return (
        Player.objects.filter(key=key).prefetch_related(Prefetch("memberships", queryset=memberships)).first()
    )


def player_history(player: Player) -> list[HistoryRow]:
    """Evaluations and adjustments in replay order (adjustments of a day before that day's tournaments)."""
    evaluations = list(
        Evaluation.objects.filter(player=player)
        .select_related("tournament")
        .order_by("end_date", F("tournament__code_suffix").asc(nulls_last=True), "tournament__pk")
    )
    adjustments = list(
        RatingAdjustment.objects.filter(player=player).order_by(F("date").asc(nulls_first=True), "pk")
    )
    events: list[tuple[tuple, HistoryRow]] = []
    for adj in adjustments:
        date_key = adj.date or datetime.date.min
        events.append(((date_key, 0, adj.pk), HistoryRow(None, adj.date, "adjustment", adjustment=adj)))
    for pos, ev in enumerate(evaluations):
        events.append(((ev.end_date, 1, pos), HistoryRow(None, ev.end_date, "evaluation", evaluation=ev)))
    events.sort(key=lambda item: item[0])
    rows = [row for _key, row in events]
    number = 0
    for row in rows:
        if row.evaluation is not None and row.evaluation.changes_rating:
            number += 1
            row.number = number
    return rows


def chart_points(rows: Iterable[HistoryRow]) -> list[dict]:
    """Data for the history chart: one point per DWZ-setting row (stored values only)."""
    points = []
    for row in rows:
        if row.dwz_after is None:
            continue
        if row.evaluation is not None and not row.evaluation.changes_rating:
            continue
        points.append(
            {
                "date": row.date.isoformat() if row.date else None,
                "dwz": row.dwz_after,
                "performance": row.evaluation.performance if row.evaluation else None,
                "label": row.evaluation.tournament.name
                if row.evaluation
                else str(row.adjustment.get_kind_display()),
            }
        )
    return points


# ---------------------------------------------------------------------------------------------------------
# Tournament evaluation
# ---------------------------------------------------------------------------------------------------------

# Results as seen from one side: (points for white, points for black) for display and progress tables.
_WHITE_POINTS = {
    ResultCode.WHITE_WINS: Decimal(1),
    ResultCode.BLACK_WINS: Decimal(0),
    ResultCode.DRAW: Decimal("0.5"),
    ResultCode.WHITE_WINS_FORFEIT: Decimal(1),
    ResultCode.BLACK_WINS_FORFEIT: Decimal(0),
    ResultCode.DOUBLE_FORFEIT: Decimal(0),
    ResultCode.BYE: Decimal(1),
    ResultCode.FULL_POINT_BYE: Decimal(1),
    ResultCode.HALF_POINT_BYE: Decimal("0.5"),
    ResultCode.UNPAIRED: Decimal(0),
    ResultCode.ZERO_POINT_BYE: Decimal(0),
}
_BLACK_POINTS = {
    ResultCode.WHITE_WINS: Decimal(0),
    ResultCode.BLACK_WINS: Decimal(1),
    ResultCode.DRAW: Decimal("0.5"),
    ResultCode.WHITE_WINS_FORFEIT: Decimal(0),
    ResultCode.BLACK_WINS_FORFEIT: Decimal(1),
    ResultCode.DOUBLE_FORFEIT: Decimal(0),
}
_FORFEIT_SYMBOL = {
    ResultCode.WHITE_WINS_FORFEIT: ("+", "−"),
    ResultCode.BLACK_WINS_FORFEIT: ("−", "+"),
    ResultCode.DOUBLE_FORFEIT: ("−", "−"),
}
_PLAYED = {ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW}
AUSNAHME_FROM = datetime.date(2016, 8, 1)
AUSNAHME_MARGIN = 300


def _symbol(points: Decimal) -> str:
    return {Decimal(1): "1", Decimal("0.5"): "½", Decimal(0): "0"}[points]


@dataclass
class ScoreLine:
    """One round of a player's scoresheet."""

    round: int
    opponent: TournamentEntry | None
    opponent_rating: int | None  # the opponent's entry rating used for We (None: game not counted)
    colour: str  # "w", "s" or ""
    result: str  # "1", "½", "0", "+", "−", or a bye label
    points: Decimal | None
    expected: Decimal | None  # p per game from the engine, None when not counted
    counted: bool


@dataclass
class ProgressCell:
    """One round in the progress table (Fortschrittstabelle): opponent number, colour, result, running sum."""

    opponent: int | None
    colour: str
    result: str
    total: Decimal | None


@dataclass
class EntryRow:
    entry: TournamentEntry
    number: int  # position in the start list (1-based)
    evaluation: Evaluation | None
    club: Club | None
    points: Decimal = Decimal(0)
    games: int = 0
    lines: list[ScoreLine] = field(default_factory=list)
    cells: dict = field(default_factory=dict)  # crosstable: opponent number -> symbols
    progress: list[ProgressCell] = field(default_factory=list)

    @property
    def player(self) -> Player:
        return self.entry.player

    @property
    def change(self) -> int | None:
        e = self.evaluation
        if e is None or e.dwz_new is None or e.dwz_old is None:
            return None
        return e.dwz_new - e.dwz_old

    @property
    def expected_sum(self) -> Decimal | None:
        values = [line.expected for line in self.lines if line.expected is not None]
        return sum(values, Decimal(0)) if values else None


@dataclass
class TournamentView:
    tournament: Tournament
    rows: list[EntryRow]
    rounds: list[int]
    round_robin: bool
    games: int
    played: int

    @property
    def evaluated(self) -> bool:
        return any(r.evaluation is not None for r in self.rows)


def tournament_detail(pk: int) -> Tournament | None:
    return (
        Tournament.objects.select_related("organiser_club", "organiser_organisation", "rating_officer")
        .filter(pk=pk)
        .first()
    )


def entry_rating(evaluation: Evaluation | None) -> int | None:
    """The rating with which a player entered his opponents' We (spec §3), from his stored evaluation.

    The engine's exact value (``Evaluation.entry_rating``: R0, Rh of an Ausnahmespieler, or the first rating)
    where stored; rows written before that field existed (NULL until the next ``recalculate``) fall back to
    ``reconstructed_entry_rating``.
    """
    if evaluation is None:
        return None
    if evaluation.entry_rating is not None:
        return evaluation.entry_rating
    return reconstructed_entry_rating(evaluation)


def reconstructed_entry_rating(evaluation: Evaluation) -> int | None:
    """An approximation of the entry rating for evaluations stored without it.

    Rated: R0, or his performance if it exceeds R0 + 300 (Ausnahmespieler, spec §7.4); first rating: the new
    DWZ; not rated: none. The stored performance is the final one; the Ausnahmespieler test uses the pass-1
    performance, which differs when first ratings in the same tournament moved in pass 2.
    """
    if evaluation.status == EvaluationStatus.FIRST:
        return evaluation.dwz_new
    if evaluation.status != EvaluationStatus.RATED or evaluation.dwz_old is None:
        return None
    perf = evaluation.performance
    if (
        perf is not None
        and evaluation.end_date >= AUSNAHME_FROM
        and perf > evaluation.dwz_old + AUSNAHME_MARGIN
    ):
        return perf
    return evaluation.dwz_old


def own_rating_for_expectation(evaluation: Evaluation | None) -> int | None:
    """The player's own rating in his We: R0 for a rated player (also an Ausnahmespieler, spec §7.4), the
    final iteration value R_i (stored as his performance) for a first rating (spec §6.9)."""
    if evaluation is None:
        return None
    if evaluation.status == EvaluationStatus.RATED and evaluation.n > 0:
        return evaluation.dwz_old
    if evaluation.status == EvaluationStatus.FIRST:
        return evaluation.performance
    return None


def _both_first(mine: Evaluation | None, theirs: Evaluation | None) -> bool:
    first = EvaluationStatus.FIRST
    return mine is not None and theirs is not None and mine.status == first and theirs.status == first


def tournament_view(tournament: Tournament) -> TournamentView:
    """Entries with evaluations, scoresheets, crosstable/progress cells (four queries)."""
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by(F("start_rank").asc(nulls_last=True), "player__surname", "player__first_name", "pk")
    )
    evaluations = {e.player_id: e for e in Evaluation.objects.filter(tournament=tournament)}
    first_club = {}
    for m in (
        Membership.objects.current()
        .filter(player__in=[e.player_id for e in entries])
        .select_related("club")
        .primary_first()
    ):
        first_club.setdefault(m.player_id, m.club)
    games = list(
        Game.objects.filter(tournament=tournament).order_by("round", F("board").asc(nulls_last=True), "pk")
    )

    rows = [
        EntryRow(entry=e, number=i, evaluation=evaluations.get(e.player_id), club=first_club.get(e.player_id))
        for i, e in enumerate(entries, start=1)
    ]
    by_player = {row.entry.player_id: row for row in rows}
    entry_ratings = {pid: entry_rating(ev) for pid, ev in evaluations.items()}
    # A game counts for the rating when both players entered the evaluation (Auswahl II) and it was played.
    counted_players = {pid for pid, r in entry_ratings.items() if r is not None}
    pairs: dict[frozenset, int] = defaultdict(int)

    for game in games:
        white = by_player.get(game.white_id)
        if white is None:
            continue
        if game.black_id is None:
            pts = _WHITE_POINTS.get(game.result, Decimal(0))
            label = {
                ResultCode.BYE: "+",
                ResultCode.FULL_POINT_BYE: "+",
                ResultCode.HALF_POINT_BYE: "½",
            }.get(game.result, "−")
            white.lines.append(ScoreLine(game.round, None, None, "", label, pts, None, False))
            white.points += pts
            continue
        black = by_player.get(game.black_id)
        if black is None:
            continue
        pairs[frozenset((white.number, black.number))] += 1
        counted = (
            game.result in _PLAYED and game.white_id in counted_players and game.black_id in counted_players
        )
        for me, opp, colour, pts_map, idx in (
            (white, black, "w", _WHITE_POINTS, 0),
            (black, white, "s", _BLACK_POINTS, 1),
        ):
            pts = pts_map[game.result]
            text = _FORFEIT_SYMBOL[game.result][idx] if game.result in _FORFEIT_SYMBOL else _symbol(pts)
            opp_rating = entry_ratings.get(opp.entry.player_id) if counted else None
            if counted and _both_first(me.evaluation, opp.evaluation):
                # Spec §6.5/§6.9: between two first ratings the engine used the opponent's iteration value
                # (stored as his performance), not his first rating.
                opp_rating = opp.evaluation.performance
            own_rating = own_rating_for_expectation(me.evaluation) if counted else None
            expected = None
            if counted and opp_rating is not None and own_rating is not None:
                expected = Decimal(expected_score(own_rating - opp_rating)) / 1000
            me.lines.append(
                ScoreLine(game.round, opp.entry, opp_rating, colour, text, pts, expected, counted)
            )
            me.points += pts
            if game.result in _PLAYED:
                me.games += 1
            me.cells.setdefault(opp.number, []).append(text)

    rounds = sorted({g.round for g in games})
    for row in rows:
        row.lines.sort(key=lambda line: line.round)
        by_round = {line.round: line for line in row.lines}
        total = Decimal(0)
        for rnd in rounds:
            line = by_round.get(rnd)
            if line is None:
                row.progress.append(ProgressCell(None, "", "", None))
                continue
            total += line.points or 0
            opp_number = by_player[line.opponent.player_id].number if line.opponent is not None else None
            row.progress.append(ProgressCell(opp_number, line.colour, line.result, total))
        row.cells = {k: "".join(v) for k, v in row.cells.items()}

    n = len(rows)
    round_robin = n >= 2 and len(pairs) == n * (n - 1) // 2 and bool(pairs)
    played = sum(1 for g in games if g.result in _PLAYED)
    return TournamentView(
        tournament=tournament,
        rows=rows,
        rounds=rounds,
        round_robin=round_robin,
        games=sum(1 for g in games if g.black_id is not None),
        played=played,
    )


# ---------------------------------------------------------------------------------------------------------
# Strength categories
# ---------------------------------------------------------------------------------------------------------


@dataclass
class CategoryRow:
    lower: int | None
    upper: int | None
    label: str
    count: int
    share: Decimal | None


def category_rows() -> tuple[list[CategoryRow], int]:
    """Number and share of active rated players per strength category (one query)."""
    base = Player.objects.filter(active_q(), dwz__isnull=False)
    aggregates = {}
    for i, cat in enumerate(CATEGORIES):
        cond = Q()
        if cat.lower is not None:
            cond &= Q(dwz__gte=cat.lower)
        if cat.upper is not None:
            cond &= Q(dwz__lte=cat.upper)
        aggregates[f"c{i}"] = Count("pk", filter=cond)
    counts = base.aggregate(**aggregates)
    total = sum(counts.values())
    rows = [
        CategoryRow(
            lower=cat.lower,
            upper=cat.upper,
            label=cat.label_de,
            count=counts[f"c{i}"],
            share=(Decimal(counts[f"c{i}"]) * 100 / total) if total else None,
        )
        for i, cat in enumerate(CATEGORIES)
    ]
    return rows, total


def dwz_histogram(width: int = 100) -> list[dict]:
    """Active rated players per DWZ band of ``width`` points (one query), for the histogram."""
    rows = (
        Player.objects.filter(active_q(), dwz__isnull=False)
        .annotate(bucket=F("dwz") / Value(width))  # integer division on both SQLite and PostgreSQL
        .values("bucket")
        .annotate(n=Count("pk"))
        .order_by("bucket")
    )
    buckets = {row["bucket"] * width: row["n"] for row in rows}
    if not buckets:
        return []
    lo, hi = min(buckets), max(buckets)
    return [
        {"from": b, "to": b + width - 1, "count": buckets.get(b, 0)} for b in range(lo, hi + width, width)
    ]
