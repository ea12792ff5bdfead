"""The bulk writer (PostgreSQL ``COPY``, SQLite ``executemany``): what goes in comes out unchanged, on both
databases (the suite runs on each)."""

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from ratings import bulk
from ratings.enums import EvaluationStatus
from ratings.folding import name_sort_key
from ratings.models import Evaluation, Player, Restpartie
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
    # The names' DIN 5007 key written beside them (no save() on this path).
    assert Player.objects.get(key="ÄÖÜ-2").name_sort == name_sort_key("Ärger", "Zoë")
    pk = Player.objects.get(key="ÄÖÜ-2").pk
    written = [(pk, "Weiß", "Zoë", 1204, D(2025, 7, 1))]
    assert bulk.update_rows(Player, ("surname", "first_name", "dwz", "last_evaluated"), written) == 1
    assert Player.objects.filter(pk=pk).values_list(
        "surname", "dwz", "last_evaluated", "name_sort"
    ).get() == (
        "Weiß",
        1204,
        D(2025, 7, 1),
        name_sort_key("Weiß", "Zoë"),
    )
    assert Player.objects.get(key="ÄÖÜ-1").surname == "Müßig-Öztürk"  # other rows untouched


def test_update_rows_writes_many_rows_nulls_and_the_last_values_of_a_pk_given_twice():
    players = [player(dwz=1000 + i, index=i + 1) for i in range(30)]
    rows = [
        (p.pk, 1500 + i, None if i % 3 else 7, D(2025, 1, 1) + datetime.timedelta(days=i))
        for i, p in enumerate(players)
    ]
    rows.append((players[0].pk, 1999, 9, None))  # later values of the same player win
    assert bulk.update_rows(Player, ("dwz", "index", "last_evaluated"), rows) in (30, 31)
    want = {pk: (dwz, index, last) for pk, dwz, index, last in rows}
    assert {
        pk: (dwz, index, last)
        for pk, dwz, index, last in Player.objects.values_list("pk", "dwz", "index", "last_evaluated")
    } == want
    assert bulk.update_rows(Player, ("dwz",), []) == 0


def test_update_rows_by_a_unique_key_instead_of_the_primary_key():
    a, b, c = player(dwz=1500, index=3), player(), player(dwz=1400, index=2)
    first, second = TournamentFactory(end_date=D(2024, 2, 29)), TournamentFactory(end_date=D(2024, 3, 9))
    bulk.insert_rows(
        Evaluation, EVALUATION_COLUMNS, _two_rows(first.pk, a.pk, b.pk) + _two_rows(second.pk, a.pk, c.pk)
    )
    before = {(e[0], e[1]): e for e in Evaluation.objects.values_list(*EVALUATION_COLUMNS)}
    fields = ("dwz_new", "points", "fide_takeover")
    rows = [
        (second.pk, a.pk, 1544, Decimal("2.5"), True),  # the same player's row in another tournament stays
        (first.pk, b.pk, None, Decimal("1"), False),
    ]
    assert bulk.update_rows(Evaluation, fields, rows, by=("tournament", "player")) == 2
    after = {(e[0], e[1]): e for e in Evaluation.objects.values_list(*EVALUATION_COLUMNS)}
    places = [EVALUATION_COLUMNS.index(name) for name in fields]
    want = {pair: list(row) for pair, row in before.items()}
    for tid, pk, *values in rows:
        for place, value in zip(places, values, strict=True):
            want[(tid, pk)][place] = value
    assert after == {pair: tuple(row) for pair, row in want.items()}
    assert after[(first.pk, a.pk)] == before[(first.pk, a.pk)]


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


def _postgresql() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_is_shared_inside_a_transaction_on_postgresql_only():
    from django.db import transaction

    assert bulk.shared_snapshot() is None  # outside a transaction: nothing to share
    with transaction.atomic():
        snapshot = bulk.shared_snapshot()
    assert (snapshot is not None) == _postgresql()  # SQLite: always sequential


