"""Tournaments from TRF files, the reads: read, match the players, preview (the save is
``ratings.services.trf_import.trf_save``; nothing is written here).

The steps are separate so that the officer page can show each one and the command can run them in a row:

1. :func:`trf_read` turns the bytes into a :class:`ratings.formats.trf.TrfTournament` (errors translated);
2. :func:`trf_match` proposes a stored player for every line: by DSB person id, FIDE id, ZPS-Mitgliedsnummer,
   then surname + first name + birth year (umlaut- and case-insensitive); several candidates are never
   decided silently;
3. :func:`trf_preview` evaluates the tournament as it would be saved (nothing is written);
4. ``services.trf_import.trf_save`` creates the new players with their start values from the file (DWZ
   from the GER line, else FIDE Elo as a take-over), then saves head, participants, games and byes
   through ``tournament_create`` in one transaction.
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

from django.db.models import Q
from django.utils.translation import gettext as _

from ratings.dwz import evaluate
from ratings.dwz.replay import PlayerState
from ratings.dwz.types import GameInput, PlayerInput, PlayerResult, TournamentInput, TournamentResult
from ratings.enums import ResultCode
from ratings.formats import dsb_xml
from ratings.formats.dsb_xml_trf import is_xml, to_trf
from ratings.formats.trf import (
    MAX_FILE_SIZE,
    Problem,
    TrfError,
    TrfHead,
    TrfPlayer,
    TrfTournament,
    person_id,
    read_trf,
)
from ratings.models import Club, Game, Membership, Organisation, Player, Tournament

from . import plausibility
from .plausibility import PlausibilityWarning
from .previews import later_tournaments, rating_states_before

# TRF code pairs (white, black) → dwzsite result; W/L (unrated wins) become forfeits: points, no rating.
GAME_RESULTS = {
    ("1", "0"): ResultCode.WHITE_WINS,
    ("0", "1"): ResultCode.BLACK_WINS,
    ("=", "="): ResultCode.DRAW,
    ("+", "-"): ResultCode.WHITE_WINS_FORFEIT,
    ("-", "+"): ResultCode.BLACK_WINS_FORFEIT,
    ("-", "-"): ResultCode.DOUBLE_FORFEIT,
    ("W", "L"): ResultCode.WHITE_WINS_FORFEIT,
    ("L", "W"): ResultCode.BLACK_WINS_FORFEIT,
}
# TRF byes → dwzsite byes: a pairing-allocated bye (U) is "spielfrei" (+) here.
BYE_RESULTS = {
    "U": ResultCode.BYE,
    "F": ResultCode.FULL_POINT_BYE,
    "H": ResultCode.HALF_POINT_BYE,
    "Z": ResultCode.ZERO_POINT_BYE,
}

REASON_DSB_ID = "dsb_id"
REASON_FIDE_ID = "fide_id"
REASON_MEMBER = "member"
REASON_NAME = "name"


class TrfImportError(ValueError):
    """The file or the decisions cannot be imported; ``messages`` are translated, one per problem."""

    def __init__(self, messages: list[str], *, ambiguous_date: bool = False) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages
        self.ambiguous_date = ambiguous_date


def problem_text(problem: Problem) -> str:
    """The translated message of a reader problem, with its place."""
    message = _(problem.template) % problem.params if problem.params else _(problem.template)
    if problem.line is None:
        return message
    where = _(problem.where_template) % {"line": problem.line, "first": problem.first, "last": problem.last}
    return f"{where}: {message}"


def trf_read(data: bytes, *, date_order: str = "") -> TrfTournament:
    """Read an uploaded file; raises :class:`TrfImportError` with every problem, translated."""
    if len(data) > MAX_FILE_SIZE:
        raise TrfImportError([_("Die Datei ist größer als 2 MB.")])
    try:
        return read_trf(data, date_order=date_order)
    except TrfError as exc:
        from ratings.formats.trf import AmbiguousDateError

        raise TrfImportError(
            [problem_text(p) for p in exc.problems], ambiguous_date=isinstance(exc, AmbiguousDateError)
        ) from None


def xml_problem_text(problem: dsb_xml.Problem) -> str:
    """The translated message of a DSB-XML reader problem, with its line and element."""
    message = _(problem.template) % problem.params if problem.params else _(problem.template)
    if not problem.where_template:
        return message
    where = _(problem.where_template) % {"line": problem.line, "element": problem.element}
    return f"{where}: {message}"


def xml_read(data: bytes) -> TrfTournament:
    """Read a DSB tournament report (XML 2.5) as the TRF import's intermediate; raises
    :class:`TrfImportError` with every problem, each naming its line and element."""
    if len(data) > MAX_FILE_SIZE:
        raise TrfImportError([_("Die Datei ist größer als 2 MB.")])
    try:
        return to_trf(dsb_xml.parse(data))
    except dsb_xml.DsbXmlError as exc:
        raise TrfImportError([xml_problem_text(p) for p in exc.problems]) from None


def import_read(data: bytes, *, date_order: str = "") -> TrfTournament:
    """An uploaded tournament file, TRF or DSB-XML by its content (not its name)."""
    return xml_read(data) if is_xml(data) else trf_read(data, date_order=date_order)


# --- matching ------------------------------------------------------------------------------------------

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe"})
_CAPITAL_UMLAUTS = str.maketrans({"Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_NOT_ALNUM = re.compile(r"[^a-z0-9]")


@lru_cache(maxsize=65536)
def fold(name: str) -> str:
    """A name for comparing, umlaut- and case-insensitive: Müller = MUELLER = mueller; Weiß = Weiss."""
    text = name.casefold().translate(_UMLAUTS)
    text = unicodedata.normalize("NFKD", text)
    return _NOT_ALNUM.sub("", text.encode("ascii", "ignore").decode())


_TITLES = frozenset({"dr", "prof", "dipl", "ing", "med", "phil", "rer", "nat", "hc"})


def name_key(surname: str, first_name: str) -> str:
    """Surname and first name for comparing: folded, without academic titles (``Dr.``, a third part)."""
    words = [fold(w) for w in re.split(r"[\s,]+", first_name)]
    return fold(surname) + "," + "".join(w for w in words if w and w not in _TITLES)


def _spellings(surname: str) -> set[str]:
    """Stored spellings a file's surname may match (the index on surname does the work)."""
    base = {surname, surname.replace("ae", "ä").replace("oe", "ö").replace("ue", "ü")}
    base.add(surname.translate(_UMLAUTS))
    base.add(surname.translate(_CAPITAL_UMLAUTS).translate(_UMLAUTS))
    plain = unicodedata.normalize("NFKD", surname).encode("ascii", "ignore").decode()
    base.add(plain)
    base |= {s.replace("ss", "ß") for s in base if "ss" in s}  # CLM writes Weiss for Weiß
    out: set[str] = set()
    for s in base:
        for v in (s, s.lower(), s.upper(), s.title(), s[:1].upper() + s[1:].lower()):
            out.add(v)
            out.add(v.replace("Ae", "Ä").replace("Oe", "Ö").replace("Ue", "Ü"))
    return {s for s in out if s}


