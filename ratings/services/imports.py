"""Import of tournaments in the JSON contract of spec §13, plus the optional player keys club and sex."""

from __future__ import annotations

import datetime
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import transaction

from ratings.dwz.codes import TOURNAMENT_CODE_RE, normalise_code
from ratings.dwz.contract import ContractError, _date, _describe, _is_int, parse_tournament
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
from ratings.models.federation import CLUB_ZPS_RE
from ratings.models.player import is_player_key
from ratings.recalculation import RecalculationReport, lock_ratings, rebuild_spans
from ratings.selectors import plausibility
from ratings.selectors.plausibility import PlausibilityWarning

from . import audit
from .adjustments import player_recalculate
from .tournaments import tournament_replace

if TYPE_CHECKING:
    from ratings.services.audit import Actor


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
    digest: str = ""  # of the file's bytes: stored, the same file again is a likely duplicate


@dataclass(slots=True)
class ImportResult:
    tournament: Tournament
    created_players: list[str] = field(default_factory=list)
    report: RecalculationReport | None = None
    rows: list[tuple[str, str, str, int | None, int | None]] = field(
        default_factory=list
    )  # key, name, status, old, new


BIRTH_YEAR_MIN = 1900
INDEX_MAX = 9999  # far above any real index; the column is a small integer
SMALLINT_MAX = 32767
GAMES_PER_PLAYER_MAX = 9999
_KEY_MAX, _NAME_MAX, _TOURNAMENT_NAME_MAX, _PLACE_MAX, _TIME_CONTROL_MAX = 40, 100, 200, 100, 100


def _string_errors(value: object, field: str, max_length: int | None) -> list[str]:
    """Problems of an optional stored string: its type, a NUL byte (PostgreSQL refuses it), its length."""
    if value is None:
        return []
    if not isinstance(value, str):
        return [f"{field}: must be a string, got {_describe(value)}"]
    if "\x00" in value:
        return [f"{field}: contains a NUL character"]
    if max_length is not None and len(value) > max_length:
        return [f"{field}: longer than {max_length} characters"]
    return []


def _is_tournament_code(code: str) -> bool:
    return re.fullmatch(TOURNAMENT_CODE_RE, normalise_code(code)) is not None


def _stored_field_errors(data: object) -> list[str]:  # noqa: C901 -- existing; issue 27
    """Check what the import stores beyond the contract: types, ranges, lengths, NUL bytes, clubs, codes.

    Runs before anything is written, so a bad file is reported completely and saves nothing.
    """
    errors: list[str] = []
    if not isinstance(data, dict):
        return errors
    t = data.get("tournament")
    if isinstance(t, dict):
        code = t.get("code")
        code_errors = _string_errors(code, "tournament.code", None)
        errors += code_errors
        if not code_errors and code is not None and not _is_tournament_code(code):
            errors.append(
                f"tournament.code: not a tournament code (YYWW-ZZZ-KKK or a portal UUID): {_describe(code)}"
            )
        errors += _string_errors(t.get("name"), "tournament.name", _TOURNAMENT_NAME_MAX)
        errors += _string_errors(t.get("place"), "tournament.place", _PLACE_MAX)
        errors += _string_errors(t.get("time_control"), "tournament.time_control", _TIME_CONTROL_MAX)
        start = t.get("start_date")
        if start is not None:
            _date(start, "tournament.start_date", errors)
    raw_players = data.get("players")
    clubs = set(Club.objects.values_list("zps", flat=True))
    current_year = datetime.date.today().year
    for i, raw in enumerate(raw_players if isinstance(raw_players, list) else []):
        if not isinstance(raw, dict):
            continue
        f = f"players[{i}]"
        pid = raw.get("id")
        if isinstance(pid, str) and not is_player_key(pid):
            # The id becomes the player's key, which is a URL segment (ratings.models.player).
            errors.append(
                f"{f}.id: not a player key (up to {_KEY_MAX} letters, digits and hyphens, "
                f"e.g. C0501-0013): {_describe(pid)}"
            )
        name = raw.get("name")
        name_errors = _string_errors(name, f"{f}.name", None)
        errors += name_errors
        if not name_errors and name and any(len(part) > _NAME_MAX for part in _split_name(name, "")):
            errors.append(f"{f}.name: surname or first name longer than {_NAME_MAX} characters")
        club = raw.get("club")
        if club is not None:
            if not isinstance(club, str):
                errors.append(f"{f}.club: must be a string (ZPS), got {_describe(club)}")
            elif not re.fullmatch(CLUB_ZPS_RE, club):
                errors.append(f"{f}.club: not a club ZPS like C0101: {_describe(club)}")
            elif club not in clubs:
                errors.append(
                    f"{f}.club: unknown club (ZPS) {_describe(club)}; import the DSB list first "
                    "(manage.py import_dsb_list)"
                )
        sex = raw.get("sex")
        if sex is not None and (not isinstance(sex, str) or sex not in Sex.values):
            errors.append(f"{f}.sex: must be one of {', '.join(Sex.values)}, got {_describe(sex)}")
        birth_year = raw.get("birth_year")
        if _is_int(birth_year) and not BIRTH_YEAR_MIN <= birth_year <= current_year:
            errors.append(
                f"{f}.birth_year: must be a year in {BIRTH_YEAR_MIN}-{current_year}, "
                f"got {_describe(birth_year)}"
            )
        index = raw.get("index")
        if _is_int(index) and index > INDEX_MAX:
            errors.append(f"{f}.index: must be at most {INDEX_MAX}, got {_describe(index)}")
    errors += _games_per_player_errors(data.get("games"))
    return errors


