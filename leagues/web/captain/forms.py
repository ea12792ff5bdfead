"""The captain's match report: players per board and the results, by select (touch) or typed as
``1 1``, ``2 ½``, ``3 +`` (board and result from the home side, one per line or separated by commas)."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from leagues.core.types import halves_text
from leagues.models import LeagueResult, Match
from leagues.services.matches import BoardReport

QUICK_CODES = {
    "1": LeagueResult.HOME_WINS,
    "1-0": LeagueResult.HOME_WINS,
    "0": LeagueResult.AWAY_WINS,
    "0-1": LeagueResult.AWAY_WINS,
    "½": LeagueResult.DRAW,
    "=": LeagueResult.DRAW,
    "r": LeagueResult.DRAW,
    "5": LeagueResult.DRAW,
    "0,5": LeagueResult.DRAW,
    "0.5": LeagueResult.DRAW,
    "1/2": LeagueResult.DRAW,
    "+": LeagueResult.HOME_WINS_FORFEIT,
    "-": LeagueResult.AWAY_WINS_FORFEIT,
    "--": LeagueResult.DOUBLE_FORFEIT,
}
_SPLIT = re.compile(r"[\n;,]+")


def parse_quick(text: str, boards: int) -> tuple[dict[int, str], list[str]]:
    """Board → result from the typed lines; errors name the line."""
    results: dict[int, str] = {}
    errors = []
    for k, line in enumerate([s.strip() for s in _SPLIT.split(text.replace("0,5", "0.5"))], start=1):
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not parts[0].isdigit() or parts[1].lower() not in QUICK_CODES:
            errors.append(
                _("Eingabe %(n)s „%(text)s“: erwartet Brett und Ergebnis, z. B. „1 ½“.")
                % {"n": k, "text": line}
            )
            continue
        number = int(parts[0])
        if not 1 <= number <= boards:
            errors.append(_("Eingabe %(n)s: Brett %(board)s gibt es nicht.") % {"n": k, "board": number})
            continue
        results[number] = QUICK_CODES[parts[1].lower()]
    return results, errors


_ID = re.compile(r"[0-9]{1,19}")


def _player(value: str | None) -> int | None:
    """A posted player id; anything but an id (or an empty choice) as -1, which names no player (the
    service then reports the board's unknown player)."""
    value = (value or "").strip()
    if not value:
        return None
    return int(value) if _ID.fullmatch(value) else -1


def boards_from_post(post, boards: int) -> tuple[list[BoardReport], list[str]]:
    """The posted report as board rows (the service clears the side of a forfeit that did not appear,
    unless the board is reported as it stands)."""
    quick, errors = parse_quick(post.get("quick", ""), boards)
    rows = []
    for n in range(1, boards + 1):
        result = quick.get(n) or post.get(f"result_{n}", "")
        home, away = _player(post.get(f"home_{n}")), _player(post.get(f"away_{n}"))
        if not result:
            errors.append(_("Brett %(n)s: Ergebnis fehlt.") % {"n": n})
            continue
        rows.append(BoardReport(number=n, home_player=home, away_player=away, result=result))
    return rows, errors


def score_text(match: Match) -> str:
    """The match's board points, e.g. "4½:3½"; empty while it counts for nobody."""
    home, away = match.home_board_points_halves, match.away_board_points_halves
    if home is None or away is None:
        return ""
    return f"{halves_text(home)}:{halves_text(away)}"
