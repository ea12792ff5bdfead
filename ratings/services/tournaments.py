"""Writing tournaments: validate, save, recalculate, in one transaction with the rating lock taken first."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.forms.models import BaseModelFormSet
from django.utils.translation import gettext as _

from ratings import permissions
from ratings.dwz.replay import day_start
from ratings.models import Game, Player, Tournament, TournamentEntry, TournamentEntryMode
from ratings.models.audit import AuditAction, AuditEvent, AuditObjectType
from ratings.recalculation import (
    Changes,
    RecalculationReport,
    earliest,
    lock_ratings,
    recalculate_changes,
    span_of,
    stored_since,
)
from ratings.selectors import audit as audit_reads

# Re-exported: the views catch them where they call the services.
from ratings.tournament_checks import TournamentConflict, TournamentGone, games_validate

from . import audit
from .announce import announce_rating_changes
from .background import recalculate_or_schedule

if TYPE_CHECKING:
    from ratings.services.audit import Actor


def _locked_version(tournament_id: int | None, version: int | None) -> int:
    """The stored version, read with the rating lock held; refuses a deleted or outdated tournament."""
    if tournament_id is None:
        return 0
    current = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    if current is None:
        raise TournamentGone(tournament_id)
    if version is not None and version != current:
        raise TournamentConflict(tournament_id=tournament_id, version=version, current=current)
    return current


def tournament_create(
    *,
    tournament: Tournament,
    entries: Sequence[TournamentEntry] = (),
    games: Sequence[Game] = (),
    mode: str | None = None,
    user: Actor = None,
) -> RecalculationReport:
    """Save a new ``tournament`` with its entries and games and evaluate it (with everything after it).

    ``user`` becomes its rating officer if it names none; ``mode`` (a ``TournamentMode``) is part of the
    audit row's "after"."""
    if tournament.pk is not None:
        raise ValueError(
            "tournament_create saves a new tournament; a stored one is saved by its head or results"
        )

    def write() -> bool:
        _write_head(tournament, user)
        _write_rows(tournament, entries, games)
        return True  # the rows stored are the given ones, validated

    return _save(tournament, write=write, user=user, version=None, mode=mode)


def tournament_save_head(
    *, tournament: Tournament, mode: str | None = None, user: Actor = None, version: int | None = None
) -> RecalculationReport:
    """Save the head of a stored ``tournament`` (name, dates, organiser, rated...) as given, keep its stored
    entries and games, and re-evaluate from the earlier of its old and new place on.

    ``version``: the one the officer's form was loaded at; another save since raises
    ``TournamentConflict``, a deletion meanwhile ``TournamentGone``."""
    return _save(
        tournament, write=lambda: _write_head(tournament, user), user=user, version=version, mode=mode
    )


def tournament_save_results(
    *,
    tournament: Tournament,
    entries: Sequence[TournamentEntry],
    games: Sequence[Game],
    mode: str | None = None,
    user: Actor = None,
    version: int | None = None,
) -> RecalculationReport:
    """Replace the entries and games of a stored ``tournament`` and re-evaluate; its head is the stored one
    (read again inside the lock: the results page's copy of it may be older). ``version`` as in
    ``tournament_save_head``."""

    def write() -> bool:
        _write_head(tournament, user)
        _write_rows(tournament, entries, games)
        return True  # the rows stored are the given ones, validated

    return _save(tournament, write=write, user=user, version=version, mode=mode, read_head=True)


def tournament_replace(
    *,
    tournament: Tournament,
    entries: Sequence[TournamentEntry],
    games: Sequence[Game],
    mode: str | None = None,
    user: Actor = None,
) -> RecalculationReport:
    """Save head, entries and games as given, of a new tournament or over a stored one (an imported file
    replaces the tournament of its code whole), and evaluate."""

    def write() -> bool:
        _write_head(tournament, user)
        _write_rows(tournament, entries, games)
        return True  # the rows stored are the given ones, validated

    return _save(tournament, write=write, user=user, version=None, mode=mode)