def _games_per_player_errors(raw_games: object) -> list[str]:
    """No player has more games than an evaluation row holds (its expected score has four integer digits).
    Real tournaments stay far below; only a generated or broken file comes near."""
    counts: Counter[str] = Counter()
    for raw in raw_games if isinstance(raw_games, list) else []:
        if isinstance(raw, dict):
            counts.update(pid for pid in (raw.get("white"), raw.get("black")) if isinstance(pid, str))
    return [
        f"games: player {_describe(pid)} has {n} games; at most {GAMES_PER_PLAYER_MAX} per tournament"
        for pid, n in counts.items()
        if n > GAMES_PER_PLAYER_MAX
    ]


def tournament_parse(*, data: object, source: str = "") -> ParsedTournament:
    """Validate one decoded JSON file (the contract plus our keys). Raises ``TournamentFileError``."""
    prefix = f"{source}: " if source else ""
    errors: list[str] = []
    parsed = None
    try:
        parsed = parse_tournament(data)
    except ContractError as exc:
        errors += [prefix + m for m in exc.messages]
    errors += [prefix + m for m in _stored_field_errors(data)]
    if errors or parsed is None:
        raise TournamentFileError(errors)
    assert isinstance(data, dict)
    code = normalise_code(parsed.code) if parsed.code else None
    name = parsed.name or code or f"Turnier {parsed.end_date.isoformat()}"
    return ParsedTournament(data, parsed.end_date, code, name)


def _int_or_none(value: object) -> int | None:
    # The contract accepts integral floats (1500.0) as integers.
    return None if value is None else int(value)  # type: ignore[call-overload]


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


def _head(parsed: ParsedTournament) -> Tournament:
    """The stored tournament of the same code, else a new one, with the file's head (not saved)."""
    tournament = Tournament.objects.filter(code=parsed.code).first() if parsed.code else None
    tournament = tournament or Tournament()
    t = parsed.data["tournament"]
    tournament.name = parsed.name[:200]
    tournament.code = parsed.code
    tournament.end_date = parsed.end_date
    start = t.get("start_date")
    tournament.start_date = (
        datetime.date.fromisoformat(start)
        if isinstance(start, str) and start <= parsed.end_date.isoformat()
        else parsed.end_date
    )
    tournament.place = (t.get("place") or "")[:100] if isinstance(t.get("place"), str) else tournament.place
    if isinstance(t.get("time_control"), str):
        tournament.time_control = t["time_control"]
    if parsed.digest:
        tournament.source_digest = parsed.digest
    return tournament


def import_warnings(*, parsed: ParsedTournament) -> list[PlausibilityWarning]:
    """The plausibility warnings for importing ``parsed`` (reads only): stored players by key, the others
    as they would be created."""
    data = parsed.data
    stored = {p.key: p for p in Player.objects.filter(key__in=[r["id"] for r in data["players"]])}
    players = {}
    for raw in data["players"]:
        surname, first = _split_name(raw.get("name"), raw["id"])
        players[raw["id"]] = stored.get(raw["id"]) or Player(
            key=raw["id"], surname=surname, first_name=first, birth_year=_int_or_none(raw.get("birth_year"))
        )
    games = [
        Game(
            round=1,
            white_id=players[g["white"]].pk,
            black_id=players[g["black"]].pk if g.get("black") is not None else None,
            result=g["result"],
        )
        for g in data["games"]
    ]
    return plausibility.tournament_warnings(
        tournament=_head(parsed), players=list(players.values()), games=games, digest=parsed.digest
    )


