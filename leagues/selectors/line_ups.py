"""The line-up choices of a match report: each side's ranking list (regular players of the team first, by
rank) and the line-up stored so far or proposed from the list."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from leagues.models import Match, RankingEntry, Team


@dataclass(frozen=True)
class Choice:
    player_id: int
    label: str
    rank: int | None


def _choices(team: Team) -> list[Choice]:
    entries = (
        RankingEntry.objects.filter(
            ranking_list__season_id=team.division.season_id, ranking_list__club_id=team.club_id
        )
        .exclude(status="blocked")
        .select_related("player")
        .order_by("rank")
    )
    own = [e for e in entries if e.team_number == team.number]
    others = [e for e in entries if e.team_number != team.number and (e.team_number or 0) > team.number]
    rest = [e for e in entries if e not in own and e not in others]
    return [
        Choice(e.player_id, f"{e.rank}. {e.player.surname}, {e.player.first_name} ({e.dwz or '–'})", e.rank)
        for e in own + others + rest
    ]


@dataclass(frozen=True)
class ReportForm:
    match: Match
    home_choices: list[Choice]
    away_choices: list[Choice]
    # number, home, away, result (stored or proposed), rated (the real result the director kept)
    rows: list[dict]


def report_form(*, match: Match) -> ReportForm:
    home = _choices(match.home)
    away = _choices(match.away) if match.away is not None else []
    stored = {b.number: b for b in match.boards.all()}
    home_default = [c.player_id for c in home][: match.division.boards]
    away_default = [c.player_id for c in away][: match.division.boards]
    rows = []
    for n in range(1, match.division.boards + 1):
        b = stored.get(n)
        rows.append(
            {
                "number": n,
                "home": b.home_player_id if b else (home_default[n - 1] if n <= len(home_default) else None),
                "away": b.away_player_id if b else (away_default[n - 1] if n <= len(away_default) else None),
                "result": b.result if b else "",
                "rated": b.rated_result if b else "",
            }
        )
    return ReportForm(match, home, away, rows)


def order_warnings(*, match: Match) -> list[str]:
    """Boards whose player stands before a better-ranked team mate (the board order follows the list)."""
    ranks = {}
    for side in (match.home, match.away):
        if side is not None:
            ranks.update({c.player_id: c.rank for c in _choices(side)})
    warnings = []
    for attr in ("home_player_id", "away_player_id"):
        seq = [(b.number, ranks.get(getattr(b, attr))) for b in match.boards.all() if getattr(b, attr)]
        for (n1, r1), (n2, r2) in itertools.pairwise(seq):
            if r1 is not None and r2 is not None and r1 > r2:
                warnings.append((n1, n2))
    return [f"{a}/{b}" for a, b in warnings]
