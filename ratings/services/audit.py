"""The audit trail (``AuditEvent``): snapshots of tournaments, players and adjustments, the diff between
two snapshots, and the rows that record them. A leaf: the writing services call it, it calls none of them.

* ``tournament_snapshot`` / ``record_tournament`` / ``record_tournament_delete``: a JSON snapshot of a
  tournament (head, mode, entries, games) and the diff between two snapshots;
* ``stored_player_snapshot`` / ``record_player`` / ``players_recorded``: player writes, snapshot taken
  before the write and the diff recorded after it;
* ``record_adjustment``: start values and dated adjustments.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeAlias

from django.db import transaction

from ratings.models.adjustment import RatingAdjustment
from ratings.models.audit import AuditAction as AuditAction  # used by the services as audit.AuditAction
from ratings.models.audit import AuditEvent, AuditObjectType
from ratings.models.officer import TournamentEntryMode, TournamentMode
from ratings.models.player import Player
from ratings.models.tournament import Game, Tournament, TournamentEntry

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    # Who writes: ``request.user`` on the web, None for imports and commands (recorded as "System").
    Actor: TypeAlias = User | AnonymousUser | None

HEAD_FIELDS = (
    "name",
    "code",
    "place",
    "start_date",
    "end_date",
    "rounds",
    "organiser_club_id",
    "organiser_organisation_id",
    "rating_officer_id",
    "rated",
    "notes",
    "time_control",
)
PLAYER_FIELDS = (
    "key",
    "surname",
    "first_name",
    "sex",
    "birth_year",
    "dsb_id",
    "fide_id",
    "fide_elo",
    "fide_title",
    "fide_federation",
    "status",
)


def _json(value: Any) -> Any:
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    return value


def record(  # noqa: PLR0913 -- existing; issue 27
    *,
    user: Actor,
    action: str,
    object_type: str,
    object_id: int | None = None,
    object_repr: str = "",
    tournament_ref: int | None = None,
    player_ref: int | None = None,
    changes: dict[str, Any] | None = None,
    snapshot: dict[str, Any] | None = None,
) -> AuditEvent:
    known = user if user is not None and user.is_authenticated else None
    return AuditEvent.objects.create(
        user=known,
        username=known.get_username() if known is not None else "",
        action=action,
        object_type=object_type,
        object_id=object_id,
        object_repr=str(object_repr)[:250],
        tournament_ref=tournament_ref,
        player_ref=player_ref,
        changes=changes or {},
        snapshot=snapshot,
    )


def stored_user(*, user: Actor) -> User | None:
    """The user a row refers to (``author``, ``created_by``): None for no user and the anonymous one."""
    return user if user is not None and user.is_authenticated and user.pk else None


# --- tournaments -----------------------------------------------------------------------------------------


def _game_label(game: dict[str, Any], names: dict[int, str]) -> str:
    black = names.get(game["black"], str(game["black"])) if game["black"] is not None else "–"
    return f"R{game['round']}: {names.get(game['white'], game['white'])} – {black} {game['result']}"


def tournament_snapshot(*, tournament: Tournament) -> dict[str, Any]:
    """Head, mode, entries and games of a stored tournament as plain JSON."""
    # Plain values, no model instances: a league division's tournament is snapshotted twice per match
    # report saved (issue 29).
    entries = (
        TournamentEntry.objects.filter(tournament=tournament)
        .order_by("start_rank", "pk")
        .values_list("player_id", "player__surname", "player__first_name", "start_rank", "member")
    )
    games = (
        Game.objects.filter(tournament=tournament)
        .order_by("round", "board", "pk")
        .values_list("round", "board", "white_id", "black_id", "result")
    )
    mode = TournamentEntryMode.objects.filter(tournament=tournament).values_list("mode", flat=True).first()
    mode = mode or TournamentMode.ROUND_ROBIN  # no row: the entry pages treat it as a round robin
    return {
        "id": tournament.pk,
        "version": tournament.version,
        "head": {f: _json(getattr(tournament, f)) for f in HEAD_FIELDS},
        "mode": mode,
        "entries": [
            {
                "player": player,
                "name": Player(surname=surname, first_name=first).name,
                "start_rank": rank,
                "member": member,
            }
            for player, surname, first, rank, member in entries
        ],
        "games": [
            {"round": r, "board": board, "white": white, "black": black, "result": result}
            for r, board, white, black, result in games
        ],
    }


def stored_snapshot(*, tournament_id: int | None) -> dict[str, Any] | None:
    """The stored state of a tournament (None for a new one): taken before a save changes it."""
    stored = Tournament.objects.filter(pk=tournament_id).first() if tournament_id else None
    return tournament_snapshot(tournament=stored) if stored is not None else None


def snapshot_diff(*, before: dict[str, Any] | None, after: dict[str, Any] | None) -> dict[str, Any]:
    """What changed between two snapshots: head fields ``[old, new]``, entries and games added/removed."""
    before = before or {"head": {}, "entries": [], "games": [], "mode": None}
    after = after or {"head": {}, "entries": [], "games": [], "mode": None}
    diff: dict[str, Any] = {}
    head = {
        f: [before["head"].get(f), after["head"].get(f)]
        for f in HEAD_FIELDS
        if before["head"].get(f) != after["head"].get(f)
    }
    if before.get("mode") != after.get("mode") and after.get("mode") is not None:
        head["mode"] = [before.get("mode"), after.get("mode")]
    if head:
        diff["head"] = head
    names = {e["player"]: e["name"] for e in before["entries"] + after["entries"]}
    old_players = [e["player"] for e in before["entries"]]
    new_players = [e["player"] for e in after["entries"]]
    added = [names[p] for p in new_players if p not in old_players]
    removed = [names[p] for p in old_players if p not in new_players]
    if added:
        diff["entries_added"] = added
    if removed:
        diff["entries_removed"] = removed

    def key(g: dict[str, Any]) -> tuple[Any, ...]:
        return (g["round"], g["white"], g["black"], g["result"])

    old_games = {key(g): g for g in before["games"]}
    new_games = {key(g): g for g in after["games"]}
    games_added = [_game_label(g, names) for k, g in new_games.items() if k not in old_games]
    games_removed = [_game_label(g, names) for k, g in old_games.items() if k not in new_games]
    if games_added:
        diff["games_added"] = games_added
    if games_removed:
        diff["games_removed"] = games_removed
    return diff


def record_tournament(
    *, tournament: Tournament, before: dict[str, Any] | None, user: Actor, action: str | None = None
) -> AuditEvent:
    after = tournament_snapshot(tournament=tournament)
    return record(
        user=user,
        action=action or (AuditAction.CREATE if before is None else AuditAction.UPDATE),
        object_type=AuditObjectType.TOURNAMENT,
        object_id=tournament.pk,
        object_repr=str(tournament),
        tournament_ref=tournament.pk,
        changes=snapshot_diff(before=before, after=after),
        snapshot=after,
    )


def record_tournament_delete(*, tournament: Tournament, before: dict[str, Any], user: Actor) -> AuditEvent:
    return record(
        user=user,
        action=AuditAction.DELETE,
        object_type=AuditObjectType.TOURNAMENT,
        object_id=before["id"],
        object_repr=str(tournament),
        tournament_ref=before["id"],
        changes=snapshot_diff(before=before, after=None),
        snapshot=before,
    )


# --- players ---------------------------------------------------------------------------------------------


def player_snapshot(*, player: Player) -> dict[str, Any]:
    return {f: _json(getattr(player, f)) for f in PLAYER_FIELDS} | {
        "memberships": [str(m) for m in player.memberships.select_related("club").order_by("pk")]
    }


def stored_player_snapshot(*, player_id: int | None) -> dict[str, Any] | None:
    """The stored state of a player (None for a new one): taken before a save changes it."""
    stored = Player.objects.filter(pk=player_id).first() if player_id else None
    return player_snapshot(player=stored) if stored is not None else None


def record_player(*, player: Player, before: dict[str, Any] | None, user: Actor) -> AuditEvent | None:
    """The audit row of a new (``before`` None) or edited player; None when an edit changed nothing."""
    after = player_snapshot(player=player)
    changes = {
        k: [None if before is None else before.get(k), v]
        for k, v in after.items()
        if before is None or before.get(k) != v
    }
    if before is not None and not changes:
        return None
    return record(
        user=user,
        action=AuditAction.CREATE if before is None else AuditAction.UPDATE,
        object_type=AuditObjectType.PLAYER,
        object_id=player.pk,
        object_repr=str(player),
        player_ref=player.pk,
        changes=changes,
        snapshot=after,
    )


@contextmanager
def player_delete_recorded(*, player: Player, user: Actor) -> Iterator[None]:
    """Record the deletion of ``player`` done inside the block, with his last state as snapshot."""
    with transaction.atomic():
        pk, name, before = player.pk, str(player), stored_player_snapshot(player_id=player.pk) or {}
        yield
        record(
            user=user,
            action=AuditAction.DELETE,
            object_type=AuditObjectType.PLAYER,
            object_id=pk,
            object_repr=name,
            player_ref=pk,
            changes={k: [v, None] for k, v in before.items() if v not in (None, "", [])},
            snapshot=before,
        )


@contextmanager
def players_recorded(*, player_ids: Iterable[int | None], user: Actor) -> Iterator[None]:
    """Record what a write inside the block changed on these players (e.g. the admin edits a membership)."""
    with transaction.atomic():
        before = {pk: stored_player_snapshot(player_id=pk) for pk in set(player_ids) if pk}
        yield
        for pk, snap in before.items():
            player = Player.objects.filter(pk=pk).first()
            if player is not None and snap is not None:
                record_player(player=player, before=snap, user=user)


def adjustment_snapshot(*, adjustment: RatingAdjustment) -> dict[str, Any]:
    return {
        "kind": adjustment.kind,
        "date": _json(adjustment.date),
        "dwz": adjustment.dwz,
        "index": adjustment.index,
        "fide_elo": adjustment.fide_elo,
        "reason": adjustment.reason,
    }


def record_adjustment(
    *, adjustment: RatingAdjustment, user: Actor, action: str, before: dict[str, Any] | None = None
) -> AuditEvent:
    """The audit row of an adjustment; ``before`` (its stored snapshot) makes an update's diff real."""
    snapshot = adjustment_snapshot(adjustment=adjustment)
    if action == AuditAction.DELETE:
        changes = {k: [v, None] for k, v in snapshot.items() if v not in (None, "")}
    elif before is None:
        changes = {k: [None, v] for k, v in snapshot.items() if v not in (None, "")}
    else:
        changes = {k: [before.get(k), v] for k, v in snapshot.items() if before.get(k) != v}
    return record(
        user=user,
        action=action,
        object_type=AuditObjectType.ADJUSTMENT,
        object_id=adjustment.pk,
        object_repr=str(adjustment),
        player_ref=adjustment.player_id,
        changes=changes,
        snapshot=snapshot,
    )
