"""Writing the replay's outcome: evaluation and Restpartie rows built positionally, players updated in
bulk."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.core.exceptions import ImproperlyConfigured
from django.db.models import Max

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

from .base import EMPTY_STATE, IN_CHUNK, THOUSAND, RecalculationReport, chunks, engine_id

# Model fields in ``concrete_fields`` order: rows are built positionally (Django's fast constructor path, the
# one ``from_db`` uses), which skips the per-keyword handling of ``Model(**kwargs)``. Checked at import.
EVALUATION_FIELDS = (
    "id", "tournament_id", "player_id", "end_date", "code_suffix", "edition", "status", "dwz_old",
    "index_old", "n", "points", "expected", "coefficient", "level", "performance", "dwz_new", "index_new",
    "fide_takeover", "entry_rating",
)  # fmt: skip
RESTPARTIE_FIELDS = ("id", "player_id", "tournament_id", "seq", "opponent_rating", "score", "end_date")
for _model, _fields in ((Evaluation, EVALUATION_FIELDS), (Restpartie, RESTPARTIE_FIELDS)):
    if tuple(f.attname for f in _model._meta.concrete_fields) != _fields:
        raise ImproperlyConfigured(f"recalculation: update the field order of {_model.__name__}")


class Decimals(dict):
    """Thousandths -> ``Decimal`` (the same value as ``Decimal(k) / 1000``), computed once per value."""

    def __missing__(self, thousandths: int | None) -> Decimal | None:
        self[thousandths] = value = None if thousandths is None else Decimal(thousandths) / THOUSAND
        return value


def evaluation_rows(
    tid: int, event: TournamentEvent, result: TournamentResult, decimals: Decimals
) -> tuple[list[Evaluation], list[Restpartie]]:
    evaluations: list[Evaluation] = []
    restpartien: list[Restpartie] = []
    suffix = order_suffix(event.code)
    end_date, edition = event.end_date, result.edition
    for pr in result.players:
        player_id = int(pr.id)
        # django-stubs checks positional model arguments against its own field order (relations by name,
        # not attname), so the fast positional path needs an ignore; the order is checked at import above.
        evaluations.append(
            Evaluation(  # type: ignore[misc]
                None,
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
            restpartien.append(
                Restpartie(  # type: ignore[misc]  # positional fast path, as Evaluation above
                    None, player_id, tid, seq, rp.opponent_rating, decimals[rp.score], rp.end_date
                )
            )
    return evaluations, restpartien


def update_players(states: dict[str, PlayerState], touched: set[int], report: RecalculationReport) -> None:
    """Write each touched player's DWZ, index and last evaluation where they changed.

    Updates are grouped by value (one ``UPDATE ... WHERE id IN (...)`` per field and distinct new value):
    ratings take a few thousand distinct values, so this stays a bounded number of cheap statements, where
    ``bulk_update``'s per-row ``CASE WHEN`` costs about a millisecond per player to build.
    """
    changes: dict[str, dict[object, list[int]]] = {
        "dwz": defaultdict(list),
        "index": defaultdict(list),
        "last_evaluated": defaultdict(list),
    }
    # Many players (a full recalculation): two queries over all rows beat dozens of ``IN (...)`` chunks.
    parts = [None] if len(touched) > 4 * IN_CHUNK else chunks(touched)
    for chunk in parts:
        last_query = Evaluation.objects.setting_rating()
        rows = Player.objects.values_list("pk", "dwz", "index", "last_evaluated")
        if chunk is not None:
            last_query = last_query.filter(player_id__in=chunk)
            rows = rows.filter(pk__in=chunk)
        last = dict(
            last_query.values("player_id").annotate(last=Max("end_date")).values_list("player_id", "last")
        )
        for pk, dwz, index, last_evaluated in rows:
            if chunk is None and pk not in touched:
                continue
            state = states.get(engine_id(pk)) or EMPTY_STATE
            if dwz != state.dwz:
                report.rating_changes[pk] = (dwz, state.dwz)
                changes["dwz"][state.dwz].append(pk)
            if index != state.index:
                changes["index"][state.index].append(pk)
            new_last = last.get(pk)
            if last_evaluated != new_last:
                changes["last_evaluated"][new_last].append(pk)
    for name, groups in changes.items():
        for value, pks in groups.items():
            for chunk in chunks(pks):
                Player.objects.filter(pk__in=chunk).update(**{name: value})
