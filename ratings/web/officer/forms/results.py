"""Forms of result entry: the round-robin grid, the Swiss board formset, the paste boxes and the words for
what ``ratings.formats.result_entry`` (codes, parsers, rounds) refuses. Every bad input ends as a message at
its field or cell, never as an exception."""

from __future__ import annotations

import functools
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.forms.utils import flatatt
from django.forms.widgets import Input
from django.utils.choices import BaseChoiceIterator
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from ratings.formats import result_entry as entry
from ratings.formats.berger import berger_rounds
from ratings.formats.result_entry import BOARD_DISPLAY, GameSpec
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
# Swiss / rounds: one row per board


@functools.lru_cache(maxsize=8)
def _options_html(choices: tuple[tuple[object, str], ...]) -> str:
    return "".join(f'<option value="{escape(value)}">{escape(label)}</option>' for value, label in choices)


class ParticipantChoices(BaseChoiceIterator):
    """The participants as choices, built once per formset and shared by every board row.

    Django normalises a plain list on every assignment and checks a value by walking it: for a 300-player,
    11-round Swiss (1,650 rows, two selects each) that took about 25 s of CPU per posted page."""

    def __init__(self, players: list[Player]) -> None:
        self.choices: list[tuple[object, str]] = [("", "—"), *((p.pk, str(p)) for p in players)]
        self.values = {str(value) for value, _label in self.choices}

    def __iter__(self):
        return iter(self.choices)

    @functools.cached_property
    def html(self) -> str:
        return _options_html(tuple((str(v), str(label)) for v, label in self.choices))


class ParticipantField(forms.TypedChoiceField):
    def valid_value(self, value) -> bool:
        if isinstance(self.choices, ParticipantChoices):
            return str(value) in self.choices.values
        return super().valid_value(value)


class ParticipantSelect(forms.Select):
    """The board rows' player select, built as one string per page and marked per row.

    A 300-player, 11-round Swiss shows 3,300 of these with 301 options each: Django's option-by-option
    template rendering took about 110 s of CPU for that page, this a fraction of a second."""

    def render(self, name, value, attrs=None, renderer=None):
        final = self.build_attrs(self.attrs, attrs)
        final["name"] = name
        choices = self.choices
        if isinstance(choices, ParticipantChoices):
            options = choices.html
        else:
            options = _options_html(tuple((str(v), str(label)) for v, label in choices))
        if value not in (None, ""):
            plain = f'<option value="{escape(value)}">'
            options = options.replace(plain, plain[:-1] + " selected>", 1)
        # Every value and label above went through escape(); flatatt escapes the attributes.
        return mark_safe(f"<select{flatatt(final)}>{options}</select>")  # noqa: S308


class _StringInput(Input):
    """An input rendered as Django's ``input.html`` renders it, without the template engine: a 300-player,
    11-round Swiss shows 3,300 round and result inputs, and their template rendering was about a third of
    the page's CPU time."""

    def render(self, name, value, attrs=None, renderer=None):
        value = self.format_value(value)
        html = [f'<input type="{conditional_escape(self.input_type)}" name="{conditional_escape(name)}"']
        if value is not None:
            html.append(f' value="{conditional_escape(value)}"')
        for key, val in self.build_attrs(self.attrs, attrs).items():
            if val is True:
                html.append(f" {conditional_escape(key)}")
            elif val is not False:
                html.append(f' {conditional_escape(key)}="{conditional_escape(val)}"')
        # Every name and value above went through conditional_escape, as the template's autoescape does.
        return mark_safe("".join(html) + ">")  # noqa: S308


class BoardNumberInput(_StringInput, forms.NumberInput):
    pass


class BoardTextInput(_StringInput, forms.TextInput):
    pass


