"""Security headers in a real browser: the Content-Security-Policy blocks nothing the site itself does
(public pages, the officer's htmx pages, the admin), and a locked-out login shows its message."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.enums import ResultCode
from ratings.models import Game, Tournament, TournamentEntry
from ratings.models.officer import OfficerScope, TournamentMode
from ratings.services import tournament_create
from tests.builders import make_player
from tests.factories import ClubFactory, OrganisationFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Every violation, also one the console would not show (e.g. in a frame); read after each page.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.fixture
def site(db):
    land = OrganisationFactory(code="C00", name="Württembergischer Schachbund", parent=None)
    bezirk = OrganisationFactory(code="C05", name="Bezirk Stuttgart", parent=land)
    club = ClubFactory(zps="C0501", name="SF Stuttgart", organisation=bezirk)
    players = [
        make_player(surname=name, first_name="Test", dwz=dwz, index=10, club=club)
        for name, dwz in [("Müller", 1850), ("Anton", 1700), ("Berta", 1600), ("Carl", 1500)]
    ]
    tournament = Tournament(
        name="Vereinsmeisterschaft",
        start_date=datetime.date(2024, 3, 1),
        end_date=datetime.date(2024, 3, 10),
        rounds=3,
        organiser_club=club,
    )
    a, b, c = players[:3]
    games = [
        Game(round=1, board=1, white=a, black=b, result=ResultCode.WHITE_WINS),
        Game(round=2, board=1, white=b, black=c, result=ResultCode.DRAW),
        Game(round=3, board=1, white=c, black=a, result=ResultCode.BLACK_WINS),
    ]
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate((a, b, c), start=1)]
    tournament_create(tournament=tournament, entries=entries, games=games, mode=TournamentMode.ROUND_ROBIN)
    officer = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=officer, organisation=bezirk)
    get_user_model().objects.create_superuser(username="admin", password="demo-admin", email="a@example.org")
    return {"player": players[0], "tournament": tournament}


@pytest.fixture
def watched(page):
    """The page, and a list that collects CSP violations and console errors."""
    problems = []
    page.add_init_script(RECORD_VIOLATIONS)
    page.on("console", lambda msg: msg.type in ("error", "warning") and problems.append(msg.text))
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    return page, problems


def visit(page, url):
    response = page.goto(url)
    assert response.status == 200, url
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert "camera=()" in response.headers["permissions-policy"]
    page.wait_for_load_state("load")


def violations(page):
    return page.evaluate("window.cspViolations")


def test_public_pages_run_under_the_policy(live_server, watched, site):
    page, problems = watched
    base = live_server.url
    card = f"/spieler/{site['player'].key}/"
    for path in [
        "/",
        "/ranglisten/",
        card,
        f"/turniere/{site['tournament'].pk}/",
        "/vereine/C0501/",
        "/verbaende/C05/",
        "/spielstaerke/",
        "/suche/?q=M%C3%BCl",
    ]:
        visit(page, base + path)
        if path == card:  # the card draws its chart (Chart.js)
            expect(page.locator("canvas")).to_be_visible()
        if path == "/ranglisten/":  # the rating list sorts through htmx
            page.locator("#rating-table th a", has_text="Name").click()
            expect(page).to_have_url(re.compile("sort=name"))
        assert violations(page) == [], path

    # The calculator answers through htmx.
    visit(page, base + "/rechner/")
    page.get_by_label("Ihre DWZ").fill("1850")
    page.get_by_label("Index").fill("3")
    page.get_by_label("Geburtsjahr").fill("1980")
    page.get_by_label("Turnierende").fill("2019-05-12")
    page.locator("#id_opp-0-rating").fill("1700")
    page.locator("#id_opp-0-result").select_option("1")
    expect(page.locator("#calc-points")).to_have_text("1 / 1")
    assert violations(page) == []
    assert problems == []


def test_officer_htmx_pages_run_under_the_policy(live_server, watched, site, log_in):
    page, problems = watched
    base = live_server.url
    log_in(page, "referent")
    visit(page, base + "/referent/")
    tournament = site["tournament"]
    visit(page, base + f"/turniere/{tournament.pk}/teilnehmer/")
    # htmx: the participants' search suggests, and a changed result in the grid updates the live preview.
    page.locator("#participant-search").fill("Carl")
    expect(page.locator("#participant-search-area li", has_text="Carl")).to_be_visible()
    visit(page, base + f"/turniere/{tournament.pk}/kreuztabelle/")
    preview = page.locator("#rating-preview")
    before = preview.inner_text()
    cells = page.locator("#rr-grid .rr-cell")
    cells.first.click()
    page.keyboard.press("0")
    expect(preview).not_to_have_text(before)
    visit(page, base + f"/turniere/{tournament.pk}/bearbeiten/")
    assert violations(page) == []
    assert problems == []


def test_admin_runs_under_the_policy(live_server, watched, site, log_in):
    page, problems = watched
    base = live_server.url
    log_in(page, "admin")
    player = site["player"]
    change = f"/admin/ratings/player/{player.pk}/change/"
    for path in [
        "/admin/",
        "/admin/ratings/player/",
        "/admin/ratings/player/?q=M%C3%BCller",
        change,
        "/admin/ratings/player/add/",
        "/admin/ratings/tournament/",
        f"/admin/ratings/tournament/{site['tournament'].pk}/change/",
        "/admin/auth/user/",
    ]:
        visit(page, base + path)
        if path == change:  # the admin's own scripts work: an inline row can be added on the player form
            rows = page.locator(".dynamic-memberships")
            count = rows.count()
            page.locator(".add-row a").first.click()
            expect(rows).to_have_count(count + 1)
        assert violations(page) == [], path
    assert problems == []


def test_wrong_passwords_lock_the_login_with_a_message(live_server, page, site, settings):
    """AXES_FAILURE_LIMIT wrong passwords, each typed into the form the last answer showed again, lock the
    login (at 1366 px); the right one then shows the same message (390 px)."""

    def attempt(width, password):
        page.set_viewport_size({"width": width, "height": 900})
        page.get_by_label("Benutzername").fill("referent")
        page.get_by_label("Passwort").fill(password)
        with page.expect_navigation():
            page.get_by_role("button", name="Anmelden").click()

    message = page.locator("#login-locked")
    page.goto(live_server.url + "/anmelden/")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt(1366, "falsch")
        expect(message).to_have_count(0)
    attempt(1366, "falsch")
    expect(message).to_be_visible()
    expect(message).to_contain_text("Zu viele fehlgeschlagene Anmeldeversuche")
    expect(message).to_contain_text("15 Minuten gesperrt")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    page.goto(live_server.url + "/anmelden/")  # the locked answer shows no form: a fresh one
    attempt(390, "demo-referent")  # still locked with the right password
    expect(message).to_be_visible()
    expect(message).to_contain_text("15 Minuten gesperrt")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
