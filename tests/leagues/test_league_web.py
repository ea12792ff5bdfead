"""The captain's and the director's pages through the test client: scopes (another team, another division,
after approval), the quick entry's errors naming the line, approval, result change, evaluation only with the
warnings confirmed, invitations."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues.models import Board, Division, DivisionPart, Match, Team
from leagues.services.division_tournament import division_evaluate, division_split
from ratings.models import Evaluation, TournamentDraft
from ratings.recalculation import ratings_verify
from tests.leagues.league_data import small_league

pytestmark = pytest.mark.django_db
D = datetime.date


@pytest.fixture
def league():
    return small_league(boards=4)


def _post(league, match, quick="1 1\n2 ½\n3 0\n4 =", swap=False):
    home, away = league["players"][::-1] if swap else league["players"]
    data = {"quick": quick}
    for n in range(1, 5):
        data[f"home_{n}"], data[f"away_{n}"] = str(home[n - 1].pk), str(away[n - 1].pk)
    return data


def _url(match, page="bericht"):
    return f"/ligen/kampf/{match.pk}/{page}/"


def test_report_page_scopes(client, league):
    m = league["match1"]
    assert client.get(_url(m)).status_code == 302  # to the login
    client.force_login(get_user_model().objects.create_user(username="fremd"))
    assert client.get(_url(m)).status_code == 403
    assert client.post(_url(m), _post(league, m)).status_code == 403
    client.force_login(league["captain1"])
    page = client.get(_url(m))
    assert page.status_code == 200
    assert f'value="{league["players"][0][0].pk}" selected' in page.content.decode()  # proposed line-up


def test_captain_of_another_division_is_refused(client, league):
    other = Division.objects.create(season=league["season"], name="Kreisklasse", boards=4, rounds=1)
    stranger = get_user_model().objects.create_user(username="mf-anders")
    Team.objects.create(
        division=other, club=league["teams"][0].club, number=2, name="SK Nord 2", captain=stranger
    )
    client.force_login(stranger)
    assert client.post(_url(league["match1"]), _post(league, league["match1"])).status_code == 403


def test_quick_entry_saves_and_names_a_bad_line(client, league):
    m = league["match1"]
    client.force_login(league["captain1"])
    bad = client.post(_url(m), _post(league, m, quick="1 1\n2 x\n9 1"))
    assert bad.status_code == 400
    text = bad.content.decode()
    assert "Eingabe 2 „2 x“" in text and "Brett 9 gibt es nicht" in text
    assert not Board.objects.exists()
    assert client.post(_url(m), _post(league, m)).status_code == 302
    m.refresh_from_db()
    assert (m.home_board_points_halves, m.away_board_points_halves) == (4, 4)
    assert list(Board.objects.filter(match=m).values_list("result", flat=True)) == [
        "1-0",
        "1/2-1/2",
        "0-1",
        "1/2-1/2",
    ]
    # The opposing captain sees it and may correct it until the director approves.
    client.force_login(league["captain2"])
    assert "mf1" in client.get(_url(m)).content.decode()
    assert client.post(_url(m), _post(league, m, quick="1 1\n2 1\n3 0\n4 =")).status_code == 302


def test_director_approves_changes_and_the_officer_evaluates(client, league):
    m = league["match1"]
    client.force_login(league["captain1"])
    client.post(_url(m), _post(league, m))
    assert client.post(_url(m, "leitung"), {"action": "approve"}).status_code == 403
    client.force_login(league["director"])
    assert client.post(_url(m, "leitung"), {"action": "approve"}).status_code == 302
    assert Match.objects.get(pk=m.pk).approved_at is not None
    client.force_login(league["captain1"])
    assert client.post(_url(m), _post(league, m)).status_code == 403  # approved: the captain is done
    client.force_login(league["director"])
    client.post(_url(m, "leitung"), {"action": "result", "board": "3", "result": "1-0"})
    board = Board.objects.get(match=m, number=3)
    assert (board.result, board.rated_result) == ("1-0", "0-1")
    # Played a week late: the draft tournament's end date follows.
    client.post(_url(m, "leitung"), {"action": "date", "played_on": "2025-10-12"})
    assert Match.objects.get(pk=m.pk).played_on == D(2025, 10, 12)
    assert DivisionPart.objects.get(division=league["division"]).tournament.end_date == D(2025, 10, 12)
    assert client.post(_url(m, "leitung"), {"action": "date", "played_on": "12.10."}).status_code == 302
    # A board number that is no number (or none of this match) is a message, never a 500.
    for number in ("abc", "", "9" * 30, "²"):
        response = client.post(_url(m, "leitung"), {"action": "result", "board": number, "result": "1-0"})
        assert response.status_code == 302, number
    assert (
        client.post(_url(m, "leitung"), {"action": "result", "board": "99", "result": "1-0"}).status_code
        == 404
    )
    division = league["division"]
    client.force_login(league["officer"])
    page = client.get(f"/ligen/staffel/{division.pk}/leitung/")
    assert page.status_code == 200 and "Runde 2" in page.content.decode()  # round 2 is due, not reported
    client.post(f"/ligen/staffel/{division.pk}/auswerten/")
    assert not Evaluation.objects.exists()  # the warnings were not confirmed
    client.post(f"/ligen/staffel/{division.pk}/auswerten/", {"confirm": "1"})
    assert Evaluation.objects.count() == 8
    assert ratings_verify() == []
    client.force_login(league["captain1"])
    assert client.get(f"/ligen/staffel/{division.pk}/leitung/").status_code == 403


def test_invitation_page(client, league):
    team = league["teams"][1]
    client.force_login(league["director"])
    assert client.post(f"/ligen/mannschaft/{team.pk}/einladen/", {"email": "kein-mail"}).status_code == 302
    assert mail.outbox == []
    client.post(f"/ligen/mannschaft/{team.pk}/einladen/", {"email": "mf@example.org"})
    assert len(mail.outbox) == 1 and "/passwort/" in mail.outbox[0].body
    client.force_login(league["captain1"])
    assert (
        client.post(f"/ligen/mannschaft/{team.pk}/einladen/", {"email": "x@example.org"}).status_code == 403
    )


def test_my_matches(client, league):
    client.force_login(league["captain1"])
    page = client.get("/ligen/meine-kaempfe/")
    assert page.status_code == 200 and page.content.decode().count("/bericht/") == 2


def test_ranking_list_page_of_the_club_officer(client, league):
    from leagues.models import RankingEntry, RankingList

    ranking = RankingList.objects.get(club=league["teams"][0].club)
    keeper = get_user_model().objects.create_user(username="vereinsspielleiter")
    ranking.officer = keeper
    ranking.save()
    season = league["season"]
    season.rule_400, season.rule_400_width = True, 50
    season.save()
    client.force_login(league["captain2"])
    assert client.get(f"/ligen/rangliste/{ranking.pk}/").status_code == 403
    client.force_login(keeper)
    assert f"/ligen/rangliste/{ranking.pk}/" in client.get("/ligen/meine-kaempfe/").content.decode()
    assert client.post(f"/ligen/rangliste/{ranking.pk}/").status_code == 302
    first = RankingEntry.objects.get(ranking_list=ranking, rank=1)
    assert (first.dwz, first.dwz_index) == (2100, 20)
    # The weakest player (1740) moved to rank 1: the stronger ones behind him are more than 50 above.
    RankingEntry.objects.filter(ranking_list=ranking, rank=10).update(rank=99)
    RankingEntry.objects.filter(ranking_list=ranking, rank=1).update(rank=10)
    RankingEntry.objects.filter(ranking_list=ranking, rank=99).update(rank=1)
    page = client.get(f"/ligen/rangliste/{ranking.pk}/").content.decode()
    assert 'id="checks"' in page and "Nord1" in page


def test_director_invites_the_rating_officer_and_club_officers(client, league):
    from leagues.models import RankingList

    division = league["division"]
    url = f"/ligen/staffel/{division.pk}/einladen/"
    ranking = RankingList.objects.get(club=league["teams"][1].club)
    client.force_login(league["director"])
    page = client.get(f"/ligen/staffel/{division.pk}/leitung/").content.decode()
    assert (
        'name="role" value="rating_officer"' in page and f'name="ranking_list" value="{ranking.pk}"' in page
    )
    assert client.post(url, {"role": "rating_officer", "email": "wr@example.org"}).status_code == 302
    client.post(url, {"role": "club_officer", "ranking_list": ranking.pk, "email": "vsl@example.org"})
    assert [m.to for m in mail.outbox] == [["wr@example.org"], ["vsl@example.org"]]
    ranking.refresh_from_db()
    division.refresh_from_db()
    assert (division.rating_officer.email, ranking.officer.email) == ("wr@example.org", "vsl@example.org")
    assert (
        client.post(url, {"role": "club_officer", "ranking_list": "x", "email": "a@b.de"}).status_code == 404
    )
    assert (
        client.post(url, {"role": "club_officer", "ranking_list": 999, "email": "a@b.de"}).status_code == 404
    )
    client.post(url, {"role": "director", "email": "a@example.org"})  # not from this page
    assert len(mail.outbox) == 2
    for user in (league["captain1"], league["officer"]):
        client.force_login(user)
        assert client.post(url, {"role": "rating_officer", "email": "x@example.org"}).status_code == 403
        data = {"role": "club_officer", "ranking_list": ranking.pk, "email": "x@example.org"}
        assert client.post(url, data).status_code == 403
    assert len(mail.outbox) == 2


def _page_queries(client, division) -> int:
    """The queries of the director's page (a second request: the first after a login saves the session)."""
    client.get(f"/ligen/staffel/{division.pk}/leitung/")
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/ligen/staffel/{division.pk}/leitung/").status_code == 200
    return len(queries)


