"""Issue 26 §4, found again by ``bench/officers.py`` (10 officers x 100 writes, PostgreSQL: one 500 in 2,433
requests, before the previews stopped taking the lock): a results or delete page opened while another
officer deletes the tournament. The page's preview ran the real save (or delete) and rolled it back; it
waited for the rating lock the deleting officer held, then found the tournament gone and
``TournamentGone`` ended as a 500. Looking at a page must answer it (the page as loaded, or "Turnier wurde
inzwischen gelöscht", 410), never a 500.
"""

import threading
import time

import pytest
from django.db import connection, transaction
from django.urls import reverse

from ratings.models import Game, Tournament, TournamentEntry
from ratings.recalculation import lock_ratings
from ratings.services import tournament_delete, tournament_save_results

pytestmark = [
    pytest.mark.skipif(
        connection.vendor == "sqlite",
        reason="the test database is SQLite's shared-cache memory database: it refuses at once, never waits",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.mark.parametrize("page", ["ratings:tournament-grid", "ratings:tournament-delete"])
def test_a_page_opened_while_the_tournament_is_deleted_is_no_server_error(
    page, login, users, tournament, players
):
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    games = [Game(round=1, white=players[0], black=players[1], result="1-0")]
    tournament_save_results(tournament=tournament, entries=entries, games=games)
    client = login(users["officer_a"])
    client.raise_request_exception = False  # the answer a browser gets
    holding = threading.Event()
    committed: list[float] = []

    def other_officer_deletes() -> None:
        try:
            with transaction.atomic():
                lock_ratings()
                holding.set()
                time.sleep(1.5)  # the page's request is answered by now (it waited for the lock before)
                tournament_delete(
                    tournament=Tournament.objects.get(pk=tournament.pk), user=users["officer_lv"]
                )
            committed.append(time.monotonic())
        finally:
            connection.close()

    thread = threading.Thread(target=other_officer_deletes)
    thread.start()
    assert holding.wait(10)
    response = client.get(reverse(page, args=[tournament.pk]))
    answered = time.monotonic()
    thread.join()
    # Viewing takes no lock: the page is answered, as it stood, before the delete commits.
    assert response.status_code == 200
    assert committed and answered < committed[0]
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
