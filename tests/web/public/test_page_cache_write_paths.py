"""Issue 31 §1: every write path changes what a cached public page shows. The write-paths state machine of
issue 26 (``tests/services/test_write_paths_state_machine.py``) drives it: tournaments created, corrected,
moved, deleted and restored, birth years, merges, adjustments, memberships, DSB list imports in random
order. After every step each watched page is asked for twice, as an anonymous visitor through the page
cache and rendered afresh with the cache off, and the two must be the same page. A write that forgot to
bump the generation leaves the cached copy of the step before: the comparison fails.

The cache is warmed by the comparison itself, so each step's pages are in the cache when the next write
comes."""

from __future__ import annotations

import difflib
import itertools
import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from hypothesis.stateful import invariant, run_state_machine_as_test

from dwzsite.page_cache import local_pages
from ratings import generation
from tests.services.test_write_paths_state_machine import (
    WritePaths,
    WritePathsInTheBackground,
    _settings,
)

pytestmark = pytest.mark.django_db

PAGES = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "page-cache-write-paths"}


# A page rendered with the cache off hands out a CSRF token (the language form); the shared copy holds none.
_TOKEN = re.compile(
    rb""" hx-headers='\{"x-csrftoken": "[^"]*"\}'"""
    rb"""|<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">"""
)


def _answer(client: Client, url: str) -> tuple[int, str, bytes]:
    response = client.get(url)
    return response.status_code, response.get("Location", ""), _TOKEN.sub(b"", response.content)


def _diff(cached: tuple[int, str, bytes], fresh: tuple[int, str, bytes]) -> str:
    lines = difflib.unified_diff(
        cached[2].decode().splitlines(), fresh[2].decode().splitlines(), "cached", "fresh", lineterm="", n=1
    )
    return f"{cached[:2]} / {fresh[:2]}\n" + "\n".join(itertools.islice(lines, 40))


class _CachedPages:
    """The invariant, mixed into both machines (inline and background chains)."""

    def __init__(self):
        # Each example rolls its writes back, the generation's bumps with them: the next example counts
        # the same generations again over other rows, which production never does. Start it empty.
        caches["pages"].clear()
        local_pages.clear()
        super().__init__()

    def _watched(self) -> list[str]:
        urls = [reverse("ratings:rating-list"), reverse("ratings:club-detail", args=[self.club.zps])]
        for player in self.players:  # a merged-away key answers with its redirect: compared as well
            urls += [
                reverse("ratings:player-detail", args=[player.key]),
                reverse("ratings:api-player", args=[player.key]),
            ]
        for pk in self.tournaments:  # a deleted one answers 404, from the cache too if nobody bumped
            urls.append(reverse("ratings:tournament-detail", args=[pk]))
        return urls

    @invariant()
    def cached_pages_show_what_a_fresh_render_shows(self):
        if not hasattr(self, "players"):
            return  # before ``federation``
        anonymous = Client()
        for url in self._watched():
            with override_settings(PAGE_CACHE=True):
                cached = _answer(anonymous, url)
            with override_settings(PAGE_CACHE=False):
                fresh = _answer(anonymous, url)
            assert cached == fresh, f"{url} is served stale from the page cache:\n{_diff(cached, fresh)}"
        # In production each step is a request of its own, in a transaction of its own; here one test
        # transaction holds them all, and a bump counts once per transaction (``generation._already``).
        # The pages were read between two steps: the next step's write is a new transaction's, which
        # takes the rating lock afresh (and bumps with it: ``lock_ratings``) and bumps once more.
        if hasattr(connection, generation._MARKS):
            delattr(connection, generation._MARKS)
        connection.rating_lock_hooks = None

    def stored_equals_a_full_replay(self):
        """Not checked here (the issue 26 machine does): this machine watches the pages."""


class CachedPagesFollowEveryWrite(_CachedPages, WritePaths):
    pass


class CachedPagesFollowEveryBackgroundChain(_CachedPages, WritePathsInTheBackground):
    def _check_replay(self):
        """The background machine's teardown checks the replay; the pages are this machine's subject."""


@pytest.fixture(autouse=True)
def page_cache(settings):
    settings.CACHES = {**settings.CACHES, "pages": PAGES}
    # Every step asks for each watched API answer twice: a long run passed the API's limit per address, and
    # the fresh answer was a 429 beside the cached 200. The limit is not this test's subject.
    settings.API_LIMIT = 0
    caches["pages"].clear()
    yield
    caches["pages"].clear()


def test_every_write_path_changes_the_cached_pages():
    run_state_machine_as_test(CachedPagesFollowEveryWrite, settings=_settings())


def test_every_background_chain_changes_the_cached_pages():
    run_state_machine_as_test(CachedPagesFollowEveryBackgroundChain, settings=_settings())


def test_the_invariant_catches_a_write_that_forgets_to_bump():
    """The comparison is not vacuous: a change behind the generation's back is caught."""
    machine = CachedPagesFollowEveryWrite()
    try:
        machine.federation(seed=1)
        machine.cached_pages_show_what_a_fresh_render_shows()  # warms the cache
        player = machine.players[0]
        type(player).objects.filter(pk=player.pk).update(surname="Unbemerkt")  # no signal, no bump
        with pytest.raises(AssertionError, match="stale"):
            machine.cached_pages_show_what_a_fresh_render_shows()
    finally:
        machine.teardown()
