"""Plausibility before "Speichern und auswerten" (spec ``dwz-rules.md`` §17, issue 26 §2–3): what a careful
rating officer checks before a tournament is rated. Reads only; the callers (officer pages, commands, admin)
show the warnings and save only after one confirmation of all of them.

Decisions:

* An **empty time control** warns too (the DSB's CLM does the same): the lichess blitz files carry none, and
  an officer confirms in one click that the announcement said 90 minutes. Not for tournaments marked as not
  DWZ-rated: their time control does not matter.
* **U12 limit (60 minutes):** when every player has a birth year and is at most 11 in the year of the end
  date (the DSB's youth age classes count by year of birth). A flag on the tournament would be one more
  field to forget; a single adult entered makes it the 90-minute limit, which only warns.
* **A player entered twice:** the same record twice, or two records with the same DSB person id, FIDE id,
  or name and birth year.
* **Unknown to the DSB list:** no official value from any imported DSB list (new players from a file too).
* **Likely duplicate:** an existing tournament imported from the same file (``source_digest``), or one
  whose dates overlap and which shares at least 80 % of the players and of the games (games as unordered
  pairs with their result), both counted against the larger of the two tournaments.

A bounded number of queries for any size: candidates by date, shared entries, their games, DSB list rows.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from ratings import permissions
from ratings.enums import PAIRING_RESULTS
from ratings.formats import time_control
from ratings.models import Game, OfficialRating, Player, Tournament

DUPLICATE_SHARE = 0.8
U12_MAX_AGE = 11
NAMES_SHOWN = 10

FUTURE_END = "future_end"
OLD_END = "old_end"
NO_TIME_CONTROL = "no_time_control"
UNREADABLE_TIME_CONTROL = "unreadable_time_control"
SHORT_TIME_CONTROL = "short_time_control"
PLAYER_TWICE = "player_twice"
UNKNOWN_WITHOUT_BIRTH_YEAR = "unknown_without_birth_year"
SAME_FILE = "same_file"
DUPLICATE_TOURNAMENT = "duplicate_tournament"
DUPLICATES = frozenset({SAME_FILE, DUPLICATE_TOURNAMENT})

_SWAPPED = {"1-0": "0-1", "0-1": "1-0", "+-": "-+", "-+": "+-"}


@dataclass(frozen=True)
class PlausibilityWarning:
    """One reason to look again: ``code`` (the constants above), a German message, and for a duplicate
    the existing tournament's officer page."""

    code: str
    message: str
    url: str = ""
    link_text: str = ""

    @property
    def is_duplicate(self) -> bool:
        return self.code in DUPLICATES


def fingerprint(warnings: Iterable[PlausibilityWarning]) -> str:
    """What a confirmation confirms: the posted value must equal the warnings shown, so a change that
    brings a new warning asks again."""
    text = "\n".join(sorted(f"{w.code}:{w.message}" for w in warnings))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def tournament_warnings(
    *,
    tournament: Tournament,
    players: Sequence[Player],
    games: Sequence[Game],
    digest: str = "",
    today: datetime.date | None = None,
) -> list[PlausibilityWarning]:
    """Every warning for saving ``tournament`` (unsaved head; its pk, if any, is the tournament replaced)
    with ``players`` (in start order; new ones unsaved) and ``games`` (``white_id``/``black_id``).
    None when ``settings.PLAUSIBILITY_CHECKS`` is off."""
    if not settings.PLAUSIBILITY_CHECKS:
        return []
    today = today or timezone.localdate()
    warnings = _date_warnings(tournament.end_date, today)
    if tournament.rated:
        warnings += _time_control_warnings(
            tournament.time_control, u12=_all_u12(players, tournament.end_date)
        )
    warnings += _players_twice(players)
    warnings += _unknown_without_birth_year(players)
    warnings += _duplicates(tournament, players, games, digest)
    return warnings