def tournament_admin_save(
    *,
    form: forms.ModelForm[Any],
    formsets: Sequence[BaseModelFormSet[Any, Any]],
    user: Actor = None,
    version: int | None = None,
) -> RecalculationReport:
    """The admin's save of a tournament: its form (``form.save(commit=False)`` already called, as the admin
    does) and the entry and game inlines are written inside the lock, after the audit's "before" is read,
    then validated and evaluated as every other save. ``version`` as in ``tournament_save_head`` (None for
    a new tournament)."""
    tournament = form.instance

    def write() -> None:
        tournament.save()
        form.save_m2m()
        for formset in formsets:
            formset.save()

    return _save(tournament, write=write, user=user, version=version, mode=None)


def _save(
    tournament: Tournament,
    *,
    write: Callable[[], bool | None],
    user: Actor,
    version: int | None,
    mode: str | None,
    action: str | None = None,
    read_head: bool = False,
) -> RecalculationReport:
    """What every save shares, in one transaction with the rating lock taken first: everything is read
    after the lock, the stored version must still be ``version`` (if given), the correction window holds
    on the stored end date, ``write`` runs after the audit's "before" is read; then the stored rows are
    validated (unless ``write`` returns True: it stored given rows it validated), every rating from the
    earlier of the old and new place on is recalculated, the mode set and the audit row (``action``,
    default create or update) written. Every save increments the version."""
    with transaction.atomic():
        lock_ratings()
        stored_version = _locked_version(tournament.pk, version)
        if tournament.pk is not None and user is not None:  # WO 6.2 on the stored end date, in the lock
            permissions.check_correction_window(
                user, Tournament.objects.only("end_date").get(pk=tournament.pk)
            )
        if read_head:  # the head the audit's "before" and the recalculation's start see is the stored one
            tournament.refresh_from_db()
        old_since = stored_since(tournament.pk)
        before = audit.stored_snapshot(tournament_id=tournament.pk)
        validated = write()
        tournament.version = stored_version + 1
        Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version)
        if not validated:  # a head or the admin's inlines: the stored rows as they are now
            entered = set(
                TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", flat=True)
            )
            games_validate(entered=entered, games=list(Game.objects.filter(tournament=tournament)))
        since, until = span_of(tournament=tournament, stored=old_since)
        report = recalculate_or_schedule(
            changes=Changes(since=since, tournaments=[tournament.pk]),
            until=until,
            tournament_id=tournament.pk,
            user=user,
        )
        if mode:
            TournamentEntryMode.objects.update_or_create(tournament=tournament, defaults={"mode": mode})
        audit.record_tournament(tournament=tournament, before=before, user=user, action=action)
        announce_rating_changes(
            report=report,
            tournament_id=tournament.pk,
            tournament_name=tournament.name,
            tournament_code=tournament.code,
        )
        return report


def _write_head(tournament: Tournament, user: Actor) -> None:
    if tournament.code == "":
        tournament.code = None
    if tournament.pk is None and tournament.rating_officer_id is None and getattr(user, "pk", None):
        tournament.rating_officer = user
    # The two check constraints are ``Tournament.clean``'s checks too: validating them again asked the
    # database twice, each in a savepoint of its own (six queries of every save).
    tournament.full_clean(validate_constraints=False)
    tournament.save()


Row = TypeVar("Row", TournamentEntry, Game)
# The columns a stored entry or game is compared by (``_write_rows``): equal in these, it is the same row.
ENTRY_COLUMNS = ("player_id", "start_rank", "member", "file_rank")
GAME_COLUMNS = ("round", "board", "white_id", "black_id", "result")


