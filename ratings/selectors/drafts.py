"""A tournament's entry in progress: its draft, or the stored state to start one from."""

from __future__ import annotations

from ratings.models import Game, Player, Tournament, TournamentDraft, TournamentEntry

from . import plausibility
from .plausibility import PlausibilityWarning


def draft_or_stored(*, tournament: Tournament) -> tuple[TournamentDraft, bool]:
    """The saved draft (True), else an unsaved one holding the stored participants and games (False)."""
    draft = TournamentDraft.objects.filter(tournament=tournament).first()
    if draft is not None:
        return draft, True
    participants = list(
        TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    )
    games = [
        {"round": r, "board": b, "white": w, "black": k, "result": res}
        for r, b, w, k, res in Game.objects.filter(tournament=tournament)
        .order_by("round", "board", "pk")
        .values_list("round", "board", "white_id", "black_id", "result")
    ]
    _number_boards(games)
    return TournamentDraft(tournament=tournament, participants=participants, games=games), False


def _number_boards(games: list[dict]) -> None:
    """Boards 1, 2, … in each round (stored games may have none or gaps)."""
    seen: dict[int, int] = {}
    for g in games:
        seen[g["round"]] = seen.get(g["round"], 0) + 1
        g["board"] = seen[g["round"]]


def saved_draft(*, tournament_id: int) -> TournamentDraft | None:
    """The tournament's saved draft, if any (the tabs show when it was saved)."""
    return TournamentDraft.objects.filter(tournament_id=tournament_id).first()


def has_draft(*, tournament_id: int) -> bool:
    return TournamentDraft.objects.filter(tournament_id=tournament_id).exists()


def participants(*, draft: TournamentDraft) -> list[Player]:
    """The draft's players in start order (players deleted meanwhile are left out)."""
    players = Player.objects.in_bulk(draft.participants)
    return [players[pk] for pk in draft.participants if pk in players]


def draft_warnings(*, tournament: Tournament, draft: TournamentDraft) -> list[PlausibilityWarning]:
    """The plausibility warnings for publishing ``draft`` ("Speichern und auswerten")."""
    games = [
        Game(round=g["round"], white_id=g["white"], black_id=g["black"], result=g["result"] or "")
        for g in draft.games
    ]
    return plausibility.tournament_warnings(
        tournament=tournament, players=participants(draft=draft), games=games
    )
