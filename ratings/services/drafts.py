"""Drafts (Entwurf): the officer's participants and boards, saved on every change and evaluated only when
published. A draft is never part of a rating: it is its own row, not the tournament's entries and games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ratings.models import Game, Player, Tournament, TournamentDraft, TournamentEntry
from ratings.recalculation import RecalculationReport

from . import audit
from .players import player_create
from .tournaments import tournament_save_results

if TYPE_CHECKING:
    from ratings.services.audit import Actor


def draft_save(
    *,
    tournament: Tournament,
    participants: Sequence[int],
    games: Sequence[dict[str, Any]],
    user: Actor = None,
) -> TournamentDraft:
    """Store the entry in progress (participants in start order, boards as plain dicts)."""
    if len(set(participants)) != len(participants):
        raise ValidationError(_("Ein Spieler steht doppelt in der Teilnehmerliste."))
    seated = set(participants)
    for g in games:
        if g["white"] not in seated or (g["black"] is not None and g["black"] not in seated):
            raise ValidationError(
                _("Runde %(round)s, Brett %(board)s: ein Spieler ist nicht (mehr) Teilnehmer.")
                % {"round": g["round"], "board": g["board"]}
            )
    version = Tournament.objects.filter(pk=tournament.pk).values_list("version", flat=True).first()
    draft, _created = TournamentDraft.objects.update_or_create(
        tournament=tournament,
        defaults={
            "participants": list(participants),
            "games": sorted(games, key=lambda g: (g["round"], g["board"])),
            "updated_by": audit.stored_user(user=user),
        },
        create_defaults={
            "participants": list(participants),
            "games": sorted(games, key=lambda g: (g["round"], g["board"])),
            "updated_by": audit.stored_user(user=user),
            "base_version": version,
        },
    )
    return draft


def draft_player_create(
    *, tournament: Tournament, draft: TournamentDraft, user: Actor, player: dict[str, Any]
) -> tuple[Player, TournamentDraft]:
    """A new player (``player``: the keywords of ``players.player_create``) who joins the draft as its last
    participant, both or neither: no player record is left behind without the participant."""
    with transaction.atomic():
        created = player_create(user=user, **player)
        saved = draft_save(
            tournament=tournament,
            participants=[*draft.participants, created.pk],
            games=draft.games,
            user=user,
        )
    return created, saved


def draft_discard(*, tournament: Tournament) -> None:
    TournamentDraft.objects.filter(tournament=tournament).delete()


def draft_publish(
    *, tournament: Tournament, draft: TournamentDraft, user: Actor = None, mode: str | None = None
) -> RecalculationReport:
    """Save the draft as the tournament's participants and games, evaluate (``tournament_save_results``) and
    drop the draft, all or nothing. Boards without a result are refused, each named; a save by someone
    else since the draft began raises ``TournamentConflict`` (the draft stays)."""
    open_boards = [
        _("Runde %(round)s, Brett %(board)s: Ergebnis fehlt.") % {"round": g["round"], "board": g["board"]}
        for g in draft.games
        if not g["result"]
    ]
    if open_boards:
        raise ValidationError(open_boards)
    if not draft.participants:
        raise ValidationError(_("Noch keine Teilnehmer."))
    stored = {
        pk: (file_rank, member)
        for pk, file_rank, member in TournamentEntry.objects.filter(tournament=tournament).values_list(
            "player_id", "file_rank", "member"
        )
    }
    entries = [  # a stored participant keeps his file rank and his "Nichtmitglied"
        TournamentEntry(
            player_id=pk,
            start_rank=i,
            file_rank=stored.get(pk, (None, True))[0],
            member=stored.get(pk, (None, True))[1],
        )
        for i, pk in enumerate(draft.participants, start=1)
    ]
    games = [
        Game(round=g["round"], board=g["board"], white_id=g["white"], black_id=g["black"], result=g["result"])
        for g in draft.games
    ]
    with transaction.atomic():
        report = tournament_save_results(
            tournament=tournament,
            entries=entries,
            games=games,
            user=user,
            mode=mode,
            version=draft.base_version if draft.pk else None,
        )
        TournamentDraft.objects.filter(tournament=tournament).delete()
    return report


def draft_results_save(
    *,
    tournament: Tournament,
    entries: Sequence[TournamentEntry],
    games: Sequence[Game],
    user: Actor = None,
    mode: str | None = None,
    version: int | None = None,
) -> RecalculationReport:
    """The round robin's grid saved (``tournament_save_results``) and the draft it started from dropped,
    all or nothing: after the save the stored tournament is the one state again."""
    with transaction.atomic():
        report = tournament_save_results(
            tournament=tournament, entries=entries, games=games, user=user, mode=mode, version=version
        )
        TournamentDraft.objects.filter(tournament=tournament).delete()
    return report


def draft_rebase(*, tournament: Tournament) -> None:
    """Accept the tournament's current version as the draft's base (the officer saw the conflict and
    chose to publish his draft over the other save)."""
    version = Tournament.objects.filter(pk=tournament.pk).values_list("version", flat=True).first()
    TournamentDraft.objects.filter(tournament=tournament).update(base_version=version)
