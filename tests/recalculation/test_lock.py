import pytest
from django.db import transaction

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
