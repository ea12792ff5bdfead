"""Every officer page fits the screen at 390 and 1366 px: nothing scrolls sideways, no table scrolls in its
frame, and every button and input is inside the window's width (reachable without zooming out)."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.enums import AdjustmentKind
from ratings.models import (
    Club,
    Game,
    Membership,
    Organisation,
    Player,
    RatingAdjustment,
    Tournament,
    TournamentEntry,
)
from ratings.models.officer import OfficerScope, TournamentMode
from ratings.services import adjustment_save, tournament_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MEASURE = """() => ({
  overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  outside: [...document.querySelectorAll(
    'main button, main a.btn, main input:not([type=hidden]), main select, main textarea')]
    .filter(e => {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || e.classList.contains('visually-hidden')) return false;
      if (e.closest('.table-responsive')) return false;  // scrolls inside its frame
      return r.right > window.innerWidth + 0.5 || r.left < -0.5;
    })
    .map(e => e.outerHTML.slice(0, 80)),
  // Tables scroll inside their frame only where they must (the round-robin grid of a big tournament).
  scrolling: [...document.querySelectorAll('main .table-responsive')]
    .filter(e => e.scrollWidth > e.clientWidth + 1 && !e.querySelector('.rr-grid'))
    .map(e => (e.querySelector('table') || {}).id),
})"""


@pytest.fixture
def site():
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    club = Club.objects.create(zps="C0503", name="SK Zuffenhausen 1921", organisation=bezirk)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=bezirk)
    players = []
    for n, (surname, first) in enumerate(
        [
            ("Krämer-Schmidt", "Tobias Maximilian"),
            ("Pfeiffer", "Sabine"),
            ("Günther", "Finn"),
            ("Haas", "Finn"),
        ],
        start=1,
    ):
        p = Player.objects.create(key=f"C0503-{n:04d}", surname=surname, first_name=first)
        Membership.objects.create(player=p, club=club, member_number=str(n))
        adjustment_save(
            adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=1800 - 50 * n, index=12)
        )
        players.append(p)
    swiss = Tournament(
        name="Offene Vereinsmeisterschaft im Schnellschach 2024 des SK Zuffenhausen 1921",
        start_date=datetime.date(2024, 10, 1),
        end_date=datetime.date(2024, 10, 29),
        rounds=3,
        organiser_club=club,
    )
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    games = [
        Game(round=1, board=1, white=players[0], black=players[3], result="1-0"),
        Game(round=1, board=2, white=players[1], black=players[2], result="1/2-1/2"),
    ]
    tournament_create(tournament=swiss, entries=entries, games=games, mode=TournamentMode.SWISS)
    return swiss


PAGES = [
    "/referent/",
    "/turniere/neu/",
    "/turniere/aus-datei/",
    "/turniere/{pk}/bearbeiten/",
    "/turniere/{pk}/teilnehmer/",
    "/turniere/{pk}/teilnehmer/?q=Neumann",  # the search's "nicht gefunden – neu anlegen" form, open
    "/turniere/{pk}/loeschen/",
    "/passwort/",
    "/turniere/{pk}/runden/1/",  # last: the test saves from it
]


def _check(page, problems, key):
    m = page.evaluate(MEASURE)
    if m["overflow"] > 0 or m["outside"] or m["scrolling"]:
        problems[key] = m


def test_officer_pages_fit(live_server, page, site, log_in):
    log_in(page, "referent")
    problems = {}
    # Each page is loaded once and measured at both widths: the layout is CSS alone (no script sizes
    # anything on these pages), so a resized window lays it out as a page loaded at that width would.
    for path in PAGES:
        page.set_viewport_size({"width": 1366, "height": 900})
        page.goto(live_server.url + path.format(pk=site.pk))
        _check(page, problems, (1366, path))
        if "?q=" in path:
            expect(page.locator("#new-player")).to_be_visible()
        page.set_viewport_size({"width": 390, "height": 900})
        _check(page, problems, (390, path))
    # The report after a save from the round page, too (saved at 390 px, then seen at 1366 px as well).
    page.get_by_role("button", name="Speichern und auswerten").click()
    expect(page.locator("#recalculation-report")).to_be_visible()
    _check(page, problems, (390, "report"))
    page.set_viewport_size({"width": 1366, "height": 900})
    _check(page, problems, (1366, "report"))
    assert problems == {}
