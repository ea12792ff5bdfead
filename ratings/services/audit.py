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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from django.db import transaction

from ratings.models.adjustment import RatingAdjustment
from ratings.models.audit import AuditAction as AuditAction  # used by the services as audit.AuditAction
from ratings.models.audit import AuditEvent, AuditObjectType
from ratings.models.officer import TournamentEntryMode
from ratings.models.player import Player
from ratings.models.tournament import Game, Tournament, TournamentEntry
from ratings.selectors.officer_results import inferred_mode

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


def tournament_snapshot(*, tournament: Tournament) -> dict[str, Any]:
    """Head, mode, entries and games of a stored tournament as plain JSON."""
    # Plain values, no model instances: a league division's tournament is snapshotted twice per match
    # report saved (issue 29).
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament)
        .order_by("start_rank", "pk")
        .values_list(
            "player_id", "player__surname", "player__first_name", "start_rank", "member", "file_rank"
        )
    )
    games = list(
        Game.objects.filter(tournament=tournament)
        .order_by("round", "board", "pk")
        .values_list("round", "board", "white_id", "black_id", "result")
    )
    mode = TournamentEntryMode.objects.filter(tournament=tournament).values_list("mode", flat=True).first()
    if not mode:  # no row (seeded, imported): the mode the entry pages infer, not a round robin by default
        mode = inferred_mode(
            games=[(white, black, result) for _, _, white, black, result in games],
            seated=[player for player, *_ in entries],
        )
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
                "file_rank": file_rank,
            }
            for player, surname, first, rank, member, file_rank in entries
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

    changed = game_changes(before=before, after=after)
    groups = {
        "games_changed": [c.label() for c in changed if c.old is not None and c.new is not None],
        "games_added": [c.label() for c in changed if c.old is None],
        "games_removed": [c.label() for c in changed if c.new is None],
    }
    diff.update({key: labels for key, labels in groups.items() if labels})
    return diff


@dataclass(frozen=True)
class GameChange:
    """One pairing of a tournament that a save changed: ``old`` None for a new one, ``new`` None for a
    removed one, both for a result changed (the same round, white and black)."""

    round: int
    board: int | None
    white: str
    black: str | None  # None: a bye
    old: str | None
    new: str | None

    def label(self) -> str:
        """The audit trail's language-neutral line: ``R3/B2: Müller – Schulze 1-0 → ½-½``."""
        where = f"R{self.round}" + (f"/B{self.board}" if self.board else "")
        pair = f"{self.white} – {self.black if self.black is not None else '–'}"
        if self.old is not None and self.new is not None:
            return f"{where}: {pair} {result_text(code=self.old)} → {result_text(code=self.new)}"
        shown = self.new if self.old is None else self.old
        return f"{where}: {pair} {result_text(code=shown or '')}"


def result_text(*, code: str) -> str:
    """A stored result code as the officer writes it (``1/2-1/2`` → ``½-½``)."""
    return "½-½" if code == "1/2-1/2" else code


def game_changes(*, before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[GameChange]:
    """The pairings two snapshots of a tournament differ in, by round and board: results changed (the same
    round, white and black), pairings added and removed. Names from the snapshots."""
    before = before or {"entries": [], "games": []}
    after = after or {"entries": [], "games": []}
    names = {e["player"]: e["name"] for e in before["entries"] + after["entries"]}

    def key(g: dict[str, Any]) -> tuple[Any, ...]:
        return (g["round"], g["white"], g["black"])

    old_games = {key(g): g for g in before["games"]}
    new_games = {key(g): g for g in after["games"]}
    out = []
    for k in old_games.keys() | new_games.keys():
        old, new = old_games.get(k), new_games.get(k)
        if old is not None and new is not None and old["result"] == new["result"]:
            continue
        game = new if new is not None else old
        assert game is not None
        out.append(
            GameChange(
                round=game["round"],
                board=game["board"],
                white=names.get(game["white"], str(game["white"])),
                black=None if game["black"] is None else names.get(game["black"], str(game["black"])),
                old=old["result"] if old is not None else None,
                new=new["result"] if new is not None else None,
            )
        )
    return sorted(out, key=lambda c: (c.round, c.board is None, c.board or 0, c.white))


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
