"""The audit trail (``AuditEvent``) and the officer writes that record it.

* ``tournament_snapshot`` / ``record_tournament`` / ``record_tournament_delete``: a JSON snapshot of a
  tournament (head, entries, games) and the diff between two snapshots;
* ``tournament_save_recorded`` / ``tournament_delete_recorded``: the issue-4 services plus the audit row,
  in one transaction;
* ``player_create``: a new player (membership, start value) with its audit row;
* ``stored_player_snapshot`` / ``record_player``: player edits elsewhere (the admin), snapshot taken before
  the write and the diff recorded after it;
* ``tournament_restore``: rebuilds a deleted tournament from its snapshot through ``tournament_save``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ratings.enums import AdjustmentKind
from ratings.models.adjustment import RatingAdjustment
from ratings.models.audit import AuditAction, AuditEvent, AuditObjectType
from ratings.models.federation import Club
from ratings.models.officer import TournamentEntryMode, TournamentMode
from ratings.models.player import Membership, Player
from ratings.models.tournament import Game, Tournament, TournamentEntry
from ratings.services.recalculation import RecalculationReport

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

#: Default of ``before`` in ``tournament_save``: read the "before" snapshot from the database.
STORED: Any = object()


def _json(value: Any) -> Any:
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    return value


def record(
    *,
    user,
    action: str,
    object_type: str,
    object_id: int | None = None,
    object_repr: str = "",
    tournament_ref: int | None = None,
    player_ref: int | None = None,
    changes: dict | None = None,
    snapshot: dict | None = None,
) -> AuditEvent:
    authenticated = user is not None and getattr(user, "is_authenticated", False)
    return AuditEvent.objects.create(
        user=user if authenticated else None,
        username=user.get_username() if authenticated else "",
        action=action,
        object_type=object_type,
        object_id=object_id,
        object_repr=str(object_repr)[:250],
        tournament_ref=tournament_ref,
        player_ref=player_ref,
        changes=changes or {},
        snapshot=snapshot,
    )


# --- tournaments -----------------------------------------------------------------------------------------


def _game_label(game: dict, names: dict[int, str]) -> str:
    black = names.get(game["black"], str(game["black"])) if game["black"] is not None else "–"
    return f"R{game['round']}: {names.get(game['white'], game['white'])} – {black} {game['result']}"


def tournament_snapshot(tournament: Tournament) -> dict:
    """Head, mode, entries and games of a stored tournament as plain JSON."""
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_rank", "pk")
    )
    games = Game.objects.filter(tournament=tournament).order_by("round", "board", "pk")
    mode = TournamentEntryMode.objects.filter(tournament=tournament).values_list("mode", flat=True).first()
    mode = mode or TournamentMode.ROUND_ROBIN  # no row: the entry pages treat it as a round robin
    return {
        "id": tournament.pk,
        "head": {f: _json(getattr(tournament, f)) for f in HEAD_FIELDS},
        "mode": mode,
        "entries": [
            {"player": e.player_id, "name": e.player.name, "start_rank": e.start_rank} for e in entries
        ],
        "games": [
            {"round": g.round, "board": g.board, "white": g.white_id, "black": g.black_id, "result": g.result}
            for g in games
        ],
    }


def stored_snapshot(tournament_id: int | None) -> dict | None:
    """The stored state of a tournament (None for a new one): taken before a save changes it."""
    stored = Tournament.objects.filter(pk=tournament_id).first() if tournament_id else None
    return tournament_snapshot(stored) if stored is not None else None


def snapshot_diff(before: dict | None, after: dict | None) -> dict:
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

    def key(g: dict) -> tuple:
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
    *, tournament: Tournament, before: dict | None, user, action: str | None = None
) -> AuditEvent:
    after = tournament_snapshot(tournament)
    return record(
        user=user,
        action=action or (AuditAction.CREATE if before is None else AuditAction.UPDATE),
        object_type=AuditObjectType.TOURNAMENT,
        object_id=tournament.pk,
        object_repr=str(tournament),
        tournament_ref=tournament.pk,
        changes=snapshot_diff(before, after),
        snapshot=after,
    )


def record_tournament_delete(*, tournament: Tournament, before: dict, user) -> AuditEvent:
    return record(
        user=user,
        action=AuditAction.DELETE,
        object_type=AuditObjectType.TOURNAMENT,
        object_id=before["id"],
        object_repr=str(tournament),
        tournament_ref=before["id"],
        changes=snapshot_diff(before, None),
        snapshot=before,
    )


def tournament_save_recorded(
    *,
    tournament: Tournament,
    entries: Sequence[TournamentEntry] | None = None,
    games: Sequence[Game] | None = None,
    mode: str | None = None,
    user=None,
) -> RecalculationReport:
    """``tournament_save`` plus the entry mode and the audit row (the mode change in its diff), in one
    transaction."""
    from ratings.services.tournaments import tournament_save

    with transaction.atomic():
        before = stored_snapshot(tournament.pk)  # from the database, not the edited instance
        report = tournament_save(
            tournament=tournament, entries=entries, games=games, user=user, mode=mode, before=before
        )
        if not getattr(tournament, "_audit_recorded", False):
            record_tournament(tournament=tournament, before=before, user=user)
        return report


def tournament_delete_recorded(*, tournament: Tournament, user=None) -> RecalculationReport:
    from ratings.services.tournaments import tournament_delete

    with transaction.atomic():
        before = tournament_snapshot(tournament)
        report = tournament_delete(tournament=tournament, user=user)
        if not getattr(tournament, "_audit_recorded", False):
            record_tournament_delete(tournament=tournament, before=before, user=user)
        return report


def tournament_restore(*, event: AuditEvent, user=None) -> tuple[Tournament, RecalculationReport]:
    """Rebuild a deleted tournament (head, mode, entries, games) from its delete event and re-evaluate."""
    if (
        event.action != AuditAction.DELETE
        or event.object_type != AuditObjectType.TOURNAMENT
        or not event.snapshot
    ):
        raise ValidationError(_("Nur gelöschte Turniere können wiederhergestellt werden."))
    if event.restored_as is not None and Tournament.objects.filter(pk=event.restored_as).exists():
        raise ValidationError(_("Dieses Turnier wurde schon wiederhergestellt."))
    snap = event.snapshot
    head = dict(snap["head"])
    for name in ("start_date", "end_date"):
        head[name] = datetime.date.fromisoformat(head[name])
    if head.get("code") and Tournament.objects.filter(code=head["code"]).exists():
        raise ValidationError(_("Der Turniercode %(code)s ist inzwischen vergeben.") % {"code": head["code"]})
    player_ids = {e["player"] for e in snap["entries"]}
    missing = player_ids - set(Player.objects.filter(pk__in=player_ids).values_list("pk", flat=True))
    if missing:
        raise ValidationError(
            _("Spieler fehlen inzwischen: %(ids)s.") % {"ids": ", ".join(str(pk) for pk in sorted(missing))}
        )
    with transaction.atomic():
        tournament = Tournament(**head)
        entries = [
            TournamentEntry(player_id=e["player"], start_rank=e["start_rank"]) for e in snap["entries"]
        ]
        games = [
            Game(
                round=g["round"],
                board=g["board"],
                white_id=g["white"],
                black_id=g["black"],
                result=g["result"],
            )
            for g in snap["games"]
        ]
        from ratings.services.tournaments import tournament_save

        report = tournament_save(
            tournament=tournament, entries=entries, games=games, user=user, mode=snap.get("mode"), before=None
        )
        recorded = AuditEvent.objects.filter(
            object_type=AuditObjectType.TOURNAMENT, object_id=tournament.pk
        ).order_by("-pk")
        if getattr(tournament, "_audit_recorded", False) and recorded.exists():
            recorded.filter(pk=recorded.first().pk).update(action=AuditAction.RESTORE)
        else:
            record_tournament(tournament=tournament, before=None, user=user, action=AuditAction.RESTORE)
        event.restored_as = tournament.pk
        event.save(update_fields=["restored_as"])
        return tournament, report


# --- players ---------------------------------------------------------------------------------------------


def player_snapshot(player: Player) -> dict:
    return {f: _json(getattr(player, f)) for f in PLAYER_FIELDS} | {
        "memberships": [str(m) for m in player.memberships.select_related("club").order_by("pk")]
    }


def stored_player_snapshot(player_id: int | None) -> dict | None:
    """The stored state of a player (None for a new one): taken before a save changes it."""
    stored = Player.objects.filter(pk=player_id).first() if player_id else None
    return player_snapshot(stored) if stored is not None else None


def record_player(*, player: Player, before: dict | None, user) -> AuditEvent | None:
    """The audit row of a new (``before`` None) or edited player; None when an edit changed nothing."""
    after = player_snapshot(player)
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
def player_delete_recorded(*, player: Player, user) -> Iterator[None]:
    """Record the deletion of ``player`` done inside the block, with his last state as snapshot."""
    with transaction.atomic():
        pk, name, before = player.pk, str(player), stored_player_snapshot(player.pk) or {}
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
def players_recorded(*, player_ids: Iterable[int | None], user) -> Iterator[None]:
    """Record what a write inside the block changed on these players (e.g. the admin edits a membership)."""
    with transaction.atomic():
        before = {pk: stored_player_snapshot(pk) for pk in set(player_ids) if pk}
        yield
        for pk, snap in before.items():
            player = Player.objects.filter(pk=pk).first()
            if player is not None and snap is not None:
                record_player(player=player, before=snap, user=user)


def adjustment_snapshot(adjustment: RatingAdjustment) -> dict:
    return {
        "kind": adjustment.kind,
        "date": _json(adjustment.date),
        "dwz": adjustment.dwz,
        "index": adjustment.index,
        "fide_elo": adjustment.fide_elo,
        "reason": adjustment.reason,
    }


def record_adjustment(
    *, adjustment: RatingAdjustment, user, action: str, before: dict | None = None
) -> AuditEvent:
    """The audit row of an adjustment; ``before`` (its stored snapshot) makes an update's diff real."""
    snapshot = adjustment_snapshot(adjustment)
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


