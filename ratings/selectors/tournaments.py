"""Tournaments: the list, the latest evaluated ones, one tournament's page."""

from __future__ import annotations

from django.db.models import Count, F, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from ratings.models import Club, Evaluation, Game, Membership, Tournament, TournamentEntry
from ratings.models.tournament import TournamentQuerySet
from ratings.selectors.tournament_view import GameRow, TournamentView, build


def _player_count():
    """The number of entries of the outer tournament: a correlated count, so a page of 50 counts the entries
    of its 50 tournaments (through the entries' tournament index), never groups every entry of the list."""
    entries = (
        TournamentEntry.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(entries, output_field=IntegerField()), 0)


def tournament_list() -> TournamentQuerySet:
    """Tournaments with their organiser and number of players, latest first."""
    return (
        Tournament.objects.select_related("organiser_club", "organiser_organisation")
        .annotate(players=_player_count())
        .order_by("-end_date", "-pk")
    )


def latest_evaluated(*, limit: int = 8) -> list[Tournament]:
    """The latest evaluated tournaments (those with stored evaluations), newest first."""
    return list(tournament_list().evaluated()[:limit])


def tournament(*, pk: int) -> Tournament | None:
    return (
        Tournament.objects.select_related("organiser_club", "organiser_organisation", "rating_officer")
        .filter(pk=pk)
        .first()
    )


def tournament_view(*, tournament: Tournament, games_up_to: int | None = None) -> TournamentView:
    """Entries with evaluations, primary clubs and games, arranged for the page (four queries); above
    ``games_up_to`` players, without crosstable, progress or per-game expectations (a page that leaves
    the games to a request of their own: ``tournament_view.build``)."""
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by(F("start_rank").asc(nulls_last=True), "player__name_sort", "pk")
    )
    evaluations = {e.player_id: e for e in Evaluation.objects.filter(tournament=tournament)}
    clubs: dict[int, Club] = {}
    for m in (
        Membership.objects.current()
        .filter(player__in=[e.player_id for e in entries])
        .select_related("club")
        .primary_first()
    ):
        clubs.setdefault(m.player_id, m.club)
    # Plain rows, not model instances: a 300-player Swiss has 1,350 games, and only these fields are read.
    games: list[GameRow] = list(
        Game.objects.filter(tournament=tournament)
        .order_by("round", F("board").asc(nulls_last=True), "pk")
        .values_list("round", "white_id", "black_id", "result", named=True)
    )
    return build(
        tournament=tournament,
        entries=entries,
        evaluations=evaluations,
        clubs=clubs,
        games=games,
        games_shown=games_up_to is None or len(entries) <= games_up_to,
    )
