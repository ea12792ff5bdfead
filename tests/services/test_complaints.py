"""Complaints (issue 30 §3): routed by scope, worked through by the officer, the reporter mailed when done,
every step audited."""

import datetime

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError

from ratings.models import AuditEvent, ComplaintStatus
from ratings.models.audit import AuditObjectType
from ratings.services.complaints import complaint_routing, complaint_submit, complaint_update
from tests.builders import make_player, make_tournament, make_user
from tests.factories import ClubFactory, OrganisationFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def tree():
    """DSB (D) → Landesverband (C) → Bezirk (C05) → clubs C0501 (with an officer) and C0502 (without)."""
    dsb = OrganisationFactory(code="D00", name="DSB")
    land = OrganisationFactory(code="C00", name="Württemberg", parent=dsb)
    bezirk = OrganisationFactory(code="C05", name="Bezirk Stuttgart", parent=land)
    with_officer = ClubFactory(zps="C0501", name="SV Mit", organisation=bezirk)
    without = ClubFactory(zps="C0502", name="SV Ohne", organisation=bezirk)
    return dsb, land, bezirk, with_officer, without


def test_a_card_goes_to_the_officer_of_the_players_club(tree):
    _dsb, land, _bezirk, with_officer, _without = tree
    club_officer = make_user("verein", club=with_officer)
    make_user("land", organisation=land)
    player = make_player(dwz=1600, club=with_officer)
    recipients, where = complaint_routing(player=player)
    assert recipients == [club_officer]
    assert "SV Mit" in where


def test_else_up_the_tree_then_the_admins(tree):
    dsb, land, _bezirk, _with, without = tree
    player = make_player(dwz=1600, club=without)
    admin = make_user("admin", staff=True)
    assert complaint_routing(player=player)[0] == [admin]  # nobody on the way: the admins
    land_officer = make_user("land", organisation=land)
    assert complaint_routing(player=player)[0] == [land_officer]  # Bezirk has none: Württemberg
    bezirk_officer = make_user("bezirk", organisation=tree[2])
    assert complaint_routing(player=player)[0] == [bezirk_officer]
    assert complaint_routing(player=make_player())[0] == [admin]  # no club at all
    assert dsb.parent is None


def test_a_tournament_goes_to_its_rating_officer_else_its_organiser(tree):
    _dsb, land, _bezirk, with_officer, without = tree
    a, b = make_player(dwz=1600, club=without), make_player(dwz=1500, club=without)
    officer = make_user("turnier", club=without)
    land_officer = make_user("land", organisation=land)
    rated_by = make_tournament([a, b], [(1, a, b, "1-0")], end=datetime.date(2025, 5, 1))
    rated_by.rating_officer = officer
    rated_by.save(update_fields=["rating_officer"])
    assert complaint_routing(tournament=rated_by)[0] == [officer]
    rated_by.rating_officer = None
    rated_by.organiser_club = with_officer
    rated_by.save(update_fields=["rating_officer", "organiser_club"])
    club_officer = make_user("verein", club=with_officer)
    assert complaint_routing(tournament=rated_by)[0] == [club_officer]
    rated_by.organiser_club = None
    rated_by.organiser_organisation = tree[2]
    rated_by.save(update_fields=["organiser_club", "organiser_organisation"])
    assert complaint_routing(tournament=rated_by)[0] == [land_officer]


def test_reported_worked_through_and_closed_with_a_mail(tree):
    _dsb, _land, _bezirk, with_officer, _without = tree
    officer = make_user("verein", club=with_officer)
    other = make_user("fremd", club=tree[4])
    player = make_player(dwz=1600, club=with_officer, surname="Reklamiert")
    complaint = complaint_submit(
        name="Eva Melder", email="eva@example.org", text="Partie fehlt", player=player
    )
    assert list(complaint.recipients.all()) == [officer]
    assert complaint.status == ComplaintStatus.OPEN
    with pytest.raises(PermissionDenied):
        complaint_update(complaint=complaint, status=ComplaintStatus.DONE, note="x", user=other)
    complaint_update(complaint=complaint, status=ComplaintStatus.IN_PROGRESS, note="", user=officer)
    with pytest.raises(ValidationError):  # closing needs a note for the reporter
        complaint_update(complaint=complaint, status=ComplaintStatus.DONE, note=" ", user=officer)
    assert mail.outbox == []
    with pytest.raises(ValidationError):
        complaint_submit(name="", email="eva@example.org", text="x", player=player)


@pytest.mark.django_db(transaction=True)
def test_the_reporter_gets_one_mail_when_done(tree):
    _dsb, _land, _bezirk, with_officer, _without = tree
    officer = make_user("verein", club=with_officer)
    officer.email = "verein@example.org"
    officer.save(update_fields=["email"])
    make_user("ohne-adresse", club=with_officer)  # a second officer without an address: no mail to him
    player = make_player(dwz=1600, club=with_officer)
    complaint = complaint_submit(
        name="Eva Melder", email="eva@example.org", text="Partie fehlt", player=player
    )
    (received,) = mail.outbox  # the officer hears of it at once
    assert received.to == [officer.email]
    assert f"#{complaint.pk}" in received.subject and "SV Mit" in received.subject
    assert "Partie fehlt" in received.body and f"/referent/reklamationen/{complaint.pk}/" in received.body
    assert "eva@example.org" not in received.body
    mail.outbox.clear()
    complaint_update(complaint=complaint, status=ComplaintStatus.DONE, note="Nachgetragen.", user=officer)
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["eva@example.org"]
    assert "Nachgetragen." in sent.body and "Partie fehlt" in sent.body
    complaint_update(complaint=complaint, status=ComplaintStatus.DONE, note="Nachgetragen!", user=officer)
    assert len(mail.outbox) == 1  # closed once, mailed once
    events = AuditEvent.objects.filter(object_type=AuditObjectType.COMPLAINT, object_id=complaint.pk)
    assert events.count() == 3  # received, done, note changed
    assert events.order_by("pk").first().user is None
