"""Tournaments out: TRF26 with GER national-rating lines, and the evaluation as rows for print and CSV.

Reads only. The TRF file carries each player's DWZ before the tournament (and his index) in a GER line with
his DSB id (formats.md §2.4), his FIDE data in the 001 line, every game and every bye with its code, and
the placing by points and tie-breaks.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Hashable
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import F

from ratings.dwz.replay import PlayerState
from ratings.enums import EvaluationStatus, ResultCode
from ratings.exports import spreadsheet_safe
from ratings.formats.standings import RoundScore, Standings, compute_standings
from ratings.formats.trf import NationalRating, TrfBye, TrfGame, TrfHead, TrfPlayer, TrfTournament, write_trf
from ratings.models import Evaluation, Game, Membership, Tournament, TournamentEntry

from .preview import rating_states_before

# dwzsite results → TRF codes (white, black); byes → TRF bye codes. "nicht gepaart" (U) is a zero-point bye.
TRF_GAME_CODES: dict[str, tuple[str, str]] = {
    ResultCode.WHITE_WINS: ("1", "0"),
    ResultCode.BLACK_WINS: ("0", "1"),
    ResultCode.DRAW: ("=", "="),
    ResultCode.WHITE_WINS_FORFEIT: ("+", "-"),
    ResultCode.BLACK_WINS_FORFEIT: ("-", "+"),
    ResultCode.DOUBLE_FORFEIT: ("-", "-"),
}
TRF_BYE_CODES: dict[str, str] = {
    ResultCode.BYE: "U",
    ResultCode.FULL_POINT_BYE: "F",
    ResultCode.HALF_POINT_BYE: "H",
    ResultCode.ZERO_POINT_BYE: "Z",
    ResultCode.UNPAIRED: "Z",
}
_PERSON_ID = re.compile(r"NU\d{1,10}|\d{1,10}|[1-9A-HLM][0-9A-Z]{4}-[0-9A-Za-z]{1,10}", re.IGNORECASE)
PLAYED = frozenset({ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW})
VOLUNTARY_BYES = frozenset({ResultCode.HALF_POINT_BYE, ResultCode.ZERO_POINT_BYE, ResultCode.UNPAIRED})
BYE_POINTS = {
    ResultCode.BYE: Decimal(1),
    ResultCode.FULL_POINT_BYE: Decimal(1),
    ResultCode.HALF_POINT_BYE: Decimal("0.5"),
    ResultCode.ZERO_POINT_BYE: Decimal(0),
    ResultCode.UNPAIRED: Decimal(0),
}
GAME_POINTS: dict[str, tuple[Decimal, Decimal]] = {
    ResultCode.WHITE_WINS: (Decimal(1), Decimal(0)),
    ResultCode.BLACK_WINS: (Decimal(0), Decimal(1)),
    ResultCode.DRAW: (Decimal("0.5"), Decimal("0.5")),
    ResultCode.WHITE_WINS_FORFEIT: (Decimal(1), Decimal(0)),
    ResultCode.BLACK_WINS_FORFEIT: (Decimal(0), Decimal(1)),
    ResultCode.DOUBLE_FORFEIT: (Decimal(0), Decimal(0)),
}


def _entries(tournament: Tournament) -> list[TournamentEntry]:
    return list(
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by(F("start_rank").asc(nulls_last=True), "player__surname", "player__first_name", "pk")
    )


def start_numbers(entries: list[TournamentEntry]) -> dict[int, int]:
    """player pk → start number: the stored start rank where unique, else the position in the list."""
    ranks = [e.start_rank for e in entries]
    if all(r is not None for r in ranks) and len(set(ranks)) == len(ranks):
        return {e.player_id: e.start_rank for e in entries}  # type: ignore[misc]
    return {e.player_id: i for i, e in enumerate(entries, start=1)}


def round_scores(tournament: Tournament, numbers: dict[int, int]) -> dict[Hashable, list[RoundScore]]:
    """Every participant's rounds (games and byes) for the standings, keyed by start number."""
    out: dict[Hashable, list[RoundScore]] = {n: [] for n in numbers.values()}
    for g in Game.objects.filter(tournament=tournament).values("round", "white_id", "black_id", "result"):
        white = numbers.get(g["white_id"])
        if white is None:
            continue
        result = g["result"]
        if g["black_id"] is None:
            out[white].append(
                RoundScore(g["round"], BYE_POINTS.get(result, Decimal(0)), voluntary=result in VOLUNTARY_BYES)
            )
            continue
        black = numbers.get(g["black_id"])
        if black is None:
            continue
        pw, pb = GAME_POINTS[result]
        played = result in PLAYED
        out[white].append(
            RoundScore(
                g["round"],
                pw,
                black,
                played=played,
                colour="w",
                voluntary=result in (ResultCode.BLACK_WINS_FORFEIT, ResultCode.DOUBLE_FORFEIT),
            )
        )
        out[black].append(
            RoundScore(
                g["round"],
                pb,
                white,
                played=played,
                colour="b",
                voluntary=result in (ResultCode.WHITE_WINS_FORFEIT, ResultCode.DOUBLE_FORFEIT),
            )
        )
    return out


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
    scores = round_scores(tournament, numbers)
    rounds = max((s.round for v in scores.values() for s in v), default=0)
    standings = compute_standings(
        scores,
        rounds=max(rounds, tournament.rounds or 0),
        tiebreaks=tournament.tiebreak_codes,
        ratings=ratings,
    )
    return standings, numbers


