"""“Fehler melden” (issue 30 §3) through the pages: the form with its context, the honeypot, the limit per
address, and the officer's inbox up to the reporter's mail."""

import datetime

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from ratings.models import Complaint, ComplaintStatus
from tests.builders import make_player, make_tournament, make_user
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

URL = reverse("ratings:complaint")


@pytest.fixture
def club_area():
    club = ClubFactory(zps="C0701", name="SK Melde")
    officer = make_user("referent-melde", club=club)
    a = make_player(dwz=1700, club=club, surname="Alpha", member_number="1")
    b = make_player(dwz=1600, club=club, surname="Beta", member_number="2")
    tournament = make_tournament([a, b], [(1, a, b, "1-0")], end=datetime.date(2025, 5, 1), name="Maiturnier")
    return club, officer, a, tournament


def form(**extra):
    return {"name": "Eva Melder", "email": "eva@example.org", "text": "Die Partie in Runde 1 fehlt.", **extra}


def test_the_card_and_the_tournament_link_the_form_with_their_context(client, club_area):
    _club, _officer, player, tournament = club_area
    card = client.get(reverse("ratings:player-detail", args=[player.key])).content.decode()
    assert f"{URL}?spieler={player.key}" in card
    page = client.get(reverse("ratings:tournament-detail", args=[tournament.pk])).content.decode()
    assert f"{URL}?turnier={tournament.pk}" in page
    shown = client.get(f"{URL}?turnier={tournament.pk}").content.decode()
    assert "Maiturnier" in shown and 'name="turnier"' in shown and "csrfmiddlewaretoken" in shown


def test_a_report_reaches_the_officer_and_is_closed(client, club_area, django_capture_on_commit_callbacks):
    _club, officer, player, _tournament = club_area
    response = client.post(URL, form(spieler=player.key))
    assert response.status_code == 200 and 'id="complaint-sent"' in response.content.decode()
    complaint = Complaint.objects.get()
    assert complaint.player == player and list(complaint.recipients.all()) == [officer]
    client.force_login(officer)
    inbox = client.get(reverse("ratings:officer-complaints") + "?status=open").content.decode()
    assert "Alpha" in inbox
    detail_url = reverse("ratings:officer-complaint", args=[complaint.pk])
    assert "Die Partie in Runde 1 fehlt." in client.get(detail_url).content.decode()
    # Closing without a note is refused with a message at the field, not a 500.
    refused = client.post(detail_url, {"status": ComplaintStatus.DONE, "note": ""})
    assert refused.status_code == 200 and "Notiz" in refused.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(detail_url, {"status": ComplaintStatus.DONE, "note": "Ist nachgetragen."})
    complaint.refresh_from_db()
    assert complaint.status == ComplaintStatus.DONE
    assert [m.to for m in mail.outbox] == [["eva@example.org"]]


def test_another_officer_sees_nothing_the_admin_all(client, club_area):
    _club, _officer, player, _tournament = club_area
    client.post(URL, form(spieler=player.key))
    complaint = Complaint.objects.get()
    stranger = make_user("fremd", club=ClubFactory(zps="C0799"))
    client.force_login(stranger)
    assert "Alpha" not in client.get(reverse("ratings:officer-complaints")).content.decode()
    assert client.get(reverse("ratings:officer-complaint", args=[complaint.pk])).status_code == 404
    client.force_login(make_user("chef", staff=True))
    assert client.get(reverse("ratings:officer-complaint", args=[complaint.pk])).status_code == 200
    assert client.get(reverse("admin:ratings_complaint_changelist")).status_code == 200


def test_the_honeypot_stores_nothing(client, club_area):
    response = client.post(URL, form(website="http://spam.example"))
    assert response.status_code == 200
    assert Complaint.objects.count() == 0


def test_bad_input_is_a_form_error(client, club_area):
    response = client.post(URL, form(email="keine-adresse", spieler="gibt-es-nicht", turnier="9" * 30))
    assert response.status_code == 400
    assert "E-Mail" in response.content.decode()
    assert Complaint.objects.count() == 0


def test_the_limit_per_address(client, club_area, settings):
    settings.COMPLAINT_LIMIT = 2
    for _ in range(2):
        assert client.post(URL, form()).status_code == 200
    response = client.post(URL, form())
    assert response.status_code == 429 and "Retry-After" in response
    assert Complaint.objects.count() == 2


def test_csrf_is_required(club_area):
    client = Client(enforce_csrf_checks=True)
    assert client.post(URL, form()).status_code == 403


def test_a_nul_byte_in_the_posted_context_is_no_500(client, club_area):
    """The NUL-byte middleware checks GET only; a NUL in the posted player key must not reach the database
    (PostgreSQL refuses it with an error)."""
    response = client.post(URL, form(spieler="C0\x00401"))
    assert response.status_code in (200, 302, 400)
