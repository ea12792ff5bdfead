"""Who may do what in a league (spec/leagues.md §2), each inside his scope, like the officers' scopes in
``ratings.permissions``: staff everything; the division's director (Staffelleiter) his division; a team's
captain (Mannschaftsführer) the reports of his team's matches until approved; the ranking list's officer
(Vereinsspielleiter) that list; the division's rating officer (Wertungsreferent, or an officer whose scope
covers the season's organisation) its evaluation."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from leagues.models import Division, Match, RankingList, Team
from ratings import permissions as rating_permissions


def _active(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active)


def _staff(user) -> bool:
    return _active(user) and user.is_staff


def is_director(user, division: Division) -> bool:
    return _staff(user) or (_active(user) and division.director_id == user.pk)


def is_captain(user, team: Team | None) -> bool:
    return team is not None and _active(user) and team.captain_id == user.pk


def can_report(user, match: Match) -> bool:
    """A captain of either team until the director approves; the director always."""
    if is_director(user, match.division):
        return True
    if match.approved_at is not None or match.away_id is None:
        return False
    return is_captain(user, match.home) or is_captain(user, match.away)


def can_see_report(user, match: Match) -> bool:
    return is_director(user, match.division) or is_captain(user, match.home) or is_captain(user, match.away)


def is_rating_officer(user, division: Division) -> bool:
    if _staff(user) or (_active(user) and division.rating_officer_id == user.pk):
        return True
    org = division.season.organisation_id
    return _active(user) and org is not None and org in rating_permissions.user_scope(user).organisation_ids


def can_edit_ranking_list(user, ranking_list: RankingList) -> bool:
    if _staff(user) or (_active(user) and ranking_list.officer_id == user.pk):
        return True
    return _active(user) and ranking_list.club_id in rating_permissions.user_scope(user).club_ids


def directs_club_in_season(user, ranking_list: RankingList) -> bool:
    """Whether the user directs a division of the list's season in which the list's club has a team."""
    if not _active(user):
        return False
    return Team.objects.filter(
        Q(club_id=ranking_list.club_id) | Q(partner_clubs=ranking_list.club_id),
        division__season_id=ranking_list.season_id,
        division__director=user,
    ).exists()


def can_invite(user, role: str, target: Division | Team | RankingList) -> bool:
    """Who names whom (issue 29): staff every role; a division's director its captains and its rating
    officer; the club officer of a ranking list the director of a division the club plays in (that season)."""
    if _staff(user):
        return True
    if role == "director":
        return False
    if role == "rating_officer" and isinstance(target, Division):
        return is_director(user, target)
    if role == "captain" and isinstance(target, Team):
        return is_director(user, target.division)
    if role == "club_officer" and isinstance(target, RankingList):
        return directs_club_in_season(user, target)
    return False


def captain_matches(user) -> QuerySet[Match]:
    """The matches of the teams the user captains."""
    return Match.objects.filter(Q(home__captain=user) | Q(away__captain=user))


def ranking_lists(user) -> QuerySet[RankingList]:
    """The ranking lists the user keeps (his own, or his clubs' as a Wertungsreferent; staff: none listed)."""
    if not _active(user):
        return RankingList.objects.none()
    clubs = rating_permissions.user_scope(user).club_ids
    return RankingList.objects.filter(Q(officer=user) | Q(club_id__in=clubs))


def directed_divisions(user) -> QuerySet[Division]:
    if _staff(user):
        return Division.objects.all()
    return Division.objects.filter(Q(director=user) | Q(rating_officer=user))


def has_league_role(user) -> bool:
    if not _active(user):
        return False
    return (
        user.is_staff
        or Division.objects.filter(Q(director=user) | Q(rating_officer=user)).exists()
        or Team.objects.filter(captain=user).exists()
    )
