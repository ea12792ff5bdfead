"""The checks the director and the rating officer confirm before they approve or evaluate (spec/leagues.md
§4): completeness per round (rounds already due), eligibility (ranking list, lower teams, board order) and
the 400-point rule with the season's width. Warnings only: nothing is changed or refused here."""

from __future__ import annotations

import datetime

from django.utils.translation import gettext

from leagues.core.completeness import completeness
from leagues.core.eligibility import eligibility
from leagues.core.types import Message
from leagues.models import Division, Match, RankingList, Team


def _text(message: Message) -> str:
    return gettext(message.template) % dict(message.params)


def division_checks(*, division: Division, today: datetime.date | None = None) -> list[str]:
    """The warnings of the division, translated, completeness first (a fixed number of queries)."""
    today = today or datetime.date.today()
    season = division.season
    teams = list(Team.objects.filter(division=division).select_related("club"))
    matches = list(
        Match.objects.filter(division=division)
        .prefetch_related("boards", "boards__home_player", "boards__away_player")
        .order_by("round", "pk")
    )
    due = max((m.round for m in matches if m.date <= today), default=0)
    core_teams = [t.as_core() for t in teams]
    core_matches = [m.as_core() for m in matches]
    out = [
        _text(r.message)
        for r in completeness(core_teams, core_matches, boards=division.boards, rounds=due)
        if r.message is not None
    ]
    rankings = list(
        RankingList.objects.filter(season=season, club__in=[t.club_id for t in teams])
        .select_related("club")
        .prefetch_related("entries", "entries__player")
    )
    lists = {rl.club.zps: rl.as_core() for rl in rankings}
    names = {
        str(e.player_id): f"{e.player.surname}, {e.player.first_name}"
        for rl in rankings
        for e in rl.entries.all()
    }
    for m in matches:
        for b in m.boards.all():
            for p in (b.home_player, b.away_player):
                if p is not None:
                    names[str(p.pk)] = f"{p.surname}, {p.first_name}".strip(", ")
    reported = [cm for cm, m in zip(core_matches, matches, strict=True) if m.reported_at is not None]
    out += [_text(w.message) for w in eligibility(core_teams, reported, lists, season.rules, names)]
    return out
