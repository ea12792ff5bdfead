"""Background tasks of ``following`` (django-tasks; ``manage.py db_worker`` runs them)."""

from __future__ import annotations

import datetime

from django_tasks import default_task_backend, task


@task()
def rating_notices_task(
    *,
    changes: list[list[int | None]],
    tournament_id: int | None,
    tournament_name: str = "",
    tournament_code: str | None = None,
    removed: bool = False,
    chain: bool = False,
    cause: str = "tournament",
) -> int:
    """Record the notices of one recalculation (``changes``: ``[player, DWZ before, DWZ after]``) and mail
    the digests they make due (and delete unconfirmed addresses past their link); returns the mails sent."""
    from .services import notices_record, unconfirmed_purge

    unconfirmed_purge()
    notices = notices_record(
        changes={int(pid): (old, new) for pid, old, new in changes},  # type: ignore[arg-type]
        tournament_id=tournament_id,
        tournament_name=tournament_name,
        tournament_code=tournament_code,
        removed=removed,
        chain=chain,
        cause=cause,
    )
    return _digests(players={n.player_id for n in notices})


@task()
def digests_task() -> int:
    """The digests held back by their hour or their address's limit; unconfirmed addresses past their
    link's validity are deleted."""
    from .services import unconfirmed_purge

    unconfirmed_purge()
    return _digests(players=None)


def _digests(*, players: set[int] | None) -> int:
    from .services import digests_send

    if players is not None and not players:
        return 0
    sent, later = digests_send(players=players)
    if later is not None and default_task_backend.supports_defer:
        digests_task.using(run_after=later + datetime.timedelta(seconds=1)).enqueue()
    return sent
