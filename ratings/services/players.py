"""Players and their memberships: every write of either goes through this module, with its audit row.

A membership ends (``valid_until``) instead of being deleted where the history matters (the DSB list), so
the club pages and the player card keep it; a player's status (A/P) follows his current memberships (A over
P, formats.md §3.2). Whether a player is a member at all decides whether his unrated games are kept as
Restpartien, so a write that changes it replays his history.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from django.db import transaction

from ratings.enums import AdjustmentKind, PlayerStatus
from ratings.generation import bump_generation
from ratings.models import Club, Evaluation, Membership, Player, RatingAdjustment
from ratings.recalculation import RecalculationReport

from . import audit
from .adjustments import adjustment_save, player_recalculate

if TYPE_CHECKING:
    from ratings.services.audit import Actor


def players_status_sync(*, player_ids: Iterable[int]) -> int:
    """Set each player's status from his current memberships: A if one is active, else P if he has one.

    Players without a current membership keep their status. Returns the number of players changed.
    """
    ids = set(player_ids)
    if not ids:
        return 0
    best: dict[int, str] = {}
    ordered = list(ids)
    for i in range(0, len(ordered), 900):
        rows = Membership.objects.current().filter(player_id__in=ordered[i : i + 900])
        for player_id, status in rows.values_list("player_id", "status"):
            if status == PlayerStatus.ACTIVE or player_id not in best:
                best[player_id] = (
                    PlayerStatus.ACTIVE if status == PlayerStatus.ACTIVE else PlayerStatus.PASSIVE
                )
    changed = 0
    for status in (PlayerStatus.ACTIVE, PlayerStatus.PASSIVE):
        pks = [pk for pk, s in best.items() if s == status]
        for i in range(0, len(pks), 900):
            changed += (
                Player.objects.filter(pk__in=pks[i : i + 900]).exclude(status=status).update(status=status)
            )
    if changed:
        bump_generation()  # a bulk update: no model signal (``ratings.generation``)
    return changed


def _new_player_key(club: Club, member_number: str | None) -> str:
    if member_number:
        return f"{club.zps}-{member_number}"
    base = f"{club.zps}-N"
    n = Player.objects.filter(key__startswith=base).count() + 1
    while Player.objects.filter(key=f"{base}{n}").exists():
        n += 1
    return f"{base}{n}"


def player_create(  # noqa: PLR0913 -- existing; issue 27
    *,
    user: Actor,
    surname: str,
    club: Club,
    first_name: str = "",
    birth_year: int | None = None,
    sex: str = "",
    member_number: str | None = None,
    fide_id: int | None = None,
    fide_elo: int | None = None,
    dwz: int | None = None,
    index: int | None = None,
) -> Player:
    """A new player with his club membership and (if given) his start value (DWZ/index or Elo)."""
    with transaction.atomic():
        key = _new_player_key(club, member_number)
        number = member_number or key.rsplit("-", 1)[1]
        player = Player(
            key=key,
            surname=surname.strip(),
            first_name=(first_name or "").strip(),
            birth_year=birth_year,
            sex=sex or "",
            fide_id=fide_id,
            fide_elo=fide_elo,
        )
        player.full_clean()
        player.save()
        Membership.objects.create(player=player, club=club, member_number=number)
        audit.record_player(player=player, before=None, user=user)
        if dwz is not None or fide_elo is not None:
            adjustment = RatingAdjustment(
                player=player,
                kind=AdjustmentKind.START,
                dwz=dwz,
                index=(index or 0) if dwz is not None else None,
                fide_elo=fide_elo,
            )
            adjustment_save(adjustment=adjustment, user=user)
        return player


def _membership_ids(player_id: int) -> set[int]:
    return set(Membership.objects.filter(player_id=player_id).values_list("pk", flat=True))


def _recalculate_if_needed(players: dict[int, bool]) -> RecalculationReport | None:
    """Replay the history of each player whose being a member (``players``: pk -> was one) changed."""
    report = None
    for pk, was_member in players.items():
        is_member = Membership.objects.filter(player_id=pk).exists()
        if was_member != is_member and Evaluation.objects.filter(player_id=pk).exists():
            report = player_recalculate(player=Player.objects.get(pk=pk))
    return report


def player_save(
    *, player: Player, user: Actor = None, write: Callable[[], None] | None = None
) -> RecalculationReport | None:
    """Save a player (``write``, if given, does it: the admin saves its form and membership inlines), bring
    his status in line with his memberships, record the audit row and, if his birth year or memberships
    changed, replay his history. Returns the report of that replay, if any."""
    with transaction.atomic():
        before = audit.stored_player_snapshot(player_id=player.pk)
        stored = Player.objects.filter(pk=player.pk).values_list("birth_year", flat=True).first()
        memberships = _membership_ids(player.pk) if player.pk else set()
        if write is None:
            player.full_clean()
            player.save()
        else:
            write()
        if players_status_sync(player_ids=[player.pk]):
            player.refresh_from_db(fields=["status"])
        audit.record_player(player=player, before=before, user=user)
        if before is not None and (stored != player.birth_year or memberships != _membership_ids(player.pk)):
            return player_recalculate(player=player, user=user)
        return None


def player_delete(*, player: Player, user: Actor = None) -> None:
    """Delete a player (his memberships and adjustments go with him; entered players are protected)."""
    with audit.player_delete_recorded(player=player, user=user):
        player.delete()


def membership_save(*, membership: Membership, user: Actor = None) -> RecalculationReport | None:
    """Validate and save a membership, then bring the status of its player (and of the player it belonged
    to before, if it moved) up to date; a player who became or stopped being a member gets his history
    (Restpartien) replayed."""
    with transaction.atomic():
        old = Membership.objects.filter(pk=membership.pk).values_list("player_id", flat=True).first()
        ids = {pk for pk in (membership.player_id, old) if pk}
        with audit.players_recorded(player_ids=ids, user=user):
            was_member = {pk: Membership.objects.filter(player_id=pk).exists() for pk in ids}
            membership.full_clean()
            membership.save()
            players_status_sync(player_ids=ids)
            return _recalculate_if_needed(was_member)


def membership_delete(*, membership: Membership, user: Actor = None) -> RecalculationReport | None:
    """Delete a membership (a mistake; a member who left gets ``membership_end``)."""
    with transaction.atomic(), audit.players_recorded(player_ids=[membership.player_id], user=user):
        membership.delete()
        players_status_sync(player_ids=[membership.player_id])
        return _recalculate_if_needed({membership.player_id: True})


def membership_end(*, membership: Membership, until: datetime.date, user: Actor = None) -> None:
    """End a membership on ``until`` (it stays in the history)."""
    with transaction.atomic():
        membership.valid_until = until
        membership.full_clean()
        membership.save(update_fields=["valid_until"])
        players_status_sync(player_ids=[membership.player_id])
