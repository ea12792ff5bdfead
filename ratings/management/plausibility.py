"""The plausibility warnings in the import commands: printed together, and nothing saved unless each kind is
confirmed: ``--allow-duplicate`` for a likely duplicate tournament, ``--confirm`` for every other warning."""

from __future__ import annotations

from collections.abc import Sequence

from ratings.selectors.plausibility import PlausibilityWarning

EXIT_WARNINGS = 3  # nothing saved: warnings not confirmed (2: bad input)


def add_arguments(parser) -> None:
    parser.add_argument(
        "--allow-duplicate",
        action="store_true",
        help="save even if the same file or a tournament with the same dates, players and games exists",
    )
    parser.add_argument(
        "--confirm",
        action="store_true",
        help="save despite the other plausibility warnings (end date, time control, players)",
    )


def unconfirmed(warnings: Sequence[PlausibilityWarning], options: dict) -> list[PlausibilityWarning]:
    """The warnings the command line has not confirmed."""
    return [w for w in warnings if not (options["allow_duplicate"] if w.is_duplicate else options["confirm"])]


def lines(label: str, warnings: Sequence[PlausibilityWarning], options: dict) -> list[str]:
    """One line per warning, German, with the existing tournament of a duplicate and the flag it needs."""
    out = []
    for w in warnings:
        link = f" [{w.link_text}: {w.url}]" if w.url else ""
        flag = "--allow-duplicate" if w.is_duplicate else "--confirm"
        given = options["allow_duplicate"] if w.is_duplicate else options["confirm"]
        out.append(f"{label}: Warnung: {w.message}{link}" + ("" if given else f" (bestätigen mit {flag})"))
    return out