@dataclass
class Match:
    """One line of the file and what dwzsite proposes for it."""

    trf: TrfPlayer
    player: Player | None = None
    reason: str = ""  # REASON_* of the proposal
    candidates: list[Player] = field(default_factory=list)  # several: the officer must decide
    certain: bool = True  # False for a name match without birth year
    by_birth_year: bool = False  # a name match that compared the birth year (the file gave one)
    stored_dwz: int | None = None
    stored_index: int | None = None

    @property
    def ambiguous(self) -> bool:
        return self.player is None and len(self.candidates) > 1

    @property
    def file_dwz(self) -> int | None:
        return self.trf.dwz

    @property
    def differs(self) -> bool:
        """The file's DWZ differs from the one dwzsite holds for this player before the tournament."""
        return self.player is not None and self.file_dwz is not None and self.file_dwz != self.stored_dwz

    @property
    def reason_label(self) -> str:
        return {
            REASON_DSB_ID: _("DSB-Personen-ID"),
            REASON_FIDE_ID: _("FIDE-ID"),
            REASON_MEMBER: _("ZPS-Mitgliedsnummer"),
            REASON_NAME: self._name_label(),
        }.get(self.reason, "")

    def _name_label(self) -> str:
        """What a name match really compared: the birth year only if the file gave one."""
        if self.by_birth_year:
            return _("Name und Geburtsjahr")
        if self.certain:  # neither the file nor the stored player has a birth year
            return _("den Namen (beide ohne Geburtsjahr)")
        return _("den Namen (Geburtsjahr fehlt in der Datei)")


