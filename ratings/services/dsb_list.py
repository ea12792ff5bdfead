"""Import of the DSB's DWZ list (spec/formats.md §3, dwz-rules.md §16).

One transaction: organisations (with parents), clubs, players (keyed by the list's person id; generation 1 by
name + birth year + club), memberships with history, the list's official DWZ/index as a dated snapshot, start
values for players without any evaluation, and at the end ONE recalculation. A player with history is never
overwritten: his official DWZ is compared with dwzsite's as of the list's date and every difference reported.
Rows the reader rejected are left out entirely; a list that cannot be used writes nothing.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.db.models import Field, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from ratings.bulk import insert_rows, update_rows
from ratings.dwz.replay import OrderKey, adjustment_order, day_start
from ratings.enums import AdjustmentKind, FideTitle, PlayerStatus, RatingChangeCause, Sex
from ratings.exports import spreadsheet_safe
from ratings.folding import name_sort_key
from ratings.formats.dsb_list import DsbList, Limits, ListError, PlayerRow, Problem
from ratings.formats.organisation_tree import GENERATION as TREE_GENERATION
from ratings.models import (
    Club,
    Evaluation,
    ListImport,
    ListImportStatus,
    Membership,
    OfficialRating,
    Organisation,
    Player,
    RatingAdjustment,
)
from ratings.models.player import player_key_validator
from ratings.recalculation import (
    END_OF_TIME,
    Changes,
    RecalculationReport,
    earliest,
    first_event_of,
    lock_ratings,
    rebuild_spans,
    recalculate,
    recalculate_changes,
    tournaments_of,
)

from .announce import announce_rating_changes
from .official_comparison import official_comparison_store
from .players import players_status_sync

_T = TypeVar("_T")
logger = logging.getLogger(__name__)

UMSTUFUNG_DATE = datetime.date(2026, 6, 8)  # dwz-rules.md §16
UMSTUFUNG_REASON = "DWZ-Liste vom 08.06.2026"
# formats.md §5: names for a list that comes without verbaende.csv.
LANDESVERBAENDE = {
    "000": "Deutscher Schachbund",
    "100": "Badischer Schachverband",
    "200": "Bayerischer Schachbund e.V.",
    "300": "Berliner Schachverband",
    "400": "Hamburger Schachverband",
    "500": "Hessischer Schachverband",
    "600": "Schachbund Nordrhein-Westfalen e.V.",
    "700": "Niedersächsischer Schachverband e. V.",
    "800": "SB Rheinland-Pfalz e.V.",
    "900": "Saarländischer Schachverband",
    "A00": "SVB Schleswig-Holstein",
    "B00": "Landesschachbund Bremen",
    "C00": "Schachverband Württemberg e.V.",
    "D00": "Schachbund Brandenburg",
    "E00": "LSV Mecklenburg-Vorpommern",
    "F00": "Schachverband Sachsen e.V.",
    "G00": "LSV Sachsen-Anhalt",
    "H00": "Thüringer Schachbund",
    "L00": "Deutscher Blinden- und Sehbehinderten-Schachbund",
    "M00": "Schwalbe",
}
CHUNK = 900  # below SQLite's bound-parameter limit
BATCH = 1000

Progress = Callable[[str, int, int], None]

# Outcomes of a list row, as written in the report.
CREATED, UPDATED, UNCHANGED, REJECTED = "created", "updated", "unchanged", "rejected"


@dataclass(slots=True)
class ReportRow:
    outcome: str  # created / updated / unchanged / rejected / difference / ended / warning
    line: int | None
    key: str = ""
    name: str = ""
    detail: str = ""


@dataclass(slots=True)
class ImportReport:
    as_of: datetime.date
    generation: str = ""
    rows: int = 0  # data lines of the player file
    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    items: list[ReportRow] = field(default_factory=list)
    players_created: int = 0
    players_updated: int = 0
    clubs_created: int = 0
    organisations_created: int = 0
    memberships_created: int = 0
    memberships_ended: int = 0
    start_values: int = 0
    adjustments: int = 0
    differences: int = 0
    recalculation: RecalculationReport | None = None
    dry_run: bool = False
    elapsed: float = 0.0

    @property
    def exit_code(self) -> int:
        """0: every row imported; 1: some rows rejected (the rest imported)."""
        return 1 if self.counts[REJECTED] else 0

    def add(self, outcome: str, line: int | None, key: str = "", name: str = "", detail: str = "") -> None:
        self.counts[outcome] += 1
        self.items.append(ReportRow(outcome, line, key, name, detail))

    def summary(self) -> dict[Any, Any]:
        return {
            "as_of": self.as_of.isoformat(),
            "generation": self.generation,
            "rows": self.rows,
            "created": self.counts[CREATED],
            "updated": self.counts[UPDATED],
            "unchanged": self.counts[UNCHANGED],
            "rejected": self.counts[REJECTED],
            "warnings": self.counts["warning"],
            "players_created": self.players_created,
            "players_updated": self.players_updated,
            "clubs_created": self.clubs_created,
            "organisations_created": self.organisations_created,
            "memberships_created": self.memberships_created,
            "memberships_ended": self.memberships_ended,
            "start_values": self.start_values,
            "adjustments": self.adjustments,
            "differences": self.differences,
            "tournaments_recalculated": len(self.recalculation.tournaments) if self.recalculation else 0,
            "dry_run": self.dry_run,
            "elapsed": round(self.elapsed, 2),
        }


REPORT_COLUMNS = (
    gettext_noop("Ergebnis"),
    gettext_noop("Zeile"),
    gettext_noop("Schlüssel"),
    gettext_noop("Name"),
    gettext_noop("Hinweis"),
)
REPORT_OUTCOMES = {
    CREATED: gettext_noop("angelegt"),
    UPDATED: gettext_noop("geändert"),
    UNCHANGED: gettext_noop("unverändert"),
    REJECTED: gettext_noop("abgelehnt"),
    "difference": gettext_noop("DWZ weicht ab"),
    "ended": gettext_noop("Mitgliedschaft beendet"),
    "warning": gettext_noop("Warnung"),
}


def report_csv(*, items: Iterable[ReportRow | list[Any] | tuple[Any, ...]]) -> str:
    """The report as CSV (UTF-8 text; the caller adds a BOM for spreadsheet programs)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([_(c) for c in REPORT_COLUMNS])
    for item in items:
        outcome, line, key, name, detail = (
            (item.outcome, item.line, item.key, item.name, item.detail)
            if isinstance(item, ReportRow)
            else item
        )
        cells = [_(REPORT_OUTCOMES.get(outcome, outcome)), line or "", key, name, detail]
        writer.writerow([spreadsheet_safe(c) for c in cells])  # a name typed as "=…" stays text
    return out.getvalue()


