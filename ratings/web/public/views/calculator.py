"""DWZ calculator: one player against synthetic rated opponents, evaluated by the engine.

Nothing is computed here: the view builds a ``TournamentInput`` and shows the engine's result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_POST

from ratings.dwz import GameInput, PlayerInput, PlayerResult, TournamentInput, evaluate
from ratings.dwz.types import EditionName, Result
from ratings.enums import Edition
from ratings.web.public.forms import CalculatorForm, OpponentFormSet, opponents_from

if TYPE_CHECKING:
    from django.forms import BaseFormSet

    from ratings.web.public.forms import OpponentForm

SELF_ID = "me"
PREFIX = "opp"
# A DWZ without its index: the rules read a missing index as 0 (spec §2), which in the calculator doubles the
# change (WO 2026 K 60 instead of 28; classic E 5). Someone who knows his DWZ but not its index has almost
# always more than ten evaluations behind it, so the calculator assumes that, and says so (issue 32).
ASSUMED_INDEX = 11
_RESULT_CODE = {1000: Result.WHITE_WINS, 500: Result.DRAW, 0: Result.BLACK_WINS}


@dataclass(frozen=True)
class CalculatorOutcome:
    result: PlayerResult
    edition: str
    edition_label: str
    games: int  # rows entered (every row is a counted game for a rated player)
    assumed_index: int | None = None  # the index assumed for a DWZ given without one

    @property
    def coefficient_label(self) -> str:
        return "E" if self.edition == EditionName.CLASSIC else "K"

    @property
    def change(self) -> int | None:
        r = self.result
        if r.dwz_new is None or r.dwz_old is None:
            return None
        return r.dwz_new - r.dwz_old


def run_calculation(form: CalculatorForm, formset) -> CalculatorOutcome | None:
    """The engine's result for the player's entries, or None while there is nothing to evaluate."""
    opponents = opponents_from(formset)
    if not opponents:
        return None
    data = form.cleaned_data
    index, assumed = data.get("index"), None
    if data.get("dwz") is not None and index is None:
        index = assumed = ASSUMED_INDEX
    me = PlayerInput(id=SELF_ID, birth_year=data.get("birth_year"), dwz=data.get("dwz"), index=index)
    players = [me]
    games = []
    for number, (rating, score) in enumerate(opponents, start=1):
        opponent_id = f"o{number}"
        players.append(PlayerInput(id=opponent_id, dwz=rating, index=None))
        games.append(GameInput(white=SELF_ID, black=opponent_id, result=_RESULT_CODE[score]))
    result = evaluate(TournamentInput(end_date=data["end_date"], players=tuple(players), games=tuple(games)))
    return CalculatorOutcome(
        result=result.players[0],
        edition=result.edition,
        edition_label=str(Edition(result.edition).label),
        games=len(opponents),
        assumed_index=assumed,
    )


def _bind(request: HttpRequest) -> tuple[CalculatorForm, BaseFormSet[OpponentForm], CalculatorOutcome | None]:
    form = CalculatorForm(request.POST)
    formset = OpponentFormSet(request.POST, prefix=PREFIX)
    outcome = None
    if form.is_valid() and formset.is_valid():
        outcome = run_calculation(form, formset)
    return form, formset, outcome


@require_http_methods(["GET", "POST"])
def calculator(request: HttpRequest) -> HttpResponse:
    """The full page; a plain POST (no JavaScript) shows the result below the form."""
    outcome = None
    if request.method == "POST":
        data = request.POST.copy()
        if "add_rows" in data:  # the no-JavaScript way to get more opponent rows
            try:
                total = int(data.get(f"{PREFIX}-TOTAL_FORMS", "0"))
            except ValueError:
                total = 0
            data[f"{PREFIX}-TOTAL_FORMS"] = str(min(max(total, 0) + 5, OpponentFormSet.max_num))
            form = CalculatorForm(data)
            formset = OpponentFormSet(data, prefix=PREFIX)
            if form.is_valid() and formset.is_valid():
                outcome = run_calculation(form, formset)
        else:
            form, formset, outcome = _bind(request)
        submitted = True
    else:
        form = CalculatorForm()
        formset = OpponentFormSet(prefix=PREFIX)
        submitted = False
    context = {"form": form, "formset": formset, "outcome": outcome, "submitted": submitted}
    return render(request, "ratings/public/calculator.html", context)


@require_POST
def calculator_preview(request: HttpRequest) -> HttpResponse:
    """HTMX endpoint: only the result partial; invalid input renders its errors (status 200)."""
    form, formset, outcome = _bind(request)
    context = {"form": form, "formset": formset, "outcome": outcome, "submitted": True}
    return render(request, "ratings/public/calculator.html#result", context)
