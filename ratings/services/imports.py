"""Import of tournaments in the JSON contract of spec §13, plus the optional player keys club and sex."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from ratings.dwz.contract import ContractError, parse_tournament
from ratings.enums import AdjustmentKind, EvaluationStatus, Sex
from ratings.models import (
    Club,
    Evaluation,
    Game,
    Membership,
    Player,
    RatingAdjustment,
    Tournament,
    TournamentEntry,
)
from ratings.models.tournament import TOURNAMENT_CODE_RE

from .adjustments import adjustment_save, player_recalculate
from .recalculation import RecalculationReport, lock_ratings
from .tournaments import tournament_save


class TournamentFileError(ValueError):
    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


@dataclass(slots=True)
class ParsedTournament:
    data: dict[str, Any]
    end_date: datetime.date
    code: str | None
    name: str


@dataclass(slots=True)
class ImportResult:
    tournament: Tournament
    created_players: list[str] = field(default_factory=list)
    report: RecalculationReport | None = None
    rows: list[tuple[str, str, str, int | None, int | None]] = field(
        default_factory=list
    )  # key, name, status, old, new


def tournament_parse(data: object, *, source: str = "") -> ParsedTournament:
    """Validate one decoded JSON file (the contract plus our keys). Raises ``TournamentFileError``."""
    prefix = f"{source}: " if source else ""
    errors: list[str] = []
    parsed = None
    try:
        parsed = parse_tournament(data)
    except ContractError as exc:
        errors += [prefix + m for m in exc.messages]
    if parsed is not None and parsed.code is not None and not re.fullmatch(TOURNAMENT_CODE_RE, parsed.code):
        errors.append(f"{prefix}tournament.code: not a tournament code YYWW-ZZZ-KKK: {parsed.code!r}")
    raw_players = data.get("players") if isinstance(data, dict) else None
    clubs = set(Club.objects.values_list("zps", flat=True))
    for i, raw in enumerate(raw_players if isinstance(raw_players, list) else []):
        if not isinstance(raw, dict):
            continue
        club = raw.get("club")
        if club is not None and club not in clubs:
            errors.append(f"{prefix}players[{i}].club: unknown club (ZPS) {club!r}")
        sex = raw.get("sex")
        if sex is not None and sex not in Sex.values:
            errors.append(f"{prefix}players[{i}].sex: must be one of {', '.join(Sex.values)}, got {sex!r}")
        name = raw.get("name")
        if name is not None and not isinstance(name, str):
            errors.append(f"{prefix}players[{i}].name: must be a string")
        if isinstance(raw.get("id"), str) and len(raw["id"]) > 40:
            errors.append(f"{prefix}players[{i}].id: longer than 40 characters")
    if errors or parsed is None:
        raise TournamentFileError(errors)
    assert isinstance(data, dict)
    name = parsed.name or parsed.code or f"Turnier {parsed.end_date.isoformat()}"
    return ParsedTournament(data, parsed.end_date, parsed.code, name)


def _split_name(name: str | None, key: str) -> tuple[str, str]:
    if not name:
        return key, ""
    if "," in name:
        surname, first = name.split(",", 1)
        return surname.strip(), first.strip()
    parts = name.rsplit(" ", 1)
    return (parts[1], parts[0]) if len(parts) == 2 else (name, "")


def _membership_for(player: Player, zps: str) -> bool:
    """Give the player a membership of club ``zps`` unless he has one; True if one was created."""
    club = Club.objects.get(zps=zps)
    if Membership.objects.filter(player=player, club=club).exists():
        return False
    match = re.fullmatch(rf"{re.escape(zps)}-(\w{{1,10}})", player.key)
    taken = set(Membership.objects.filter(club=club).values_list("member_number", flat=True))
    number = match.group(1) if match and match.group(1) not in taken else None
    n = len(taken) + 1
    while number is None or number in taken:
        number, n = f"{n:04d}", n + 1
    Membership.objects.create(player=player, club=club, member_number=number)
    return True


def tournament_import(*, parsed: ParsedTournament, user=None) -> ImportResult:
    """Create or update (same code) the tournament, creating unknown players with their start values."""
    data = parsed.data
    with transaction.atomic():
        lock_ratings()
        created: list[str] = []
        players: dict[str, Player] = {
            p.key: p for p in Player.objects.filter(key__in=[r["id"] for r in data["players"]])
        }
        needs_replay: list[Player] = []
        for raw in data["players"]:
            key = raw["id"]
            player = players.get(key)
            if player is None:
                surname, first = _split_name(raw.get("name"), key)
                player = Player.objects.create(
                    key=key,
                    surname=surname,
                    first_name=first,
                    birth_year=raw.get("birth_year"),
                    sex=raw.get("sex") or "",
                )
                players[key] = player
                created.append(key)
                dwz, fide = raw.get("dwz"), raw.get("fide_elo")
                if raw.get("club"):
                    _membership_for(player, raw["club"])
                if dwz is not None or fide is not None:
                    adjustment_save(
                        adjustment=RatingAdjustment(
                            player=player,
                            kind=AdjustmentKind.START,
                            dwz=dwz,
                            index=(raw.get("index") or 0) if dwz is not None else None,
                            fide_elo=fide if dwz is None else None,
                            reason=f"Import {parsed.name}",
                        ),
                        user=user,
                    )
            elif (
                raw.get("club")
                and _membership_for(player, raw["club"])
                and Evaluation.objects.filter(player=player, status=EvaluationStatus.NOT_RATED).exists()
            ):
                needs_replay.append(player)  # he now keeps Restpartien (WO 3.4.3)
        for player in needs_replay:
            player_recalculate(player=player)

        tournament = Tournament.objects.filter(code=parsed.code).first() if parsed.code else None
        tournament = tournament or Tournament()
        t = data["tournament"]
        tournament.name = parsed.name[:200]
        tournament.code = parsed.code
        tournament.end_date = parsed.end_date
        start = t.get("start_date")
        tournament.start_date = (
            datetime.date.fromisoformat(start)
            if isinstance(start, str) and start <= parsed.end_date.isoformat()
            else parsed.end_date
        )
        tournament.place = (
            (t.get("place") or "")[:100] if isinstance(t.get("place"), str) else tournament.place
        )
        entries = [
            TournamentEntry(player=players[r["id"]], start_rank=i) for i, r in enumerate(data["players"], 1)
        ]
        games = []
        busy: dict[int, set[int]] = {}
        for g in data["games"]:
            white, black = players[g["white"]], players[g["black"]]
            rnd = g.get("round") if isinstance(g.get("round"), int) and g.get("round") > 0 else None
            if rnd is None or white.pk in busy.get(rnd, set()) or black.pk in busy.get(rnd, set()):
                rnd = 1  # the contract has no rounds: pack the games into rounds in file order
                while white.pk in busy.get(rnd, set()) or black.pk in busy.get(rnd, set()):
                    rnd += 1
            busy.setdefault(rnd, set()).update({white.pk, black.pk})
            games.append(Game(round=rnd, white=white, black=black, result=g["result"]))
        report = tournament_save(tournament=tournament, entries=entries, games=games, user=user)
        rows = [
            (e.player.key, e.player.name, e.status, e.dwz_old, e.dwz_new)
            for e in Evaluation.objects.filter(tournament=tournament).select_related("player").order_by("pk")
        ]
        return ImportResult(tournament=tournament, created_players=created, report=report, rows=rows)