def tournament_import(*, parsed: ParsedTournament, user: Actor = None) -> ImportResult:
    """Create or update (same code) the tournament, creating unknown players with their start values."""
    data = parsed.data
    with transaction.atomic():
        lock_ratings()
        created: list[str] = []
        players: dict[str, Player] = {
            p.key: p for p in Player.objects.filter(key__in=[r["id"] for r in data["players"]])
        }
        needs_replay: list[Player] = []
        starts: list[RatingAdjustment] = []
        for raw in data["players"]:
            key = raw["id"]
            player = players.get(key)
            if player is None:
                surname, first = _split_name(raw.get("name"), key)
                dwz, fide = _int_or_none(raw.get("dwz")), _int_or_none(raw.get("fide_elo"))
                index = int(raw.get("index") or 0) if dwz is not None else None
                # Without history a new player's replayed DWZ is his start value; the tournament's
                # recalculation below starts from it, so the start values need no replay of their own.
                player = Player.objects.create(
                    key=key,
                    surname=surname,
                    first_name=first,
                    birth_year=_int_or_none(raw.get("birth_year")),
                    sex=raw.get("sex") or "",
                    dwz=dwz,
                    index=index,
                )
                players[key] = player
                created.append(key)
                if raw.get("club"):
                    _membership_for(player, raw["club"])
                if dwz is not None or fide is not None:
                    starts.append(
                        RatingAdjustment(
                            player=player,
                            kind=AdjustmentKind.START,
                            dwz=dwz,
                            index=index,
                            fide_elo=fide if dwz is None else None,
                            reason=f"Import {parsed.name}",
                            author=audit.stored_user(user=user),
                        )
                    )
            elif (
                raw.get("club")
                and _membership_for(player, raw["club"])
                and Evaluation.objects.filter(player=player, status=EvaluationStatus.NOT_RATED).exists()
            ):
                needs_replay.append(player)  # he now keeps Restpartien (WO 3.4.3)
        # The contract checked the values (ratings 0-3000, index 0-9999); the constraints hold the rest.
        RatingAdjustment.objects.bulk_create(starts, batch_size=500)
        # Their start values are their DWZ already (no replay for them): their spans likewise.
        rebuild_spans(players={a.player_id for a in starts})
        for adjustment in starts:
            audit.record_adjustment(adjustment=adjustment, user=user, action=audit.AuditAction.CREATE)
        for player in needs_replay:
            player_recalculate(player=player)

        tournament = _head(parsed)
        entries = [
            # "member": false (WO 3.4.3): part of the calculation, no DWZ and no Restpartien stored.
            TournamentEntry(player=players[r["id"]], start_rank=i, member=r.get("member") is not False)
            for i, r in enumerate(data["players"], 1)
        ]
        games = []
        busy: dict[int, set[int]] = {}
        for g in data["games"]:
            white = players[g["white"]]
            black = players[g["black"]] if g.get("black") is not None else None  # None: a bye
            seated = {white.pk} | ({black.pk} if black else set())
            rnd = g.get("round")
            rnd = rnd if isinstance(rnd, int) and 0 < rnd <= SMALLINT_MAX else None
            if rnd is None or seated & busy.get(rnd, set()):
                rnd = 1  # the contract has no rounds: pack the games into rounds in file order
                while seated & busy.get(rnd, set()):
                    rnd += 1
            busy.setdefault(rnd, set()).update(seated)
            games.append(Game(round=rnd, white=white, black=black, result=g["result"]))
        report = tournament_replace(tournament=tournament, entries=entries, games=games, user=user)
        rows = [
            (e.player.key, e.player.name, e.status, e.dwz_old, e.dwz_new)
            for e in Evaluation.objects.filter(tournament=tournament).select_related("player").order_by("pk")
        ]
        return ImportResult(tournament=tournament, created_players=created, report=report, rows=rows)
