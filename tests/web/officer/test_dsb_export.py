"""The officer's "Für den DSB exportieren" page (check list, state, download that records the submission),
"Turnier anmelden", and the dashboard's states and WO 6.2 countdown; permissions as on every officer page."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings import permissions
from ratings.formats import dsb_xml
from ratings.models import Player, Tournament, TournamentSubmission
from ratings.models.audit import AuditAction, AuditEvent
from ratings.selectors.dsb_xml_export import dsb_export
from ratings.services.submissions import tournament_submit
from tests.builders import make_tournament

pytestmark = pytest.mark.django_db


def _rr(players, tree, *, end=datetime.date(2026, 5, 3), name="Vereinsmeisterschaft"):
    a, b, c = players
    games = [(1, a, b, "1-0"), (2, b, c, "1/2-1/2"), (3, c, a, "0-1")]
    return make_tournament([a, b, c], games, end=end, name=name, organiser_club=tree["club_a"])


def _page(pk):
    return reverse("ratings:tournament-dsb-export", args=[pk])


def _download(pk):
    return reverse("ratings:tournament-dsb-export-download", args=[pk])


def test_the_check_list_the_state_and_the_download(login, users, tree, players):
    t = _rr(players, tree)
    client = login(users["officer_a"])
    html = client.get(_page(t.pk)).content.decode()
    assert "Prüfliste" in html and "Geburtsjahr jedes Spielers" in html and 'id="export-form"' in html
    assert "ausgewertet" in html and 'id="last-submission"' not in html
    response = client.post(_download(t.pk))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
    assert 'filename="Vereinsmeisterschaft.xml"' in response["Content-Disposition"]
    report = dsb_xml.parse(response.content)
    submission = TournamentSubmission.objects.get()
    assert (submission.user, submission.file_uuid) == (users["officer_a"], report.header.file_uuid)
    assert report.header.sender == "Bezirk Stuttgart - officer_a"
    assert AuditEvent.objects.filter(action=AuditAction.SUBMIT, tournament_ref=t.pk).count() == 1
    html = client.get(_page(t.pk)).content.decode()
    assert 'id="last-submission"' in html and str(report.header.file_uuid) in html and ">eingereicht<" in html
    trail = client.get(t.get_absolute_url()).content.decode()
    assert "„Vereinsmeisterschaft“ eingereicht" in " ".join(trail.split())


def test_a_blocking_problem_hides_the_download_and_names_the_player(login, users, tree, players):
    t = _rr(players, tree)
    Player.objects.filter(pk=players[1].pk).update(birth_year=None)
    client = login(users["officer_a"])
    html = client.get(_page(t.pk)).content.decode()
    assert 'id="export-form"' not in html and 'id="export-blocked"' in html
    assert "Berta, Test (Startnummer 2) hat kein Geburtsjahr." in html
    response = client.post(_download(t.pk))
    assert response.status_code == 302 and response["Location"] == _page(t.pk)
    assert not TournamentSubmission.objects.exists()


def test_changed_since_submission_is_listed(login, users, tree, players):
    t = _rr(players, tree)
    check, data = dsb_export(tournament=t)
    tournament_submit(tournament=t, user=None, data=data, file_uuid=check.report.header.file_uuid)
    Player.objects.filter(pk=players[0].pk).update(birth_year=1950)
    html = login(users["officer_a"]).get(_page(t.pk)).content.decode()
    assert "geändert seit Einreichung" in html and "Spielerdaten geändert: Anton, Test (1)" in html


@pytest.mark.parametrize(
    ("who", "status"), [("officer_b", 403), ("member", 403), ("officer_lv", 200), ("admin", 200)]
)
def test_permissions(login, users, tree, players, who, status):
    t = _rr(players, tree)
    client = login(users[who])
    assert client.get(_page(t.pk)).status_code == status
    assert client.post(_download(t.pk)).status_code == status
    assert TournamentSubmission.objects.count() == (1 if status == 200 else 0)


def test_visitors_log_in_unknown_tournaments_404_and_get_is_no_download(client, login, users, tree, players):
    t = _rr(players, tree)
    assert client.get(_page(t.pk)).status_code == 302
    assert client.post(_download(t.pk)).status_code == 302
    client = login(users["officer_a"])
    assert client.get(_page(999999)).status_code == 404
    assert client.post(_download(999999)).status_code == 404
    assert client.get(_download(t.pk)).status_code == 405
    assert not TournamentSubmission.objects.exists()


def test_the_public_tournament_page_links_the_export_for_its_officers(login, users, tree, players):
    t = _rr(players, tree)
    html = login(users["officer_a"]).get(t.get_absolute_url()).content.decode()
    assert _page(t.pk) in html and 'id="tournament-state"' in html
    html = login(users["officer_b"]).get(t.get_absolute_url()).content.decode()
    assert _page(t.pk) not in html


def test_announce_a_tournament(login, users, tree):
    client = login(users["officer_a"])
    start = permissions.today() + datetime.timedelta(days=20)
    data = {
        "name": "Sommeropen",
        "place": "Stuttgart",
        "start_date": start.isoformat(),
        "end_date": (start + datetime.timedelta(days=2)).isoformat(),
        "rounds": "7",
        "time_control": "90/40+30+30s",
        "rated": "on",
        "organiser": f"club:{tree['club_a'].pk}",
        "mode": "swiss",
    }
    response = client.post(reverse("ratings:tournament-announce"), data)
    assert response.status_code == 302
    t = Tournament.objects.get(name="Sommeropen")
    assert (
        t.announced and AuditEvent.objects.filter(action=AuditAction.ANNOUNCE, tournament_ref=t.pk).exists()
    )
    html = client.get(reverse("ratings:officer-dashboard")).content.decode()
    assert ">angemeldet<" in html
    # after its start: refused, nothing saved
    data |= {
        "name": "Zu spät",
        "start_date": permissions.today().isoformat(),
        "end_date": permissions.today().isoformat(),
    }
    response = client.post(reverse("ratings:tournament-announce"), data)
    assert response.status_code == 200 and "nur vor seinem Beginn" in response.content.decode()
    assert not Tournament.objects.filter(name="Zu spät").exists()
    assert login(users["member"]).get(reverse("ratings:tournament-announce")).status_code == 403


def _section(html: str, section: str) -> str:
    start = html.index(f'<section id="{section}"')
    return html[start : html.index("</section>", start)]


def test_dashboard_countdown_and_announced_without_entry(login, users, tree, players):
    today = permissions.today()
    _rr(players, tree, end=today - datetime.timedelta(days=10), name="Frisch")
    _rr(players, tree, end=today - datetime.timedelta(days=50), name="Alt")
    done = _rr(players, tree, end=today - datetime.timedelta(days=60), name="Eingereicht")
    check, data = dsb_export(tournament=done)
    tournament_submit(tournament=done, user=None, data=data, file_uuid=check.report.header.file_uuid)
    Tournament.objects.create(
        name="Verpasst",
        start_date=today - datetime.timedelta(days=3),
        end_date=today - datetime.timedelta(days=1),
        organiser_club=tree["club_a"],
        announced=True,
    )
    Tournament.objects.create(
        name="Bald",
        start_date=today + datetime.timedelta(days=3),
        end_date=today + datetime.timedelta(days=4),
        organiser_club=tree["club_a"],
        announced=True,
    )
    html = login(users["officer_a"]).get(reverse("ratings:officer-dashboard")).content.decode()
    unsubmitted = " ".join(_section(html, "unsubmitted").split())
    assert "Frisch" in unsubmitted and "noch 32 Tage" in unsubmitted
    assert "Alt" in unsubmitted and "seit 8 Tagen überfällig" in unsubmitted
    assert "Eingereicht" not in unsubmitted and "Bald" not in unsubmitted
    assert unsubmitted.index("Alt") < unsubmitted.index("Frisch")
    not_entered = _section(html, "not-entered")
    assert "Verpasst" in not_entered and "Bald" not in not_entered
    assert ">eingereicht<" in html and ">angemeldet<" in html
    html_b = login(users["officer_b"]).get(reverse("ratings:officer-dashboard")).content.decode()
    assert 'id="unsubmitted"' not in html_b and 'id="not-entered"' not in html_b


@pytest.mark.parametrize("n", [1, 4])
def test_dashboard_queries_do_not_grow_with_the_rows(
    login, users, tree, players, n, django_assert_num_queries
):
    today = permissions.today()
    for i in range(n):
        t = _rr(players, tree, end=today - datetime.timedelta(days=10 + i), name=f"T{i}")
        if i % 2 == 0:
            check, data = dsb_export(tournament=t)
            tournament_submit(tournament=t, user=None, data=data, file_uuid=check.report.header.file_uuid)
        Tournament.objects.create(
            name=f"A{i}",
            start_date=today - datetime.timedelta(days=3),
            end_date=today,
            organiser_club=tree["club_a"],
            announced=True,
        )
    client = login(users["officer_a"])
    client.get(reverse("ratings:officer-dashboard"))  # warm up the session
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("ratings:officer-dashboard"))
    assert response.status_code == 200
    expected = 16  # the same for 1 and 4 rows of each list; one of them reads the official verdicts
    assert len(queries) == expected, [q["sql"][:120] for q in queries]