def _problem_text(problem: Problem) -> str:
    """A reader problem in the active language."""
    template = _(problem.template)
    return template % problem.params if problem.params else template


class _DryRun(Exception):
    pass


# --- organisations and clubs -----------------------------------------------------------------------------


def _organisations(dsb_list: DsbList, report: ImportReport) -> dict[str, Organisation]:  # noqa: C901 -- existing; issue 27
    """Create the federations of the list (parents first) and return every organisation by code."""
    orgs = {o.code: o for o in Organisation.objects.all()}
    rows = {f.code: f for f in dsb_list.federations}
    zps = {c.zps for c in dsb_list.clubs} | {p.zps for p in dsb_list.players}
    needed = (
        set(rows) | {c.parent for c in dsb_list.clubs} | {z[:3] for z in zps} | {z[0] + "00" for z in zps}
    )

    def ensure(code: str, depth: int = 0) -> Organisation | None:
        if code in orgs:
            return orgs[code]
        if depth > 8 or not code:
            return None
        row = rows.get(code)
        if row is None and code != "000" and not code.endswith("00") and code[0] + "00" not in rows:
            return None  # an unknown district: its clubs hang on their Landesverband (formats.md §5)
        parent_code = row.parent if row else ("000" if code.endswith("00") else code[0] + "00")
        parent = None if code == "000" else ensure(parent_code or "000", depth + 1)
        default_name = LANDESVERBAENDE.get(code) or _("Verband %(code)s") % {"code": code}
        org = Organisation.objects.create(
            code=code, name=(row.name if row else default_name)[:200], parent=parent
        )
        orgs[code] = org
        report.organisations_created += 1
        return org

    for code in sorted(needed):
        if code and code not in orgs:
            ensure(code)
    # Names and parents of known organisations follow the list (never a cycle: parents are closer to 000).
    for code, row in rows.items():
        org = orgs.get(code)
        if org is None:
            continue
        parent = orgs.get(row.parent) if row.parent and row.parent != code else None
        if code == "000":
            parent = None
        changes: dict[str, str | Organisation] = {}
        if row.name and org.name != row.name[:200]:
            changes["name"] = row.name[:200]
        if parent is not None and org.parent_id != parent.pk and not _is_below(parent, org):
            changes["parent"] = parent
        if changes:
            for name, value in changes.items():
                setattr(org, name, value)
            org.save(update_fields=list(changes))
    return orgs


def _is_below(candidate: Organisation, org: Organisation) -> bool:
    node: Organisation | None = candidate
    depth = 0
    while node is not None and depth < 10:
        if node.pk == org.pk:
            return True
        node, depth = node.parent, depth + 1
    return False


def _clubs(dsb_list: DsbList, orgs: dict[str, Organisation], report: ImportReport) -> dict[str, Club]:
    clubs = {c.zps: c for c in Club.objects.all()}
    listed = {c.zps: c for c in dsb_list.clubs}
    new: list[Club] = []
    for zps in sorted(set(listed) | {p.zps for p in dsb_list.players}):
        row = listed.get(zps)
        parent_code = row.parent if row and row.parent else zps[:3]
        org = orgs.get(parent_code) or orgs.get(zps[:3]) or orgs.get(zps[0] + "00") or orgs.get("000")
        if org is None:
            continue
        if parent_code not in orgs and row is not None:
            report.add(
                "warning",
                row.line,
                zps,
                row.name,
                _("Übergeordneter Verband %(code)s unbekannt; der Verein hängt am Landesverband.")
                % {"code": parent_code},
            )
        club = clubs.get(zps)
        name = (row.name if row else "")[:200]
        if club is None:  # the reader validated code and name
            clubs[zps] = Club(zps=zps, name=name or _("Verein %(zps)s") % {"zps": zps}, organisation=org)
            new.append(clubs[zps])
            if row is None:
                report.add("warning", None, zps, "", _("Verein %(zps)s fehlt in vereine.csv.") % {"zps": zps})
        elif row is not None and (club.name != name or club.organisation_id != org.pk):
            club.name, club.organisation = name, org
            club.save(update_fields=["name", "organisation"])
    Club.objects.bulk_create(new, batch_size=500)
    report.clubs_created += len(new)
    return clubs


# --- players ---------------------------------------------------------------------------------------------

_PLAYER_FIELDS = (
    "surname",
    "first_name",
    "sex",
    "birth_year",
    "dsb_id",
    "fide_id",
    "fide_elo",
    "fide_title",
    "fide_federation",
)
_TITLES = set(FideTitle.values)


def _fold(text: str) -> str:
    from ratings.folding import search_key  # the same folding as the search (ä = ae = a)

    return search_key(text)


def _wanted(row: PlayerRow, person: _Existing | None) -> dict[Any, Any]:
    """The player's fields as the list gives them (empty list values keep what dwzsite knows)."""
    sex = {"M": Sex.MALE, "W": Sex.FEMALE}.get(row.sex)
    title = (
        row.fide_title
        if row.fide_title in _TITLES
        else (row.women_title if row.women_title in _TITLES else "")
    )
    values = {
        "surname": row.surname,
        "first_name": row.first_name,
        "sex": sex if sex else (person.sex if person else ""),
        "birth_year": row.birth_year if row.birth_year else (person.birth_year if person else None),
        "dsb_id": row.person_id if row.person_id else (person.dsb_id if person else None),
        "fide_id": row.fide_id,
        "fide_elo": row.fide_elo,
        "fide_title": title,
        "fide_federation": row.fide_federation if len(row.fide_federation) == 3 else "",
    }
    return values