class BoardForm(forms.Form):
    round = forms.IntegerField(
        label=_("Runde"), min_value=1, max_value=99, required=False, widget=BoardNumberInput
    )
    white = ParticipantField(
        label=_("Weiß"), coerce=int, required=False, empty_value=None, widget=ParticipantSelect
    )
    black = ParticipantField(
        label=_("Schwarz"), coerce=int, required=False, empty_value=None, widget=ParticipantSelect
    )
    result = forms.CharField(label=_("Ergebnis"), max_length=8, required=False, widget=BoardTextInput)

    def __init__(
        self, *args, players: list[Player] | ParticipantChoices, rounds: int | None = None, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        choices = players if isinstance(players, ParticipantChoices) else ParticipantChoices(players)
        for name in ("white", "black"):
            field = cast(ParticipantField, self.fields[name])
            field.choices = choices
            field.error_messages["invalid_choice"] = _("Kein Teilnehmer dieses Turniers.")
            field.widget.attrs.update({"class": "form-select form-select-sm js-result"})
        self.fields["round"].widget.attrs.update(
            {"class": "form-control form-control-sm js-result", "min": 1}
        )
        self.fields["result"].widget.attrs.update(
            {"class": "form-control form-control-sm js-result board-result", "autocomplete": "off", "size": 5}
        )
        self.declared_rounds = rounds

    def clean(self) -> dict[str, Any] | None:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns
        raw_result = (self.data.get(self.add_prefix("result")) or "").strip()
        filled = [
            bool(self.data.get(self.add_prefix(n), "").strip()) for n in ("round", "white", "black", "result")
        ]
        if not any(filled):
            self.spec = None
            return data
        white, black, rnd = data.get("white"), data.get("black"), data.get("round")
        if not filled[0]:
            self.add_error("round", _("Runde fehlt."))
        if not filled[1]:
            self.add_error("white", _("Weiß fehlt."))
        if white is not None and black is not None and white == black:
            self.add_error("black", _("Ein Spieler kann nicht gegen sich selbst spielen."))
        if rnd and self.declared_rounds and rnd > self.declared_rounds:
            self.add_error(
                "round",
                _("Runde %(round)s, aber das Turnier hat nur %(declared)s Runden.")
                % {"round": rnd, "declared": self.declared_rounds},
            )
        code = ""
        if not raw_result:
            self.add_error("result", _("Ergebnis fehlt."))
        elif "black" not in self.errors:
            try:
                code = parse_board_result(raw_result, has_black=bool(self.data.get(self.add_prefix("black"))))
            except ValidationError as exc:
                self.add_error("result", exc)
        self.spec = (
            GameSpec(rnd, white, black, code)
            if not self.errors and rnd and white is not None and code
            else None
        )
        return data


class BaseBoardFormSet(forms.BaseFormSet):
    def __init__(self, *args, players: list[Player], rounds: int | None = None, **kwargs) -> None:
        self.players = players
        self.rounds = rounds
        kwargs.setdefault("prefix", "b")
        kwargs["form_kwargs"] = {"players": ParticipantChoices(players), "rounds": rounds}
        super().__init__(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        seen: dict[tuple[int, int], int] = {}
        names = {p.pk: str(p) for p in self.players}
        for index, form in enumerate(self.forms):
            spec = getattr(form, "spec", None)
            if spec is None:
                continue
            for field, pk in (("white", spec.white_id), ("black", spec.black_id)):
                if pk is None:
                    continue
                first = seen.get((spec.round, pk))
                if first is not None:
                    form.add_error(
                        field,
                        _("%(name)s ist in Runde %(round)s schon eingetragen (Zeile %(row)s).")
                        % {"name": names.get(pk, pk), "round": spec.round, "row": first + 1},
                    )
                    form.spec = None
                else:
                    seen[(spec.round, pk)] = index

    def games(self) -> list[GameSpec]:
        return entry.number_boards(f.spec for f in self.forms if getattr(f, "spec", None) is not None)


# formset_factory is typed as returning the plain BaseFormSet: the cast keeps BaseBoardFormSet's signature.
BoardFormSet = cast(
    "type[BaseBoardFormSet]",
    forms.formset_factory(
        BoardForm, formset=BaseBoardFormSet, extra=0, max_num=2000, validate_max=True, absolute_max=2000
    ),
)


def board_initial(games) -> list[dict]:
    return [
        {
            "round": g.round,
            "white": g.white_id,
            "black": g.black_id or "",
            "result": BOARD_DISPLAY.get(g.result, g.result),
        }
        for g in sorted(games, key=lambda g: (g.round, g.board or 0, g.pk or 0))
    ]


# ---------------------------------------------------------------------------------------------------------
# Pasting a block of results


def parse_round_robin_block(text: str, players: list[Player]) -> tuple[dict[str, str], list[str]]:
    """A pasted crosstable as posted grid values (cell name -> text) and messages."""
    values, errors = entry.parse_grid_block(text, [p.pk for p in players])
    named = {RoundRobinForm.cell_name(row, col): value for (row, col), value in values.items()}
    return named, [message_text(e) for e in errors]


def parse_board_block(text: str, players: list[Player]) -> tuple[list[dict], list[str]]:
    """Pasted boards as posted board rows (round, white, black, result) and messages."""
    rows, errors = entry.parse_board_block(text, [p.pk for p in players])
    posted = [
        {"round": r.round, "white": r.white_id, "black": r.black_id or "", "result": r.result} for r in rows
    ]
    return posted, [message_text(e) for e in errors]
