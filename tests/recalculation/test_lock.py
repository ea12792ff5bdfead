import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ratings.models import RatingState
from ratings.recalculation import lock_ratings


@pytest.mark.django_db(transaction=True)
def test_lock_requires_a_transaction():
    with pytest.raises(RuntimeError):
        lock_ratings()


@pytest.mark.django_db(transaction=True)
def test_lock_creates_and_locks_the_singleton_row():
    with transaction.atomic():
        lock_ratings()
        lock_ratings()  # re-entrant within one transaction (row lock and advisory lock)
    assert RatingState.objects.filter(pk=1).exists()


def _lock_queries() -> int:
    with CaptureQueriesContext(connection) as queries:
        lock_ratings()
    return len(queries)


@pytest.mark.django_db(transaction=True)
def test_a_second_take_in_the_same_transaction_asks_the_database_nothing():
    with transaction.atomic():
        assert _lock_queries() >= 1
        assert _lock_queries() == 0
        with transaction.atomic():  # a savepoint inside the transaction that holds it
            assert _lock_queries() == 0
        assert _lock_queries() == 0


@pytest.mark.django_db(transaction=True)
def test_a_new_transaction_takes_the_lock_again_after_a_commit_or_a_rollback():
    with transaction.atomic():
        lock_ratings()
    with transaction.atomic():
        assert _lock_queries() >= 1
    with pytest.raises(ValueError), transaction.atomic():
        lock_ratings()
        raise ValueError
    with transaction.atomic():
        assert _lock_queries() >= 1


@pytest.mark.django_db(transaction=True)
def test_a_lock_taken_in_a_savepoint_rolled_back_is_taken_again():
    with transaction.atomic():
        with pytest.raises(ValueError), transaction.atomic():
            assert _lock_queries() >= 1
            raise ValueError
        assert _lock_queries() >= 1  # the database released it with the savepoint
        assert _lock_queries() == 0


@pytest.mark.django_db(transaction=True)
def test_a_lock_taken_in_a_savepoint_released_stays_held():
    with transaction.atomic():
        with transaction.atomic():
            lock_ratings()
        assert _lock_queries() == 0


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_after_a_take_it_still_refuses():
    with transaction.atomic():
        lock_ratings()
    with pytest.raises(RuntimeError):
        lock_ratings()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the advisory lock is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_the_advisory_lock_is_held_whenever_a_take_is_skipped():
    def held() -> bool:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
            )
            return cursor.fetchone()[0] > 0

    with transaction.atomic():
        with pytest.raises(ValueError), transaction.atomic():
            lock_ratings()
            raise ValueError
        assert not held()
        lock_ratings()
        assert held()
        with transaction.atomic():
            lock_ratings()
            assert held()
    with transaction.atomic():
        assert not held()
        lock_ratings()
        assert held()