def _gen1_key(row: PlayerRow) -> str:
    if row.member_number:
        return f"{row.zps}-{row.member_number}"
    digest = hashlib.blake2s(f"{row.surname}|{row.first_name}|{row.birth_year}".encode()).hexdigest()[:8]
    return f"{row.zps}-X{digest.upper()}"


@dataclass(slots=True)
class _Existing:
    """A stored player as the import needs him (no model instance: 100,000 of them on a re-import)."""

    pk: int
    key: str
    surname: str
    first_name: str
    sex: str
    birth_year: int | None
    dsb_id: str | None
    fide_id: int | None
    fide_elo: int | None
    fide_title: str
    fide_federation: str
    updated_at: object = None

    @property
    def name(self) -> str:
        return f"{self.surname}, {self.first_name}" if self.first_name else self.surname


_EXISTING = (
    "pk",
    "key",
    "surname",
    "first_name",
    "sex",
    "birth_year",
    "dsb_id",
    "fide_id",
    "fide_elo",
    "fide_title",
    "fide_federation",
)


def _existing(queryset: QuerySet[Player]) -> Iterable[_Existing]:
    return (_Existing(*row) for row in queryset.values_list(*_EXISTING))


@dataclass(slots=True)
class _Membership:
    pk: int
    player_id: int
    club_id: int
    member_number: str
    status: str
    valid_from: datetime.date | None
    valid_until: datetime.date | None = None


@dataclass(slots=True)
class _Start:
    pk: int
    dwz: int | None
    index: int | None
    fide_elo: int | None
    reason: str


@dataclass(slots=True)
class _Person:
    """The rows of one person in the list (one per membership), primary first."""

    rows: list[PlayerRow]
    player: _Existing | _NewPlayer | None = None
    outcome: str = UNCHANGED
    detail: list[str] = field(default_factory=list)

    @property
    def primary(self) -> PlayerRow:
        return self.rows[0]

    @property
    def written(self) -> _Existing | _NewPlayer:
        """His player once ``_write_players`` has run (from then on every person has one)."""
        if self.player is None:
            raise LookupError(f"line {self.primary.line}: no player before _write_players")
        return self.player


def _people(dsb_list: DsbList, report: ImportReport) -> list[_Person]:
    groups: dict[object, list[PlayerRow]] = {}
    for row in dsb_list.players:
        key = row.person_id or ("gen1", _fold(row.surname), _fold(row.first_name), row.birth_year, row.zps)
        groups.setdefault(key, []).append(row)
    people = []
    for rows in groups.values():
        rows.sort(key=lambda r: ({"A": 0, "P": 1}.get(r.status, 2), r.line))
        first = rows[0]
        for other in rows[1:]:
            if (_fold(other.surname), other.birth_year) != (_fold(first.surname), first.birth_year):
                report.add(
                    "warning",
                    other.line,
                    other.person_id or "",
                    other.name,
                    _("Name oder Geburtsjahr weichen von Zeile %(line)d ab; es gilt Zeile %(line)d.")
                    % {"line": first.line},
                )
        people.append(_Person(rows))
    return people


def _match(people: list[_Person], clubs: dict[str, Club]) -> None:  # noqa: C901, PLR0912 -- existing; issue 27
    """Find each person's player: by DSB id, by key, then by his current membership (number, or name +
    birth year for generation 1) if that player has no other DSB id."""
    ids = [p.primary.person_id for p in people if p.primary.person_id]
    by_id: dict[str, _Existing] = {}
    by_key: dict[str, _Existing] = {}
    wanted = set(ids)
    if len(ids) > 20 * CHUNK:  # many: one pass over the table beats dozens of IN lists
        found: Iterable[_Existing] = (
            p for p in _existing(Player.objects.all()) if p.dsb_id in wanted or p.key in wanted
        )
    else:
        found = (
            p for c in _chunks(ids) for p in _existing(Player.objects.filter(Q(dsb_id__in=c) | Q(key__in=c)))
        )
    for stored in found:
        if stored.dsb_id:
            by_id[stored.dsb_id] = stored
        by_key[stored.key] = stored
    memberships = defaultdict(list)  # (club pk) -> [(number, player pk)]
    club_ids = {clubs[r.zps].pk for p in people for r in p.rows if r.zps in clubs}
    players_in_clubs: set[int] = set()
    for chunk in _chunks(club_ids):
        for club_id, number, player_id in (
            Membership.objects.current()
            .filter(club_id__in=chunk)
            .values_list("club_id", "member_number", "player_id")
        ):
            memberships[club_id].append((number.lstrip("0"), player_id))
            players_in_clubs.add(player_id)
    loaded: dict[int, _Existing] = {p.pk: p for p in by_id.values()} | {p.pk: p for p in by_key.values()}
    need = players_in_clubs - set(loaded)
    for chunk in _chunks(need):
        loaded.update({p.pk: p for p in _existing(Player.objects.filter(pk__in=chunk))})
    taken: set[int] = set()
    for person in people:
        row = person.primary
        player: _Existing | None = None
        if row.person_id:
            player = by_id.get(row.person_id) or by_key.get(row.person_id)
            if player is not None and player.dsb_id not in (None, row.person_id):
                player = None
        if player is None:
            for r in person.rows:
                club = clubs.get(r.zps)
                for number, player_id in memberships.get(club.pk, ()) if club else ():
                    candidate = loaded[player_id]
                    same_number = r.member_number is not None and number == r.member_number.lstrip("0")
                    same_person = (
                        _fold(candidate.surname),
                        _fold(candidate.first_name),
                        candidate.birth_year,
                    ) == (_fold(r.surname), _fold(r.first_name), r.birth_year)
                    by_number = same_number and _fold(candidate.surname) == _fold(r.surname)
                    if (by_number or (row.person_id is None and same_person)) and candidate.dsb_id in (
                        None,
                        row.person_id,
                    ):
                        player = candidate
                        break
                if player is not None:
                    break
        if player is not None and player.pk in taken:
            player = None
        if player is not None:
            taken.add(player.pk)
        person.player = player


