"""The bulk writer (PostgreSQL ``COPY``, SQLite ``executemany``): what goes in comes out unchanged, on both
databases (the suite runs on each)."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from ratings.enums import EvaluationStatus
from ratings.models import Evaluation, Player, Restpartie
from ratings.services import bulk
from tests.builders import player
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

D = datetime.date

EVALUATION_COLUMNS = (
    "tournament_id", "player_id", "end_date", "code_suffix", "edition", "status", "dwz_old", "index_old", "n",
    "points", "expected", "coefficient", "level", "performance", "dwz_new", "index_new", "fide_takeover",
    "entry_rating",
)  # fmt: skip


def _two_rows(tournament: int, a: int, b: int) -> list[tuple]:
    """A rated row with decimals and a not-rated one with NULLs."""
    return [
        (tournament, a, D(2024, 2, 29), "05A", "2026", EvaluationStatus.RATED, 1500, 3, 7,
         Decimal("4.5"), Decimal("3.663"), Decimal("32.5"), 1487, 1602, 1531, 4, False, 1500),
        (tournament, b, D(1999, 12, 31), None, "classic", EvaluationStatus.NOT_RATED, None, None, 0,
         Decimal("0"), None, None, None, None, None, None, True, None),
    ]  # fmt: skip


def test_evaluation_rows_round_trip_decimals_dates_and_nulls():
    a, b = player(dwz=1500, index=3), player()
    tournament = TournamentFactory(end_date=D(2024, 2, 29))
    rows = _two_rows(tournament.pk, a.pk, b.pk)
    assert bulk.insert_rows(Evaluation, EVALUATION_COLUMNS, iter(rows)) == 2
    stored = list(Evaluation.objects.order_by("player_id").values_list(*EVALUATION_COLUMNS))
    assert stored == sorted(rows, key=lambda row: row[1])
    # Decimals come back with the column's places, as the ORM writes them.
    assert [str(e.points) for e in Evaluation.objects.order_by("player_id")] == ["4.5", "0.0"]


def test_restpartie_rows_round_trip():
    a = player()
    tournament = TournamentFactory(end_date=D(2025, 1, 5))
    rows = [(a.pk, tournament.pk, seq, 1700 + seq, score, D(2025, 1, 5))
            for seq, score in enumerate((Decimal("1"), Decimal("0.5"), Decimal("0")))]  # fmt: skip
    fields = ("player_id", "tournament_id", "seq", "opponent_rating", "score", "end_date")
    assert bulk.insert_rows(Restpartie, fields, rows) == 3
    assert list(Restpartie.objects.order_by("seq").values_list(*fields)) == rows


def test_many_rows_in_batches_and_none_at_all():
    players = [player() for _ in range(3)]
    tournament = TournamentFactory(end_date=D(2024, 6, 1))
    fields = ("player_id", "tournament_id", "seq", "opponent_rating", "score", "end_date")
    rows = [
        (p.pk, tournament.pk, seq, 1000, Decimal("0.5"), D(2024, 6, 1))
        for p in players
        for seq in range(4000)
    ]
    assert bulk.insert_rows(Restpartie, fields, rows) == 12_000  # more than one SQLite batch of 5,000
    assert Restpartie.objects.count() == 12_000
    assert bulk.insert_rows(Restpartie, fields, []) == 0


def test_player_rows_with_umlauts_and_datetimes_round_trip_and_update():
    fields = ("key", "surname", "first_name", "sex", "fide_title", "fide_federation", "status", "birth_year",
              "dwz", "index", "last_evaluated", "created_at", "updated_at")  # fmt: skip
    now = timezone.now().replace(microsecond=123456)
    rows = [
        ("ÄÖÜ-1", "Müßig-Öztürk", "Jürgen", "m", "", "GER", "A", 1961, 1843, 27, D(2024, 3, 3), now, now),
        ("ÄÖÜ-2", "Ärger", "Zoë", "w", "WFM", "", "P", None, None, None, None, now, now),
    ]
    assert bulk.insert_rows(Player, fields, rows) == 2
    assert list(Player.objects.order_by("key").values_list(*fields)) == rows
    pk = Player.objects.get(key="ÄÖÜ-2").pk
    assert (
        bulk.update_rows(Player, ("surname", "dwz", "last_evaluated"), [(pk, "Weiß", 1204, D(2025, 7, 1))])
        == 1
    )
    assert Player.objects.filter(pk=pk).values_list("surname", "dwz", "last_evaluated").get() == (
        "Weiß",
        1204,
        D(2025, 7, 1),
    )
    assert Player.objects.get(key="ÄÖÜ-1").surname == "Müßig-Öztürk"  # other rows untouched


def test_select_rows_reads_what_the_orm_reads():
    a, b = player(dwz=1500, index=3), player()
    tournament = TournamentFactory(end_date=D(2024, 2, 29))
    rows = _two_rows(tournament.pk, a.pk, b.pk)
    bulk.insert_rows(Evaluation, EVALUATION_COLUMNS, rows)
    query = Evaluation.objects.filter(tournament=tournament).order_by("player_id")
    query = query.values_list(*EVALUATION_COLUMNS)
    selected = list(bulk.select_rows(query))
    assert selected == list(query)
    assert [type(value) for value in selected[1]] == [type(value) for value in list(query)[1]]
