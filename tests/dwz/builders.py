"""Small builders for engine inputs in tests."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

from ratings.dwz import GameInput, PlayerInput, RestpartieValue, TournamentInput, evaluate
from ratings.dwz.contract import parse_tournament, result_to_json

from .reference import evaluate_json

EXAMPLES_PATH = Path(__file__).resolve().parent.parent / "data" / "dwz-examples.json"


def load_examples() -> list[dict[str, Any]]:
    return json.loads(EXAMPLES_PATH.read_text(encoding="utf-8"))


def example(example_id: str) -> dict[str, Any]:
    return next(e for e in load_examples() if e["id"] == example_id)


def solo(
    end: str,
    r0: int,
    opponents: list[tuple[int, str]],
    *,
    birth_year: int | None = None,
    index: int | None = 20,
    fide: bool = False,
) -> TournamentInput:
    """One rated player "A" against rated opponents given as (rating, result for A: "1", "½", "0")."""
    players = [
        PlayerInput(
            id="A",
            birth_year=birth_year,
            dwz=None if fide else r0,
            index=None if fide else index,
            fide_elo=r0 if fide else None,
        )
    ]
    games = []
    code = {"1": "1-0", "½": "1/2-1/2", "0": "0-1"}
    for k, (rating, result) in enumerate(opponents):
        players.append(PlayerInput(id=f"O{k}", birth_year=1970, dwz=rating, index=30))
        games.append(GameInput("A", f"O{k}", code[result]))
    return TournamentInput(
        end_date=datetime.date.fromisoformat(end), players=tuple(players), games=tuple(games)
    )


def tournament_unchecked(data: dict[str, Any]) -> TournamentInput:
    """The engine input for contract JSON without the contract's checks (e.g. ratings above 3000)."""
    scores = {0: 0, 0.5: 500, 1: 1000}
    players = tuple(
        PlayerInput(
            p["id"],
            p.get("birth_year"),
            p.get("dwz"),
            p.get("index"),
            p.get("fide_elo"),
            tuple(
                RestpartieValue(
                    rp["opponent_rating"], scores[rp["score"]], datetime.date.fromisoformat(rp["end_date"])
                )
                for rp in p.get("restpartien") or ()
            ),
            p.get("member") is not False,
        )
        for p in data["players"]
    )
    games = tuple(GameInput(g["white"], g["black"], g["result"]) for g in data["games"])
    end = datetime.date.fromisoformat(data["tournament"]["end_date"])
    return TournamentInput(end_date=end, players=players, games=games)


def engine_json(data: dict[str, Any], *, internals: bool = False, checked: bool = True) -> dict[str, Any]:
    """The engine's output in the contract's JSON; with ``internals`` also entry rating and take-over.
    ``checked=False`` skips the contract's checks (for ratings the contract does not admit)."""
    result = evaluate(parse_tournament(data) if checked else tournament_unchecked(data))
    out = result_to_json(result)
    if internals:
        for row, p in zip(out["players"], result.players, strict=True):
            row["entry_rating"] = p.entry_rating
            row["fide_takeover"] = p.fide_takeover
    return out


def assert_same(data: dict[str, Any], *, checked: bool = True) -> None:
    expected = evaluate_json(data, internals=True)
    actual = engine_json(data, internals=True, checked=checked)
    if actual != expected:
        diffs = [
            f"  engine    {a}\n  reference {r}"
            for a, r in zip(actual["players"], expected["players"], strict=True)
            if a != r
        ]
        pytest.fail(
            f"engine and reference disagree (edition {actual['edition']} / {expected['edition']}):\n"
            + "\n".join(diffs)
            + "\ninput: "
            + json.dumps(data)
        )