def _chunks(values: Iterable[_T], size: int = CHUNK) -> Iterator[list[_T]]:
    values = list(values)
    for i in range(0, len(values), size):
        yield values[i : i + size]


@dataclass(slots=True)
class _NewPlayer:
    """A player inserted by this import (no model instance needed for 100,000 of them)."""

    pk: int
    key: str
    surname: str
    first_name: str

    @property
    def name(self) -> str:
        return f"{self.surname}, {self.first_name}" if self.first_name else self.surname


# A new player's derived DWZ/index are his start value: without any event that is what a replay gives.
_PLAYER_INSERT = ("key", *_PLAYER_FIELDS, "status", "dwz", "index", "created_at", "updated_at")
_NAMES = {"surname", "first_name"}


def _status_of(rows: list[PlayerRow]) -> str:
    statuses = {r.status for r in rows}
    return PlayerStatus.PASSIVE if statuses and statuses <= {"P"} else PlayerStatus.ACTIVE


def _verbose_name(name: str) -> str:
    field = Player._meta.get_field(name)
    return str(field.verbose_name) if isinstance(field, Field) else name


def _write_players(people: list[_Person], report: ImportReport) -> set[int]:
    """Create and update the players; returns the existing ones whose birth year changed (their age class
    enters every evaluation)."""
    keys_taken = set(Player.objects.values_list("key", flat=True))
    now = timezone.now()
    new_rows: list[tuple[Any, ...]] = []
    changed: list[tuple[_Existing, list[str]]] = []
    for person in people:
        row = person.primary
        # Before this loop a person's player is the stored one _match found, or none.
        player = person.player if isinstance(person.player, _Existing) else None
        values = _wanted(row, player)
        if player is None:
            key = row.person_id or _gen1_key(row)
            base, n = key, 1
            while key in keys_taken:
                n += 1
                key = f"{base}-{n}"
            keys_taken.add(key)
            player_key_validator(key)  # a person id or ZPS-number always fits; a failure here is a bug
            new_rows.append(
                (
                    key,
                    *(values[f] for f in _PLAYER_FIELDS),
                    _status_of(person.rows),
                    row.dwz,
                    row.index,
                    now,
                    now,
                )
            )
            person.player = _NewPlayer(0, key, values["surname"], values["first_name"])
            person.outcome = CREATED
            continue
        fields = [name for name, value in values.items() if getattr(player, name) != value]
        for name in fields:
            setattr(player, name, values[name])
        if fields:
            changed.append((player, fields))
            person.outcome = UPDATED
            person.detail.append(", ".join(_verbose_name(f) for f in fields))
            report.players_updated += 1
    if new_rows:
        insert_rows(Player, _PLAYER_INSERT, new_rows)
        pks = dict(Player.objects.filter(created_at=now).values_list("key", "pk"))
        for person in people:
            if isinstance(person.player, _NewPlayer):
                person.player.pk = pks[person.player.key]
    report.players_created += len(new_rows)
    _update_players(changed, now)
    return {player.pk for player, fields in changed if "birth_year" in fields}


def _update_players(changed: list[tuple[_Existing, list[str]]], now: datetime.datetime) -> None:
    """The changed fields of the existing players, one bulk update per set of fields."""
    by_fields: dict[tuple[str, ...], list[_Existing]] = defaultdict(list)
    for player, fields in changed:
        player.updated_at = now
        by_fields[tuple(sorted(fields))].append(player)
    for names, players in by_fields.items():
        fields = [*names, "updated_at"]
        rows = [[p.pk, *(getattr(p, f) for f in fields)] for p in players]
        if _NAMES & set(names):  # a name changed: its sort key from both (update_rows has one of them only)
            for row, p in zip(rows, players, strict=True):
                row.append(name_sort_key(p.surname, p.first_name))
            fields.append("name_sort")
        update_rows(Player, fields, rows)


# --- memberships -----------------------------------------------------------------------------------------


