"""Tables that do not fit (issue 32): on a phone the Karteikarte and a tournament's Auswertung keep the name
and the values a player opens them for (DWZ neu, ±) in sight while the rest scrolls between them, with a hint
that it scrolls; a box that scrolls but holds nothing focusable is a named region the keyboard can scroll; at
1366 px the round-robin grid keeps the page's width and the preview goes under it (docs/officers.md)."""

import contextlib
import datetime
import itertools

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from ratings.enums import AdjustmentKind, ResultCode
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
from tests.builders import collect_errors, make_player, make_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Where the name and the last two columns (DWZ neu, ±) of every row are, against the table's box.
MEASURE = """([selector, at]) => {
  const table = document.querySelector(selector);
  const box = table.closest('.table-responsive');
  const max = box.scrollWidth - box.clientWidth;
  box.scrollLeft = {start: 0, middle: Math.round(max / 2), end: max}[at];
  box.dispatchEvent(new Event('scroll'));
  const frame = box.getBoundingClientRect();
  const problems = [];
  for (const row of table.rows) {
    const cells = [...row.cells].filter((c) => c.offsetWidth > 0);
    const key = cells.slice(-2).map((c) => c.getBoundingClientRect());
    const name = row.querySelector('td.name, th.col-name').getBoundingClientRect();
    const text = row.textContent.trim().slice(0, 30);
    const outside = (r) => r.left < frame.left - 0.5 || r.right > frame.right + 0.5;
    if (key.some(outside)) problems.push(['key cut', text]);
    if (name.left < frame.left - 0.5) problems.push(['name cut', text]);
    if (name.right > key[0].left + 0.5) problems.push(['name under key', text]);
  }
  return {scrolls: max > 0, problems};
}"""

HINT = """(selector) => {
  const table = document.querySelector(selector);
  const box = table.closest('.table-responsive');
  const opacity = (cell, pseudo) => getComputedStyle(cell, pseudo).opacity;
  return {
    at: box.dataset.scrollX || null,
    before_key: opacity(table.querySelector('thead th:nth-last-child(2)'), '::before'),
    after_name: opacity(table.querySelector('thead th.col-name'), '::after'),
  };
}"""

LONG_NAME = "Bezirkseinzelmeisterschaft 2025 des Bezirks Stuttgart-Unterland"


@pytest.fixture
def card(data):
    """Hans (data fixture) with a third tournament, its name one long word first."""
    hans = data["hans"]
    opponents = [
        make_player(surname=f"Lang{i}", first_name="Y", dwz=1700 + 40 * i, index=9) for i in range(4)
    ]
    games = [(i, hans, o, ResultCode.DRAW) for i, o in enumerate(opponents, start=1)]
    make_tournament([hans, *opponents], games, end=datetime.date(2021, 3, 7), name=LONG_NAME)
    return hans


def _settled_hint(page, selector, expected):
    """The shadows' opacities once their fade (a CSS transition) has ended: waited for, not slept for, since a
    loaded machine draws the transition's frames late."""
    wanted = "(arg) => { const h = (%s)(arg[0]); return h.before_key === arg[1] && h.after_name === arg[2]; }"
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(wanted % HINT, arg=[selector, *expected], timeout=3000)
    hint = page.evaluate(HINT, selector)
    return hint["before_key"], hint["after_name"]


def _visit(page, url, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)


def test_card_keeps_name_and_new_rating_in_sight_on_a_phone(live_server, page, card):
    errors = collect_errors(page)
    _visit(page, live_server.url + f"/spieler/{card.key}/", 390)
    head = page.locator("#history-table thead")
    # The running number, E/K and the opponents' level give way on the phone; Pkt., Par., We, Lstg. stay.
    for label in ("Nr.", "E/K", "Gegn."):
        assert head.get_by_text(label, exact=True).evaluate("e => e.closest('th').offsetWidth") == 0, label
    for label in ("Pkt.", "Par.", "We", "Lstg.", "DWZ neu", "±"):
        assert head.get_by_text(label, exact=True).evaluate("e => e.closest('th').offsetWidth") > 0, label
    for at in ("start", "middle", "end"):
        m = page.evaluate(MEASURE, ["#history-table", at])
        assert m["scrolls"], "the card scrolls sideways on a phone"
        assert m["problems"] == [], (at, m["problems"])
    # The hint: at the start, a shadow left of DWZ neu (more columns beneath); scrolled to the end, one right
    # of the tournament's name.
    page.evaluate(MEASURE, ["#history-table", "start"])
    expect(page.locator("#history-table").locator("xpath=..")).to_have_attribute("data-scroll-x", "start")
    assert _settled_hint(page, "#history-table", ("1", "0")) == ("1", "0")
    page.evaluate(MEASURE, ["#history-table", "end"])
    expect(page.locator("#history-table").locator("xpath=..")).to_have_attribute("data-scroll-x", "end")
    assert _settled_hint(page, "#history-table", ("0", "1")) == ("0", "1")
    # On a laptop the whole card fits: no scrolling, no hint, every column shown.
    _visit(page, live_server.url + f"/spieler/{card.key}/", 1366)
    m = page.evaluate(MEASURE, ["#history-table", "start"])
    assert not m["scrolls"] and m["problems"] == []
    assert page.evaluate(HINT, "#history-table")["at"] is None
    assert head.get_by_text("E/K", exact=True).evaluate("e => e.closest('th').offsetWidth") > 0
    assert errors == []


