"""Corrections that show what they change (issue 32): the delete confirmation counts games as the
tournament page does, the report after a save shows the tournament's own changes (cells old → new), and an
earlier version can be restored through the services."""

import datetime

import pytest
from django.urls import reverse

from ratings.models import Game, Player, Tournament, TournamentEntry
from ratings.models.audit import AuditAction
from ratings.models.officer import TournamentMode
from ratings.selectors.audit import save_event, version_before
from ratings.services import tournament_create, tournament_save_results
from tests.builders import head_data

pytestmark = pytest.mark.django_db


def _with_byes(tournament, players, user):
    """Three rounds of the round robin of three, each with one player's bye: 3 games and 3 byes."""
    a, b, c = players
    tournament_save_results(
        tournament=tournament,
        entries=[TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, 1)],
        games=[
            Game(round=1, board=1, white=a, black=b, result="1-0"),
            Game(round=1, white=c, black=None, result="+"),
            Game(round=2, board=1, white=b, black=c, result="1/2-1/2"),
            Game(round=2, white=a, black=None, result="+"),
            Game(round=3, board=1, white=c, black=a, result="0-1"),
            Game(round=3, white=b, black=None, result="+"),
        ],
        user=user,
    )


def test_delete_counts_the_games_the_tournament_page_counts(login, users, tournament, players):
    """Issue 32: "1001 Partien" on the delete page against "980 Partien" on the tournament page."""
    _with_byes(tournament, players, users["officer_a"])
    client = login(users["officer_a"])
    public = client.get(reverse("ratings:tournament-detail", args=[tournament.pk])).content.decode()
    assert "3 Partien" in public
    page = client.get(reverse("ratings:tournament-delete", args=[tournament.pk])).content.decode()
    assert "3 Partien werden gelöscht." in page
    assert "Dazu 3 spielfreie Runden (Freilose)." in page
    assert "6 Partien" not in page


FIRST = [((0, 1), "1-0"), ((0, 2), "1-0"), ((1, 2), "1/2-1/2")]
CORRECTED = [((0, 1), "0-1"), ((0, 2), "1-0"), ((1, 2), "1/2-1/2")]


def _results(tournament, players, results, user):
    tournament_save_results(
        tournament=Tournament.objects.get(pk=tournament.pk),
        entries=[TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, 1)],
        games=[
            Game(round=n, board=1, white=players[i], black=players[j], result=r)
            for n, ((i, j), r) in enumerate(results, 1)
        ],
        user=user,
    )


def _last_save(tournament):
    version = Tournament.objects.get(pk=tournament.pk).version
    return save_event(tournament_id=tournament.pk, version=version)


def _restore_url(tournament, event):
    return reverse("ratings:tournament-restore-version", args=[tournament.pk, event.pk])


def test_report_after_a_head_save_shows_the_change_and_restores_the_version_before(
    login, users, tree, tournament, players
):
    _results(tournament, players, FIRST, users["officer_a"])
    client = login(users["officer_a"])
    data = head_data(tree, name="VM 2024", place="Esslingen", version="2")
    response = client.post(reverse("ratings:tournament-edit", args=[tournament.pk]), data)
    assert response["Location"] == reverse("ratings:officer-report")
    report = client.get(response["Location"]).content.decode()
    assert "Änderungen am Turnier" in report
    assert "Name: Vereinsmeisterschaft → VM 2024" in report and "Ort: – → Esslingen" in report
    renamed = _last_save(tournament)
    assert f'href="{_restore_url(tournament, renamed)}"' in report
    assert "Vorherige Fassung wiederherstellen" in report
    # The confirmation names what the restore changes against the stored state.
    page = client.get(_restore_url(tournament, renamed)).content.decode()
    assert "Name: VM 2024 → Vereinsmeisterschaft" in page and "Ort: Esslingen → –" in page
    response = client.post(_restore_url(tournament, renamed), {"version": "3"})
    assert response["Location"] == reverse("ratings:officer-report")
    report = client.get(response["Location"]).content.decode()
    assert "Frühere Fassung von „Vereinsmeisterschaft“ wiederhergestellt" in report
    assert "Name: VM 2024 → Vereinsmeisterschaft" in report
    restored = Tournament.objects.get(pk=tournament.pk)
    assert (restored.name, restored.place, restored.version) == ("Vereinsmeisterschaft", "", 4)
    assert _last_save(tournament).action == AuditAction.RESTORE


