"""The division's DWZ tournament as the league sees it: the rated games of its approved matches, split by
its parts, and the live preview of a part's draft (reads only, no lock)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Exists, OuterRef

from leagues.core.rated import RatedGame, games_of_part, proposed_parts, rated_games
from leagues.models import Division, DivisionPart, Match
from ratings.models import Game, TournamentDraft, TournamentEntry
from ratings.selectors import drafts as draft_selectors
from ratings.selectors.previews import Preview, preview_tournament


def approved_matches(*, division: Division) -> list[Match]:
    """The division's approved matches with their boards (two queries)."""
    return list(Match.objects.filter(division=division, approved_at__isnull=False).prefetch_related("boards"))


def division_rated_games(*, division: Division) -> tuple[RatedGame, ...]:
    """One game per board actually played in an approved match, in the order played."""
    return rated_games(
        [m.as_core() for m in approved_matches(division=division)],
        home_white_on_odd=division.home_white_on_odd,
    )


@dataclass(frozen=True)
class PartGames:
    part: DivisionPart
    games: tuple[RatedGame, ...]


def parts_with_games(*, division: Division, games: tuple[RatedGame, ...]) -> list[PartGames]:
    """The stored parts (at least the first, unsaved if none is stored) with the games each holds."""
    entries = TournamentEntry.objects.filter(tournament_id=OuterRef("tournament_id"))
    parts: list[DivisionPart] = list(
        DivisionPart.objects.filter(division=division)
        .select_related("tournament")
        .annotate(has_entries=Exists(entries))
    )
    if not parts:
        parts = [DivisionPart(division=division, number=1)]
    out = []
    for i, part in enumerate(parts):
        until: datetime.date | None = parts[i + 1].from_date if i + 1 < len(parts) else None
        out.append(PartGames(part, games_of_part(games, part.from_date, until)))
    return out


def proposed_split(*, division: Division) -> tuple:
    """The parts the product proposes (a break of more than 8 weeks); one part: no proposal."""
    parts = proposed_parts(division_rated_games(division=division))
    return parts if len(parts) > 1 else ()


def part_is_evaluated(*, part: DivisionPart) -> bool:
    """The part's tournament holds its games (published), not only a draft."""
    if part.tournament_id is None:
        return False
    known = getattr(part, "has_entries", None)  # read with the part (``parts_with_games``)
    if known is not None:
        return known
    return TournamentEntry.objects.filter(tournament_id=part.tournament_id).exists()


def part_preview(*, part: DivisionPart) -> Preview | None:
    """The live preview of the part's draft (None without a tournament); an evaluated part previews its
    stored games."""
    if part.tournament is None:
        return None
    draft, _saved = draft_selectors.draft_or_stored(tournament=part.tournament)
    players = draft_selectors.participants(draft=draft)
    games = [
        Game(round=g["round"], board=g["board"], white_id=g["white"], black_id=g["black"], result=g["result"])
        for g in draft.games
    ]
    return preview_tournament(tournament=part.tournament, players=players, games=games)


@dataclass(frozen=True)
class PartState:
    part: DivisionPart  # with its tournament
    evaluated: bool  # as ``part_is_evaluated``
    draft: bool  # its tournament has a draft


def part_states(*, division: Division) -> list[PartState]:
    """The division's stored parts in order, each evaluated or not and with a draft or not: one query
    however many parts (the director's page asked two per part)."""
    tournament = OuterRef("tournament_id")
    parts = (
        DivisionPart.objects.filter(division=division)
        .select_related("tournament")
        .annotate(
            evaluated=Exists(TournamentEntry.objects.filter(tournament_id=tournament)),
            drafted=Exists(TournamentDraft.objects.filter(tournament_id=tournament)),
        )
    )
    return [PartState(p, p.evaluated, p.drafted) for p in parts]
