"""A stored tournament as the DSB's XML report 2.5 (formats.md §3.10), the checks before its export, and
the snapshot of what it would send now.

Reads only. The rows of one or many tournaments are loaded in a fixed number of queries
(:func:`load_rows`) and turned into a :class:`ratings.formats.dsb_xml.Report` without further queries
(:func:`build_report`): the export of one tournament and the states of a dashboard's tournaments
(``selectors.tournament_states``) share both. Start numbers and their order are the TRF export's
(``entries_in_start_order``, ``start_numbers``).

Decisions where §3.10 is silent:

* ``endDate`` is the tournament's end date: dwzsite stores no day per round or game, and the end date is
  by WO 2.2.3 the day of the last game (the plausibility checks ask for it before the evaluation).
* ``tournamentUUID``: the stored ``Tournament.xml_uuid``; before the first export the portal UUID where the
  code is one, else the UUID derived from the tournament's id (``dsb_xml.tournament_uuid``), which the first
  export stores.
* byes (no opponent: ``noneBlackPlayer``): spielfrei ``+``/``-``, Vollpunkt-Freilos ``1``/``0``,
  Halbpunkt-Freilos ``0.5``/``0``, zero-point and unpaired ``0``/``0``. Forfeits ``+``/``-``, ``-``/``+``,
  ``-``/``-``.
* club, ``vkz`` and member number from the player's primary membership (current before ended, A over P).
"""

from __future__ import annotations

import datetime
import importlib.metadata
import re
import tomllib
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from ratings.formats import dsb_xml
from ratings.formats.dsb_xml_snapshot import report_snapshot, snapshot_digest
from ratings.formats.trf_export import export_filename, start_numbers
from ratings.models import Game, Membership, Tournament, TournamentEntry, TournamentEntryMode
from ratings.models.officer import TournamentMode

from .tournament_export import entries_in_start_order

__all__ = [
    "ExportCheck",
    "TournamentRows",
    "build_report",
    "dsb_export",
    "dsb_report",
    "export_check",
    "load_rows",
    "report_snapshot",
    "snapshot_digest",
    "system_version",
    "tournament_report",
    "xml_filename",
]

# dwzsite's results → (pointWhite, pointBlack); byes have no black player (noneBlackPlayer).
GAME_POINTS = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2-1/2": ("0.5", "0.5"),
    "+-": ("+", "-"),
    "-+": ("-", "+"),
    "--": ("-", "-"),
}
BYE_POINTS = {"+": ("+", "-"), "F": ("1", "0"), "H": ("0.5", "0"), "Z": ("0", "0"), "U": ("0", "0")}
_DSB_ID = re.compile(r"(?:NU|FI)\d{1,12}|\d{1,12}")  # dsbId as formats.md §3.10 allows it
_MODES: dict[str, str] = {TournamentMode.SWISS: "swiss", TournamentMode.ROUND_ROBIN: "rr"}
# A league division's system (leagues.models.DivisionSystem) → the mode of dsb_xml.tournament_type.
_LEAGUE_PART = "league_part"
_LEAGUE_MODES = {"round_robin": "rr", "swiss": "swiss", "knockout": "knockout"}


@dataclass
class TournamentRows:
    """What the report of one tournament is built from (no further query)."""

    tournament: Tournament
    mode: str = TournamentMode.ROUND_ROBIN
    entries: list[TournamentEntry] = field(default_factory=list)
    games: list[tuple[int, int | None, int, int | None, str]] = field(default_factory=list)
    memberships: dict[int, Membership] = field(default_factory=dict)
    team_system: str = ""  # a league division's (or part's) system: a team tournament, TR/TW/TC

    @property
    def numbers(self) -> dict[int, int]:
        """player pk → start number (the TRF export's numbering)."""
        return start_numbers(self.entries)

    def boards(self) -> dict[tuple[int, int, int | None], int]:
        """(round, white number, black number) → board, where the game has one (labels of a diff)."""
        numbers = self.numbers
        return {
            (rnd, numbers.get(white, 0), numbers.get(black) if black else None): board
            for rnd, board, white, black, _result in self.games
            if board is not None
        }


def _league_systems(ids: Sequence[int]) -> dict[int, str]:
    """The division system of those of ``ids`` that are a league division's DWZ tournament. One query, read
    through the reverse relation the leagues app declares (``ratings`` never imports ``leagues``)."""
    if not hasattr(Tournament, _LEAGUE_PART):
        return {}
    rows = Tournament.objects.filter(pk__in=ids, **{f"{_LEAGUE_PART}__isnull": False}).values_list(
        "pk", f"{_LEAGUE_PART}__division__system"
    )
    return {pk: system for pk, system in rows if system}


