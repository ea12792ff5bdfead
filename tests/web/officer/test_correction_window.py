"""WO 6.2 (spec §17): a Wertungsreferent may correct or delete a tournament up to one year after its end date,
the anniversary included; later only an administrator. Every officer write page of such a tournament
answers 403 with the text that says who may; the administrator passes."""

import datetime

import pytest
from django.db import transaction
from django.urls import reverse

from ratings import permissions
from ratings.models import Evaluation, Player, Tournament, TournamentDraft, TournamentEntry
from ratings.models.officer import TournamentEntryMode, TournamentMode
from ratings.web.officer.forms import TournamentHeadForm
from ratings.web.officer.forms.trf import TrfHeadForm
from tests.builders import club_player, save_tournament

pytestmark = pytest.mark.django_db

MESSAGE = (
    "Turniere, die vor mehr als einem Jahr endeten, kann nur ein Administrator korrigieren oder löschen."
)
D = datetime.date


@pytest.fixture(autouse=True)
def _window_on(_correction_window_off, settings):
    settings.OFFICER_CORRECTION_WINDOW = True  # off in the rest of the suite (tests/conftest.py)


def _days_ago(days: int) -> datetime.date:
    return permissions.today() - datetime.timedelta(days=days)


def _year_ago() -> datetime.date:
    """The end date whose anniversary is today (the last day an officer may still correct it)."""
    today = permissions.today()
    if today.month == 2 and today.day == 29:
        return D(today.year - 1, 2, 28) + datetime.timedelta(days=1)  # no anniversary of 29 Feb: 1 March
    return today.replace(year=today.year - 1)


# --- the rule, at the boundary ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("end", "on", "allowed"),
    [
        (D(2025, 3, 10), D(2026, 3, 9), True),  # 364 days
        (D(2025, 3, 10), D(2026, 3, 10), True),  # 365 days: the anniversary is still "up to one year"
        (D(2025, 3, 10), D(2026, 3, 11), False),  # 366 days
        (D(2023, 3, 10), D(2024, 3, 10), True),  # 366 days across 29 Feb 2024: still the anniversary
        (D(2023, 3, 10), D(2024, 3, 11), False),
        (D(2024, 2, 29), D(2025, 2, 28), True),  # 29 Feb has its anniversary on 28 Feb (BGB § 188 Abs. 3)
        (D(2024, 2, 29), D(2025, 3, 1), False),
        (D(2027, 2, 28), D(2028, 2, 28), True),
        (D(2027, 2, 28), D(2028, 2, 29), False),  # the leap day after the anniversary is past it
        (D(2025, 12, 31), D(2026, 12, 31), True),
        (D(2025, 12, 31), D(2027, 1, 1), False),
    ],
)
def test_an_officer_may_correct_up_to_the_anniversary_of_the_end_date(users, tree, end, on, allowed):
    t = Tournament(name="T", start_date=end, end_date=end, organiser_club=tree["club_a"])
    assert permissions.in_correction_window(end, on=on) is allowed
    assert permissions.may_correct(users["officer_a"], t, on=on) is allowed
    assert permissions.may_correct(users["admin"], t, on=on)  # an administrator always


def test_the_deadlines_are_counted_in_days_from_the_end_date():
    assert permissions.correction_deadline(D(2024, 2, 29)) == D(2025, 2, 28)
    assert permissions.correction_deadline(D(2028, 2, 29)) == D(2029, 2, 28)
    assert permissions.evaluation_deadline(D(2026, 1, 1)) == D(2026, 2, 12)  # six weeks
    assert permissions.days_past_evaluation_deadline(D(2026, 1, 1), on=D(2026, 2, 12)) == 0
    assert permissions.days_past_evaluation_deadline(D(2026, 1, 1), on=D(2026, 2, 20)) == 8


def test_the_refusal_says_who_may(users, tree):
    old = Tournament(
        name="T", start_date=_days_ago(400), end_date=_days_ago(400), organiser_club=tree["club_a"]
    )
    with pytest.raises(permissions.OutsideCorrectionWindow) as refused:
        permissions.check_correction_window(users["officer_lv"], old)
    assert str(refused.value) == MESSAGE
    permissions.check_correction_window(users["admin"], old)


# --- every write page ------------------------------------------------------------------------------------


@pytest.fixture
def old(tree, players):
    """A round robin of three, evaluated, that ended more than a year ago, with a draft beside it."""
    end = _days_ago(400)
    t = Tournament(
        name="Altes Turnier", start_date=end, end_date=end, rounds=3, organiser_club=tree["club_a"]
    )
    a, b, c = players
    save_tournament(players, [(a, b, "1-0"), (b, c, "1/2-1/2"), (c, a, "0-1")], end=end, tournament=t)
    TournamentEntryMode.objects.create(tournament=t, mode=TournamentMode.ROUND_ROBIN)
    TournamentDraft.objects.create(tournament=t, participants=[p.pk for p in players])
    t.refresh_from_db()
    return t


