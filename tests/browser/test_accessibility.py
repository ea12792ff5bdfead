"""axe-core (vendored: static/vendor/axe-core, see static/vendor/VERSIONS.txt) on every page a visitor, a
rating officer, a league director, a captain and an admin sees, on the demo data (``seed_demo`` and
``seed_league_demo``), at 1366 and 390 px: no serious or critical violation. The violations found are printed
(rule, help, the elements), so a failure says what to fix.

axe is loaded from the live server's own static files (``add_script_tag(url=...)``): the pages' Content
Security Policy allows scripts from 'self' only, so an inline copy (``path=``) would be refused, as any other
inline script on these pages is."""

import datetime
import io
import pprint
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Count

from leagues.models import Division, Match, RankingList, Season, Team
from ratings.models import Club, FrozenList, Player, Tournament
from ratings.models.officer import TournamentMode
from ratings.services.frozen_lists import frozen_list_create
from tests.axe_support import serious_violations

TRF = Path(__file__).resolve().parent.parent / "data" / "trf" / "lichess-swiss-2020-06.trf"

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo():
    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_league_demo", stdout=io.StringIO())
    # A Stichtagsliste, frozen as an admin would (issue 30), for its public page.
    admin = get_user_model().objects.get(username="admin")
    frozen_list_create(user=admin, name="Rangliste 31.12.2024", stichtag=datetime.date(2024, 12, 31))


def _public_pages() -> list[str]:
    player = Player.objects.annotate(n=Count("evaluations")).order_by("-n", "key").first()
    assert player is not None
    swiss = Tournament.objects.annotate(n=Count("entries")).order_by("-n", "pk").first()
    assert swiss is not None
    club = Club.objects.order_by("zps").first()
    assert club is not None
    division = Division.objects.order_by("pk").first()
    assert division is not None
    season = Season.objects.order_by("pk").first()
    assert season is not None
    team = Team.objects.order_by("pk").first()
    assert team is not None
    return [
        "/",
        "/ranglisten/",
        "/spieler/",
        f"/spieler/{player.key}/",
        "/vereine/",
        f"/vereine/{club.zps}/",
        f"/verbaende/{club.organisation.code}/",
        f"/verbaende/{club.organisation.code}/vereinsvergleich/",
        "/turniere/",
        f"/turniere/{swiss.pk}/",
        f"/turniere/{swiss.pk}/?sort=rang",
        f"/turniere/{swiss.pk}/partien/",
        f"/turniere/{swiss.pk}/drucken/",
        f"/turniere/{swiss.pk}/drucken/kreuztabelle/",
        f"/turniere/{swiss.pk}/drucken/fortschritt/",
        "/suche/?q=M%C3%BCller",
        "/spielstaerke/",
        "/statistik/",
        "/rechner/",
        "/api/",
        "/anmelden/",
        "/passwort/vergessen/",
        "/passwort/vergessen/gesendet/",
        "/passwort/neu/fertig/",
        "/ligen/",
        f"/ligen/saison/{season.pk}/",
        *(f"/ligen/staffel/{d.pk}/" for d in Division.objects.order_by("pk")),
        f"/ligen/staffel/{division.pk}/runde/1/",
        f"/ligen/mannschaft/{team.pk}/",
        # As of a Stichtag, the frozen lists, following (issue 30).
        "/ranglisten/?stichtag=2024-12-31",
        f"/spieler/{player.key}/?stichtag=2024-12-31",
        "/ranglisten/stichtag/",
        f"/ranglisten/stichtag/{FrozenList.objects.get().pk}/",
        f"/spieler/{player.key}/folgen/",
        f"/vereine/{club.zps}/folgen/",
    ]


