"""Tournaments out: TRF26 with GER national-rating lines, and the evaluation as rows for print and CSV.

Reads only: the rows of a stored tournament, handed to the pure writer (``ratings.formats.trf_export`` and
``ratings.formats.trf.write_trf``). The TRF file carries each player's DWZ before the tournament (and his
index) in a GER line with his DSB id (formats.md §2.4), his FIDE data in the 001 line, every game and every
bye with its code, and the placing by points and tie-breaks.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import F

from ratings.age_classes import age_class
from ratings.dwz.replay import PlayerState
from ratings.enums import EvaluationStatus
from ratings.exports import spreadsheet_safe
from ratings.formats.standings import Standings, compute_standings
from ratings.formats.trf import NationalRating, TrfHead, TrfPlayer, TrfTournament, write_trf
from ratings.formats.trf_export import (
    GameRow,
    decimal_text,
    dsb_person_id,
    export_filename,
    round_scores,
    start_numbers,
    trf_games,
)
from ratings.models import Evaluation, Game, Membership, Tournament, TournamentEntry
from ratings.models.player import HIDDEN_NAME

from .previews import rating_states_before

__all__ = [
    "EVALUATION_COLUMNS",
    "EVALUATION_CSV_COLUMNS",
    "EvaluationRow",
    "entries_in_start_order",
    "evaluation_csv_rows",
    "evaluation_rows",
    "export_filename",
    "tournament_standings",
    "trf_export",
]


def entries_in_start_order(*, tournament_ids: Iterable[int]) -> dict[int, list[TournamentEntry]]:
    """The entries (with their players) of each of ``tournament_ids`` in start order, the order
    ``start_numbers`` numbers them by (the TRF and the DSB XML export share it). One query."""
    ids = list(tournament_ids)
    out: dict[int, list[TournamentEntry]] = {pk: [] for pk in ids}
    for e in (
        TournamentEntry.objects.filter(tournament_id__in=ids)
        .select_related("player")
        .order_by(
            "tournament_id",
            F("start_rank").asc(nulls_last=True),
            "player__surname",
            "player__first_name",
            "pk",
        )
    ):
        out[e.tournament_id].append(e)
    return out


def _entries(tournament: Tournament) -> list[TournamentEntry]:
    return entries_in_start_order(tournament_ids=[tournament.pk])[tournament.pk]


def _games(tournament: Tournament, order: tuple[str, ...] | None = None) -> list[GameRow]:
    games = Game.objects.filter(tournament=tournament)
    if order is not None:
        games = games.order_by(*order)
    return list(games.values_list("round", "white_id", "black_id", "result"))


def tournament_standings(tournament: Tournament) -> tuple[Standings, dict[int, int]]:
    """The placing of a stored tournament (the file's tie-breaks, else Buchholz and Sonneborn-Berger) and
    player pk → start number."""
    numbers = start_numbers(_entries(tournament))
    ratings: dict[Hashable, int] = {}
    for player_id, rating in Evaluation.objects.filter(tournament=tournament).values_list(
        "player_id", "dwz_old"
    ):
        if rating is not None and player_id in numbers:
            ratings[numbers[player_id]] = rating
    scores = round_scores(_games(tournament), numbers)
    rounds = max((s.round for v in scores.values() for s in v), default=0)
    standings = compute_standings(
        scores,
        rounds=max(rounds, tournament.rounds or 0),
        tiebreaks=tournament.tiebreak_codes,
        ratings=ratings,
    )
    return standings, numbers


def _ratings_before(tournament: Tournament, entries: list[TournamentEntry]) -> dict[int, PlayerState]:
    """DWZ and index before the tournament: the stored evaluation's input, else the replayed state."""
    states: dict[int, PlayerState] = {}
    for player_id, dwz, index, takeover in Evaluation.objects.filter(tournament=tournament).values_list(
        "player_id", "dwz_old", "index_old", "fide_takeover"
    ):
        # A FIDE take-over entered with his Elo (in the 001 line), not with a DWZ.
        states[player_id] = PlayerState() if takeover else PlayerState(dwz, index)
    missing = [e.player_id for e in entries if e.player_id not in states]
    if missing:
        states.update(rating_states_before(tournament=tournament, player_ids=missing))
    return states


def _published(player: TrfPlayer, *, hidden: bool) -> TrfPlayer:
    """A TRF line as the public download gives it (issue 30 §4): without name and personal data after an
    objection to publication, without the birth year under 18."""
    if hidden:
        name = str(HIDDEN_NAME)
        return dataclasses.replace(
            player,
            name=name,
            surname=name,
            first_name="",
            sex="",
            title="",
            fide_rating=None,
            federation="",
            fide_id=None,
            birth_year=None,
        )
    if age_class(player.birth_year, year=datetime.date.today().year):
        return dataclasses.replace(player, birth_year=None)
    return player


def trf_export(*, tournament: Tournament, published: bool = False) -> str:
    """The tournament as TRF26 text (CRLF, UTF-8 without BOM when encoded)."""
    entries = _entries(tournament)
    numbers = start_numbers(entries)
    states = _ratings_before(tournament, entries)
    memberships: dict[int, Membership] = {}  # the first of each player's (as the DSB list)
    for m in (
        Membership.objects.filter(player__in=[e.player_id for e in entries])
        .select_related("club")
        .order_by("pk")
    ):
        memberships.setdefault(m.player_id, m)
    players = []
    for e in entries:
        p = e.player
        state = states.get(p.pk) or PlayerState()
        first = memberships.get(p.pk)
        club_number = f"{first.club.zps}-{first.member_number}" if first else None
        number = dsb_person_id(dsb_id=p.dsb_id or "", key=p.key, club_number=club_number)
        national = {}
        if number or state.dwz is not None:
            national["GER"] = NationalRating(
                "GER", state.dwz, state.index if state.dwz is not None else None, number
            )
        name = f"{p.surname}, {p.first_name}" if p.first_name else p.surname
        player = TrfPlayer(
            start_rank=numbers[p.pk],
            name=name,
            surname=p.surname,
            first_name=p.first_name,
            sex={"m": "m", "w": "w"}.get(p.sex, ""),
            title=p.fide_title,
            fide_rating=p.fide_elo,
            federation=p.fide_federation,
            fide_id=p.fide_id,
            birth_year=p.birth_year,
            national=national,
        )
        players.append(_published(player, hidden=p.publication_objection) if published else player)
    games, byes = trf_games(_games(tournament, ("round", "pk")), numbers)
    standings, _numbers = tournament_standings(tournament)
    ranks = {row.player: row.rank for row in standings.rows}
    head = TrfHead(
        name=tournament.name,
        city=tournament.place,
        federation="GER",
        start_date=tournament.start_date,
        end_date=tournament.end_date,
        kind="Individual: Swiss-System",
        time_control=tournament.time_control,
        tiebreaks=[t.code for t in standings.tiebreaks],
    )
    rounds = max([tournament.rounds or 0, *(g.round for g in games), *(b.round for b in byes)])
    trf = TrfTournament(head=head, players=players, games=games, byes=byes, rounds=rounds)
    return write_trf(trf, ranks=ranks)  # type: ignore[arg-type]


# --- the evaluation in the DSB's column order ----------------------------------------------------------


@dataclass
class EvaluationRow:
    number: int
    name: str
    club: str
    dwz_old: str  # "1802-45" or ""
    points: Decimal
    games: int | None
    expected: Decimal | None
    coefficient: Decimal | None
    performance: int | None
    level: int | None
    dwz_new: str
    change: int | None
    rank: int | None = None
    # The numbers behind ``dwz_old`` / ``dwz_new`` for the CSV, which keeps DWZ and index in columns of their
    # own ("1958-5" in one cell opens in a German Excel as a date); None for a non-member.
    old: tuple[int, int] | None = None
    new: tuple[int, int] | None = None
    non_member: bool = False


# The DSB's column order of a tournament evaluation.
_COLUMNS = "Nr.|Name|Verein|DWZ alt|Punkte|Partien|We|E/K|Leistung|Niveau|DWZ neu|±"
EVALUATION_COLUMNS = tuple(_COLUMNS.split("|"))


def evaluation_rows(tournament: Tournament) -> list[EvaluationRow]:
    """One row per participant: tournament points (byes included); the rest as the engine stored it."""
    entries = _entries(tournament)
    numbers = start_numbers(entries)
    evaluations = {e.player_id: e for e in Evaluation.objects.filter(tournament=tournament)}
    clubs: dict[int, str] = {}
    for m in (
        Membership.objects.filter(player__in=[e.player_id for e in entries])
        .select_related("club")
        .order_by("pk")
    ):
        clubs.setdefault(m.player_id, m.club.name)
    standings, _n = tournament_standings(tournament)
    by_number = standings.by_player()
    rows = []
    for e in entries:
        p = e.player
        ev = evaluations.get(p.pk)
        number = numbers[p.pk]
        row = by_number.get(number)
        dwz_old = f"{ev.dwz_old}-{ev.index_old or 0}" if ev and ev.dwz_old is not None else ""
        dwz_new = f"{ev.dwz_new}-{ev.index_new}" if ev and ev.dwz_new is not None else ""
        old = (ev.dwz_old, ev.index_old or 0) if ev and ev.dwz_old is not None else None
        new = (ev.dwz_new, ev.index_new or 0) if ev and ev.dwz_new is not None else None
        non_member = bool(ev and ev.status == EvaluationStatus.NON_MEMBER)
        if ev and non_member:
            old = new = None
            # WO 3.4.3: no DWZ shown for a non-member, only the rating his opponents met, "(1554)".
            dwz_old = f"({ev.entry_rating})" if ev.entry_rating is not None else ""
            dwz_new = str(EvaluationStatus.NON_MEMBER.label)
        rows.append(
            EvaluationRow(
                number=number,
                name=p.public_name,
                club=clubs.get(p.pk, ""),
                dwz_old=dwz_old,
                points=row.points if row else Decimal(0),
                games=ev.n if ev else None,
                expected=ev.expected if ev else None,
                # Classic E is an integer, WO 2026 K has one decimal (as on the tournament page).
                coefficient=(
                    ev.coefficient.quantize(Decimal(1)) if ev.edition == "classic" else ev.coefficient
                )
                if ev and ev.coefficient is not None
                else None,
                performance=ev.performance if ev else None,
                level=ev.level if ev else None,
                dwz_new=dwz_new,
                change=(ev.dwz_new - ev.dwz_old)
                if ev and ev.dwz_new is not None and ev.dwz_old is not None
                else None,
                rank=row.rank if row else None,
                old=old,
                new=new,
                non_member=non_member,
            )
        )
    return rows


# The CSV's columns: DWZ and index apart, each a number a spreadsheet reads as one (issue 32).
_CSV_COLUMNS = "Nr.|Name|Verein|DWZ alt|Index alt|Punkte|Partien|We|E/K|Leistung|Niveau|DWZ neu|Index neu|±"
EVALUATION_CSV_COLUMNS = tuple(_CSV_COLUMNS.split("|"))


def evaluation_csv_rows(tournament: Tournament) -> list[list[object]]:
    """The evaluation for German spreadsheets: DWZ and index in columns of their own (numbers, never a
    "1958-5" that Excel turns into a date); a non-member's "DWZ neu" says so and names the rating his
    opponents met (WO 3.4.3), never in parentheses (a spreadsheet reads "(1554)" as -1554)."""
    rows: list[list[object]] = [list(EVALUATION_CSV_COLUMNS)]
    for r in evaluation_rows(tournament):
        dwz_new: object = r.new[0] if r.new else ""
        if r.non_member:
            dwz_new = r.dwz_new + (f" {r.dwz_old}" if r.dwz_old else "")
        rows.append(
            [
                r.number,
                spreadsheet_safe(r.name),
                spreadsheet_safe(r.club),
                r.old[0] if r.old else "",
                r.old[1] if r.old else "",
                decimal_text(r.points),
                "" if r.games is None else r.games,
                decimal_text(r.expected),
                decimal_text(r.coefficient),
                r.performance or "",
                r.level or "",
                dwz_new,
                r.new[1] if r.new else "",
                "" if r.change is None else f"{r.change:+d}",
            ]
        )
    return rows
