"""The division's DWZ tournament (spec/leagues.md §1), kept through the ratings services only.

One tournament per part of the division (one part unless the rating officer split it, WO 2.2.2): one entry
per player who played a board, one game per board actually played in an approved match (forfeits, empty
boards and byes stay in the league, never rated); start and end date are the days of its first and last
game (WO 2.2.3). Until the rating officer evaluates it the games live in the tournament's draft
(``ratings.services.drafts``), which no rating reads; the live preview is ``ratings.selectors.previews``.
Once evaluated, every approved change replaces its games and re-evaluates it (and what follows it).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from leagues.core.rated import PART_GAP, RatedGame
from leagues.models import Board, Division, DivisionPart
from leagues.selectors.division_games import (
    PartGames,
    division_rated_games,
    part_is_evaluated,
    parts_with_games,
)
from ratings.bulk import update_rows
from ratings.models import Game, Tournament, TournamentDraft, TournamentEntry
from ratings.recalculation import lock_ratings
from ratings.services.drafts import draft_publish, draft_rebase, draft_save
from ratings.services.tournaments import (
    tournament_create,
    tournament_delete,
    tournament_replace,
    tournament_save_head,
)

HEAD_FIELDS = ("name", "start_date", "end_date", "rounds", "time_control", "organiser_organisation_id")


def division_tournament_sync(*, division: Division, user=None) -> None:
    """Bring every part's DWZ tournament in line with the approved matches (called by every approval and
    every change of an approved match). A part without games loses its tournament."""
    with transaction.atomic():
        lock_ratings()
        games = division_rated_games(division=division)
        parts = parts_with_games(division=division, games=games)
        for item in parts:
            _sync_part(division, item, user, several=len(parts) > 1)


def _head(division: Division, part: DivisionPart, games: Sequence[RatedGame], several: bool) -> dict:
    season = division.season
    name = f"{division.name} {season.name}"
    if several:
        name = f"{name}, {_('Teil')} {part.number}"
    return {
        "name": name[:200],
        "start_date": min(g.played_on for g in games),
        "end_date": max(g.played_on for g in games),
        "rounds": max(g.round for g in games),
        "time_control": division.time_control,
        "organiser_organisation_id": season.organisation_id,
    }


def _rows(games: Sequence[RatedGame]) -> tuple[list[int], list[dict]]:
    """Participants (in order of their first game) and the draft's boards, numbered 1, 2, … in each round."""
    players: dict[int, None] = {}
    boards: dict[int, int] = {}
    rows = []
    for g in sorted(games, key=lambda g: (g.round, g.home, g.board)):
        white, black = int(g.white), int(g.black)
        players.setdefault(white)
        players.setdefault(black)
        boards[g.round] = boards.get(g.round, 0) + 1
        rows.append(
            {"round": g.round, "board": boards[g.round], "white": white, "black": black, "result": g.result}
        )
    return list(players), rows


def _sync_part(division: Division, item: PartGames, user, *, several: bool) -> None:
    part, games = item.part, item.games
    tournament = part.tournament
    if not games:
        if tournament is not None:
            # An evaluated part is a correction (WO 6.2: the user's window applies); a draft is not yet.
            tournament_delete(tournament=tournament, user=user if part_is_evaluated(part=part) else None)
            part.tournament = None
            part.save(update_fields=["tournament"])
        return
    head = _head(division, part, games, several)
    participants, rows = _rows(games)
    if tournament is None:
        tournament = Tournament(rating_officer_id=division.rating_officer_id, **head)
        tournament_create(tournament=tournament, user=None)
        part.tournament = tournament
        part.save()
    elif part_is_evaluated(part=part):
        _replace(tournament, head, participants, rows, user, division.pk)
        return
    elif any(getattr(tournament, k) != v for k, v in head.items()):
        for k, v in head.items():
            setattr(tournament, k, v)
        tournament_save_head(tournament=tournament, user=None)
    draft_save(tournament=tournament, participants=participants, games=rows, user=user)
    draft_rebase(tournament=tournament)


