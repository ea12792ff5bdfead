"""The page cache (issue 31, ``dwzsite.page_cache``): a public page cached for an anonymous visitor shows the
new value after every write path (the services, the admin's model saves, the imports, a league approval),
and only then (written and read in transactions of their own, as in production); logged-in users are never
served from it; ETag/304; the key varies with language and query.

Each test first proves the page is served from the cache (a row changed behind the services' back with
``QuerySet.update()`` does not show), then runs the write and expects the new value."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from ratings.enums import AdjustmentKind, ResultCode
from ratings.formats.dsb_list import read_list_bytes
from ratings.generation import current_generation
from ratings.models import Club, Player, RatingAdjustment, Tournament
from ratings.services import adjustment_save
from ratings.services.dsb_list import dsb_list_import
from ratings.services.merge import players_merge
from ratings.services.players import player_save
from ratings.services.privacy import player_publication_set
from ratings.services.tournaments import tournament_delete, tournament_save_head
from tests.builders import make_player, make_tournament, make_user
from tests.dsb_lists import generate

# Each write commits, and the pages are read after it as another request would: a test's own transaction
# would hold every write of the test in one transaction (one bump each, ``ratings.generation``).
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def page_cache(settings):
    settings.PAGE_CACHE = True
    settings.CACHES = {
        **settings.CACHES,
        "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "page-cache-tests"},
    }
    from django.core.cache import caches

    caches["pages"].clear()
    yield
    caches["pages"].clear()


def _card(player) -> str:
    return reverse("ratings:player-detail", args=[player.key])


def _text(client, url, **headers) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return response.content.decode()


def _cached(client, url, *, behind_the_back, hidden: str) -> None:
    """``url`` is served from the cache: a change written without the services does not show."""
    _text(client, url)
    behind_the_back()
    assert hidden not in _text(client, url)


def test_a_player_save_shows_on_the_card_the_club_page_and_the_api(client, e2):
    player = e2["player"]
    club = e2["player"].memberships.first().club
    pages = [_card(player), reverse("ratings:club-detail", args=[club.zps]), f"/api/players/{player.key}"]
    for url in pages:
        _text(client, url)
    Player.objects.filter(pk=player.pk).update(surname="Hinterrücks")
    for url in pages:
        assert "Hinterrücks" not in _text(client, url), url
    player.refresh_from_db()
    player.surname = "Neumann"
    player_save(player=player)
    for url in pages:
        assert "Neumann" in _text(client, url), url


def test_an_adjustment_shows_on_the_card_and_the_api(client, e2):
    player = e2["player"]
    url = f"/api/players/{player.key}"
    before = client.get(url).json()
    Player.objects.filter(pk=player.pk).update(surname="Hinterrücks")
    assert client.get(url).json() == before
    adjustment_save(
        adjustment=RatingAdjustment(
            player=player, kind=AdjustmentKind.CORRECTION, dwz=1234, index=9, date=datetime.date(2024, 1, 1)
        )
    )
    assert "1234" in _text(client, url)
    assert "1234" in _text(client, _card(player))


def test_a_new_and_a_renamed_and_a_deleted_tournament_show(client, e2):
    player, tournament = e2["player"], e2["tournament"]
    lists = [_card(player), reverse("ratings:tournament-list")]
    detail = reverse("ratings:tournament-detail", args=[tournament.pk])
    for url in [*lists, detail]:
        _text(client, url)
    opponent = e2["opponents"][0]
    new = make_tournament(
        [player, opponent],
        [(1, player, opponent, ResultCode.WHITE_WINS)],
        end=datetime.date(2020, 3, 1),
        name="Frühjahrsblitz",
    )
    for url in lists:
        assert "Frühjahrsblitz" in _text(client, url), url
    _cached(
        client,
        detail,
        behind_the_back=lambda: Tournament.objects.filter(pk=tournament.pk).update(name="Hinterrücks"),
        hidden="Hinterrücks",
    )
    tournament.refresh_from_db()
    tournament.name = "Maiturnier Neu"
    tournament_save_head(tournament=tournament)
    assert "Maiturnier Neu" in _text(client, detail)
    tournament_delete(tournament=new)
    for url in lists:
        assert "Frühjahrsblitz" not in _text(client, url), url


def test_a_merge_shows_on_the_kept_card(client, e2, federation):
    keep = e2["player"]
    drop = make_player(surname="Müller", first_name="Hans", birth_year=1980)
    other = make_player(surname="Zweitgegner", first_name="Y", dwz=1700, index=10)
    make_tournament(
        [drop, other], [(1, drop, other, ResultCode.DRAW)], end=datetime.date(2021, 6, 1), name="Sommerremis"
    )
    url = _card(keep)
    _cached(
        client,
        url,
        behind_the_back=lambda: Player.objects.filter(pk=keep.pk).update(surname="X"),
        hidden=">X<",
    )
    players_merge(keep=keep, drop=drop)
    assert "Sommerremis" in _text(client, url)


def test_an_admin_save_of_a_club_shows(client, e2):
    club = e2["player"].memberships.first().club
    url = reverse("ratings:club-list")
    _cached(
        client,
        url,
        behind_the_back=lambda: Club.objects.filter(pk=club.pk).update(name="Hinterrücks"),
        hidden="Hinterrücks",
    )
    club.refresh_from_db()
    club.name = "SF Stuttgart Neu"
    club.save()  # what the admin does
    assert "SF Stuttgart Neu" in _text(client, url)


def test_a_dsb_list_import_shows(client, db):
    generated = generate(60)
    url = reverse("ratings:club-list")
    assert generated.clubs[0].name not in _text(client, url)
    dsb_list_import(
        dsb_list=read_list_bytes(generated.zip_bytes(), "LV-0-csv.zip"), as_of=datetime.date(2026, 3, 1)
    )
    assert generated.clubs[0].name in _text(client, url)


def test_a_league_approval_and_report_show(client):
    from leagues.services.matches import BoardReport, match_approve, match_report_save
    from tests.leagues.league_data import small_league

    league = small_league(boards=2)
    match = league["match1"]
    url = reverse("leagues:division-round", args=[league["division"].pk, 1])
    first = _text(client, url)
    home, away = league["players"]
    boards = [BoardReport(n, home[n - 1].pk, away[n - 1].pk, "1-0") for n in (1, 2)]
    match_report_save(match=match, boards=boards, user=league["captain1"])
    reported = _text(client, url)
    assert reported != first and "2:0" in reported.replace("2 : 0", "2:0").replace("2–0", "2:0")
    # The approval puts the games into the division's DWZ tournament: what the page shows is rendered anew.
    from leagues.models import Team

    team = league["teams"][0]
    _cached(
        client,
        url,
        behind_the_back=lambda: Team.objects.filter(pk=team.pk).update(name="Hinterrücks 1"),
        hidden="Hinterrücks 1",
    )
    match_approve(match=match, user=league["director"])
    assert "Hinterrücks 1" in _text(client, url)


def test_logged_in_users_get_uncached_pages(client, e2):
    client.force_login(make_user("referent", staff=True))
    player = e2["player"]
    response = client.get(_card(player))
    assert "ETag" not in response
    Player.objects.filter(pk=player.pk).update(surname="Hinterrücks")
    assert "Hinterrücks" in _text(client, _card(player))


def test_etag_answers_304_until_the_generation_changes(client, e2):
    player = e2["player"]
    url = _card(player)
    response = client.get(url)
    etag = response["ETag"]
    assert response["Cache-Control"] == "public, max-age=60, stale-while-revalidate=300"
    assert "Accept-Language" in response["Vary"] and "Cookie" in response["Vary"]
    assert response["Last-Modified"]
    again = client.get(url, headers={"if-none-match": etag})
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    # Whole seconds cannot tell two generations of one second apart: only the ETag answers 304.
    assert client.get(url, headers={"if-modified-since": response["Last-Modified"]}).status_code == 200
    generation = current_generation()[0]
    adjustment_save(
        adjustment=RatingAdjustment(
            player=player, kind=AdjustmentKind.CORRECTION, dwz=1234, index=9, date=datetime.date(2024, 1, 1)
        )
    )
    assert current_generation()[0] != generation
    fresh = client.get(url, headers={"if-none-match": etag})
    assert fresh.status_code == 200 and fresh["ETag"] != etag


def test_the_key_varies_with_language_and_query_string(client, e2):
    url = reverse("ratings:rating-list")
    german = client.get(url, headers={"accept-language": "de"})
    english = client.get(url, headers={"accept-language": "en"})
    assert german["ETag"] != english["ETag"]
    assert german.content != english.content
    assert english.content == client.get(url, headers={"accept-language": "en"}).content
    sorted_page = client.get(url + "?sort=-dwz")
    assert sorted_page["ETag"] != client.get(url + "?sort=name")["ETag"]


def test_a_rolled_back_write_does_not_count(e2):
    from django.db import transaction

    generation = current_generation()[0]
    with pytest.raises(RuntimeError), transaction.atomic():
        Player.objects.filter(pk=e2["player"].pk).first().save()
        assert current_generation()[0] != generation
        raise RuntimeError
    assert current_generation()[0] == generation


def test_the_rating_lock_bumps_in_the_writers_transaction(db):
    """Every locked write (recalculation, imports, merges, league approvals) counts, even one through
    ``QuerySet.update()`` or ``bulk_*`` that sends no model signal; once per transaction."""
    from django.db import transaction

    from ratings.recalculation import lock_ratings

    first = current_generation()[0]
    with transaction.atomic():
        lock_ratings()
        second = current_generation()[0]
        lock_ratings()
        Player.objects.create(key="X1", surname="Neu", first_name="N")  # the same transaction: no second bump
        assert current_generation()[0] == second
    assert first != second == current_generation()[0]
    with transaction.atomic():  # the next transaction counts again
        lock_ratings()
    assert current_generation()[0] != second


def test_the_page_cache_runs_on_redis(settings):
    """The backend ``CACHE_URL=redis://…`` selects (docs/operations.md); skipped where no Redis answers."""
    import os

    from django.core.cache.backends.redis import RedisCache

    from dwzsite.settings import page_cache

    url = "redis://127.0.0.1:6379/15"
    os.environ["CACHE_URL"] = url
    try:
        config = page_cache()
    finally:
        del os.environ["CACHE_URL"]
    assert config["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    cache = RedisCache(url, {})
    try:
        cache.set("page-cache-test", (b"x", []))
    except Exception:  # no server here
        pytest.skip("no Redis on 127.0.0.1:6379")
    assert cache.get("page-cache-test") == (b"x", [])
    cache.delete("page-cache-test")


def test_a_shared_page_holds_no_csrf_token_and_the_language_switch_still_works(e2):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.get(_card(e2["player"]))
    assert b"csrfmiddlewaretoken" not in response.content and b"x-csrftoken" not in response.content
    assert "csrftoken" not in response.cookies
    switched = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert switched.status_code == 302
    assert "Rating list" in _text(client, "/") or "DWZ for clubs" in _text(client, "/")


def test_the_calculator_form_with_its_token_is_not_shared(client):
    url = reverse("ratings:calculator")
    first = client.get(url)
    assert b"csrfmiddlewaretoken" in first.content and "ETag" not in first


def test_an_objection_to_publication_empties_the_cached_pages(client, e2):
    """The objection is written with an update (no model signal): the service bumps the generation, or his
    name would be served from the cache for an hour (issue 30 §4)."""
    player = e2["player"]
    club = player.memberships.first().club
    admin = make_user("admin-privacy", staff=True)
    pages = [reverse("ratings:club-detail", args=[club.zps]), f"/api/players/{player.key}"]
    for url in pages:
        assert player.surname in _text(client, url), url
    player_publication_set(player=player, objection=True, user=admin)
    for url in pages:
        assert player.surname not in _text(client, url), url


def test_a_worker_serves_its_own_copy_and_never_an_old_generation(
    client, e2, settings, django_assert_num_queries
):
    """The worker's own copies (``local_pages``) answer without the shared cache; a write's new generation
    is a new key there too, and a copy bigger than an eighth of the limit is not kept."""
    from django.core.cache import caches

    from dwzsite.page_cache import local_pages

    player = e2["player"]
    url = _card(player)
    _text(client, url)
    caches["pages"].clear()  # only the worker's copy is left
    Player.objects.filter(pk=player.pk).update(surname="Hinterrücks")
    with django_assert_num_queries(1):  # the generation; no page rendered, no shared cache read
        assert "Hinterrücks" not in _text(client, url)
    player.refresh_from_db()
    player.surname = "Neumann"
    player_save(player=player)
    assert "Neumann" in _text(client, url)
    settings.PAGE_CACHE_LOCAL_BYTES = 8 * 1024  # the card is bigger than 1 kB
    local_pages.clear()
    _text(client, url)
    caches["pages"].clear()
    Player.objects.filter(pk=player.pk).update(surname="Zuletzt")
    assert "Zuletzt" in _text(client, url)


def test_the_worker_copies_drop_the_least_recently_used(settings):
    from dwzsite.page_cache import _LocalPages

    settings.PAGE_CACHE_LOCAL_BYTES = 800
    pages = _LocalPages()
    for key in "abcd":
        pages.set(key, (b"x" * 100, []))
    pages.get("a")  # used again: kept
    for key in "efghi":  # nine pages of 100 bytes: one must go
        pages.set(key, (b"x" * 100, []))
    assert pages.get("b") is None and pages.get("a") is not None and pages.get("i") is not None
    pages.set("big", (b"x" * 101, []))  # more than an eighth of the limit
    assert pages.get("big") is None