def _write_memberships(  # noqa: C901, PLR0912 -- existing; issue 27
    people: list[_Person], clubs: dict[str, Club], dsb_list: DsbList, report: ImportReport
) -> set[int]:
    """Create, update and end memberships; returns the players who had no membership before."""
    as_of = report.as_of
    listed: dict[tuple[int, int], PlayerRow] = {}
    for person in people:
        for row in person.rows:
            listed[(person.written.pk, clubs[row.zps].pk)] = row
    covered_clubs = {clubs[c.zps].pk for c in dsb_list.clubs if c.zps in clubs} | {
        clubs[r.zps].pk for r in dsb_list.players
    }
    current: dict[tuple[int, int], _Membership] = {}
    for chunk in _chunks(covered_clubs):
        rows = Membership.objects.current().filter(club_id__in=chunk)
        for values in rows.values_list("pk", "player_id", "club_id", "member_number", "status", "valid_from"):
            m = _Membership(*values)
            current[(m.player_id, m.club_id)] = m
    person_of = {p.written.pk: p for p in people}
    # End what the list no longer has (only by a list at least as new as the membership), but never a
    # membership whose row is in the list and was rejected.
    kept = _rejected_memberships(dsb_list, clubs, current)
    ended = [
        m
        for key, m in current.items()
        if key not in listed and m.pk not in kept and (m.valid_from is None or m.valid_from <= as_of)
    ]
    for m in ended:
        m.valid_until = as_of
    update_rows(Membership, ["valid_until"], ((m.pk, m.valid_until) for m in ended))
    _report_ended(ended, clubs, report)
    ended_keys = {(m.player_id, m.club_id) for m in ended}
    ended_ids = {m.pk for m in ended}
    # Free the numbers that move, then write the new ones (numbers are unique among current memberships).
    updates: list[_Membership] = []
    creates: list[tuple[Any, ...]] = []
    for (player_id, club_id), row in listed.items():
        number = row.member_number or ""
        status = row.status
        known = current.get((player_id, club_id))
        if known is not None and (player_id, club_id) not in ended_keys:
            if known.member_number != number or known.status != status:
                person = person_of[player_id]
                if person.outcome == UNCHANGED:
                    person.outcome = UPDATED
                person.detail.append(_("Mitgliedschaft %(zps)s") % {"zps": row.zps})
                known.member_number, known.status = number, status
                updates.append(known)
        else:
            creates.append((player_id, club_id, number, status, as_of))
            person = person_of[player_id]
            if person.outcome == UNCHANGED:
                person.outcome = UPDATED
                person.detail.append(_("neue Mitgliedschaft %(zps)s") % {"zps": row.zps})
    # Numbers are unique among current memberships: free the numbers that move, and end a current membership
    # outside the list whose number the list now gives someone else.
    numbers = {(m.club_id, m.member_number) for m in updates if m.member_number}
    numbers |= {(club_id, number) for _pid, club_id, number, _status, _from in creates if number}
    moving = {m.pk for m in updates}
    for chunk in _chunks(moving):
        Membership.objects.filter(pk__in=chunk).update(member_number="")
    clash = [
        m
        for m in current.values()
        if m.pk not in ended_ids and m.pk not in moving and (m.club_id, m.member_number) in numbers
    ]
    for m in clash:
        m.valid_until = as_of
    update_rows(Membership, ["valid_until"], ((m.pk, m.valid_until) for m in clash))
    update_rows(Membership, ["member_number", "status"], ((m.pk, m.member_number, m.status) for m in updates))
    members_before: set[int] = set()
    new_player_ids = [c[0] for c in creates]
    inserted = {p.player.pk for p in people if isinstance(p.player, _NewPlayer)}
    for chunk in _chunks(set(new_player_ids) - inserted):
        members_before.update(
            Membership.objects.filter(player_id__in=chunk).values_list("player_id", flat=True).distinct()
        )
    insert_rows(
        Membership,
        ("player_id", "club_id", "member_number", "status", "valid_from"),
        creates,
    )
    report.memberships_created += len(creates)
    # New players got their status with their row; everyone else follows his memberships.
    touched = {m.player_id for m in ended} | {m.player_id for m in updates} | set(new_player_ids)
    touched -= {p.player.pk for p in people if isinstance(p.player, _NewPlayer)}
    # A player whose every membership ended is passive: he is no longer a member of a club on the list.
    players_status_sync(player_ids=touched)
    gone = {m.player_id for m in ended} - {pid for pid, _ in listed}
    if gone:
        still: set[int] = set()
        for chunk in _chunks(gone):
            still.update(
                Membership.objects.current().filter(player_id__in=chunk).values_list("player_id", flat=True)
            )
        for chunk in _chunks(gone - still):
            Player.objects.filter(pk__in=chunk).update(status=PlayerStatus.PASSIVE)
    return set(new_player_ids) - members_before


def _rejected_memberships(
    dsb_list: DsbList, clubs: dict[str, Club], current: dict[tuple[int, int], _Membership]
) -> set[int]:
    if not dsb_list.rejected:
        return set()
    by_number = {(zps, number) for zps, number, _id in dsb_list.rejected if number}
    by_person = {(zps, person) for zps, _number, person in dsb_list.rejected if person}
    zps_of = {club.pk: zps for zps, club in clubs.items()}
    player_ids = [pid for pid, _club in current]
    ids = {
        pk: dsb_id
        for c in _chunks(player_ids)
        for pk, dsb_id in Player.objects.filter(pk__in=c).values_list("pk", "dsb_id")
    }
    return {
        m.pk
        for (player_id, club_id), m in current.items()
        if (zps_of.get(club_id), m.member_number.lstrip("0")) in by_number
        or (zps_of.get(club_id), ids.get(player_id)) in by_person
    }


def _report_ended(ended: list[_Membership], clubs: dict[str, Club], report: ImportReport) -> None:
    zps = {club.pk: code for code, club in clubs.items()}
    names: dict[int, tuple[str, str]] = {}
    for chunk in _chunks({m.player_id for m in ended}):
        for pk, key, surname, first in Player.objects.filter(pk__in=chunk).values_list(
            "pk", "key", "surname", "first_name"
        ):
            names[pk] = (key, f"{surname}, {first}" if first else surname)
    for m in ended:
        report.memberships_ended += 1
        key, name = names.get(m.player_id, ("", ""))
        number = f"{zps.get(m.club_id, '')}-{m.member_number}" if m.member_number else zps.get(m.club_id, "")
        report.add(
            "ended",
            None,
            key,
            name,
            _("%(membership)s beendet zum %(date)s")
            % {"membership": number, "date": report.as_of.strftime("%d.%m.%Y")},
        )


# --- official values, start values, Umstufung ------------------------------------------------------------


def _ratings_as_of(
    player_ids: Iterable[int], date: datetime.date
) -> dict[int, tuple[int | None, int | None]]:
    """dwzsite's DWZ and index of each player as of the end of ``date`` (after every event of that day)."""
    ids = list(player_ids)
    best: dict[int, tuple[tuple[Any, ...], int | None, int | None]] = {}
    for chunk in _chunks(ids):
        for pk, dwz, index in RatingAdjustment.objects.filter(
            player_id__in=chunk, kind=AdjustmentKind.START
        ).values_list("player_id", "dwz", "index"):
            best[pk] = ((datetime.date.min,), dwz, (index or 0) if dwz is not None else None)
        for pk, adj_pk, d, dwz, index in RatingAdjustment.objects.filter(
            player_id__in=chunk, date__isnull=False, date__lte=date
        ).values_list("player_id", "pk", "date", "dwz", "index"):
            if d is None:  # excluded by the filter; this narrows the type
                continue
            order = adjustment_order(d, adj_pk)
            if pk not in best or order > best[pk][0]:
                best[pk] = (order, dwz, index)
        rows = Evaluation.objects.filter(player_id__in=chunk, end_date__lte=date).setting_rating()
        for pk, tid, end, suffix, dwz, index in rows.values_list(
            "player_id", "tournament_id", "end_date", "code_suffix", "dwz_new", "index_new"
        ):
            order = (end, 1, 0, suffix, tid) if suffix else (end, 1, 1, "", tid)
            if pk not in best or order > best[pk][0]:
                best[pk] = (order, dwz, index)
    return {pk: (dwz, index) for pk, (_, dwz, index) in best.items()}


