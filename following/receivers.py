"""The receiver of ``ratings.signals.ratings_changed``: one task per recalculation, nothing else."""

from __future__ import annotations

from typing import Any


def queue_notices(
    sender: Any,
    *,
    changes: dict[int, tuple[int | None, int | None]],
    tournament_id: int | None,
    tournament_name: str = "",
    tournament_code: str | None = None,
    removed: bool = False,
    chain: bool = False,
    cause: str = "tournament",
    **kwargs: Any,
) -> None:
    from .tasks import rating_notices_task

    rating_notices_task.enqueue(
        changes=[[pid, old, new] for pid, (old, new) in sorted(changes.items())],
        tournament_id=tournament_id,
        tournament_name=tournament_name,
        tournament_code=tournament_code,
        removed=removed,
        chain=chain,
        cause=cause,
    )


def move_followers(sender: Any, *, keep: int, drop: int, **kwargs: Any) -> None:
    """A merge: the dropped player's followers follow the kept one (an address following both keeps one)."""
    from .services import followers_move

    followers_move(keep=keep, drop=drop)