def _officer_pages() -> list[str]:
    """The Bezirk officer's pages; the draft tabs (Teilnehmer, Runden) of a Swiss tournament in his scope.
    The older "Ergebnisse" page is left out: it gives way to the draft tabs (issue 32)."""
    mine = Tournament.objects.filter(organiser_club__organisation__code="C05").exclude(
        entry_mode__mode=TournamentMode.ROUND_ROBIN
    )
    swiss = mine.annotate(n=Count("entries")).order_by("-n", "pk").first()
    assert swiss is not None
    pk = swiss.pk
    round_robin = (
        Tournament.objects.filter(
            organiser_club__organisation__code="C05", entry_mode__mode=TournamentMode.ROUND_ROBIN
        ).first()
        or Tournament.objects.filter(organiser_club__organisation__code="C05").exclude(pk=pk).first()
    )
    assert round_robin is not None
    return [
        "/referent/",
        "/referent/bericht/",
        "/referent/dubletten/",
        "/referent/zusammenfuehren/",
        "/referent/abgleich/",
        "/turniere/neu/",
        "/turniere/aus-datei/",
        "/turniere/anmelden/",
        f"/turniere/{pk}/bearbeiten/",
        f"/turniere/{pk}/teilnehmer/",
        f"/turniere/{pk}/runden/1/",
        f"/turniere/{pk}/loeschen/",
        f"/turniere/{pk}/dsb-export/",
        f"/turniere/{round_robin.pk}/kreuztabelle/",
        "/referent/stichtagslisten/",
        f"/ligen/rangliste/{RankingList.objects.order_by('pk').values_list('pk', flat=True)[0]}/",
        "/passwort/",
    ]


def _league_pages() -> list[str]:
    played = Match.objects.filter(status="played").order_by("-round", "pk").first()
    scheduled = Match.objects.filter(status="scheduled").order_by("pk").first()
    assert played is not None and scheduled is not None
    return [
        *(f"/ligen/staffel/{d.pk}/leitung/" for d in Division.objects.order_by("pk")),
        f"/ligen/kampf/{played.pk}/leitung/",
        f"/ligen/kampf/{scheduled.pk}/leitung/",
    ]


def _captain_pages() -> list[str]:
    mine = Match.objects.filter(status="scheduled", home__captain__username="mannschaftsfuehrer")
    mine = mine | Match.objects.filter(status="scheduled", away__captain__username="mannschaftsfuehrer")
    match = mine.order_by("pk").first()
    assert match is not None
    return ["/ligen/meine-kaempfe/", f"/ligen/kampf/{match.pk}/bericht/"]


def _admin_pages() -> list[str]:
    player = Player.objects.order_by("key").first()
    tournament = Tournament.objects.annotate(n=Count("entries")).order_by("n", "pk").first()
    assert player is not None and tournament is not None
    return [
        "/admin/",
        "/admin/ratings/player/",
        f"/admin/ratings/player/{player.pk}/change/",
        "/admin/ratings/player/dubletten/",
        "/admin/ratings/player/zusammenfuehren/",
        "/admin/ratings/tournament/",
        f"/admin/ratings/tournament/{tournament.pk}/change/",
        "/admin/ratings/listimport/",
        "/admin/ratings/listimport/add/",
        "/admin/ratings/listimport/add/?art=verbandsbaum",
        "/admin/ratings/organisation/",
        "/admin/ratings/auditevent/",
        "/admin/leagues/season/",
        f"/admin/leagues/division/{Division.objects.order_by('pk').first().pk}/change/",
    ]


def _axe(page, key, found):
    violations = serious_violations(page)
    if violations:
        found[key] = violations


def _check(page, url, found, status=200):
    response = page.goto(url)
    assert response is not None and response.status == status, (url, response and response.status)
    _axe(page, url, found)


def _check_trf_review(page, base, found):
    """The TRF import's review page (reached by uploading a file, as an officer does)."""
    page.goto(base + "/turniere/aus-datei/")
    page.get_by_label("TRF-Datei").set_input_files(str(TRF))
    page.get_by_role("button", name="Datei lesen").click()
    page.locator("#trf-read").wait_for()
    _axe(page, "TRF review " + page.url, found)


@pytest.mark.parametrize("width", [1366, 390])
def test_no_serious_or_critical_violations(live_server, page, demo, log_in, width):
    page.set_viewport_size({"width": width, "height": 900})
    audiences = [
        (None, _public_pages()),
        ("referent", _officer_pages()),
        ("staffelleiter", _league_pages()),
        ("mannschaftsfuehrer", _captain_pages()),
        ("admin", _admin_pages()),
    ]
    found: dict[str, list] = {}
    checked = 0
    for username, paths in audiences:
        page.context.clear_cookies()
        if username:
            log_in(page, username)
        for path in paths:
            _check(page, live_server.url + path, found)
            checked += 1
        if username == "referent":
            _check_trf_review(page, live_server.url, found)
            checked += 1
    _check(page, live_server.url + "/gibt-es-nicht/", found, status=404)
    checked += 1
    print(f"axe-core at {width} px: {checked} pages, {len(found)} with serious or critical violations")
    assert not found, pprint.pformat(found, width=110)