def _head(t: Tournament, **changes) -> dict:
    data = {
        "name": t.name,
        "place": "",
        "start_date": t.start_date.isoformat(),
        "end_date": t.end_date.isoformat(),
        "rounds": t.rounds or 3,
        "organiser": f"club:{t.organiser_club_id}",
        "mode": TournamentMode.ROUND_ROBIN,
        "rated": "on",
        "version": t.version,
    }
    return data | changes


def _write_requests(t: Tournament, players) -> list[tuple[str, str, dict]]:
    """(url, method, data) of every page on which an officer writes (or previews a write of) ``t``."""
    url = lambda name, *args: reverse(f"ratings:{name}", args=[t.pk, *args])  # noqa: E731
    ids = [str(p.pk) for p in players]
    return [
        (url("tournament-edit"), "get", {}),
        (url("tournament-edit"), "post", _head(t, name="Umbenannt")),
        (url("tournament-grid"), "get", {}),
        (url("tournament-grid"), "post", {"p": ids, "save": "1", "version": t.version}),
        (url("tournament-preview"), "post", {"p": ids}),
        (url("tournament-participants"), "get", {}),
        (url("tournament-participants"), "post", {"lines": players[0].key}),
        (url("tournament-rounds"), "get", {}),
        (url("tournament-round", 1), "get", {}),
        (url("tournament-round", 1), "post", {"line": "1 2 1"}),
        (url("tournament-draft-publish"), "post", {}),
        (url("tournament-draft-discard"), "post", {}),
        (url("tournament-delete"), "get", {}),
        (url("tournament-delete"), "post", {"version": t.version}),
    ]


@pytest.mark.parametrize("role", ["officer_a", "officer_lv"])
def test_every_write_page_of_an_old_tournament_refuses_an_officer(client, users, old, players, role):
    client.force_login(users[role])
    evaluations = Evaluation.objects.filter(tournament=old).count()
    for url, method, data in _write_requests(old, players):
        where = f"{method.upper()} {url}"
        response = getattr(client, method)(url, data)
        assert response.status_code == 403, where
        assert MESSAGE in response.content.decode(), where
    old.refresh_from_db()
    assert (old.name, old.version) == ("Altes Turnier", 1)
    assert TournamentDraft.objects.filter(tournament=old).exists()
    assert Evaluation.objects.filter(tournament=old).count() == evaluations == 3


def test_every_write_page_of_an_old_tournament_is_open_to_an_administrator(client, users, old, players):
    client.force_login(users["admin"])
    for url, method, data in _write_requests(old, players):
        savepoint = transaction.savepoint()  # a permitted POST may change or delete the tournament
        response = getattr(client, method)(url, data)
        assert response.status_code in (200, 302), f"{method.upper()} {url}"
        if response.status_code == 302:
            assert not response.url.startswith("/anmelden/")
        transaction.savepoint_rollback(savepoint)


def test_on_the_anniversary_the_officer_still_corrects(client, users, tree):
    end = _year_ago()
    t = Tournament.objects.create(
        name="Jahrestag", start_date=end, end_date=end, organiser_club=tree["club_a"]
    )
    client.force_login(users["officer_a"])
    response = client.post(reverse("ratings:tournament-edit", args=[t.pk]), _head(t, name="Korrigiert"))
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.name == "Korrigiert"
    assert (
        client.post(reverse("ratings:tournament-delete", args=[t.pk]), {"version": t.version}).status_code
        == 302
    )
    assert not Tournament.objects.filter(pk=t.pk).exists()


def test_a_day_after_the_anniversary_the_delete_is_refused(client, users, tree):
    end = _year_ago() - datetime.timedelta(days=1)
    t = Tournament.objects.create(name="Zu alt", start_date=end, end_date=end, organiser_club=tree["club_a"])
    client.force_login(users["officer_a"])
    response = client.post(reverse("ratings:tournament-delete", args=[t.pk]), {"version": t.version})
    assert response.status_code == 403
    assert MESSAGE in response.content.decode()
    assert Tournament.objects.filter(pk=t.pk).exists()


# --- end dates typed by an officer -----------------------------------------------------------------------


def test_an_officer_cannot_enter_a_tournament_that_ended_more_than_a_year_ago(client, users, tree):
    client.force_login(users["officer_a"])
    t = Tournament(name="Nachtrag", start_date=_days_ago(500), end_date=_days_ago(500), rounds=3)
    t.organiser_club_id = tree["club_a"].pk
    response = client.post(reverse("ratings:tournament-create"), _head(t, version=""))
    assert response.status_code == 200
    assert MESSAGE in response.content.decode()
    assert not Tournament.objects.filter(name="Nachtrag").exists()
    client.force_login(users["admin"])
    assert client.post(reverse("ratings:tournament-create"), _head(t, version="")).status_code == 302
    assert Tournament.objects.filter(name="Nachtrag").exists()


def test_an_officer_cannot_move_a_recent_tournament_more_than_a_year_back(client, users, tree):
    end = _days_ago(10)
    t = Tournament.objects.create(
        name="Neu", start_date=end, end_date=end, rounds=3, organiser_club=tree["club_a"]
    )
    client.force_login(users["officer_a"])
    back = _days_ago(400).isoformat()
    response = client.post(
        reverse("ratings:tournament-edit", args=[t.pk]), _head(t, start_date=back, end_date=back)
    )
    assert response.status_code == 200
    assert MESSAGE in response.content.decode()
    version = t.version
    t.refresh_from_db()
    assert (t.end_date, t.version) == (end, version)