def _with_history(player_ids: Iterable[int]) -> set[int]:
    """Players with any evaluation or dated adjustment (their list values are compared, not used)."""
    found: set[int] = set()
    player_ids = list(player_ids)
    if len(player_ids) > 20 * CHUNK:  # many: two queries over the tables beat dozens of IN lists
        evaluated = set(Evaluation.objects.values_list("player_id", flat=True).distinct())
        adjusted = RatingAdjustment.objects.filter(date__isnull=False).exclude(kind=AdjustmentKind.UMSTUFUNG)
        evaluated |= set(adjusted.values_list("player_id", flat=True).distinct())
        return evaluated & set(player_ids)
    for chunk in _chunks(player_ids):
        found.update(
            Evaluation.objects.filter(player_id__in=chunk).values_list("player_id", flat=True).distinct()
        )
        found.update(
            RatingAdjustment.objects.filter(player_id__in=chunk, date__isnull=False)
            .exclude(kind=AdjustmentKind.UMSTUFUNG)
            .values_list("player_id", flat=True)
            .distinct()
        )
    return found


def _official_values(people: list[_Person], report: ImportReport, *, umstufung: bool = False) -> set[int]:  # noqa: C901, PLR0912 -- existing; issue 27
    """The dated snapshot, start values for players without history, the comparison for the others.
    Returns the (existing) players whose start value changed.

    The list of an Umstufung holds the values after it: a start value (the value before a player's first
    event) is then only given to a player who has none."""
    as_of = report.as_of
    values = {p.written.pk: p.primary for p in people}
    inserted = {p.player.pk for p in people if isinstance(p.player, _NewPlayer)}
    existing_ids = [pk for pk in values if pk not in inserted]
    # The dated snapshot of the list's values (formats.md §3.8).
    snapshots = {
        player_id: _Start(pk, dwz, index, None, last)
        for player_id, pk, dwz, index, last in OfficialRating.objects.filter(as_of=as_of).values_list(
            "player_id", "pk", "dwz", "index", "last_evaluation"
        )
    }
    new_snapshots, changed_snapshots = [], []
    for pk, row in values.items():
        o = snapshots.get(pk)
        if o is None:
            new_snapshots.append((pk, as_of, row.dwz, row.index, row.last_evaluation))
        elif (o.dwz, o.index, o.reason) != (row.dwz, row.index, row.last_evaluation):
            o.dwz, o.index, o.reason = row.dwz, row.index, row.last_evaluation
            changed_snapshots.append(o)
    insert_rows(OfficialRating, ("player_id", "as_of", "dwz", "index", "last_evaluation"), new_snapshots)
    update_rows(
        OfficialRating,
        ["dwz", "index", "last_evaluation"],
        ((o.pk, o.dwz, o.index, o.reason) for o in changed_snapshots),
    )

    reason = _("DWZ-Liste vom %(date)s") % {"date": as_of.strftime("%d.%m.%Y")}
    now = timezone.now()
    new_starts = [
        (pk, AdjustmentKind.START, values[pk].dwz, values[pk].index or 0, reason, now)
        for pk in inserted
        if values[pk].dwz is not None
    ]
    history = _with_history(existing_ids)
    starts = _start_adjustments(existing_ids)
    reset: set[int] = set()
    changed_starts, removed_starts = [], []
    person_of = {p.written.pk: p for p in people}
    for pk in existing_ids:
        if pk in history:
            continue
        row, start = values[pk], starts.get(pk)
        if umstufung and start is not None:
            continue
        want = (row.dwz, row.index if row.dwz is not None else None)
        if start is None:
            if row.dwz is None:
                continue
            new_starts.append((pk, AdjustmentKind.START, row.dwz, row.index or 0, reason, now))
        elif (start.dwz, start.index) != want or start.fide_elo is not None:
            if row.dwz is None:
                removed_starts.append(start.pk)
            else:
                start.dwz, start.index, start.fide_elo, start.reason = row.dwz, row.index or 0, None, reason
                changed_starts.append(start)
        else:
            continue
        reset.add(pk)
        person = person_of[pk]
        if person.outcome == UNCHANGED:
            person.outcome = UPDATED
        person.detail.append(
            _("Startwert %(value)s") % {"value": f"{row.dwz}-{row.index}" if row.dwz else "–"}
        )
    insert_rows(RatingAdjustment, ("player_id", "kind", "dwz", "index", "reason", "created_at"), new_starts)
    # New players came with their start value as their DWZ (no replay for them): their spans likewise.
    rebuild_spans(players=inserted)
    update_rows(
        RatingAdjustment,
        ["dwz", "index", "fide_elo", "reason"],
        ((a.pk, a.dwz, a.index, a.fide_elo, a.reason) for a in changed_starts),
    )
    for chunk in _chunks(removed_starts):
        RatingAdjustment.objects.filter(pk__in=chunk).delete()
    report.start_values += len(new_starts) + len(changed_starts)

    # Players with history: compare, never overwrite (the list an officer checks).
    ours = _ratings_as_of(history, as_of) if history else {}
    for pk in sorted(history, key=lambda pk: values[pk].line):
        row = values[pk]
        have = ours.get(pk, (None, None))
        if (row.dwz, row.index) != have and not (row.dwz is None and have[0] is None):
            report.differences += 1
            player = person_of[pk].written
            report.add(
                "difference",
                row.line,
                player.key,
                player.name,
                _("DSB-Liste %(official)s, dwzsite %(ours)s (Stand %(date)s)")
                % {
                    "official": f"{row.dwz}-{row.index}" if row.dwz else "–",
                    "ours": f"{have[0]}-{have[1]}" if have[0] is not None else "–",
                    "date": as_of.strftime("%d.%m.%Y"),
                },
            )
    return reset


def _start_adjustments(player_ids: list[int]) -> dict[int, _Start]:
    starts = RatingAdjustment.objects.filter(kind=AdjustmentKind.START)
    fields = ("player_id", "pk", "dwz", "index", "fide_elo", "reason")
    if len(player_ids) > 20 * CHUNK:  # many: one query over the table beats dozens of IN lists
        wanted = set(player_ids)
        return {row[0]: _Start(*row[1:]) for row in starts.values_list(*fields) if row[0] in wanted}
    return {
        row[0]: _Start(*row[1:])
        for chunk in _chunks(player_ids)
        for row in starts.filter(player_id__in=chunk).values_list(*fields)
    }