def test_restore_page_shows_the_cells_old_to_new_and_the_report_the_result_diff(
    login, users, tournament, players
):
    _results(tournament, players, FIRST, users["officer_a"])
    _results(tournament, players, CORRECTED, users["officer_a"])
    correction = _last_save(tournament)
    client = login(users["officer_a"])
    # The edit page's trail offers the version before each save it stores.
    edit = client.get(reverse("ratings:tournament-edit", args=[tournament.pk])).content.decode()
    assert f'href="{_restore_url(tournament, correction)}"' in edit
    assert "Ergebnisse geändert (1): R1/B1: Anton, Test – Berta, Test 1-0 → 0-1" in edit
    public = client.get(reverse("ratings:tournament-detail", args=[tournament.pk])).content.decode()
    assert f'href="{_restore_url(tournament, correction)}"' in public  # the trail on the public page too
    visitor = login(users["officer_b"])  # may not correct it: no link
    assert (
        "restore-version"
        not in visitor.get(reverse("ratings:tournament-detail", args=[tournament.pk])).content.decode()
    )
    client = login(users["officer_a"])
    page = client.get(_restore_url(tournament, correction)).content.decode()
    assert "Runde 1, Brett 1</span>: Anton, Test – Berta, Test" in page
    assert "<del>0-1</del> → <strong>1-0</strong>" in page
    # A save by someone else since the page was loaded: 409 with that save named, nothing restored.
    response = client.post(_restore_url(tournament, correction), {"version": "2"})
    assert response.status_code == 409
    assert "jemand anderes hat das Turnier inzwischen geändert" in response.content.decode()
    assert Game.objects.get(tournament=tournament, round=1).result == "0-1"
    response = client.post(_restore_url(tournament, correction), {"version": "3"})
    report = client.get(response["Location"]).content.decode()
    assert Game.objects.get(tournament=tournament, round=1).result == "1-0"
    assert "<del>0-1</del> → <strong>1-0</strong>" in report
    assert f'href="{_restore_url(tournament, _last_save(tournament))}"' in report  # undo the restore


def test_restore_refusals_are_pages_not_errors(login, users, tree, tournament, players):
    _results(tournament, players, FIRST, users["officer_a"])
    _results(tournament, players, CORRECTED, users["officer_a"])
    correction = _last_save(tournament)
    first = version_before(event=correction)
    client = login(users["officer_b"])  # another club's officer
    assert client.get(_restore_url(tournament, correction)).status_code == 403
    client = login(users["officer_a"])
    assert client.get(_restore_url(tournament, first)).status_code == 404  # nothing stored before it
    other = Tournament.objects.create(
        name="Anderes",
        start_date=tournament.start_date,
        end_date=tournament.end_date,
        organiser_club=tree["club_a"],
    )
    assert client.get(_restore_url(other, correction)).status_code == 404  # not a save of that tournament
    # A player of the version before was deleted since: the page says so, nothing changes.
    gone = Player.objects.create(key="C0501-9", surname="Weg", first_name="Willi")
    tournament_save_results(
        tournament=Tournament.objects.get(pk=tournament.pk),
        entries=[TournamentEntry(player=p, start_rank=i) for i, p in enumerate([*players, gone], 1)],
        games=[Game(round=1, board=1, white=gone, black=players[0], result="1-0")],
        user=users["officer_a"],
    )
    _results(tournament, players, FIRST, users["officer_a"])
    Player.objects.filter(pk=gone.pk).delete()
    latest = _last_save(tournament)
    version = Tournament.objects.get(pk=tournament.pk).version
    response = client.post(_restore_url(tournament, latest), {"version": str(version)})
    assert response.status_code == 200
    assert "Spieler fehlen inzwischen: Weg, Willi" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).version == version


def test_report_after_publishing_a_draft_lists_the_new_pairings(login, users, tree, players):
    """The rounds screen's "Speichern und auswerten" ends on the same report, with this save's changes."""
    swiss = Tournament(
        name="Schnellschach-Open",
        start_date=datetime.date(2024, 5, 1),
        end_date=datetime.date(2024, 5, 1),
        rounds=3,
        organiser_club=tree["club_a"],
    )
    tournament_create(tournament=swiss, mode=TournamentMode.SWISS, user=users["officer_a"])
    client = login(users["officer_a"])
    url = reverse("ratings:tournament-participants", args=[swiss.pk])
    client.post(url, {"lines": "\n".join(p.key for p in players)})
    round_url = reverse("ratings:tournament-round", args=[swiss.pk, 1])
    client.post(round_url, {"line": "1 2 1"})
    client.post(round_url, {"line": "3 +"})
    response = client.post(reverse("ratings:tournament-draft-publish", args=[swiss.pk]))
    assert response["Location"] == reverse("ratings:officer-report")
    report = client.get(response["Location"]).content.decode()
    assert "Änderungen am Turnier" in report
    assert "3 hinzu: Anton, Test; Berta, Test; Carl, Test" in report
    assert "Runde 1, Brett 1</span>: Anton, Test – Berta, Test" in report
    assert "Runde 1, Brett 2</span>: Carl, Test (spielfrei)" in report
    assert "Turnierart" not in report  # created as Swiss, published as Swiss
    created = save_event(tournament_id=swiss.pk, version=1)
    published = save_event(tournament_id=swiss.pk, version=2)
    assert version_before(event=published) == created
    assert f'href="{_restore_url(swiss, published)}"' in report  # back to the empty tournament


def test_report_without_a_stored_state_before_shows_the_saves_own_lines(login, users, tournament, players):
    """A tournament created outside the services (no "angelegt" row): the report shows the audit row's lines
    and offers no restore."""
    client = login(users["officer_a"])
    client.post(
        reverse("ratings:tournament-participants", args=[tournament.pk]),
        {"lines": "\n".join(p.key for p in players)},
    )
    client.post(reverse("ratings:tournament-round", args=[tournament.pk, 1]), {"line": "1 2 1"})
    client.post(reverse("ratings:tournament-round", args=[tournament.pk, 1]), {"line": "3 +"})
    response = client.post(reverse("ratings:tournament-draft-publish", args=[tournament.pk]))
    report = client.get(response["Location"]).content.decode()
    assert "Teilnehmer hinzu (3): Anton, Test; Berta, Test; Carl, Test" in report
    assert "R1/B1: Anton, Test – Berta, Test 1-0" in report
    assert "restore-previous" not in report
