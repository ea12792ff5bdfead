"""Forms of result entry: the result-code vocabulary of the entry boxes, the round-robin grid, the Swiss
board formset, and the paste boxes. Every bad input ends as a message at its field or cell, never as an
exception."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.forms.utils import flatatt
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from ratings.enums import BYE_RESULTS, PAIRING_RESULTS, ResultCode
from ratings.formats.berger import berger_rounds
from ratings.models.player import Player

# ---------------------------------------------------------------------------------------------------------
# Result codes typed by the officer


def _normalise(raw: str) -> str:
    return raw.strip().replace(" ", "").replace("–", "-").replace("−", "-").lower()


# Round robin cell, from the row player's point of view.
CELL_WIN, CELL_DRAW, CELL_LOSS = "1", "½", "0"
CELL_FORFEIT_WIN, CELL_FORFEIT_LOSS, CELL_DOUBLE_FORFEIT = "+", "-", "--"
CELL_ALIASES = {
    "1": CELL_WIN,
    "0": CELL_LOSS,
    "½": CELL_DRAW,
    "5": CELL_DRAW,
    "r": CELL_DRAW,
    "=": CELL_DRAW,
    "0.5": CELL_DRAW,
    "0,5": CELL_DRAW,
    ",5": CELL_DRAW,
    ".5": CELL_DRAW,
    "1/2": CELL_DRAW,
    "+": CELL_FORFEIT_WIN,
    "-": CELL_FORFEIT_LOSS,
    "--": CELL_DOUBLE_FORFEIT,
}
CELL_MIRROR = {
    CELL_WIN: CELL_LOSS,
    CELL_LOSS: CELL_WIN,
    CELL_DRAW: CELL_DRAW,
    CELL_FORFEIT_WIN: CELL_FORFEIT_LOSS,
    CELL_FORFEIT_LOSS: CELL_FORFEIT_WIN,
    CELL_DOUBLE_FORFEIT: CELL_DOUBLE_FORFEIT,
}
# The stored result when the row player has white.
CELL_TO_RESULT = {
    CELL_WIN: ResultCode.WHITE_WINS,
    CELL_LOSS: ResultCode.BLACK_WINS,
    CELL_DRAW: ResultCode.DRAW,
    CELL_FORFEIT_WIN: ResultCode.WHITE_WINS_FORFEIT,
    CELL_FORFEIT_LOSS: ResultCode.BLACK_WINS_FORFEIT,
    CELL_DOUBLE_FORFEIT: ResultCode.DOUBLE_FORFEIT,
}
RESULT_TO_CELL = {v.value: k for k, v in CELL_TO_RESULT.items()}

# Swiss board: the result from White's point of view; byes only without a black player.
BOARD_ALIASES = {
    "1": ResultCode.WHITE_WINS,
    "1-0": ResultCode.WHITE_WINS,
    "0": ResultCode.BLACK_WINS,
    "0-1": ResultCode.BLACK_WINS,
    "½": ResultCode.DRAW,
    "5": ResultCode.DRAW,
    "r": ResultCode.DRAW,
    "=": ResultCode.DRAW,
    "1/2": ResultCode.DRAW,
    "½-½": ResultCode.DRAW,
    "1/2-1/2": ResultCode.DRAW,
    "0.5": ResultCode.DRAW,
    "0,5": ResultCode.DRAW,
    "+-": ResultCode.WHITE_WINS_FORFEIT,
    "-+": ResultCode.BLACK_WINS_FORFEIT,
    "-": ResultCode.BLACK_WINS_FORFEIT,
    "--": ResultCode.DOUBLE_FORFEIT,
    "h": ResultCode.HALF_POINT_BYE,
    "f": ResultCode.FULL_POINT_BYE,
    "u": ResultCode.UNPAIRED,
    "z": ResultCode.ZERO_POINT_BYE,
}
BOARD_DISPLAY = {
    ResultCode.WHITE_WINS: "1-0",
    ResultCode.BLACK_WINS: "0-1",
    ResultCode.DRAW: "½-½",
    ResultCode.WHITE_WINS_FORFEIT: "+-",
    ResultCode.BLACK_WINS_FORFEIT: "-+",
    ResultCode.DOUBLE_FORFEIT: "--",
    ResultCode.BYE: "+",
    ResultCode.HALF_POINT_BYE: "H",
    ResultCode.FULL_POINT_BYE: "F",
    ResultCode.UNPAIRED: "U",
    ResultCode.ZERO_POINT_BYE: "Z",
}


def parse_cell(raw: str) -> str:
    """A round-robin cell ('' = not played); raises ValidationError for an unknown code."""
    value = _normalise(raw)
    if not value:
        return ""
    if value not in CELL_ALIASES:
        raise ValidationError(
            _("Unbekanntes Ergebnis „%(value)s“ (erlaubt: 1, ½ oder 5/r, 0, +, -)."),
            code="unknown_result",
            params={"value": raw.strip()},
        )
    return CELL_ALIASES[value]


def parse_board_result(raw: str, *, has_black: bool) -> str:
    """A Swiss board result as a stored ResultCode value ('' = empty)."""
    value = _normalise(raw)
    if not value:
        return ""
    if value == "+":
        return ResultCode.WHITE_WINS_FORFEIT if has_black else ResultCode.BYE
    code = BOARD_ALIASES.get(value)
    if code is None:
        raise ValidationError(
            _(
                "Unbekanntes Ergebnis „%(value)s“ (erlaubt: 1, ½ oder 5/r, 0, +, -, --; spielfrei: +, H, F, U, Z)."  # noqa: E501
            ),
            code="unknown_result",
            params={"value": raw.strip()},
        )
    if has_black and code in BYE_RESULTS:
        raise ValidationError(_("Ein Freilos hat keinen Gegner: Schwarz leer lassen."), code="bye_with_black")
    if not has_black and code in PAIRING_RESULTS:
        raise ValidationError(
            _("Partie ohne Gegner: Schwarz auswählen oder ein Freilos (+, H, F, U, Z) eintragen."),
            code="game_without_black",
        )
    return code


@dataclass(frozen=True)
class GameSpec:
    """One unsaved game (or bye) as the officer entered it."""

    round: int
    white_id: int
    black_id: int | None
    result: str  # ResultCode value
    board: int | None = None


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

    def clean(self) -> dict:
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
        for i, a in enumerate(self.players):
            for b in self.players[i + 1 :]:
                va, vb = self.cells.get((a.pk, b.pk)), self.cells.get((b.pk, a.pk))
                if va is None or vb is None:
                    continue  # already an error at the cell
                if va and vb and CELL_MIRROR[va] != vb:
                    message = _(
                        "Passt nicht zur Spiegelzelle (%(a)s gegen %(b)s: „%(va)s“ und „%(vb)s“)."
                    ) % {
                        "a": a,
                        "b": b,
                        "va": va,
                        "vb": vb,
                    }
                    self.add_error(self.cell_name(a.pk, b.pk), message)
                    self.add_error(self.cell_name(b.pk, a.pk), message)
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
        schedule = berger_rounds(len(self.players))
        busy: dict[int, set[int]] = {}
        pending: list[tuple[int, int, str, int, bool]] = []
        out: list[GameSpec] = []
        for i, a in enumerate(self.players):
            for j in range(i + 1, len(self.players)):
                b = self.players[j]
                va, vb = self.cells.get((a.pk, b.pk), ""), self.cells.get((b.pk, a.pk), "")
                cell = va or (CELL_MIRROR[vb] if vb else "")
                if not cell:
                    continue
                rnd, a_white = schedule[(i, j)]
                stored = self.existing.get((a.pk, b.pk)) or self.existing.get((b.pk, a.pk))
                if stored is not None:
                    rnd = stored
                    a_white = (a.pk, b.pk) in self.existing
                pending.append((i, j, cell, rnd, a_white))
        # Stored rounds first, then the schedule; move a game to the first free round on a clash.
        for i, j, cell, rnd, a_white in pending:
            a, b = self.players[i], self.players[j]
            while a.pk in busy.get(rnd, set()) or b.pk in busy.get(rnd, set()):
                rnd += 1
            busy.setdefault(rnd, set()).update({a.pk, b.pk})
            if a_white:
                out.append(GameSpec(rnd, a.pk, b.pk, CELL_TO_RESULT[cell]))
            else:
                out.append(GameSpec(rnd, b.pk, a.pk, CELL_TO_RESULT[CELL_MIRROR[cell]]))
        return sorted(out, key=lambda g: (g.round, g.white_id))

    def cell_value(self, row: int, col: int) -> str:
        """What to show in a cell when re-rendering (the typed text)."""
        return self.data.get(self.add_prefix(self.cell_name(row, col)), "") if self.is_bound else ""


def round_robin_initial(players: list[Player], games) -> dict[str, str]:
    """Grid values for stored games (``games``: objects with white_id, black_id, result)."""
    initial: dict[str, str] = {}
    for g in games:
        cell = RESULT_TO_CELL.get(g.result)
        if cell is None or g.black_id is None:
            continue
        initial[RoundRobinForm.cell_name(g.white_id, g.black_id)] = cell
        initial[RoundRobinForm.cell_name(g.black_id, g.white_id)] = CELL_MIRROR[cell]
    return initial


# ---------------------------------------------------------------------------------------------------------
# Swiss / rounds: one row per board


@functools.lru_cache(maxsize=8)
def _options_html(choices: tuple[tuple[object, str], ...]) -> str:
    return "".join(f'<option value="{escape(value)}">{escape(label)}</option>' for value, label in choices)


class ParticipantSelect(forms.Select):
    """The board rows' player select, built as one string per page and marked per row.

    A 300-player, 11-round Swiss shows 3,300 of these with 301 options each: Django's option-by-option
    template rendering took about 110 s of CPU for that page, this a fraction of a second."""

    def render(self, name, value, attrs=None, renderer=None):
        final = self.build_attrs(self.attrs, attrs)
        final["name"] = name
        options = _options_html(tuple((str(v), str(label)) for v, label in self.choices))
        if value not in (None, ""):
            plain = f'<option value="{escape(value)}">'
            options = options.replace(plain, plain[:-1] + " selected>", 1)
        # Every value and label above went through escape(); flatatt escapes the attributes.
        return mark_safe(f"<select{flatatt(final)}>{options}</select>")  # noqa: S308


class BoardForm(forms.Form):
    round = forms.IntegerField(label=_("Runde"), min_value=1, max_value=99, required=False)
    white = forms.TypedChoiceField(
        label=_("Weiß"), coerce=int, required=False, empty_value=None, widget=ParticipantSelect
    )
    black = forms.TypedChoiceField(
        label=_("Schwarz"), coerce=int, required=False, empty_value=None, widget=ParticipantSelect
    )
    result = forms.CharField(label=_("Ergebnis"), max_length=8, required=False)

    def __init__(self, *args, players: list[Player], rounds: int | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *((p.pk, str(p)) for p in players)]
        for name in ("white", "black"):
            self.fields[name].choices = choices
            self.fields[name].error_messages["invalid_choice"] = _("Kein Teilnehmer dieses Turniers.")
            self.fields[name].widget.attrs.update({"class": "form-select form-select-sm js-result"})
        self.fields["round"].widget.attrs.update(
            {"class": "form-control form-control-sm js-result", "min": 1}
        )
        self.fields["result"].widget.attrs.update(
            {"class": "form-control form-control-sm js-result board-result", "autocomplete": "off", "size": 5}
        )
        self.declared_rounds = rounds

    def clean(self) -> dict:
        data = super().clean()
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
        super().__init__(*args, form_kwargs={"players": players, "rounds": rounds}, **kwargs)

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
        out = [f.spec for f in self.forms if getattr(f, "spec", None) is not None]
        boards: dict[int, int] = {}
        numbered = []
        for g in sorted(out, key=lambda g: (g.round, g.black_id is None)):
            boards[g.round] = boards.get(g.round, 0) + 1
            numbered.append(GameSpec(g.round, g.white_id, g.black_id, g.result, boards[g.round]))
        return numbered


BoardFormSet = forms.formset_factory(
    BoardForm, formset=BaseBoardFormSet, extra=0, max_num=2000, validate_max=True, absolute_max=2000
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


_SPLIT = re.compile(r"[\t;| ]+")


def parse_round_robin_block(text: str, players: list[Player]) -> tuple[dict[str, str], list[str]]:
    """A pasted crosstable: line k holds player k's row (own cell as x, *, - or blank-free placeholder)."""
    values: dict[str, str] = {}
    errors: list[str] = []
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > len(players):
        errors.append(
            str(
                _("Mehr Zeilen (%(lines)s) als Teilnehmer (%(n)s).")
                % {"lines": len(lines), "n": len(players)}
            )
        )
    for r, line in enumerate(lines[: len(players)]):
        cells = [c for c in _SPLIT.split(line.strip()) if c]
        if len(cells) == len(players) - 1:
            cells.insert(r, "x")
        if len(cells) != len(players):
            errors.append(
                str(
                    _("Zeile %(row)s: %(got)s Werte statt %(n)s.")
                    % {"row": r + 1, "got": len(cells), "n": len(players)}
                )
            )
            continue
        for c, value in enumerate(cells):
            if c == r:
                continue
            values[RoundRobinForm.cell_name(players[r].pk, players[c].pk)] = (
                "" if value in {".", "_"} else value
            )
    return values, errors