def load_rows(*, tournaments: Sequence[Tournament]) -> dict[int, TournamentRows]:
    """The rows of ``tournaments`` by pk: five queries however many (entries with players, games,
    memberships with clubs, entry modes, league divisions)."""
    ids = [t.pk for t in tournaments]
    rows = {t.pk: TournamentRows(tournament=t) for t in tournaments}
    if not ids:
        return rows
    for pk, entries in entries_in_start_order(tournament_ids=ids).items():
        rows[pk].entries = entries
    for tournament_id, rnd, board, white, black, result in (
        Game.objects.filter(tournament_id__in=ids)
        .order_by("tournament_id", "round", F("board").asc(nulls_last=True), "pk")
        .values_list("tournament_id", "round", "board", "white_id", "black_id", "result")
    ):
        rows[tournament_id].games.append((rnd, board, white, black, result))
    player_ids = {e.player_id for r in rows.values() for e in r.entries}
    primary: dict[int, Membership] = {}
    for m in Membership.objects.filter(player_id__in=player_ids).select_related("club").primary_first():
        primary.setdefault(m.player_id, m)
    for r in rows.values():
        r.memberships = {e.player_id: primary[e.player_id] for e in r.entries if e.player_id in primary}
    for tournament_id, mode in TournamentEntryMode.objects.filter(tournament_id__in=ids).values_list(
        "tournament_id", "mode"
    ):
        rows[tournament_id].mode = mode
    for tournament_id, system in _league_systems(ids).items():
        rows[tournament_id].team_system = system
    return rows


