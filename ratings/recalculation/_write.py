"""Writing the replay's outcome: evaluation and Restpartie rows as plain tuples through the bulk writer
(``ratings.bulk``: PostgreSQL ``COPY``, SQLite ``executemany``), players updated in bulk."""

from __future__ import annotations

import datetime
from collections.abc import Collection, Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db.models import Exists, Max, OuterRef, QuerySet

from ratings import bulk
from ratings.dwz.codes import order_suffix
from ratings.dwz.replay import (
    PlayerState,
    TournamentEvent,
)
from ratings.dwz.types import TournamentResult
from ratings.models import (
    Evaluation,
    Player,
    Restpartie,
)

from ._base import EMPTY_STATE, IN_CHUNK, THOUSAND, RecalculationReport, chunks, engine_id

# Model fields in ``concrete_fields`` order (checked at import): the rows below are built in this order,
# without the primary key, which the database assigns.
EVALUATION_FIELDS = (
    "id", "tournament_id", "player_id", "end_date", "code_suffix", "edition", "status", "dwz_old",
    "index_old", "n", "points", "expected", "coefficient", "level", "performance", "dwz_new", "index_new",
    "fide_takeover", "entry_rating",
)  # fmt: skip
RESTPARTIE_FIELDS = ("id", "player_id", "tournament_id", "seq", "opponent_rating", "score", "end_date")
for _model, _fields in ((Evaluation, EVALUATION_FIELDS), (Restpartie, RESTPARTIE_FIELDS)):
    if tuple(f.attname for f in _model._meta.concrete_fields) != _fields:
        raise ImproperlyConfigured(f"recalculation: update the field order of {_model.__name__}")

EvaluationRow = tuple[Any, ...]  # ``EVALUATION_FIELDS[1:]``
RestpartieRow = tuple[Any, ...]  # ``RESTPARTIE_FIELDS[1:]``


class Decimals(dict[int | None, Decimal | None]):
    """Thousandths -> ``Decimal`` (the same value as ``Decimal(k) / 1000``), computed once per value."""

    def __missing__(self, thousandths: int | None) -> Decimal | None:
        self[thousandths] = value = None if thousandths is None else Decimal(thousandths) / THOUSAND
        return value


def evaluation_rows(
    tid: int, event: TournamentEvent, result: TournamentResult, decimals: Decimals
) -> tuple[list[EvaluationRow], list[RestpartieRow]]:
    """The tournament's evaluation and Restpartie rows, in ``EVALUATION_FIELDS[1:]`` and
    ``RESTPARTIE_FIELDS[1:]`` order (no model instances: building and preparing them cost more than the
    database's work)."""
    evaluations: list[EvaluationRow] = []
    restpartien: list[RestpartieRow] = []
    suffix = order_suffix(event.code)
    end_date, edition = event.end_date, result.edition
    for pr in result.players:
        player_id = int(pr.id)
        evaluations.append(
            (
                tid,
                player_id,
                end_date,
                suffix,
                edition,
                pr.status,
                pr.dwz_old,
                pr.index_old,
                pr.n,
                decimals[pr.points],
                decimals[pr.expected],
                pr.coefficient,
                pr.level,
                pr.performance,
                pr.dwz_new,
                pr.index_new,
                pr.fide_takeover,
                pr.entry_rating,
            )
        )
        for seq, rp in enumerate(pr.restpartien):
            restpartien.append((player_id, tid, seq, rp.opponent_rating, decimals[rp.score], rp.end_date))
    return evaluations, restpartien


def replace_rows(
    clear: Collection[int],
    evaluations: Iterable[EvaluationRow],
    restpartien: Iterable[RestpartieRow],
    *,
    behind: bulk.WriteBehind | None = None,
) -> None:
    """Delete the stored rows of the ``clear`` tournaments, then insert the new rows (``behind``: in its
    thread, while the caller goes on; PostgreSQL)."""
    if behind is not None:
        ids = sorted(clear)
        behind.replace(
            [
                (bulk.delete_sql(Evaluation, "tournament"), ids),
                (bulk.delete_sql(Restpartie, "tournament"), ids),
            ],
            [
                (bulk.copy_sql(Evaluation, EVALUATION_FIELDS[1:]), list(evaluations)),
                (bulk.copy_sql(Restpartie, RESTPARTIE_FIELDS[1:]), list(restpartien)),
            ],
        )
        return
    for chunk in chunks(clear):
        Evaluation.objects.filter(tournament_id__in=chunk).delete()
        Restpartie.objects.filter(tournament_id__in=chunk).delete()
    bulk.insert_rows(Evaluation, EVALUATION_FIELDS[1:], evaluations)
    bulk.insert_rows(Restpartie, RESTPARTIE_FIELDS[1:], restpartien)


def update_players(
    states: dict[str, PlayerState],
    touched: set[int],
    report: RecalculationReport,
    last: Mapping[int, datetime.date] | None = None,
) -> set[int]:
    """Write each touched player's DWZ, index and last evaluation where they changed; return those players.

    ``last``: every touched player's last rating evaluation, if the caller knows it (a full replay sees
    them all); otherwise it is read from the stored evaluations of the touched players. The changed
    players are written by one prepared ``UPDATE`` executed per row (``bulk.update_rows``).
    """
    if last is None:
        last = last_evaluations(touched)
    changed: list[tuple[int, int | None, int | None, datetime.date | None]] = []
    everyone = len(touched) > 4 * IN_CHUNK  # many players: one pass over all rows beats dozens of chunks
    for chunk in [None] if everyone else chunks(touched):
        rows = Player.objects.order_by().values_list("pk", "dwz", "index", "last_evaluated")
        if chunk is not None:
            rows = rows.filter(pk__in=chunk)
        for pk, dwz, index, last_evaluated in rows.iterator(chunk_size=10_000):
            if chunk is None and pk not in touched:
                continue
            state = states.get(engine_id(pk)) or EMPTY_STATE
            new_last = last.get(pk)
            if (dwz, index, last_evaluated) != (state.dwz, state.index, new_last):
                if dwz != state.dwz:
                    report.rating_changes[pk] = (dwz, state.dwz)
                changed.append((pk, state.dwz, state.index, new_last))
    bulk.update_rows(Player, ("dwz", "index", "last_evaluated"), changed)
    return {pk for pk, *_values in changed}


def orphan_restpartien() -> QuerySet[Restpartie]:
    """Restpartien whose player has no evaluation row in their tournament: no replay writes them (a
    tournament's Restpartien are read and written with its rows), so only a change behind the services'
    back leaves them; ``ratings_verify`` reports them and a full recalculation removes them."""
    return Restpartie.objects.exclude(
        Exists(
            Evaluation.objects.filter(
                tournament_id=OuterRef("tournament_id"), player_id=OuterRef("player_id")
            )
        )
    )


def last_evaluations(players: Collection[int]) -> dict[int, datetime.date]:
    """The end date of each player's last evaluation that set his DWZ (chunks of ``IN``, index
    ``(player, end_date)``: never a ``GROUP BY`` over every evaluation)."""
    last: dict[int, datetime.date] = {}
    for chunk in chunks(players):
        last.update(
            Evaluation.objects.setting_rating()
            .filter(player_id__in=chunk)
            .order_by()
            .values("player_id")
            .annotate(last=Max("end_date"))
            .values_list("player_id", "last")
        )
    return last
