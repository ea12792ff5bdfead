"""Small builders for engine inputs in tests."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

from ratings.dwz import GameInput, PlayerInput, TournamentInput

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