@pytest.mark.django_db(transaction=True)
def test_read_ahead_reads_on_the_exported_snapshot_in_order():
    """The thread's connection sees the data as the exporting transaction saw it, not later commits."""
    from django.db import connection, transaction

    a = player(dwz=1500)
    with transaction.atomic():
        snapshot = bulk.shared_snapshot()
        if _postgresql():
            assert snapshot is not None
            # A commit by another connection after the export: the reader must not see it.
            other = connection.copy()
            with other.cursor() as cursor:
                cursor.execute("UPDATE ratings_player SET dwz = 1600 WHERE id = %s", [a.pk])
            other.close()
        seen = list(
            bulk.read_ahead([1, 2, 3], lambda i: (i, Player.objects.get(pk=a.pk).dwz), snapshot=snapshot)
        )
    assert [item for item, _ in seen] == [1, 2, 3]
    assert {dwz for _, (_, dwz) in seen} == {1500}


@pytest.mark.django_db(transaction=True)
def test_read_ahead_raises_the_readers_error_in_the_caller_and_stops_the_thread():
    import threading

    from django.db import transaction

    def load(i: int) -> int:
        if i == 2:
            raise ValueError("window 2")
        return i

    with transaction.atomic():
        snapshot = bulk.shared_snapshot()
        got = []
        with pytest.raises(ValueError, match="window 2"):
            for item, _ in bulk.read_ahead([1, 2, 3], load, snapshot=snapshot):
                got.append(item)
    assert got == [1]
    assert not any(t.name == "read-ahead" for t in threading.enumerate())


@pytest.mark.django_db(transaction=True)
def test_write_behind_deletes_and_copies_in_its_thread_and_raises_a_jobs_error():
    from django.db import IntegrityError, transaction

    if not _postgresql():
        pytest.skip("writing in a thread on the caller's connection is PostgreSQL's")
    a, b = player(dwz=1500, index=3), player()
    tournament = TournamentFactory(end_date=D(2024, 2, 29))
    copy = bulk.copy_sql(Evaluation, EVALUATION_COLUMNS)
    delete = bulk.delete_sql(Evaluation, "tournament")
    with transaction.atomic():
        with bulk.WriteBehind() as behind:
            behind.replace([], [(copy, _two_rows(tournament.pk, a.pk, b.pk))])
            behind.replace([(delete, [tournament.pk])], [(copy, _two_rows(tournament.pk, a.pk, b.pk)[:1])])
        assert list(Evaluation.objects.values_list("player_id", flat=True)) == [a.pk]
        transaction.set_rollback(True)
    # A duplicate row: the job fails, its error is raised in the caller's thread.
    with pytest.raises(IntegrityError), transaction.atomic(), bulk.WriteBehind() as behind:
        behind.replace([], [(copy, _two_rows(tournament.pk, a.pk, a.pk))])
    assert not Evaluation.objects.exists()


TRICKY = ['O"Brien', "back\\slash", "{braces}", "NULL", "", " space ", "a,b", "Müßig-Öztürk", '\\"', "'"]


def test_update_rows_writes_strings_as_given():
    players = [player() for _ in TRICKY]
    rows = [(p.pk, name, p.first_name) for p, name in zip(players, TRICKY, strict=True)]
    assert bulk.update_rows(Player, ("surname", "first_name"), rows) == len(TRICKY)
    stored = Player.objects.filter(pk__in=[p.pk for p in players]).values_list("pk", "surname", "first_name")
    assert sorted(stored) == sorted(rows)
    # A surname alone cannot give the sort key of the name: the writer is told, nothing is written.
    with pytest.raises(ValueError, match="name_sort"):
        bulk.update_rows(Player, ("surname",), [(players[0].pk, "Anders")])


@pytest.mark.skipif(connection.vendor != "postgresql", reason="array literals are PostgreSQL's")
@pytest.mark.parametrize(
    ("values", "cast"),
    [
        ([*TRICKY, None], "text"),
        ([1, -2, None, 2**40], "bigint"),
        ([Decimal("0.5"), Decimal("-12.25"), None, Decimal("1E+1")], "numeric"),
        ([True, False, None], "boolean"),
        ([D(2024, 2, 29), None, D(1999, 12, 31)], "date"),
    ],
)
def test_array_literals_read_back_as_the_values(values, cast):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT %s::{cast}[]", [bulk.array_literal(values)])
        assert cursor.fetchone()[0] == values