def test_the_head_forms_check_the_end_date_for_an_officer_only(users, tree):
    kwargs = {"clubs": [tree["club_a"]], "organisations": []}
    t = Tournament(name="X", start_date=_days_ago(400), end_date=_days_ago(400), rounds=1)
    t.organiser_club_id = tree["club_a"].pk
    data = _head(t, version="")
    assert "end_date" in TournamentHeadForm(data, user=users["officer_a"], **kwargs).errors
    assert "end_date" not in TournamentHeadForm(data, user=users["admin"], **kwargs).errors
    trf = {"name": "X", "start_date": data["start_date"], "end_date": data["end_date"], "rated": "on"}
    trf["organiser"] = f"c{tree['club_a'].pk}"
    officer = TrfHeadForm(trf, user=users["officer_a"], is_staff=False, **kwargs)
    assert officer.errors["end_date"] == [MESSAGE]
    assert "end_date" not in TrfHeadForm(trf, user=users["admin"], is_staff=True, **kwargs).errors


# --- the merge rewrites the dropped player's entries -----------------------------------------------------


def test_an_officer_may_not_merge_away_a_player_of_an_old_tournament(client, users, tree, old, players):
    twin = club_player(tree["club_a"], players[0].surname, 1600, number="9")  # only in no tournament
    client.force_login(users["officer_a"])
    url = reverse("ratings:officer-merge")
    page = client.get(url, {"keep": twin.pk, "drop": players[0].pk})
    assert page.status_code == 200
    html = page.content.decode()
    assert MESSAGE in html and "Altes Turnier" in html and 'id="merge-confirm"' not in html
    response = client.post(url, {"keep": twin.pk, "drop": players[0].pk})
    assert response.status_code == 403
    assert Player.objects.filter(pk=players[0].pk).exists()
    assert TournamentEntry.objects.filter(tournament=old, player=players[0]).exists()
    # The other way round only the twin's (no) entries move: allowed.
    swapped = client.get(url, {"keep": players[0].pk, "drop": twin.pk}).content.decode()
    assert 'id="merge-confirm"' in swapped
    client.force_login(users["admin"])
    assert 'id="merge-confirm"' in client.get(url, {"keep": twin.pk, "drop": players[0].pk}).content.decode()


# --- links -----------------------------------------------------------------------------------------------


def test_the_pages_hide_the_edit_links_of_an_old_tournament_from_an_officer(client, users, old, tree):
    recent = Tournament.objects.create(
        name="Frisch", start_date=_days_ago(5), end_date=_days_ago(5), organiser_club=tree["club_a"]
    )
    client.force_login(users["officer_a"])
    dashboard = client.get(reverse("ratings:officer-dashboard")).content.decode()
    assert reverse("ratings:tournament-edit", args=[recent.pk]) in dashboard
    assert reverse("ratings:tournament-edit", args=[old.pk]) not in dashboard
    assert reverse("ratings:tournament-delete", args=[old.pk]) not in dashboard
    assert "nur Administrator" in dashboard and MESSAGE in dashboard
    public = client.get(old.get_absolute_url()).content.decode()
    assert reverse("ratings:tournament-delete", args=[old.pk]) not in public
    assert MESSAGE in public
    client.force_login(users["admin"])
    public = client.get(old.get_absolute_url()).content.decode()
    assert reverse("ratings:tournament-delete", args=[old.pk]) in public
    dashboard = client.get(reverse("ratings:officer-dashboard")).content.decode()
    assert reverse("ratings:tournament-delete", args=[old.pk]) in dashboard


def test_the_services_check_the_window_inside_the_lock(users, tree):
    """The view checks before the lock is taken; the service checks the stored end date again inside it, so
    a tournament moved past the year meanwhile is refused there too (with the user the views pass)."""
    from ratings.services import tournament_delete, tournament_save_head

    a, b = (
        club_player(tree["club_a"], "Alt", dwz=1500),
        club_player(tree["club_a"], "Berg", dwz=1600, number="2"),
    )
    t, _ = save_tournament([a, b], [(a, b, "1-0")], end=_days_ago(400))
    t.organiser_club = tree["club_a"]
    t.save(update_fields=["organiser_club"])
    with pytest.raises(permissions.OutsideCorrectionWindow), transaction.atomic():
        tournament_save_head(tournament=Tournament.objects.get(pk=t.pk), user=users["officer_a"])
    with pytest.raises(permissions.OutsideCorrectionWindow), transaction.atomic():
        tournament_delete(tournament=Tournament.objects.get(pk=t.pk), user=users["officer_a"])
    assert Tournament.objects.filter(pk=t.pk).exists()
    tournament_delete(tournament=Tournament.objects.get(pk=t.pk), user=users["admin"])
    assert not Tournament.objects.filter(pk=t.pk).exists()