def _umstufung(people: list[_Person], report: ImportReport) -> list[int]:
    """dwz-rules.md §16: each listed player's official value of 2026-06-08 as a dated adjustment, before
    every tournament ending that day (adjustments sort first on their day).
    Returns the adjustments written."""
    values = {p.written.pk: p.primary for p in people}
    existing: dict[int, RatingAdjustment] = {}
    for chunk in _chunks(values):
        for a in RatingAdjustment.objects.filter(
            player_id__in=chunk, kind=AdjustmentKind.UMSTUFUNG, date=UMSTUFUNG_DATE
        ):
            existing[a.player_id] = a
    new: list[RatingAdjustment] = []
    changed: list[RatingAdjustment] = []
    for pk, row in values.items():
        if row.dwz is None:
            continue
        stored = existing.get(pk)
        if stored is None:
            new.append(
                RatingAdjustment(
                    player_id=pk,
                    kind=AdjustmentKind.UMSTUFUNG,
                    date=UMSTUFUNG_DATE,
                    dwz=row.dwz,
                    index=row.index or 0,
                    reason=UMSTUFUNG_REASON,
                )
            )
        elif (stored.dwz, stored.index) != (row.dwz, row.index or 0):
            stored.dwz, stored.index = row.dwz, row.index or 0
            changed.append(stored)
    created = RatingAdjustment.objects.bulk_create(new, batch_size=BATCH)
    update_rows(RatingAdjustment, ["dwz", "index"], ((a.pk, a.dwz, a.index) for a in changed))
    report.adjustments += len(created) + len(changed)
    return [a.pk for a in created] + [a.pk for a in changed]


# --- the import ------------------------------------------------------------------------------------------


def list_limits() -> Limits:
    """The site's limits on a list's unpacked size and packing ratio (the zip bomb guard)."""
    return Limits(
        uncompressed=settings.DSB_LIST_MAX_UNCOMPRESSED_BYTES, ratio=settings.DSB_LIST_MAX_COMPRESSION_RATIO
    )


def dsb_list_import(
    *,
    dsb_list: DsbList,
    as_of: datetime.date | None = None,
    dry_run: bool = False,
    umstufung: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
    """Import a list read by ``ratings.formats.dsb_list`` in one transaction (nothing on any error). An
    organisation tree alone (``formats.organisation_tree``) imports its federations and clubs."""
    if dsb_list.generation == TREE_GENERATION:
        return organisation_tree_import(tree=dsb_list, as_of=as_of, dry_run=dry_run, progress=progress)
    started = time.perf_counter()
    as_of = as_of or (UMSTUFUNG_DATE if umstufung else None) or dsb_list.date or datetime.date.today()
    report = ImportReport(as_of=as_of, generation=dsb_list.generation, rows=dsb_list.rows, dry_run=dry_run)
    step = progress or (lambda label, done, total: None)
    try:
        with transaction.atomic():
            lock_ratings()
            _import(dsb_list, report, umstufung, step)
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    report.elapsed = time.perf_counter() - started
    return report


def _import(
    dsb_list: DsbList, report: ImportReport, umstufung: bool, step: Callable[[str, int, int], None]
) -> None:
    total = 7
    step(_("Verbände und Vereine"), 0, total)
    orgs = _organisations(dsb_list, report)
    clubs = _clubs(dsb_list, orgs, report)
    step(_("Spieler zuordnen"), 1, total)
    people = _people(dsb_list, report)
    _match(people, clubs)
    step(_("Spieler schreiben"), 2, total)
    born = _write_players(people, report)
    step(_("Mitgliedschaften"), 3, total)
    new_members = _write_memberships(people, clubs, dsb_list, report)
    step(_("Offizielle DWZ"), 4, total)
    reset = _official_values(people, report, umstufung=umstufung)
    adjustments = _umstufung(people, report) if umstufung else []
    step(_("Neuberechnung"), 5, total)
    # Players who just became members and have tournaments behind them keep Restpartien from now on; a
    # player with another birth year may fall into another age class in his tournaments.
    dirty = _with_history(new_members | born) if new_members or born else set()
    since = earliest(
        day_start(END_OF_TIME) if reset else None,
        _first_events(dirty),
        day_start(UMSTUFUNG_DATE) if adjustments else None,
    )
    # Their age class is an input of each of their tournaments that no rating state carries: every one
    # of them is evaluated again (``player_recalculate``); for a list that fills in thousands of birth
    # years, a full recalculation, streamed, which evaluates again just the tournaments whose input changed.
    tournaments = tournaments_of(born & dirty)
    if len(tournaments) > FULL_RECALCULATION_AFTER:
        report.recalculation = recalculate()
    elif reset or dirty or adjustments:
        report.recalculation = recalculate_changes(
            Changes(since=since, reset=reset, dirty=dirty, tournaments=tournaments, adjustments=adjustments)
        )
    if report.recalculation is not None:  # a dry run rolls back: nothing is announced
        announce_rating_changes(
            report=report.recalculation, tournament_id=None, cause=RatingChangeCause.LIST_IMPORT
        )
    step(_("Bericht"), 6, total)
    for problem in dsb_list.problems:
        report.add(REJECTED, problem.line, "", "", f"{problem.file}: {_problem_text(problem)}")
    for warning in dsb_list.warnings:
        report.add("warning", warning.line, "", "", f"{warning.file}: {_problem_text(warning)}")
    for person in people:
        for row in person.rows:
            outcome = person.outcome
            report.add(outcome, row.line, person.written.key, person.written.name, "; ".join(person.detail))
    report.items.sort(key=lambda item: (item.line is None, item.line or 0))
    step(_("fertig"), total, total)


# --- the organisation tree alone ---------------------------------------------------------------------------


def organisation_tree_import(
    *,
    tree: DsbList,
    as_of: datetime.date | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
    """Import an organisation tree (federations and clubs, no players: ``formats.organisation_tree``) in one
    transaction, with the list import's report: every row created, updated (what changed), unchanged or
    rejected. Names and parents follow the file, as in a list import; nothing is deleted."""
    started = time.perf_counter()
    report = ImportReport(
        as_of=as_of or tree.date or datetime.date.today(), generation=tree.generation, rows=tree.rows
    )
    report.dry_run = dry_run
    step = progress or (lambda label, done, total: None)
    try:
        with transaction.atomic():
            lock_ratings()
            _tree(tree, report, step)
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    report.elapsed = time.perf_counter() - started
    return report


def _tree_state() -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]]]:
    """(name, parent code) of every organisation and (name, organisation code) of every club."""
    organisations = {
        code: (name, parent or "")
        for code, name, parent in Organisation.objects.values_list("code", "name", "parent__code")
    }
    clubs = {
        zps: (name, code) for zps, name, code in Club.objects.values_list("zps", "name", "organisation__code")
    }
    return organisations, clubs