def _write_rows(tournament: Tournament, entries: Sequence[TournamentEntry], games: Sequence[Game]) -> None:
    """Make the stored entries and games the given ones (validated first: a game's players must be
    entered). Only what differs is written: a stored row equal to a given one stays as it is (with its
    primary key), the other stored rows are deleted first, then the other given rows inserted. A corrected
    result is one game out and one in, not the whole tournament (issue 29: a league match report re-saves
    the division's tournament of some hundred games for one board)."""
    for entry in entries:
        entry.pk = None
        entry.tournament = tournament
    entered = {entry.player_id for entry in entries}
    for game in games:
        game.pk = None
        game.tournament = tournament
    games_validate(entered=entered, games=games)
    old_entries, new_entries = _unmatched(TournamentEntry, tournament, entries, ENTRY_COLUMNS)
    old_games, new_games = _unmatched(Game, tournament, games, GAME_COLUMNS)
    for game in new_games:  # the kept ones are stored rows equal to given ones: valid when they were saved
        game.full_clean(exclude=["tournament", "white", "black"], validate_constraints=False)
    if old_games:
        Game.objects.filter(pk__in=old_games).delete()
    if old_entries:
        TournamentEntry.objects.filter(pk__in=old_entries).delete()
    TournamentEntry.objects.bulk_create(new_entries, batch_size=500)
    Game.objects.bulk_create(new_games, batch_size=500)


def _unmatched(
    model: type[Row], tournament: Tournament, given: Sequence[Row], columns: Sequence[str]
) -> tuple[list[int], list[Row]]:
    """The stored rows of ``tournament`` no given row equals (their pks) and the given rows no stored row
    equals (each stored row matches at most one given row: equal duplicates are counted)."""
    stored: dict[tuple[Any, ...], list[int]] = {}
    if tournament.pk is not None:
        for pk, *values in model.objects.filter(tournament=tournament).values_list("pk", *columns):
            stored.setdefault(tuple(values), []).append(pk)
    new = []
    for row in given:
        same = stored.get(tuple(getattr(row, c) for c in columns))
        if same:
            same.pop()
        else:
            new.append(row)
    return [pk for pks in stored.values() for pk in pks], new


def tournament_delete(
    *, tournament: Tournament, user: Actor = None, version: int | None = None
) -> RecalculationReport:
    """Delete ``tournament`` and recalculate everything it influenced (stored state read inside the lock;
    ``version`` as in ``tournament_save_head``)."""
    with transaction.atomic():
        lock_ratings()
        _locked_version(tournament.pk, version)
        tournament.refresh_from_db()
        if user is not None:
            permissions.check_correction_window(user, tournament)
        since, until = span_of(tournament=tournament, stored=stored_since(tournament.pk))
        before = audit.tournament_snapshot(tournament=tournament)
        report = recalculate_or_schedule(
            changes=Changes(since=since, removed_tournaments=[tournament.pk]),
            until=until,
            user=user,
        )
        announce_rating_changes(
            report=report,
            tournament_id=tournament.pk,
            tournament_name=tournament.name,
            tournament_code=tournament.code,
            removed=True,
        )
        tournament.delete()
        audit.record_tournament_delete(tournament=tournament, before=before, user=user)
        return report


def _head_from(snap: dict[str, Any]) -> dict[str, Any]:
    """The head fields a snapshot holds (older snapshots hold fewer), dates parsed."""
    head = dict(snap["head"])
    for name in ("start_date", "end_date"):
        head[name] = datetime.date.fromisoformat(head[name])
    return head


def _rows_from(snap: dict[str, Any]) -> tuple[list[TournamentEntry], list[Game]]:
    entries = [
        TournamentEntry(
            player_id=e["player"],
            start_rank=e["start_rank"],
            member=e.get("member", True),
            file_rank=e.get("file_rank"),
        )
        for e in snap["entries"]
    ]
    games = [
        Game(round=g["round"], board=g["board"], white_id=g["white"], black_id=g["black"], result=g["result"])
        for g in snap["games"]
    ]
    return entries, games


