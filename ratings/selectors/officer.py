"""The officer's pages besides results entry: dashboard, report, tournament head and delete, participants,
file import and player merge. Each function is one query (a QuerySet is lazy: none until evaluated)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet
from django.utils.module_loading import import_string

from ratings.models import Club, Evaluation, Game, OfficerScope, Player, Tournament, TournamentDraft


def dashboard_tournaments(*, manageable: QuerySet[Tournament], limit: int = 100) -> QuerySet[Tournament]:
    """The latest of the ``manageable`` tournaments, each with ``has_draft`` (an entry in progress)."""
    return manageable.annotate(
        has_draft=Exists(TournamentDraft.objects.filter(tournament=OuterRef("pk")))
    ).order_by("-end_date", "-pk")[:limit]


def still_running() -> Q:
    """Tournaments still being played though their end date has passed (a league division whose season goes
    on), from the apps that keep such tournaments (``settings.RATINGS_RUNNING_TOURNAMENTS``)."""
    condition = Q(pk__in=[])
    for path in getattr(settings, "RATINGS_RUNNING_TOURNAMENTS", ()):
        condition |= import_string(path)()
    return condition


def overdue_tournaments(
    *, manageable: QuerySet[Tournament], ended_before: datetime.date, limit: int = 100
) -> QuerySet[Tournament]:
    """Those of ``manageable`` that ended before ``ended_before`` and are not evaluated, earliest first, each
    with ``has_draft``: a draft not yet published, or a rated tournament without evaluation rows (every
    entry of an evaluated one has a row; none yet: nothing entered, or the entry is still a draft)."""
    return (
        manageable.filter(end_date__lt=ended_before)
        .annotate(
            has_draft=Exists(TournamentDraft.objects.filter(tournament=OuterRef("pk"))),
            evaluated=Exists(Evaluation.objects.filter(tournament=OuterRef("pk"))),
        )
        .filter(Q(has_draft=True) | Q(rated=True, evaluated=False))
        .exclude(still_running())
        .order_by("end_date", "pk")[:limit]
    )


def officer_scopes(*, user) -> QuerySet[OfficerScope]:
    return user.officer_scopes.select_related("organisation", "club")


def tournament_names(*, pks) -> dict[int, str]:
    return dict(Tournament.objects.filter(pk__in=pks).values_list("pk", "name"))


def tournament_or_none(*, pk: int) -> Tournament | None:
    return Tournament.objects.filter(pk=pk).first()


def tournament_exists(*, pk: int) -> bool:
    return Tournament.objects.filter(pk=pk).exists()


def tournament_by_code(*, code: str) -> Tournament | None:
    return Tournament.objects.filter(code=code).first()


def tournaments_by_date(*, pks) -> QuerySet[Tournament]:
    """The tournaments ``pks``, earliest end first."""
    return Tournament.objects.filter(pk__in=pks).order_by("end_date", "pk")


def last_round(*, tournament: Tournament) -> int | None:
    """The highest round with a stored game (None without games)."""
    return Game.objects.filter(tournament=tournament).aggregate(m=Max("round"))["m"]


def game_counts(*, tournament: Tournament) -> tuple[int, int]:
    """Its games with two players (forfeits included, as the tournament page counts them) and its byes."""
    counts = Game.objects.filter(tournament=tournament).aggregate(
        games=Count("pk", filter=Q(black__isnull=False)), byes=Count("pk", filter=Q(black__isnull=True))
    )
    return counts["games"], counts["byes"]


def evaluated_count(*, tournament: Tournament) -> int:
    return tournament.evaluations.count()


def players_by_pk(*, pks) -> dict[int, Player]:
    return Player.objects.in_bulk(list(pks))


def player_keys(*, pks) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=pks).values_list("pk", "key"))


def players_by_key(*, keys) -> dict[str, Player]:
    """The players with one of ``keys`` (exact match), by upper-cased key."""
    return {p.key.upper(): p for p in Player.objects.filter(key__in=keys)}


def player_exists(*, pk: int) -> bool:
    return Player.objects.filter(pk=pk).exists()


def club_member_ids(*, club: Club) -> list[int]:
    """The current members of ``club``, alphabetical."""
    return list(Player.objects.in_club(club).order_by("name_sort", "pk").values_list("pk", flat=True))


def participant_clubs(*, manageable: QuerySet[Club], organiser_club_id: int | None) -> QuerySet[Club]:
    """The clubs whose members an officer may add: those he manages and the tournament's organiser."""
    clubs = manageable
    if organiser_club_id:
        clubs = clubs | Club.objects.filter(pk=organiser_club_id)
    return clubs.distinct().order_by("name_sort", "zps")


def chosen_club(*, clubs: QuerySet[Club], pk: int | None) -> Club | None:
    """The club ``pk`` if it is one of ``clubs`` (a posted choice checked against the offered ones)."""
    if pk is None:
        return None
    return clubs.filter(pk=pk).first()


def ids_among(*, players: QuerySet[Player], pks) -> set[int]:
    """Those of ``pks`` that are among ``players``."""
    return set(players.filter(pk__in=pks).values_list("pk", flat=True))


def players_of_clubs(*, club_ids) -> QuerySet[Player]:
    """Players with any membership (current or ended) in one of ``club_ids``."""
    return Player.objects.filter(memberships__club_id__in=club_ids).distinct()