def _date_warnings(end: datetime.date, today: datetime.date) -> list[PlausibilityWarning]:
    shown = date_format(end, "d.m.Y")
    if end > today:
        return [
            PlausibilityWarning(
                FUTURE_END, _("Das Turnierende %(date)s liegt in der Zukunft.") % {"date": shown}
            )
        ]
    if not permissions.in_correction_window(end, on=today):  # a year as WO 6.2 counts it (the anniversary)
        return [
            PlausibilityWarning(
                OLD_END,
                _(
                    "Das Turnierende %(date)s liegt mehr als ein Jahr zurück (WO 6.2: sechs Wochen nach dem "
                    "Ende besteht kein Anspruch mehr auf Auswertung; korrigieren kann es dann nur ein "
                    "Administrator)."
                )
                % {"date": shown},
            )
        ]
    return []


def _all_u12(players: Sequence[Player], end: datetime.date) -> bool:
    return bool(players) and all(
        p.birth_year is not None and end.year - p.birth_year <= U12_MAX_AGE for p in players
    )


def _time_control_warnings(text: str, *, u12: bool) -> list[PlausibilityWarning]:
    if not text.strip():
        return [
            PlausibilityWarning(
                NO_TIME_CONTROL,
                _(
                    "Keine Bedenkzeit angegeben: DWZ-gewertet werden nur Partien mit mindestens 90 Minuten "
                    "je Spieler (U12: 60), WO 4.2."
                ),
            )
        ]
    parsed = time_control.parse(text)
    if parsed is None:
        return [
            PlausibilityWarning(
                UNREADABLE_TIME_CONTROL,
                _("Die Bedenkzeit „%(text)s“ ist nicht lesbar; bitte prüfen, ob sie die WO 4.2 erfüllt.")
                % {"text": text},
            )
        ]
    short = time_control.shortfall(parsed, u12=u12)
    if short is None:
        return []
    params = {"text": text, "minutes": _number(short.minutes), "limit": _number(short.limit)}
    if short.kind == "first_period":
        message = _(
            "Bedenkzeit „%(text)s“: die erste Periode hat %(minutes)s Minuten, weniger als die %(limit)s "
            "Minuten der WO 4.2."
        )
    else:
        message = _(
            "Bedenkzeit „%(text)s“: %(minutes)s Minuten je Spieler, weniger als die %(limit)s Minuten der "
            "WO 4.2 (Schnell- und Blitzpartien werden nicht DWZ-gewertet)."
        )
    return [PlausibilityWarning(SHORT_TIME_CONTROL, message % params)]


def _number(value) -> str:
    return str(int(value)) if value == int(value) else f"{value:.1f}".replace(".", ",")


def _players_twice(players: Sequence[Player]) -> list[PlausibilityWarning]:
    groups: dict[tuple, list[Player]] = defaultdict(list)
    for p in players:
        if p.pk is not None:
            groups[("pk", p.pk)].append(p)
        if p.dsb_id:
            groups[("dsb", p.dsb_id.upper())].append(p)
        if p.fide_id:
            groups[("fide", p.fide_id)].append(p)
        if p.birth_year is not None:
            groups[
                ("name", p.surname.casefold().strip(), p.first_name.casefold().strip(), p.birth_year)
            ].append(p)
    seen: set[tuple[int, ...]] = set()
    out: list[PlausibilityWarning] = []
    for key, group in groups.items():
        if len(group) < 2:
            continue
        ids = tuple(sorted(id(p) for p in group))
        if ids in seen and key[0] != "pk":
            continue
        seen.add(ids)
        names = ", ".join(_label(p) for p in group)
        if key[0] == "pk":
            message = _("%(name)s ist %(n)s-mal als Teilnehmer eingetragen.") % {
                "name": _label(group[0]),
                "n": len(group),
            }
        else:
            message = _("Derselbe Spieler scheint doppelt eingetragen: %(names)s.") % {"names": names}
        out.append(PlausibilityWarning(PLAYER_TWICE, message))
    return out