@cache
def system_version() -> str:
    """dwzsite's version (the installed distribution's, else pyproject.toml's)."""
    try:
        return importlib.metadata.version("dwzsite")
    except importlib.metadata.PackageNotFoundError:
        pass
    try:
        data = tomllib.loads((Path(settings.BASE_DIR) / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return ""
    return str(data.get("project", {}).get("version", ""))


def tournament_xml_uuid(tournament: Tournament) -> uuid.UUID:
    """The stable ``tournamentUUID``: stored at the first export; before it the portal UUID or the derived
    one."""
    if tournament.xml_uuid is not None:
        return tournament.xml_uuid
    return dsb_xml.tournament_uuid(f"tournament:{tournament.pk}", tournament.code or "")


def _member_number(text: str) -> int | None:
    text = text.strip()
    if text.isascii() and text.isdecimal() and 1 <= int(text) <= 99999:
        return int(text)
    return None


def _dsb_id(player) -> str:
    for value in (player.dsb_id or "", player.key or ""):
        value = value.strip().upper()
        if value and _DSB_ID.fullmatch(value):
            return value
    return ""


def _player(entry: TournamentEntry, number: int, membership: Membership | None) -> dsb_xml.Player:
    p = entry.player
    return dsb_xml.Player(
        number=number,
        surname=p.surname,
        forename=p.first_name,
        birth_year=p.birth_year,
        dsb_id=_dsb_id(p),
        vkz=membership.club.zps if membership else "",
        member_number=_member_number(membership.member_number) if membership else None,
        club=membership.club.name if membership else "",
        fide_id=p.fide_id or None,
        fide_rating=p.fide_elo or None,
        sex=p.sex if p.sex in ("m", "w") else "",
    )


def _games(rows: TournamentRows, numbers: dict[int, int]) -> list[dsb_xml.Game]:
    out = []
    for rnd, _board, white_id, black_id, result in rows.games:
        white = numbers.get(white_id)
        if black_id is None:
            pw, pb = BYE_POINTS.get(result, ("0", "0"))
            out.append(dsb_xml.Game(round=rnd, white=white or 0, black=None, point_white=pw, point_black=pb))
            continue
        pw, pb = GAME_POINTS[result]
        black = numbers.get(black_id)
        out.append(
            dsb_xml.Game(round=rnd, white=white or 0, black=black or 0, point_white=pw, point_black=pb)
        )
    return out


def _location(t: Tournament) -> str:
    if t.place.strip():
        return t.place
    organiser = t.organiser
    return organiser.name if organiser is not None else ""


def _sender(t: Tournament, user) -> str:
    officer = user if user is not None and getattr(user, "is_authenticated", False) else t.rating_officer
    officer_name = (officer.get_full_name() or officer.get_username()) if officer is not None else ""
    organisation = t.organiser_organisation
    if organisation is None and t.organiser_club is not None:
        organisation = t.organiser_club.organisation
    return dsb_xml.sender_text(organisation.name if organisation else "", officer_name)


def _type(rows: TournamentRows) -> str:
    """``tournamentType``: SW/SR by the entry mode; a league division's TR/TW/TC by its system."""
    if rows.team_system:
        return dsb_xml.tournament_type(_LEAGUE_MODES.get(rows.team_system, "rr"), team=True)
    return dsb_xml.tournament_type(_MODES.get(rows.mode, "rr"))


def build_report(rows: TournamentRows, *, header: dsb_xml.Header | None = None) -> dsb_xml.Report:
    """The report of one tournament from its loaded rows; ``header`` None: a neutral one (for snapshots).
    A game with a player who is not an entry gets start number 0: the check names it."""
    t = rows.tournament
    numbers = rows.numbers
    players = tuple(_player(e, numbers[e.player_id], rows.memberships.get(e.player_id)) for e in rows.entries)
    games = tuple(_games(rows, numbers))
    rounds = max([t.rounds or 0, *(g.round for g in games)])
    tournament = dsb_xml.Tournament(
        uuid=tournament_xml_uuid(t),
        label=t.name,
        type=_type(rows),
        rounds=rounds,
        start_date=t.start_date,
        end_date=t.end_date,
        location=_location(t),
        time_control=t.time_control,
    )
    if header is None:
        header = dsb_xml.Header(
            creation_date=datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC),
            sender="",
            system="",
            file_uuid=uuid.UUID(int=0),
        )
    return dsb_xml.Report(header=header, tournament=tournament, players=players, games=games)


def _with_officer(tournament: Tournament) -> Tournament:
    """The tournament with its organiser (and the organiser club's federation) and officer loaded."""
    return (
        Tournament.objects.select_related(
            "organiser_club__organisation", "organiser_organisation", "rating_officer"
        )
        .filter(pk=tournament.pk)
        .first()
        or tournament
    )


def dsb_report(*, tournament: Tournament, user=None, now: datetime.datetime | None = None) -> dsb_xml.Report:
    """The report of ``tournament`` as a new file: a new ``fileUUID``, now as ``creationDate``, the officer
    (``user``, else the tournament's) and the organiser's federation as ``sender``."""
    t = _with_officer(tournament)
    rows = load_rows(tournaments=[t])[t.pk]
    header = dsb_xml.Header(
        creation_date=timezone.localtime(now or timezone.now()).replace(microsecond=0),
        sender=_sender(t, user),
        system=dsb_xml.system_text(system_version()),
        file_uuid=uuid.uuid4(),
    )
    return build_report(rows, header=header)


# The name the DSB XML import's round-trip test (helper C, tests/services/test_dsb_xml_import.py) reads.
tournament_report = dsb_report


@dataclass(frozen=True)
class CheckItem:
    """One check of the list before the export: its name and its problems (empty: ok)."""

    label: str
    problems: list[str]
    blocking: bool  # a problem here stops the export


@dataclass(frozen=True)
class ExportCheck:
    report: dsb_xml.Report
    items: list[CheckItem]
    blocking: list[str]  # every problem that stops the export
    advice: list[str]  # problems the officer should see; the file is written anyway

    @property
    def exportable(self) -> bool:
        return not self.blocking


def _message(problem: dsb_xml.Problem) -> str:
    text = gettext(problem.template) % problem.params if problem.params else gettext(problem.template)
    return text


# Each item of the officer's check list: its label and the report elements its problems name.
_ITEMS = (
    (gettext_noop("Geburtsjahr jedes Spielers"), ("dobYear",)),
    (gettext_noop("Startnummern eindeutig"), ("tournamentPlayerNumber",)),
    (
        gettext_noop("Jede Partie mit Spielern der Liste"),
        ("tournamentPlayerNumberWhite", "tournamentPlayerNumberBlack"),
    ),
    (gettext_noop("Kein Spieler doppelt (DSB-ID)"), ("dsbId",)),
    (gettext_noop("Ende = Tag der letzten Partie"), ("endDate", "date")),
)


def export_check(*, report: dsb_xml.Report) -> ExportCheck:
    """The officer's list before the export (formats.md §3.10): every check with its problems; what stops
    the export is what the writer refuses."""
    try:
        dsb_xml.write(report)
    except dsb_xml.DsbXmlError as exc:
        fatal, advice = exc.problems, exc.warnings
    else:
        fatal, advice = [], dsb_xml.check_problems(report)
    problems = [(p, True) for p in fatal] + [(p, False) for p in advice]
    items: list[CheckItem] = []
    named: set[int] = set()
    for label, elements in _ITEMS:
        mine = [(p, b) for p, b in problems if p.element in elements]
        named.update(id(p) for p, _b in mine)
        items.append(
            CheckItem(
                label=gettext(label),
                problems=[_message(p) for p, _b in mine],
                blocking=any(b for _p, b in mine),
            )
        )
    rest = [(p, b) for p, b in problems if id(p) not in named]
    items.append(
        CheckItem(
            label=gettext("Weitere Angaben des Berichts"),
            problems=[_message(p) for p, _b in rest],
            blocking=any(b for _p, b in rest),
        )
    )
    return ExportCheck(
        report=report,
        items=items,
        blocking=[_message(p) for p in fatal],
        advice=[_message(p) for p in advice],
    )


def dsb_export(*, tournament: Tournament, user=None) -> tuple[ExportCheck, bytes | None]:
    """The check list and, when nothing blocks, the file's bytes."""
    check = export_check(report=dsb_report(tournament=tournament, user=user))
    data = dsb_xml.write(check.report) if check.exportable else None
    return check, data


def xml_filename(tournament: Tournament) -> str:
    return export_filename(tournament, "xml")