def _replace(
    tournament: Tournament, head: dict, participants: list[int], rows: list[dict], user, division_id: int
) -> None:
    """An evaluated part: its stored games become the approved ones, evaluated at once."""
    for k, v in head.items():
        setattr(tournament, k, v)
    entries = [TournamentEntry(player_id=pk, start_rank=i) for i, pk in enumerate(participants, start=1)]
    games = [
        Game(round=r["round"], board=r["board"], white_id=r["white"], black_id=r["black"], result=r["result"])
        for r in rows
    ]
    # A correction of an evaluation: the user's correction window (WO 6.2) applies, the audit names him.
    tournament_replace(tournament=tournament, entries=entries, games=games, user=user)
    _link_boards(tournament, division_id)


def _link_boards(tournament: Tournament, division_id: int | None = None) -> None:
    """Each board of the part points to its game (the games are new rows after every save): one query for
    the games, one for the boards (plain values) and one ``update_rows`` of the boards that changed
    (``bulk_update``'s ``CASE WHEN`` per board cost most of a report save's league side)."""
    if division_id is None:
        division_id = (
            DivisionPart.objects.filter(tournament=tournament).values_list("division_id", flat=True).get()
        )
    games: dict[tuple[int, int | None, int | None], int] = {
        (r, w, b): pk
        for pk, r, w, b in Game.objects.filter(tournament=tournament).values_list(
            "pk", "round", "white_id", "black_id"
        )
    }
    boards = Board.objects.filter(match__division_id=division_id).values_list(
        "pk", "match__round", "home_player_id", "away_player_id", "game_id"
    )
    changed = []
    for board_pk, round_no, home, away, game_id in boards:
        pk = games.get((round_no, home, away)) or games.get((round_no, away, home))
        if pk is not None and game_id != pk:
            changed.append((board_pk, pk))
    update_rows(Board, ["game"], changed)


def division_evaluate(*, division: Division, user=None) -> int:
    """The rating officer's "Auswerten": every part's draft becomes its tournament's games, evaluated (with
    everything after it). Returns the number of parts evaluated; without a draft nothing changes."""
    done = 0
    with transaction.atomic():
        lock_ratings()
        division_tournament_sync(division=division, user=user)
        for part in DivisionPart.objects.filter(division=division).select_related("tournament"):
            tournament = part.tournament
            if tournament is None:
                continue
            draft = TournamentDraft.objects.filter(tournament=tournament).first()
            if draft is None:
                continue
            draft_publish(tournament=tournament, draft=draft, user=user)
            _link_boards(tournament, division.pk)
            done += 1
    return done


def division_split(
    *, division: Division, from_dates: Sequence[datetime.date], user=None
) -> list[DivisionPart]:
    """Split the division into parts starting on ``from_dates`` (besides the first, from the start), each
    its own DWZ tournament (WO 2.2.2). Each start must be the first game day after a break of more than
    8 weeks; an empty ``from_dates`` joins the parts again."""
    games = division_rated_games(division=division)
    days = sorted({g.played_on for g in games})
    starts = sorted(set(from_dates))
    errors = []
    for start in starts:
        before = [d for d in days if d < start]
        after = [d for d in days if d >= start]
        if start not in days or not before or after[0] - before[-1] <= PART_GAP:
            errors.append(
                _("Teil ab %(date)s: kein Spieltag nach einer Pause von mehr als 8 Wochen.")
                % {"date": start.strftime("%d.%m.%Y")}
            )
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        lock_ratings()
        stored = {
            p.number: p for p in DivisionPart.objects.filter(division=division).select_related("tournament")
        }
        if 1 not in stored:
            stored[1] = DivisionPart.objects.create(division=division, number=1)
        wanted = dict(enumerate(starts, start=2))
        for number, part in sorted(stored.items()):
            if number > 1 and wanted.get(number) != part.from_date:
                if part.tournament is not None:
                    tournament_delete(tournament=part.tournament, user=None)
                part.delete()
                del stored[number]
        for number, start in wanted.items():
            if number not in stored:
                DivisionPart.objects.create(division=division, number=number, from_date=start)
        division_tournament_sync(division=division, user=user)
        return list(DivisionPart.objects.filter(division=division))
