"""Forms of result entry: the round-robin grid, its paste box, the board results of the round screen and the
words for what ``ratings.formats.result_entry`` (codes, parsers, rounds) refuses. Every bad input ends as a
message at its field or cell, never as an exception."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ratings.formats import result_entry as entry
from ratings.formats.berger import berger_rounds
from ratings.formats.result_entry import GameSpec
from ratings.models.player import Player

# ---------------------------------------------------------------------------------------------------------
# Result codes typed by the officer (the vocabulary lives in ratings.formats.result_entry)

_UNKNOWN_BOARD = _(
    "Unbekanntes Ergebnis „%(value)s“ (erlaubt: 1, ½ oder 5/r, 0, +, -, --; spielfrei: +, H, F, U, Z)."
)
MESSAGES = {
    "unknown_cell": (
        _("Unbekanntes Ergebnis „%(value)s“ (erlaubt: 1, ½ oder 5/r, 0, +, -)."),
        "unknown_result",
    ),
    "unknown_board": (_UNKNOWN_BOARD, "unknown_result"),
    "bye_with_black": (_("Ein Freilos hat keinen Gegner: Schwarz leer lassen."), "bye_with_black"),
    "game_without_black": (
        _("Partie ohne Gegner: Schwarz auswählen oder ein Freilos (+, H, F, U, Z) eintragen."),
        "game_without_black",
    ),
    "too_many_lines": (_("Mehr Zeilen (%(lines)s) als Teilnehmer (%(n)s)."), "paste"),
    "row_length": (_("Zeile %(row)s: %(got)s Werte statt %(n)s."), "paste"),
    "board_syntax": (_("Zeile %(row)s: erwartet „Runde Weiß Schwarz Ergebnis“."), "paste"),
    "board_numbers": (_("Zeile %(row)s: Runde und Startnummern müssen Zahlen sein."), "paste"),
    "start_number": (_("Zeile %(row)s: Startnummer außerhalb 1–%(n)s."), "paste"),
}


def validation_error(exc: entry.ResultEntryError) -> ValidationError:
    message, code = MESSAGES[exc.code]
    return ValidationError(message, code=code, params=exc.params or None)


def message_text(exc: entry.ResultEntryError) -> str:
    message, _code = MESSAGES[exc.code]
    return str(message) % exc.params if exc.params else str(message)


def parse_cell(raw: str) -> str:
    """A round-robin cell ('' = not played); raises ValidationError for an unknown code."""
    try:
        return entry.parse_cell(raw)
    except entry.ResultEntryError as exc:
        raise validation_error(exc) from None


def parse_board_result(raw: str, *, has_black: bool) -> str:
    """A Swiss board result as a stored ResultCode value ('' = empty); raises ValidationError."""
    try:
        return entry.parse_board_result(raw, has_black=has_black)
    except entry.ResultEntryError as exc:
        raise validation_error(exc) from None


# ---------------------------------------------------------------------------------------------------------
# Participants (hidden inputs "p", in start-rank order)


def parse_participants(values: list[str]) -> tuple[list[Player], list[str]]:
    """The listed players in order (duplicates dropped) and messages for ids that are not players."""
    ids: list[int] = []
    errors: list[str] = []
    for value in values:
        text = str(value).strip()
        # Only plain ids a database integer can hold (no "²", no 20 digits: OverflowError on SQLite).
        if not (text.isascii() and text.isdecimal() and len(text) <= 18):
            errors.append(str(_("Ungültige Spieler-ID „%(value)s“.") % {"value": value}))
            continue
        pk = int(text)
        if pk not in ids:
            ids.append(pk)
    players = Player.objects.in_bulk(ids)
    for pk in ids:
        if pk not in players:
            errors.append(str(_("Spieler %(pk)s gibt es nicht (mehr).") % {"pk": pk}))
    return [players[pk] for pk in ids if pk in players], errors


# ---------------------------------------------------------------------------------------------------------
# Round robin grid


class RoundRobinForm(forms.Form):
    """One text cell per ordered pair of players: ``rr-<row pk>-<column pk>``; the mirror may be blank."""

    def __init__(self, *args, players: list[Player], rounds: int | None = None, existing=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.declared_rounds = rounds
        # (white_id, black_id) -> round of games already stored, so a correction keeps its rounds.
        self.existing = existing or {}
        for a in players:
            for b in players:
                if a.pk != b.pk:
                    self.fields[self.cell_name(a.pk, b.pk)] = forms.CharField(
                        required=False, max_length=8, label=f"{a} – {b}"
                    )

    @staticmethod
    def cell_name(row: int, col: int) -> str:
        return f"rr-{row}-{col}"

    def clean(self) -> dict[str, Any] | None:
        data = super().clean()
        self.cells: dict[tuple[int, int], str] = {}
        for a in self.players:
            for b in self.players:
                if a.pk == b.pk:
                    continue
                name = self.cell_name(a.pk, b.pk)
                try:
                    self.cells[(a.pk, b.pk)] = parse_cell(self.data.get(self.add_prefix(name), "") or "")
                except ValidationError as exc:
                    self.add_error(name, exc)
        ids = [p.pk for p in self.players]
        names = {p.pk: str(p) for p in self.players}
        for a_pk, b_pk in entry.mirror_clashes(ids, self.cells):
            message = _("Passt nicht zur Spiegelzelle (%(a)s gegen %(b)s: „%(va)s“ und „%(vb)s“).") % {
                "a": names[a_pk],
                "b": names[b_pk],
                "va": self.cells[(a_pk, b_pk)],
                "vb": self.cells[(b_pk, a_pk)],
            }
            self.add_error(self.cell_name(a_pk, b_pk), message)
            self.add_error(self.cell_name(b_pk, a_pk), message)
        if not self.errors:
            games = self.games()
            max_round = max((g.round for g in games), default=0)
            if self.declared_rounds and max_round > self.declared_rounds:
                raise ValidationError(
                    _(
                        "Die Partien brauchen %(needed)s Runden, angegeben sind %(declared)s. "
                        "Bitte die Rundenzahl im Turnierkopf anpassen."
                    ),
                    code="too_many_rounds",
                    params={"needed": max_round, "declared": self.declared_rounds},
                )
        return data

    def games(self) -> list[GameSpec]:
        """The games of the grid; rounds from the stored games where possible, else the Berger table."""
        return entry.grid_games(
            [p.pk for p in self.players],
            self.cells,
            schedule=berger_rounds(len(self.players)),
            existing=self.existing,
        )

    def cell_value(self, row: int, col: int) -> str:
        """What to show in a cell when re-rendering (the typed text)."""
        return self.data.get(self.add_prefix(self.cell_name(row, col)), "") if self.is_bound else ""


def round_robin_initial(players: list[Player], games) -> dict[str, str]:
    """Grid values for stored games (``games``: objects with white_id, black_id, result)."""
    cells = entry.grid_cells((g.white_id, g.black_id, g.result) for g in games)
    return {RoundRobinForm.cell_name(row, col): value for (row, col), value in cells.items()}


# ---------------------------------------------------------------------------------------------------------
# Pasting a block of results


def parse_round_robin_block(text: str, players: list[Player]) -> tuple[dict[str, str], list[str]]:
    """A pasted crosstable as posted grid values (cell name -> text) and messages."""
    values, errors = entry.parse_grid_block(text, [p.pk for p in players])
    named = {RoundRobinForm.cell_name(row, col): value for (row, col), value in values.items()}
    return named, [message_text(e) for e in errors]