def _unique(players: Iterable[Player]) -> list[Player]:
    seen: dict[int, Player] = {}
    for p in players:
        seen.setdefault(p.pk, p)
    return list(seen.values())


def trf_match(tournament: TrfTournament) -> list[Match]:  # noqa: C901, PLR0912, PLR0915 -- existing; issue 27
    """Propose a stored player for every line of the file (read only; a few queries for any size)."""
    players = tournament.players
    ids = {p.start_rank: person_id(p.person_id) for p in players}
    keys = {i.value for i in ids.values() if i and i.kind in ("nu", "pkz", "member", "raw")}
    dsb_ids = {i.value for i in ids.values() if i and i.kind in ("nu", "pkz") and len(i.value) <= 12}
    by_key: dict[str, list[Player]] = defaultdict(list)
    by_dsb_id: dict[str, list[Player]] = defaultdict(list)
    fields = ("pk", "key", "surname", "first_name", "birth_year", "dsb_id", "fide_id")
    if keys:
        for stored in Player.objects.filter(key__in=keys).only(*fields):
            by_key[stored.key.upper()].append(stored)
    if dsb_ids:
        for stored in Player.objects.filter(dsb_id__in=dsb_ids).only(*fields):
            by_dsb_id[(stored.dsb_id or "").upper()].append(stored)
    fide_ids = {p.fide_id for p in players if p.fide_id and p.fide_id <= 2**31 - 1}
    by_fide: dict[int, list[Player]] = defaultdict(list)
    for stored in Player.objects.filter(fide_id__in=fide_ids).only(*fields) if fide_ids else ():
        if stored.fide_id is not None:  # always true: the query selects by FIDE id
            by_fide[stored.fide_id].append(stored)
    members = [i for i in ids.values() if i and i.kind == "member"]
    by_member: dict[tuple[str, str], list[Player]] = defaultdict(list)
    if members:
        cond = Q()
        for i in members:
            if i.member_number.isdigit():  # 245 finds a stored 0245 (the XML writes no leading zeros)
                number = str(int(i.member_number))
                spellings = {i.member_number, *(number.zfill(width) for width in range(len(number), 7))}
                cond |= Q(club__zps=i.zps, member_number__in=spellings)
            else:
                cond |= Q(club__zps=i.zps, member_number__iexact=i.member_number)
        for ms in Membership.objects.filter(cond).select_related("club", "player"):
            by_member[(ms.club.zps, ms.member_number.upper())].append(ms.player)
            if ms.member_number.isdigit():
                by_member[(ms.club.zps, str(int(ms.member_number)))].append(ms.player)
    by_name: dict[str, list[Player]] = defaultdict(list)
    # The file's surnames and first names in their possible stored spellings: one indexed query per 900
    # surnames, then only rows whose folded name (and birth year) fits a line become Player objects.
    wanted: dict[str, set[int | None]] = defaultdict(set)
    surnames: set[str] = set()
    for p in players:
        if p.surname:
            wanted[name_key(p.surname, p.first_name)].add(p.birth_year)
            surnames |= _spellings(p.surname)
    hits: list[int] = []
    for chunk in _chunks(sorted(surnames), 900):
        rows = Player.objects.filter(surname__in=chunk).values_list(
            "pk", "surname", "first_name", "birth_year"
        )
        for pk, surname, first, year in rows:
            years = wanted.get(name_key(surname, first))
            if years is not None and (year is None or None in years or year in years):
                hits.append(pk)
    for chunk in _chunks(hits, 900):
        for stored in Player.objects.filter(pk__in=chunk).only(*fields):
            by_name[name_key(stored.surname, stored.first_name)].append(stored)

    matches = []
    for p in players:
        m = Match(trf=p)
        pid = ids[p.start_rank]
        found: list[Player] = []
        if pid and pid.kind in ("nu", "pkz", "raw"):
            found = _unique([*by_dsb_id.get(pid.value, []), *by_key.get(pid.value.upper(), [])])
            m.reason = REASON_DSB_ID if found else ""
        if not found and p.fide_id:
            found = _unique(by_fide.get(p.fide_id, []))
            m.reason = REASON_FIDE_ID if found else ""
        if not found and pid and pid.kind == "member":
            number = pid.member_number.upper()
            found = _unique(
                [
                    *by_key.get(pid.value, []),
                    *by_member.get((pid.zps, number), []),
                    *(by_member.get((pid.zps, str(int(number))), []) if number.isdigit() else []),
                ]
            )
            m.reason = REASON_MEMBER if found else ""
        if not found and p.surname:
            named = by_name.get(name_key(p.surname, p.first_name), [])
            if p.birth_year is not None:
                found = [c for c in named if c.birth_year == p.birth_year]
                m.by_birth_year = True
            else:
                # Without a birth year only a stored player without one is as certain as the file allows.
                found = [c for c in named if c.birth_year is None] or named
                m.certain = all(c.birth_year is None for c in found)
            m.reason = REASON_NAME if found else ""
        found = _unique(found)
        if len(found) == 1:
            m.player = found[0]
        m.candidates = found
        matches.append(m)
    return matches