def test_division_page_reads_the_parts_in_a_fixed_number_of_queries(client, league):
    """The parts' states in one query however many parts; a preview only of a part with a draft (the page
    shows no other), so an evaluated division's page costs the same with one part or two."""
    division = league["division"]
    for m, swap, user in ((league["match1"], False, "captain1"), (league["match2"], True, "captain2")):
        client.force_login(league[user])
        client.post(_url(m), _post(league, m, quick="1 1\n2 1\n3 1\n4 1", swap=swap))
        client.force_login(league["director"])
        client.post(_url(m, "leitung"), {"action": "approve"})
    client.force_login(league["officer"])
    division_evaluate(division=division, user=league["officer"])
    one = _page_queries(client, division)
    # Split: the second part is a new tournament, a draft until evaluated; its preview is shown.
    division_split(division=division, from_dates=[D(2025, 12, 21)], user=league["officer"])
    assert TournamentDraft.objects.count() == 1
    page = client.get(f"/ligen/staffel/{division.pk}/leitung/").content.decode()
    assert page.count('class="table table-sm preview"') == 1
    division_evaluate(division=division, user=league["officer"])
    assert DivisionPart.objects.filter(division=division).count() == 2
    assert not TournamentDraft.objects.exists()
    assert _page_queries(client, division) == one <= 20
