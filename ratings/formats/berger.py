"""Round-robin pairings by the Berger tables (circle method). Pure Python."""

from __future__ import annotations


def berger_rounds(n: int) -> dict[tuple[int, int], tuple[int, bool]]:
    """Round-robin schedule by the circle method: (i, j), i < j (0-based seats) -> (round, i has white)."""
    seats = n if n % 2 == 0 else n + 1
    out: dict[tuple[int, int], tuple[int, bool]] = {}
    order = list(range(seats))
    for rnd in range(1, seats):
        for k in range(seats // 2):
            a, b = order[k], order[seats - 1 - k]
            if a < n and b < n:
                white_first = (rnd % 2 == 1) if k == 0 else (k % 2 == 0)
                white = a if white_first else b
                i, j = min(a, b), max(a, b)
                out[(i, j)] = (rnd, white == i)
        order = [order[0], order[-1], *order[1:-1]]
    return out