def _check_restorable(snap: dict[str, Any], *, tournament_id: int | None) -> None:
    """A snapshot can be written back if its code is still free (but for the tournament itself) and all
    its players still exist (a merge or a deletion may have removed some)."""
    code = snap["head"].get("code")
    others = Tournament.objects.filter(code=code)
    if tournament_id is not None:
        others = others.exclude(pk=tournament_id)
    if code and others.exists():
        raise ValidationError(_("Der Turniercode %(code)s ist inzwischen vergeben.") % {"code": code})
    player_ids = {e["player"] for e in snap["entries"]}
    missing = player_ids - set(Player.objects.filter(pk__in=player_ids).values_list("pk", flat=True))
    if missing:
        names = {e["player"]: e.get("name") or str(e["player"]) for e in snap["entries"]}
        raise ValidationError(
            _("Spieler fehlen inzwischen: %(ids)s.")
            % {"ids": ", ".join(names[pk] for pk in sorted(missing, key=lambda pk: names[pk]))}
        )


def tournament_restore(*, event: AuditEvent, user: Actor = None) -> tuple[Tournament, RecalculationReport]:
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
    _check_restorable(snap, tournament_id=None)
    with transaction.atomic():
        tournament = Tournament(**_head_from(snap))
        entries, games = _rows_from(snap)

        def write() -> None:
            _write_head(tournament, user)
            _write_rows(tournament, entries, games)

        report = _save(
            tournament,
            write=write,
            user=user,
            version=None,
            mode=snap.get("mode"),
            action=AuditAction.RESTORE,
        )
        event.restored_as = tournament.pk
        event.save(update_fields=["restored_as"])
        return tournament, report


def tournament_restore_version(
    *, event: AuditEvent, user: Actor = None, version: int | None = None
) -> tuple[Tournament, RecalculationReport]:
    """Put a stored tournament back as it was before the save ``event`` recorded (the state of the save
    before it: head, mode, entries and games), as one more save: atomic, the rating lock first, everything
    from the earlier of both places on recalculated, audited as "wiederhergestellt" with its diff.

    ``version``: the one the officer's page was loaded at (``TournamentConflict`` if another save came
    since, ``TournamentGone`` if the tournament was deleted). Refused (``ValidationError``) when no earlier
    state is stored, a player of it is gone, its code is taken, or the restored head would leave the
    officer's scope or correction window."""
    previous = audit_reads.version_before(event=event)
    if previous is None or not previous.snapshot:
        raise ValidationError(_("Für diese Änderung ist keine vorherige Fassung gespeichert."))
    snap = previous.snapshot
    tournament_id = event.tournament_ref
    tournament = Tournament.objects.filter(pk=tournament_id).first() if tournament_id is not None else None
    if tournament is None or tournament_id is None:
        raise TournamentGone(tournament_id or 0)
    entries, games = _rows_from(snap)

    def write() -> None:
        tournament.refresh_from_db()  # inside the lock: the fields no snapshot holds are the stored ones
        _check_restorable(snap, tournament_id=tournament_id)
        for name, value in _head_from(snap).items():
            setattr(tournament, name, value)
        if user is not None:
            if not permissions.can_manage_tournament(user, tournament):
                raise ValidationError(
                    _(
                        "Diese Fassung hat einen Ausrichter außerhalb Ihres Bereichs; "
                        "bitte die Verwaltung fragen."
                    )
                )
            permissions.check_end_date(user, tournament.end_date)
        _write_head(tournament, user)
        _write_rows(tournament, entries, games)

    report = _save(
        tournament, write=write, user=user, version=version, mode=snap.get("mode"), action=AuditAction.RESTORE
    )
    return tournament, report


def tournaments_recalculate_from(*, tournaments: Iterable[Tournament]) -> RecalculationReport:
    """Admin action "recalculate from here": replay every event from the earliest selected tournament on."""
    with transaction.atomic():
        lock_ratings()
        since = earliest(
            *(day_start(t.end_date) for t in tournaments), *(stored_since(t.pk) for t in tournaments)
        )
        return recalculate_changes(Changes(since=since, everything=True))