def _chunks(values: list, size: int) -> Iterable[list]:
    for i in range(0, len(values), size):
        yield values[i : i + size]


def attach_stored_ratings(matches: Sequence[Match], head: Head) -> None:
    """Each proposed player's DWZ and index in dwzsite just before this tournament (for the comparison)."""
    if head.end_date is None:
        return
    stub = Tournament(name=head.name, end_date=head.end_date, code=head.code or None)
    existing = Tournament.objects.filter(code=head.code).first() if head.code else None
    stub.pk = existing.pk if existing else None
    ids = {m.player.pk for m in matches if m.player is not None}
    states = rating_states_before(tournament=stub, player_ids=ids)
    for m in matches:
        state = states.get(m.player.pk) if m.player is not None else None
        m.stored_dwz = state.dwz if state else None
        m.stored_index = state.index if state else None


def unresolved(matches: Sequence[Match]) -> list[Match]:
    """Lines without a certain, single match."""
    return [m for m in matches if m.player is None or not m.certain]


# --- head ----------------------------------------------------------------------------------------------


@dataclass
class Head:
    """The tournament head the officer confirms (prefilled from the file)."""

    name: str
    end_date: datetime.date | None
    start_date: datetime.date | None = None
    place: str = ""
    code: str | None = None
    rounds: int | None = None
    organiser_club: Club | None = None
    organiser_organisation: Organisation | None = None
    rated: bool = True
    time_control: str = ""  # TRF 122, as written


def head_from_file(tournament: TrfTournament) -> Head:
    h = tournament.head
    return Head(
        name=(h.name or _("Turnier aus TRF-Datei"))[:200],
        end_date=h.end_date,
        start_date=h.start_date or h.end_date,
        place=h.city[:100],
        rounds=tournament.rounds or None,
        time_control=h.time_control[:100],
    )


def file_tiebreaks(head: TrfHead) -> str:
    """The tie-breaks the file names (202, else 212 without PTS), as the tournament stores them."""
    codes = head.tiebreaks or [c for c in head.standings_tiebreaks if c.upper() != "PTS"]
    kept: list[str] = []
    for code in codes:
        if len(",".join([*kept, code])) > 200:  # the field's length; a cut code would mean another tie-break
            break
        kept.append(code)
    return ",".join(kept)


def find_organiser(value: str) -> Club | Organisation:
    """A club by ZPS (5 characters) or an organisation by code (3); unknown ones point to the DSB list."""
    value = value.strip().upper()
    if len(value) == 5:
        club = Club.objects.filter(zps=value).first()
        if club:
            return club
    elif len(value) == 3:
        org = Organisation.objects.filter(code=value).first()
        if org:
            return org
    raise TrfImportError(
        [
            _(
                "Ausrichter „%(value)s“ ist unbekannt. Bitte zuerst die DSB-Liste importieren "
                "(import_dsb_list)."
            )
            % {"value": value}
        ]
    )


