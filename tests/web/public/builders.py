"""Builders for public-page tests (also used by the browser tests): data through factories and services."""

import datetime

from ratings.enums import AdjustmentKind
from ratings.models import Game, RatingAdjustment, Tournament, TournamentEntry
from ratings.services import adjustment_save, tournament_save
from tests.factories import MembershipFactory, PlayerFactory


def make_player(*, dwz=None, index=None, birth_year=1980, club=None, member_number=None, **kwargs):
    player = PlayerFactory(birth_year=birth_year, **kwargs)
    if dwz is not None:
        adjustment_save(
            adjustment=RatingAdjustment(player=player, kind=AdjustmentKind.START, dwz=dwz, index=index)
        )
    if club is not None:
        extra = {"member_number": member_number} if member_number else {}
        MembershipFactory(player=player, club=club, **extra)
    player.refresh_from_db()
    return player


def make_tournament(players, games, *, end, name="Turnier", code=None, **kwargs):
    """``games``: (round, white, black, result)."""
    tournament = Tournament(
        name=name, start_date=end - datetime.timedelta(days=2), end_date=end, code=code, **kwargs
    )
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    rows = [Game(round=r, white=w, black=b, result=res) for r, w, b, res in games]
    tournament_save(tournament=tournament, entries=entries, games=rows)
    return tournament