def _tree(tree: DsbList, report: ImportReport, step: Callable[[str, int, int], None]) -> None:
    total = 3
    step(_("Verbände"), 0, total)
    organisations_before, clubs_before = _tree_state()
    orgs = _organisations(tree, report)
    step(_("Vereine"), 1, total)
    _clubs(tree, orgs, report)
    step(_("Bericht"), 2, total)
    organisations_after, clubs_after = _tree_state()
    parent_label = pgettext("Verbandsbaum", "übergeordnet")
    for federation in tree.federations:
        _tree_row(
            report, federation.line, federation.code, federation.name, parent_label,
            organisations_before.get(federation.code), organisations_after.get(federation.code),
        )  # fmt: skip
    for club in tree.clubs:
        _tree_row(
            report, club.line, club.zps, club.name, _("Verband"),
            clubs_before.get(club.zps), clubs_after.get(club.zps),
        )  # fmt: skip
    for problem in tree.problems:
        report.add(REJECTED, problem.line, "", "", _problem_text(problem))
    for warning in tree.warnings:
        report.add("warning", warning.line, "", "", _problem_text(warning))
    report.items.sort(key=lambda item: (item.line is None, item.line or 0))
    step(_("fertig"), total, total)


def _tree_row(
    report: ImportReport,
    line: int,
    code: str,
    name: str,
    parent_label: str,
    before: tuple[str, str] | None,
    after: tuple[str, str] | None,
) -> None:
    if after is None:
        report.add(REJECTED, line, code, name, _("kein Verband, an dem der Verein hängen kann"))
    elif before is None:
        report.add(CREATED, line, code, after[0])
    elif before == after:
        report.add(UNCHANGED, line, code, after[0])
    else:
        changes = []
        if before[0] != after[0]:
            changes.append(f"{_('Name')}: {before[0]} → {after[0]}")
        if before[1] != after[1]:
            changes.append(f"{parent_label}: {before[1] or '–'} → {after[1] or '–'}")
        report.add(UPDATED, line, code, after[0], "; ".join(changes))


def tree_summary_line(*, summary: dict[str, Any]) -> str:
    """The report's line of an organisation tree's import (command output)."""
    return (
        _(
            "Verbandsbaum: %(rows)d Zeilen, %(created)d angelegt, %(updated)d geändert, "
            "%(unchanged)d unverändert, %(rejected)d abgelehnt; Verbände neu: %(organisations_created)d, "
            "Vereine neu: %(clubs_created)d (%(elapsed).1f s)."
        )
        % summary
    )


# Birth years changed in more tournaments than this: a full recalculation instead of a replay from the
# earliest of them holding every one of those tournaments at once.
FULL_RECALCULATION_AFTER = 2_000


def _first_events(players: set[int]) -> OrderKey | None:
    return first_event_of(players) if players else None


# --- background runs -------------------------------------------------------------------------------------


def list_import_run(
    *, list_import: ListImport, dsb_list_reader: Callable[..., DsbList] | None = None
) -> ListImport:
    """Run a stored upload (``ListImport.data``): read, import, store the report. Never raises for a bad
    list: the outcome is in ``status`` / ``exit_code`` / ``summary``."""
    from ratings.formats.dsb_list import read_list_bytes

    list_import.status = ListImportStatus.RUNNING
    list_import.save(update_fields=["status"])

    def progress(label: str, done: int, total: int) -> None:
        ListImport.objects.filter(pk=list_import.pk).update(done=done, total=total, summary={"step": label})

    try:
        dsb_list = read_list_bytes(
            bytes(list_import.data or b""), list_import.file_name, limits=list_limits()
        )
    except ListError as exc:
        list_import.status, list_import.exit_code = ListImportStatus.FAILED, 2
        list_import.summary = {"error": _(exc.template) % exc.params if exc.params else _(exc.template)}
        list_import.data = None
        list_import.finished_at = timezone.now()
        list_import.save()
        return list_import
    report = dsb_list_import(
        dsb_list=dsb_list,
        as_of=list_import.as_of,
        dry_run=list_import.dry_run,
        umstufung=list_import.umstufung,
        progress=progress,
    )
    list_import.as_of = report.as_of
    summary = report.summary()
    # The Abgleich, after the import's commit (services/official_comparison.py); a tree has no players.
    if not report.dry_run and report.generation != TREE_GENERATION:
        progress(pgettext("Abgleich", "Abgleich"), 7, 7)
        summary["abgleich"] = list_import_compare(list_import=list_import)
    list_import.refresh_from_db(fields=["done", "total"])
    list_import.generation = report.generation
    list_import.status = ListImportStatus.DONE
    list_import.exit_code = report.exit_code
    list_import.summary = summary
    list_import.report = [[i.outcome, i.line, i.key, i.name, i.detail] for i in report.items]
    list_import.data = None
    list_import.finished_at = timezone.now()
    list_import.save()
    return list_import


def list_import_compare(*, list_import: ListImport) -> dict[str, Any]:
    """The Abgleich of an imported list, stored (``official_comparison_store``); its counts, or the error
    that stopped it: the list itself is imported and stays so."""
    try:
        return official_comparison_store(list_import=list_import)
    except Exception as exc:  # the import is committed; its report must still be written
        logger.exception("Abgleich of list import %s failed", list_import.pk)
        return {"error": f"{type(exc).__name__}: {exc}"}