def test_tournament_evaluation_shows_new_rating_and_change_on_a_phone(live_server, page, data):
    tournament = Tournament.objects.get(name="Maiturnier")
    for width in (390, 1366):
        _visit(page, live_server.url + f"/turniere/{tournament.pk}/", width)
        for at in ("start", "end"):
            m = page.evaluate(MEASURE, ["#evaluation-table", at])
            assert m["problems"] == [], (width, at, m["problems"])
        head = page.locator("#evaluation-table thead")
        expect(head.get_by_text("±", exact=True)).to_be_visible()
        expect(head.get_by_text("DWZ neu", exact=True)).to_be_visible()


def test_a_scrolling_box_without_links_is_a_region_the_keyboard_scrolls(live_server, page, data):
    tournament = Tournament.objects.get(name="Maiturnier")
    _visit(page, live_server.url + f"/turniere/{tournament.pk}/drucken/", 390)
    boxes = page.locator(".table-responsive[data-scroll-x]")
    expect(boxes.first).to_be_attached()
    box = boxes.first
    expect(box).to_have_attribute("tabindex", "0")
    expect(box).to_have_attribute("role", "region")
    assert box.get_attribute("aria-label")
    box.focus()
    page.keyboard.press("End")  # no-op for a region; arrows scroll it
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    assert box.evaluate("e => e.scrollLeft") > 0
    # Wide enough for the table: no region, no tab stop.
    page.set_viewport_size({"width": 1366, "height": 900})
    page.wait_for_function("() => !document.querySelector('.table-responsive[tabindex]')")


PLAYERS = [
    ("Krämer-Schmidt", "Tobias Maximilian"),
    ("Pfeiffer", "Sabine"),
    ("Günther", "Finn"),
    ("Haas", "Finn"),
    ("Schröder", "Ben"),
    ("Franke", "Anna"),
    ("Arnold", "Klaus"),
    ("Huber", "Jonas"),
    ("Weißmüller", "Jörg"),
    ("Schäfer", "Änne"),
    ("Zimmermann", "Katharina"),
    ("Lehmann", "Wolfgang"),
]


@pytest.fixture
def round_robin(request):
    """A round robin of ``request.param`` players (8 or 12), fully played, entered by the Bezirk's officer."""
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    club = Club.objects.create(zps="C0503", name="SK Zuffenhausen 1921", organisation=bezirk)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=bezirk)
    players = []
    for number, (surname, first_name) in enumerate(PLAYERS[: request.param], start=1):
        p = Player.objects.create(key=f"C0503-{number:04d}", surname=surname, first_name=first_name)
        Membership.objects.create(player=p, club=club, member_number=str(number))
        adjustment_save(
            adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=1900 - 37 * number, index=20)
        )
        players.append(p)
    t = Tournament(
        name="Vereinsmeisterschaft 2025/26 SK Zuffenhausen 1921",
        start_date=datetime.date(2025, 9, 1),
        end_date=datetime.date(2026, 5, 12),
        rounds=len(players) - 1,
        organiser_club=club,
    )
    results = itertools.cycle(["1-0", "0-1", "1/2-1/2"])
    games, circle = [], list(players)
    for rnd in range(1, len(players)):
        for board in range(len(players) // 2):
            games.append(
                Game(
                    round=rnd,
                    board=board + 1,
                    white=circle[board],
                    black=circle[-1 - board],
                    result=next(results),
                )
            )
        circle = [circle[0], circle[-1], *circle[1:-1]]
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    tournament_create(tournament=t, entries=entries, games=games, mode=TournamentMode.ROUND_ROBIN)
    return t


GRID = """() => {
  const grid = document.querySelector('#rr-grid');
  const box = grid.closest('.table-responsive');
  const g = grid.getBoundingClientRect();
  const p = document.querySelector('#rating-preview').getBoundingClientRect();
  const last = grid.querySelector('thead th:last-child').getBoundingClientRect();
  return {scroll: box.scrollWidth - box.clientWidth, lastRight: last.right,
          boxRight: box.getBoundingClientRect().right,
          gridBottom: g.bottom, gridRight: g.right, previewTop: p.top, previewLeft: p.left,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


@pytest.mark.parametrize("round_robin", [8, 12], indirect=True)
def test_round_robin_grid_keeps_the_width(live_server, page, round_robin, log_in):
    """8 players: the preview beside the grid from 1400 px, under it below; 12 players: under it always."""
    log_in(page, "referent")
    errors = collect_errors(page)
    players = round_robin.entries.count()
    # The grid is on the tournament's results page (the round-robin entry).
    _visit(page, live_server.url + f"/turniere/{round_robin.pk}/ergebnisse/", 1366)
    expect(page.locator("#preview-table")).to_be_visible()
    to_preview = page.locator("main p a[href='#rating-preview']")
    for width in (1366, 1280, 1440):
        page.set_viewport_size({"width": width, "height": 900})
        m = page.evaluate(GRID)
        assert m["page"] <= 0, (width, m)
        assert m["scroll"] <= 0 and m["lastRight"] <= m["boxRight"] + 0.5, (width, players, "grid cut off", m)
        if width < 1400 or players > 8:  # the preview is a row of its own under the grid
            assert m["previewTop"] >= m["gridBottom"], (width, players, m)
            expect(to_preview).to_be_visible()
        else:  # side by side
            assert m["previewLeft"] >= m["gridRight"], (width, players, m)
            expect(to_preview).to_be_hidden()
    assert errors == []
