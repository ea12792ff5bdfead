"""The league models in the Django admin: lists, search and filters answer; seasons, divisions, teams and
ranking lists are edited (a division's e-mail fields invite its director and rating officer); matches and
boards are read-only, linked to the director's page; a division's tournament follows its name."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from leagues.models import Board, Division, DivisionPart, Match, RankingList, Team
from leagues.services.matches import match_approve, match_report_save
from ratings.recalculation import ratings_verify
from tests.leagues.league_data import small_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return small_league(boards=4)


@pytest.fixture
def admin_client(client):
    client.force_login(get_user_model().objects.create_superuser(username="root", password="geheim-123"))
    return client


@pytest.mark.parametrize("model", ["season", "division", "team", "rankinglist", "match"])
def test_lists_search_and_filters(admin_client, league, model):
    base = f"/admin/leagues/{model}/"
    assert admin_client.get(base).status_code == 200
    assert admin_client.get(base, {"q": "Nord"}).status_code == 200
    assert admin_client.get(base + "add/").status_code == (403 if model == "match" else 200)


def _division_form(division, **changes):
    data = {
        "season": division.season_id,
        "name": division.name,
        "level": "",
        "boards": division.boards,
        "rounds": division.rounds,
        "cycles": division.cycles,
        "system": division.system,
        "points_win": 2,
        "points_draw": 1,
        "points_loss": 0,
        "tiebreaks": division.tiebreaks,
        "home_white_on_odd": "on",
        "time_control": "",
        "director": division.director_id or "",
        "rating_officer": division.rating_officer_id or "",
        "invite_director": "",
        "invite_rating_officer": "",
    }
    for prefix, model in (("teams", Team), ("parts", DivisionPart)):
        rows = list(model.objects.filter(division=division))
        data |= {f"{prefix}-TOTAL_FORMS": len(rows), f"{prefix}-INITIAL_FORMS": len(rows)}
        data |= {f"{prefix}-MIN_NUM_FORMS": 0, f"{prefix}-MAX_NUM_FORMS": 1000}
        for k, row in enumerate(rows):
            data[f"{prefix}-{k}-id"] = row.pk
            data[f"{prefix}-{k}-division"] = division.pk
            if model is Team:
                data |= {
                    f"{prefix}-{k}-name": row.name,
                    f"{prefix}-{k}-club": row.club_id,
                    f"{prefix}-{k}-number": row.number,
                    f"{prefix}-{k}-draw_number": row.draw_number or "",
                    f"{prefix}-{k}-captain": row.captain_id or "",
                    f"{prefix}-{k}-captain_email": row.captain_email,
                }
    return data | changes


def _approve_first_match(league):
    from leagues.services.matches import BoardReport

    m = league["match1"]
    home, away = league["players"]
    boards = [BoardReport(n, home[n - 1].pk, away[n - 1].pk, "1-0") for n in range(1, 5)]
    match_report_save(match=m, boards=boards, user=league["captain1"])
    match_approve(match=m, user=league["director"])


def test_division_invites_its_director_and_renames_its_tournament(admin_client, league):
    division = league["division"]
    _approve_first_match(league)
    url = f"/admin/leagues/division/{division.pk}/change/"
    page = admin_client.get(url).content.decode()
    assert 'name="boards"' not in page  # the match points are derived from it: read-only once played
    form = _division_form(division, name="Kreisliga A", invite_director="neu@example.org", boards=6)
    response = admin_client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    division.refresh_from_db()
    assert division.director.email == "neu@example.org" and division.boards == 4
    assert len(mail.outbox) == 1 and "/passwort/" in mail.outbox[0].body
    part = DivisionPart.objects.get(division=division)
    assert part.tournament.name == "Kreisliga A 2025/26"
    assert ratings_verify() == []


def test_matches_and_boards_are_read_only_with_a_link_to_the_directors_page(admin_client, league):
    m = league["match1"]
    _approve_first_match(league)
    page = admin_client.get(f"/admin/leagues/match/{m.pk}/change/").content.decode()
    assert 'name="status"' not in page and "boards-0-result" not in page
    listing = admin_client.get("/admin/leagues/match/").content.decode()
    assert f"/ligen/kampf/{m.pk}/leitung/" in listing
    assert admin_client.post(f"/admin/leagues/match/{m.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Match.objects.filter(pk=m.pk).exists() and Board.objects.filter(match=m).count() == 4
    assert Division.objects.filter(pk=league["division"].pk).exists()
    delete = admin_client.post(f"/admin/leagues/division/{league['division'].pk}/delete/", {"post": "yes"})
    assert delete.status_code == 403


def test_team_action_invites_captains_and_ranking_list_invites_its_officer(admin_client, league):
    team = league["teams"][0]
    Team.objects.filter(pk=team.pk).update(captain_email="mf@example.org")
    admin_client.post(
        "/admin/leagues/team/",
        {"action": "invite_captains", "_selected_action": [t.pk for t in league["teams"]]},
    )
    assert [m.to for m in mail.outbox] == [["mf@example.org"]]  # the other team has no address
    team.refresh_from_db()
    assert team.captain.email == "mf@example.org"
    ranking = RankingList.objects.get(club=team.club)
    page = admin_client.get(f"/admin/leagues/rankinglist/{ranking.pk}/change/")
    assert page.status_code == 200 and 'name="invite_officer"' in page.content.decode()
