"""The officer's grid and entry: the stored entry mode, participants, games and rounds of one tournament,
and the participants' current clubs. One query per function, independent of the number of rows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ratings.formats import result_entry
from ratings.models import Game, Membership, Player, Tournament, TournamentEntry
from ratings.models.officer import TournamentEntryMode, TournamentMode


def entry_mode(*, tournament: Tournament) -> str | None:
    """The entry mode the officer chose (None for seeded or imported tournaments)."""
    return TournamentEntryMode.objects.filter(tournament=tournament).values_list("mode", flat=True).first()


def inferred_mode(*, games: Sequence[tuple[int, int | None, str]], seated: Iterable[int]) -> str:
    """The entry mode of a tournament without a stored one (seeded or imported), from its games: round
    robin for none or a single complete round robin the grid can show, Swiss otherwise (no query)."""
    return (
        TournamentMode.ROUND_ROBIN
        if result_entry.is_round_robin(games, seated=seated)
        else TournamentMode.SWISS
    )


def stored_games(*, tournament: Tournament) -> list[tuple[int, int | None, str]]:
    """Every stored game as ``(white_id, black_id, result)``; ``black_id`` is None for a bye."""
    return list(Game.objects.filter(tournament=tournament).values_list("white_id", "black_id", "result"))


def seated_ids(*, tournament: Tournament) -> list[int]:
    """The ids of the tournament's participants (stored entries), unordered."""
    return list(TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", flat=True))


def pairing_rounds(*, tournament: Tournament) -> dict[tuple[int, int], int]:
    """The round of each stored pairing ``(white_id, black_id)`` (byes left out)."""
    return {
        (w, b): r
        for w, b, r in Game.objects.filter(tournament=tournament, black__isnull=False).values_list(
            "white_id", "black_id", "round"
        )
    }


def entries(*, tournament: Tournament) -> list[TournamentEntry]:
    """The stored entries with their players, in start-number order."""
    return list(
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_rank", "pk")
    )


def games(*, tournament: Tournament) -> list[Game]:
    return list(Game.objects.filter(tournament=tournament))


def primary_memberships(*, players: list[Player]) -> dict[int, Membership]:
    """Each player's first current membership (A before P, then the oldest) with its club, by player id;
    players without a current membership are left out."""
    out: dict[int, Membership] = {}
    for m in Membership.objects.current().filter(player__in=players).select_related("club").primary_first():
        out.setdefault(m.player_id, m)
    return out