def _new_player_key(club: Club, member_number: str | None) -> str:
    if member_number:
        return f"{club.zps}-{member_number}"
    base = f"{club.zps}-N"
    n = Player.objects.filter(key__startswith=base).count() + 1
    while Player.objects.filter(key=f"{base}{n}").exists():
        n += 1
    return f"{base}{n}"


def player_create(
    *,
    user,
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
    from ratings.services.adjustments import adjustment_save

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
        record_player(player=player, before=None, user=user)
        if dwz is not None or fide_elo is not None:
            adjustment = RatingAdjustment(
                player=player,
                kind=AdjustmentKind.START,
                dwz=dwz,
                index=(index or 0) if dwz is not None else None,
                fide_elo=fide_elo,
            )
            adjustment_save(adjustment=adjustment, user=user)
            if not getattr(adjustment, "_audit_recorded", False):
                record_adjustment(adjustment=adjustment, user=user, action=AuditAction.CREATE)
        return player


# --- reading ---------------------------------------------------------------------------------------------


def audit_trail(*, tournament_id: int | None = None, player_id: int | None = None, limit: int = 50):
    qs = AuditEvent.objects.select_related("user")
    if tournament_id is not None:
        qs = qs.filter(tournament_ref=tournament_id)
    if player_id is not None:
        qs = qs.filter(player_ref=player_id)
    return list(qs[:limit])