def tournament_from_head(head: Head) -> Tournament:
    """The stored tournament of the head's code, else a new one, with the head's values (unsaved)."""
    tournament = Tournament.objects.filter(code=head.code).first() if head.code else None
    tournament = tournament or Tournament()
    tournament.name = head.name
    tournament.place = head.place
    tournament.end_date = head.end_date  # type: ignore[assignment]
    tournament.start_date = head.start_date or head.end_date  # type: ignore[assignment]
    tournament.code = head.code or None
    tournament.rounds = head.rounds
    tournament.organiser_club = head.organiser_club
    tournament.organiser_organisation = head.organiser_organisation
    tournament.rated = head.rated
    tournament.time_control = head.time_control
    return tournament


# --- decisions -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """What to do with one line: take a stored player (``player_id``) or create one (``club`` optional)."""

    player_id: int | None = None
    create: bool = False
    club_id: int | None = None
    member: bool = True  # False: not a member of a DSB club (WO 3.4.3)


def decisions_from_matches(matches: Sequence[Match], *, create_unknown: bool = False) -> dict[int, Decision]:
    """Certain single matches as they are; the others new (with ``create_unknown``) or left open."""
    out: dict[int, Decision] = {}
    for m in matches:
        if m.player is not None and m.certain:
            out[m.trf.start_rank] = Decision(player_id=m.player.pk)
        elif create_unknown and not m.candidates:
            out[m.trf.start_rank] = Decision(create=True)
    return out


def new_player(p: TrfPlayer, key: str) -> Player:
    """The player a file's line becomes if the officer creates him (unsaved)."""
    pid = person_id(p.person_id)
    return Player(
        key=key,
        surname=(p.surname or p.name)[:100],
        first_name=" ".join(x for x in (p.first_name, p.name_suffix) if x)[:100],
        sex=p.sex,
        birth_year=p.birth_year,
        dsb_id=pid.value if pid and pid.kind in ("nu", "pkz") and len(pid.value) <= 12 else None,
        fide_id=p.fide_id if p.fide_id and p.fide_id <= 2**31 - 1 else None,
        fide_elo=p.fide_rating,
        fide_title=p.title,
        fide_federation=p.federation,
    )


# --- games ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PendingGame:
    """A game or bye between start ranks, in dwzsite's result codes."""

    round: int
    white: int
    black: int | None
    result: str


def pending_games(tournament: TrfTournament) -> tuple[list[PendingGame], list[str]]:
    """Every game and bye of the file in dwzsite's codes, plus notes on what had to be converted."""
    out: list[PendingGame] = []
    notes: list[str] = []
    for g in tournament.games:
        result = GAME_RESULTS.get((g.white_code, g.black_code))
        if result is None:  # D/D: a draw of less than one move; half a point each, no pairing for the rating
            out.append(PendingGame(g.round, g.white, None, ResultCode.HALF_POINT_BYE))
            out.append(PendingGame(g.round, g.black, None, ResultCode.HALF_POINT_BYE))
            notes.append(
                _("Runde %(round)s: „D“ (%(white)s–%(black)s) als zwei Halbpunkt-Freilose gespeichert.")
                % {"round": g.round, "white": g.white, "black": g.black}
            )
            continue
        if g.white_code in ("W", "L"):
            notes.append(
                _("Runde %(round)s: „W/L“ (%(white)s–%(black)s) als kampflos gespeichert.")
                % {"round": g.round, "white": g.white, "black": g.black}
            )
        out.append(PendingGame(g.round, g.white, g.black, result))
    for b in tournament.byes:
        out.append(PendingGame(b.round, b.player, None, BYE_RESULTS[b.code]))
    out.sort(key=lambda g: (g.round, g.black is None, g.white))
    return out, notes


# --- preview -------------------------------------------------------------------------------------------


