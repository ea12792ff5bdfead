"""Issue 9 §2: officers saving one tournament at the same time, through the pages, in real threads.

Each officer loads the page (its version), changes results or the end date and saves; an outdated save is
refused (409) and he loads the page again. Afterwards: every successful save started from a different
version (no lost update), the stored tournament equals the last save (a serial replay of the saves in
version order), the ratings equal a full replay, and the audit trail has one row per save by the right
officer whose diff is exactly the change from the previous version. ``DWZ_CONCURRENT_SAVES`` (default 10)
sets the size of the ten-officer run; the issue's figures come from ``DWZ_CONCURRENT_SAVES=100``.
"""

import datetime
import json
import os
import random
import re
import threading
import time

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from ratings.models import Game, Tournament
from ratings.models.audit import AuditEvent, AuditObjectType
from ratings.recalculation import ratings_verify
from ratings.services.audit import snapshot_diff
from tests.builders import grid_data, head_data, make_user

pytestmark = [
    pytest.mark.skipif(
        connection.vendor == "sqlite",
        reason="the test database is SQLite's shared-cache memory database: it refuses at once, never waits",
    ),
    pytest.mark.django_db(transaction=True),
]

CELLS = ("1", "0", "½")
VERSION = re.compile(r'name="version" value="(\d+)"')
END_DATES = ("2024-03-10", "2024-03-11", "2024-03-12", "2024-03-13")


def _run(officers, players, tournament, tree, *, saves: int, seed: int) -> dict:
    results_url = reverse("ratings:tournament-grid", args=[tournament.pk])
    head_url = reverse("ratings:tournament-edit", args=[tournament.pk])
    lock = threading.Lock()
    done: list[dict] = []  # successful saves: user, version posted, what was posted
    figures = {"saves": 0, "conflicts": 0, "errors": 0, "attempts": 0}
    start = threading.Barrier(len(officers))

    def officer(user, rng: random.Random):
        client = Client()
        client.force_login(user)
        start.wait()
        try:
            while True:
                with lock:
                    if figures["saves"] + figures["errors"] >= saves:
                        return
                head = rng.random() < 0.3
                page = client.get(head_url if head else results_url)
                version = VERSION.search(page.content.decode()).group(1)
                if head:
                    posted = {"end_date": rng.choice(END_DATES)}
                    response = client.post(head_url, head_data(tree, version=version, **posted))
                else:
                    cells = {pair: rng.choice(CELLS) for pair in ((0, 1), (0, 2), (1, 2))}
                    posted = {"cells": cells}
                    response = client.post(results_url, grid_data(players, cells, save="1", version=version))
                with lock:
                    figures["attempts"] += 1
                    if response.status_code == 302:
                        figures["saves"] += 1
                        done.append({"user": user.pk, "version": int(version), **posted})
                    elif response.status_code == 409:
                        figures["conflicts"] += 1
                    else:
                        figures["errors"] += 1
        finally:
            connection.close()

    rng = random.Random(seed)
    threads = [threading.Thread(target=officer, args=(u, random.Random(rng.random()))) for u in officers]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return {"figures": figures, "done": done}


def _check(run, players, tournament) -> int:
    """The end state and the audit trail against the successful saves in version order; returns the
    number of audit rows checked."""
    figures, done = run["figures"], run["done"]
    assert figures["errors"] == 0
    versions = [d["version"] for d in done]
    assert sorted(versions) == list(range(1, len(done) + 1)), "two saves started from one version"
    serial = sorted(done, key=lambda d: d["version"])
    t = Tournament.objects.get(pk=tournament.pk)
    assert t.version == len(done) + 1
    last_head = next((d for d in reversed(serial) if "end_date" in d), None)
    want_end = datetime.date.fromisoformat(last_head["end_date"]) if last_head else datetime.date(2024, 3, 10)
    assert t.end_date == want_end
    last_results = next((d for d in reversed(serial) if "cells" in d), None)
    if last_results:
        stored = {
            frozenset((w, b)): r
            for w, b, r in Game.objects.filter(tournament=t).values_list("white_id", "black_id", "result")
        }
        assert len(stored) == 3
        score = {"1": "1-0", "0": "0-1", "½": "1/2-1/2"}
        for (i, j), cell in last_results["cells"].items():
            w, b = players[i].pk, players[j].pk
            result = stored[frozenset((w, b))]
            white = Game.objects.get(tournament=t, white_id__in=(w, b), black_id__in=(w, b)).white_id
            want = score[cell] if white == w else {"1-0": "0-1", "0-1": "1-0"}.get(score[cell], score[cell])
            assert result == want
    assert ratings_verify() == []
    events = list(
        AuditEvent.objects.filter(object_type=AuditObjectType.TOURNAMENT, tournament_ref=t.pk).order_by("pk")
    )
    assert [e.snapshot["version"] for e in events] == list(range(2, len(done) + 2))
    previous = None
    for event, save in zip(events, serial, strict=True):
        assert event.user_id == save["user"]
        if previous is not None:
            assert event.changes == snapshot_diff(before=previous.snapshot, after=event.snapshot)
        if "end_date" in save:
            assert event.snapshot["head"]["end_date"] == save["end_date"]
        previous = event
    return len(events)


def _officers(tree, n):
    return [make_user(f"officer_{i}", club=tree["club_a"]) for i in range(n)]


def test_two_officers(tree, tournament, players):
    run = _run(_officers(tree, 2), players, tournament, tree, saves=6, seed=2)
    _check(run, players, tournament)


def test_ten_officers(tree, tournament, players):
    saves = int(os.environ.get("DWZ_CONCURRENT_SAVES", "10"))
    run = _run(_officers(tree, 10), players, tournament, tree, saves=saves, seed=10)
    checked = _check(run, players, tournament)
    print(
        json.dumps(
            {"bench": "concurrent_officers", "officers": 10, **run["figures"], "audit_checked": checked}
        )
    )