def _label(p: Player) -> str:
    year = f", {p.birth_year}" if p.birth_year else ""
    key = f" ({p.key}{year})" if p.key else (f" ({p.birth_year})" if p.birth_year else "")
    return f"{p.name}{key}"


def _unknown_without_birth_year(players: Sequence[Player]) -> list[PlausibilityWarning]:
    without = [p for p in players if p.birth_year is None]
    stored = {p.pk for p in without if p.pk is not None}
    listed = set(OfficialRating.objects.filter(player_id__in=stored).values_list("player_id", flat=True))
    unknown = [p for p in without if p.pk not in listed]
    if not unknown:
        return []
    names = ", ".join(p.name for p in unknown[:NAMES_SHOWN])
    if len(unknown) > NAMES_SHOWN:
        names += " " + _("und %(n)s weitere") % {"n": len(unknown) - NAMES_SHOWN}
    return [
        PlausibilityWarning(
            UNKNOWN_WITHOUT_BIRTH_YEAR,
            _("Ohne Geburtsjahr und nicht in der DSB-Liste: %(names)s.") % {"names": names},
        )
    ]


def _game_key(white: int | None, black: int | None, result: str) -> tuple | None:
    if white is None or black is None or result not in PAIRING_RESULTS:
        return None
    return (white, black, result) if white < black else (black, white, _SWAPPED.get(result, result))


def _duplicates(
    tournament: Tournament, players: Sequence[Player], games: Sequence[Game], digest: str
) -> list[PlausibilityWarning]:
    out: list[PlausibilityWarning] = []
    same_file = (
        Tournament.objects.filter(source_digest=digest).exclude(pk=tournament.pk).order_by("pk").first()
        if digest
        else None
    )
    if same_file is not None:
        out.append(
            _duplicate_warning(
                SAME_FILE,
                same_file,
                _("Diese Datei wurde schon als „%(name)s“ (%(date)s) importiert."),
            )
        )
    ids = {p.pk for p in players if p.pk is not None}
    if not ids or not tournament.start_date or not tournament.end_date:
        return out
    overlapping = Tournament.objects.filter(
        start_date__lte=tournament.end_date, end_date__gte=tournament.start_date
    ).exclude(pk=tournament.pk)
    if same_file is not None:
        overlapping = overlapping.exclude(pk=same_file.pk)
    counts = overlapping.annotate(
        size=Count("entries", distinct=True),
        shared=Count("entries", filter=Q(entries__player_id__in=ids), distinct=True),
    ).filter(shared__gt=0)
    ours = len(players)
    close = {t.pk: t for t in counts if t.shared / max(ours, t.size) >= DUPLICATE_SHARE}
    if not close:
        return out
    our_games = Counter(k for g in games if (k := _game_key(g.white_id, g.black_id, g.result)))
    their_games: dict[int, Counter] = defaultdict(Counter)
    rows = Game.objects.filter(tournament_id__in=close).values_list(
        "tournament_id", "white_id", "black_id", "result"
    )
    for tid, white, black, result in rows:
        if key := _game_key(white, black, result):
            their_games[tid][key] += 1
    for pk, other in sorted(close.items()):
        theirs = their_games[pk]
        larger = max(sum(our_games.values()), sum(theirs.values()))
        shared = sum((our_games & theirs).values())
        if larger == 0 or shared / larger >= DUPLICATE_SHARE:
            out.append(
                _duplicate_warning(
                    DUPLICATE_TOURNAMENT,
                    other,
                    _(
                        "Wahrscheinlich dasselbe Turnier wie „%(name)s“ (%(date)s): die Daten überschneiden "
                        "sich, mindestens 80 %% der Spieler und der Partien sind gleich."
                    ),
                )
            )
    return out


def _duplicate_warning(code: str, other: Tournament, template: str) -> PlausibilityWarning:
    params = {"name": other.name, "date": date_format(other.end_date, "d.m.Y")}
    return PlausibilityWarning(
        code,
        template % params,
        url=reverse("ratings:tournament-detail", args=[other.pk]),
        link_text=str(other),
    )
