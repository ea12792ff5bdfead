"""The rating preview on the results page is readable at desktop and phone widths: no column is cut off
(the table fits its panel without horizontal scrolling) and no DWZ-Index ("1057-17") breaks over two lines,
neither in the preview nor in the participants table.
"""

import datetime
import itertools

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

PLAYERS = [
    ("Arnold", "Klaus", 1057, 17),
    ("Huber", "Jonas", 694, 2),
    ("Krämer", "Tobias", 1486, 65),
    ("Günther", "Finn", 1397, 6),
    ("Schröder", "Ben", 959, 5),
    ("Franke", "Anna", 1102, 5),
    ("Pfeiffer", "Sabine", 1356, 47),
    ("Haas", "Finn", 1188, 55),
]


@pytest.fixture
def tournament():
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart")
    club = Club.objects.create(zps="C0503", name="SK Zuffenhausen 1921", organisation=bezirk)
    user = get_user_model().objects.create_user(username="referent", password="demo-referent")
    OfficerScope.objects.create(user=user, organisation=bezirk)
    players = []
    for number, (surname, first_name, dwz, index) in enumerate(PLAYERS, start=1):
        p = Player.objects.create(key=f"C0503-{number}", surname=surname, first_name=first_name)
        Membership.objects.create(player=p, club=club, member_number=str(number))
        adjustment_save(
            adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=dwz, index=index)
        )
        players.append(p)
    t = Tournament(
        name="Vereinsmeisterschaft 2025/26 SK Zuffenhausen 1921",
        start_date=datetime.date(2025, 12, 14),
        end_date=datetime.date(2026, 1, 12),
        rounds=7,
        organiser_club=club,
    )
    results = itertools.cycle(["1-0", "0-1", "1/2-1/2", "1-0", "0-1"])
    games = []
    circle = list(players)
    for rnd in range(1, len(players)):  # circle method: everybody once per round
        for board in range(len(players) // 2):
            white, black = circle[board], circle[-1 - board]
            games.append(Game(round=rnd, board=board + 1, white=white, black=black, result=next(results)))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    tournament_create(tournament=t, entries=entries, games=games, mode=TournamentMode.ROUND_ROBIN)
    return t


MEASURE = """() => {
  const table = document.querySelector('#preview-table');
  const frame = table.parentElement.getBoundingClientRect();
  const last = table.querySelector('thead th:last-child').getBoundingClientRect();
  const card = document.querySelector('#rating-preview').getBoundingClientRect();
  return {
    scroll: table.parentElement.scrollWidth, visible: table.parentElement.clientWidth,
    lastRight: last.right, frameRight: frame.right, cardRight: card.right,
    pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    dwz: [...table.querySelectorAll('tbody .dwz-index')].map(s => [s.textContent, s.getClientRects().length]),
    participants: [...document.querySelectorAll('#participants tbody .dwz-index')]
      .map(s => [s.textContent, s.getClientRects().length]),
  };
}"""


def test_preview_fits_and_dwz_index_never_wraps(live_server, page, tournament, log_in):
    log_in(page, "referent")
    page.goto(live_server.url + f"/turniere/{tournament.pk}/kreuztabelle/")
    expect(page.locator("#preview-table")).to_be_visible()
    for width in (1280, 390, 1440):  # CSS alone lays the tables out: resized, not reloaded
        page.set_viewport_size({"width": width, "height": 900})
        m = page.evaluate(MEASURE)
        assert m["scroll"] <= m["visible"], f"{width} px: preview scrolls: {m['scroll']} > {m['visible']}"
        assert m["lastRight"] <= m["frameRight"] + 0.5 <= m["cardRight"] + 0.5, f"{width} px: Niveau cut off"
        assert m["pageOverflow"] <= 0, width
        assert len(m["dwz"]) == 2 * len(PLAYERS), width  # DWZ alt and DWZ neu of every player
        assert [text for text, lines in m["dwz"] if lines != 1] == [], width
        assert len(m["participants"]) == len(PLAYERS), width  # the participants table above, too
        assert [text for text, lines in m["participants"] if lines != 1] == [], width