def parse_board_block(text: str, players: list[Player]) -> tuple[list[dict], list[str]]:
    """Pasted boards, one per line: ``round white-no black-no result`` with start numbers (1-based);
    a bye as ``round white-no result``."""
    rows: list[dict] = []
    errors: list[str] = []
    for k, line in enumerate((line for line in text.splitlines() if line.strip()), start=1):
        parts = [p for p in _SPLIT.split(line.strip()) if p]
        if len(parts) not in (3, 4):
            errors.append(str(_("Zeile %(row)s: erwartet „Runde Weiß Schwarz Ergebnis“.") % {"row": k}))
            continue
        try:
            numbers = [int(p) for p in parts[:-1]]
        except ValueError:
            errors.append(str(_("Zeile %(row)s: Runde und Startnummern müssen Zahlen sein.") % {"row": k}))
            continue
        if any(not 1 <= no <= len(players) for no in numbers[1:]):
            errors.append(
                str(_("Zeile %(row)s: Startnummer außerhalb 1–%(n)s.") % {"row": k, "n": len(players)})
            )
            continue
        rows.append(
            {
                "round": numbers[0],
                "white": players[numbers[1] - 1].pk,
                "black": players[numbers[2] - 1].pk if len(numbers) == 3 else "",
                "result": parts[-1],
            }
        )
    return rows, errors