@dataclass
class PreviewLine:
    trf: TrfPlayer
    player: Player | None
    state: PlayerState
    result: PlayerResult | None

    @property
    def rated_points(self) -> Decimal | None:
        """Points of the games that count for the DWZ (byes and forfeits never do)."""
        return None if self.result is None else Decimal(self.result.points) / 1000


@dataclass
class TrfPreview:
    edition: str
    lines: list[PreviewLine]
    later: list[int]


def file_start_state(p: TrfPlayer) -> PlayerState:
    """An unknown player's start value from the file: DWZ (+ index) of the GER line, else FIDE Elo."""
    if p.dwz is not None:
        return PlayerState(p.dwz, p.dwz_index or 0)
    if p.fide_rating is not None:
        return PlayerState(fide_elo=p.fide_rating)
    return PlayerState()


def trf_preview(*, tournament: TrfTournament, head: Head, decisions: Mapping[int, Decision]) -> TrfPreview:
    """The evaluation as saving would compute it (unknown players with their start values). Reads only."""
    # The view previews only a head from the valid form, whose end date is required (as below).
    stub = Tournament(name=head.name, end_date=head.end_date, code=head.code or None, rated=head.rated)  # type: ignore[misc]
    existing = Tournament.objects.filter(code=head.code).first() if head.code else None
    if existing is not None:
        stub.pk = existing.pk
    chosen = {rank: d.player_id for rank, d in decisions.items() if d.player_id is not None}
    states = rating_states_before(tournament=stub, player_ids=set(chosen.values()))
    players = Player.objects.in_bulk(set(chosen.values()))
    inputs, lines = [], []
    for p in tournament.players:
        pk = chosen.get(p.start_rank)
        state = states.get(pk, PlayerState()) if pk is not None else file_start_state(p)
        birth = players[pk].birth_year if pk in players else p.birth_year
        decision = decisions.get(p.start_rank)
        member = decision is None or decision.member
        if state.dwz is not None:
            inputs.append(PlayerInput(str(p.start_rank), birth, state.dwz, state.index or 0, member=member))
        elif state.fide_elo is not None:
            inputs.append(PlayerInput(str(p.start_rank), birth, fide_elo=state.fide_elo, member=member))
        else:
            inputs.append(PlayerInput(str(p.start_rank), birth, restpartien=state.restpartien, member=member))
        lines.append(PreviewLine(p, players.get(pk) if pk else None, state, None))
    games, _notes = pending_games(tournament)
    engine_games = tuple(
        GameInput(str(g.white), str(g.black), str(g.result)) for g in games if g.black is not None
    )
    result: TournamentResult = evaluate(
        TournamentInput(end_date=head.end_date, players=tuple(inputs), games=engine_games, code=head.code)  # type: ignore[arg-type]
    )
    by_id = {r.id: r for r in result.players}
    for line in lines:
        line.result = by_id[str(line.trf.start_rank)]
    later = later_tournaments(tournament=stub, player_ids=set(chosen.values())) if head.rated else []
    return TrfPreview(edition=result.edition, lines=lines, later=later)


# --- plausibility ---------------------------------------------------------------------------------------


def trf_warnings(
    *, tournament: TrfTournament, head: Head, decisions: Mapping[int, Decision], digest: str = ""
) -> list[PlausibilityWarning]:
    """The plausibility warnings for saving the file with these decisions (reads only): the chosen stored
    players, the new ones as they would be created, the games between start ranks."""
    chosen = {rank: d.player_id for rank, d in decisions.items() if d.player_id is not None}
    stored = Player.objects.in_bulk(set(chosen.values()))
    by_rank: dict[int, Player] = {}
    for p in tournament.players:
        pk = chosen.get(p.start_rank)
        by_rank[p.start_rank] = stored[pk] if pk in stored else new_player(p, key="")
    games = [
        Game(
            round=g.round,
            white_id=by_rank[g.white].pk,
            black_id=by_rank[g.black].pk if g.black else None,
            result=g.result,
        )
        for g in pending_games(tournament)[0]
    ]
    head_row = tournament_from_head(head)
    return plausibility.tournament_warnings(
        tournament=head_row, players=list(by_rank.values()), games=games, digest=digest
    )