def person_id_of(player, memberships: dict[int, Membership]) -> str:
    """The DSB person id as the DSB list writes it: the nu id or PKZ; else the ZPS-Mitgliedsnummer."""
    if player.dsb_id:
        return player.dsb_id
    if _PERSON_ID.fullmatch(player.key):
        return player.key
    m = memberships.get(player.pk)
    return f"{m.club.zps}-{m.member_number}" if m else ""


def ratings_before(tournament: Tournament, entries: list[TournamentEntry]) -> dict[int, PlayerState]:
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


def trf_export(*, tournament: Tournament) -> str:
    """The tournament as TRF26 text (CRLF, UTF-8 without BOM when encoded)."""
    entries = _entries(tournament)
    numbers = start_numbers(entries)
    states = ratings_before(tournament, entries)
    memberships: dict[int, Membership] = {}
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
        number = person_id_of(p, memberships)
        national = {}
        if number or state.dwz is not None:
            national["GER"] = NationalRating(
                "GER", state.dwz, state.index if state.dwz is not None else None, number
            )
        name = f"{p.surname}, {p.first_name}" if p.first_name else p.surname
        players.append(
            TrfPlayer(
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
        )
    games, byes = [], []
    for g in Game.objects.filter(tournament=tournament).order_by("round", "pk"):
        white = numbers.get(g.white_id)
        if white is None:
            continue
        if g.black_id is None:
            byes.append(TrfBye(g.round, white, TRF_BYE_CODES[g.result]))
        elif g.black_id in numbers:
            wc, bc = TRF_GAME_CODES[g.result]
            games.append(TrfGame(g.round, white, numbers[g.black_id], wc, bc))
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


def export_filename(tournament: Tournament, suffix: str) -> str:
    base = (
        tournament.code
        or re.sub(r"[^A-Za-z0-9]+", "-", tournament.name).strip("-")[:40]
        or str(tournament.pk)
    )
    return f"{base}.{suffix}"


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
        if ev and ev.status == EvaluationStatus.NON_MEMBER:
            # WO 3.4.3: no DWZ shown for a non-member, only the rating his opponents met, "(1554)".
            dwz_old = f"({ev.entry_rating})" if ev.entry_rating is not None else ""
            dwz_new = str(EvaluationStatus.NON_MEMBER.label)
        rows.append(
            EvaluationRow(
                number=number,
                name=p.name,
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
            )
        )
    return rows


def evaluation_csv_rows(tournament: Tournament) -> list[list[object]]:
    rows: list[list[object]] = [list(EVALUATION_COLUMNS)]
    for r in evaluation_rows(tournament):
        rows.append(
            [
                r.number,
                spreadsheet_safe(r.name),
                spreadsheet_safe(r.club),
                r.dwz_old,
                _decimal_text(r.points),
                "" if r.games is None else r.games,
                _decimal_text(r.expected),
                _decimal_text(r.coefficient),
                r.performance or "",
                r.level or "",
                r.dwz_new,
                "" if r.change is None else f"{r.change:+d}",
            ]
        )
    return rows


def _decimal_text(value: Decimal | None) -> str:
    """German decimals as the DSB writes them (4,5)."""
    if value is None:
        return ""
    return format(value.normalize() if value == value.to_integral() else value, "f").replace(".", ",")


def end_date_text(value: datetime.date | None) -> str:
    return value.strftime("%d.%m.%Y") if value else ""
