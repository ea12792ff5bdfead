"""Club figures (average DWZ of all rated members, of the best 8 and 10, active/passive per membership) and
the club comparison of a federation."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.enums import PlayerStatus
from ratings.models import Membership
from ratings.selectors.club_stats import club_comparison, club_stats
from tests.builders import make_player
from tests.factories import ClubFactory


def _members(club, ratings, *, passive=0, unrated=0):
    players = [
        make_player(surname=f"{club.zps}-{i}", first_name="X", dwz=r, index=5, club=club)
        for i, r in enumerate(ratings)
    ]
    for _ in range(unrated):
        players.append(make_player(surname="Ohne", first_name="X", club=club))
    for p in players[:passive]:
        Membership.objects.filter(player=p, club=club).update(status=PlayerStatus.PASSIVE)
    return players


def test_club_figures(client, federation):
    club = federation["club"]
    _members(club, [2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100, 1001], passive=2, unrated=1)
    stats = club_stats(club=club)
    assert (stats.members, stats.rated, stats.active, stats.passive) == (12, 11, 10, 2)
    assert stats.best10 == 1550  # 15500 / 10
    assert stats.best8 == 1650  # 13200 / 8
    assert stats.average == 1500  # 16501 / 11 = 1500.09
    html = client.get(f"/vereine/{club.zps}/").content.decode()
    block = html[html.index('id="club-stats"') : html.index("</dl>", html.index('id="club-stats"'))]
    for figure in ("12", "10 aktiv, 2 passiv", "11", "1500", "1650", "1550"):
        assert figure in block, figure


def test_half_up_and_too_few_members(federation):
    club = federation["club"]
    _members(club, [1501, 1502])
    stats = club_stats(club=club)
    assert stats.average == 1502 and stats.best8 is None and stats.best10 is None  # 1501.5 rounds up


def test_comparison_ranks_by_best_ten(client, federation):
    bezirk, land = federation["bezirk"], federation["land"]
    strong, weak = ClubFactory(zps="C0502", organisation=bezirk), ClubFactory(zps="C0001", organisation=land)
    tie = ClubFactory(zps="C0503", organisation=bezirk)
    _members(strong, [1800] * 10)
    _members(weak, [1500] * 12)
    _members(tie, [1800] * 10)
    _members(federation["club"], [2400] * 3)  # fewer than 10 rated: unranked, last
    _members(federation["other_club"], [2500] * 10)  # another federation: not listed
    rows = club_comparison(organisation=land)
    assert [(r.rank, r.club.zps) for r in rows] == [(1, "C0502"), (1, "C0503"), (3, "C0001"), (None, "C0501")]
    html = client.get(f"/verbaende/{land.code}/vereinsvergleich/").content.decode()
    assert 'id="comparison-table"' in html and "B0101" not in html
    assert (
        f'href="/verbaende/{land.code}/vereinsvergleich/"'
        in client.get(f"/verbaende/{land.code}/").content.decode()
    )
    assert client.get("/verbaende/ZZZ/vereinsvergleich/").status_code == 404


@pytest.mark.parametrize("path", ["/vereine/C0501/", "/verbaende/C00/vereinsvergleich/"])
def test_query_count_constant(client, federation, path):
    counts = []
    for n in (1, 3):
        Membership.objects.all().delete()
        _members(federation["club"], [1500 + i for i in range(n)])
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(path).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
