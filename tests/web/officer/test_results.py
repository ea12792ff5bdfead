"""Tournament create → results → save → correction → delete → restore, through the views and real services.

Expected values derived by hand (spec §4): see test_preview.py. Correction (B beats A instead):
A W 1 < We 1.398, E 22, Rn = 1600 − 800·0.398/24 = 1586.73 → 1587; B W 1.5, We 1.000, E 20,
Rn = 1500 + 800·0.5/22 = 1518.18 → 1518; C unchanged 1396.
"""

import pytest
from django.urls import reverse

from ratings.models import Game, Player, Tournament, TournamentDraft, TournamentEntry
from ratings.models.audit import AuditAction, AuditEvent, AuditObjectType
from ratings.models.officer import TournamentEntryMode
from ratings.services import tournament_restore
from tests.builders import grid_data

pytestmark = pytest.mark.django_db

RESULTS = {(0, 1): "1", (0, 2): "1", (1, 2): "5"}


def dwz(player):
    player.refresh_from_db()
    return player.dwz, player.index


def test_create_tournament_head(login, users, tree):
    client = login(users["officer_a"])
    response = client.post(
        reverse("ratings:tournament-create"),
        {
            "name": "Sommerturnier",
            "code": "c428-c05-st1",
            "place": "Stuttgart",
            "start_date": "2024-07-01",
            "end_date": "2024-07-07",
            "rounds": "5",
            "organiser": f"club:{tree['club_a'].pk}",
            "mode": "swiss",
            "rated": "on",
        },
    )
    t = Tournament.objects.get(name="Sommerturnier")
    assert response.status_code == 302
    assert response.url == reverse("ratings:tournament-participants", args=[t.pk])  # Swiss: players first
    assert t.code == "C428-C05-ST1"
    assert t.organiser_club == tree["club_a"]
    assert t.rating_officer == users["officer_a"]
    assert TournamentEntryMode.objects.get(tournament=t).mode == "swiss"
    event = AuditEvent.objects.get(object_type=AuditObjectType.TOURNAMENT, object_id=t.pk)
    assert event.action == AuditAction.CREATE
    assert event.user == users["officer_a"]
    assert event.changes["head"]["name"] == [None, "Sommerturnier"]


def test_save_results_recalculates_and_reports(login, users, tournament, players):
    client = login(users["officer_a"])
    response = client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]), grid_data(players, RESULTS, save="1")
    )
    assert response.status_code == 302
    assert response.url == reverse("ratings:officer-report")
    assert [dwz(p) for p in players] == [(1620, 11), (1482, 11), (1396, 11)]
    assert Game.objects.filter(tournament=tournament).count() == 3
    assert list(
        TournamentEntry.objects.filter(tournament=tournament)
        .order_by("start_rank")
        .values_list("player_id", flat=True)
    ) == [p.pk for p in players]
    # Round robin of three: Berger rounds 1-3, each player at most once per round.
    rounds = sorted(Game.objects.filter(tournament=tournament).values_list("round", flat=True))
    assert rounds == [1, 2, 3]
    report = client.get(response.url).content.decode()
    assert "1 Turnier wurde ausgewertet" in report
    assert "1600" in report and "1620" in report
    event = AuditEvent.objects.filter(object_id=tournament.pk, action=AuditAction.UPDATE).get()
    assert len(event.changes["games_added"]) == 3
    assert len(event.changes["entries_added"]) == 3


def test_correction_through_the_view(login, users, tournament, players):
    client = login(users["officer_a"])
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    client.post(url, grid_data(players, RESULTS, save="1"))
    rounds_before = dict(Game.objects.filter(tournament=tournament).values_list("white_id", "round"))
    # The stored grid shows both cells of each game.
    html = client.get(url).content.decode()
    assert (
        f'name="rr-{players[1].pk}-{players[0].pk}" id="id_rr-{players[1].pk}-{players[0].pk}" value="0"'
        in html
    )
    response = client.post(url, grid_data(players, {(0, 1): "0", (0, 2): "1", (1, 2): "½"}, save="1"))
    assert response.status_code == 302
    assert [dwz(p) for p in players] == [(1587, 11), (1518, 11), (1396, 11)]
    assert dict(Game.objects.filter(tournament=tournament).values_list("white_id", "round")) == rounds_before
    event = AuditEvent.objects.filter(object_id=tournament.pk).order_by("-pk").first()
    assert event.action == AuditAction.UPDATE
    assert event.user == users["officer_a"]
    assert len(event.changes["games_changed"]) == 1  # the same pairing, its result changed (issue 32)
    assert "games_added" not in event.changes and "games_removed" not in event.changes
    # The trail is shown to the officer on the results page.
    html = client.get(url).content.decode()
    assert "Änderungsprotokoll" in html
    assert "Ergebnisse geändert (1)" in html


def test_invalid_results_are_not_saved(login, users, tournament, players):
    client = login(users["officer_a"])
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    response = client.post(url, grid_data(players, {(0, 1): "1", (1, 0): "1", (0, 2): "x"}, save="1"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Nicht gespeichert" in html
    assert "is-invalid" in html
    assert "Spiegelzelle" in html
    assert "Unbekanntes Ergebnis „x“" in html
    assert not Game.objects.exists()
    assert dwz(players[0]) == (1600, 10)


def test_edit_head_changes_date_and_recalculates(login, users, tournament, players):
    client = login(users["officer_a"])
    client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]), grid_data(players, RESULTS, save="1")
    )
    url = reverse("ratings:tournament-edit", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert "Speichern wertet dieses Turnier und höchstens 0 spätere Turniere" in page
    response = client.post(
        url,
        {
            "name": "VM 2026",
            "start_date": "2026-09-01",
            "end_date": "2026-09-20",
            "rounds": "3",
            "organiser": f"club:{tournament.organiser_club_id}",
            "mode": "rr",
            "rated": "on",
        },
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "VM 2026"
    # WO 2026 now (K instead of E): A group B (adult, < 2000), index 10 → K0 30; W ≥ We, R0 ≥ 1600 → a = 0.
    # Rn = 1600 + 30·0.602 = 1618.06 → 1618.
    assert dwz(players[0]) == (1618, 11)
    event = AuditEvent.objects.filter(object_id=tournament.pk).order_by("-pk").first()
    assert event.changes["head"]["end_date"] == ["2024-03-10", "2026-09-20"]


def test_edit_head_rejects_fewer_rounds_than_played(login, users, tournament, players):
    client = login(users["officer_a"])
    client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]), grid_data(players, RESULTS, save="1")
    )
    response = client.post(
        reverse("ratings:tournament-edit", args=[tournament.pk]),
        {
            "name": "VM",
            "start_date": "2024-03-01",
            "end_date": "2024-03-10",
            "rounds": "2",
            "organiser": f"club:{tournament.organiser_club_id}",
            "mode": "rr",
            "rated": "on",
        },
    )
    assert response.status_code == 200
    assert "Es gibt schon Partien in Runde 3" in response.content.decode()


def test_delete_names_consequences_then_restores(login, users, tournament, players):
    client = login(users["officer_a"])
    client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]), grid_data(players, RESULTS, save="1")
    )
    url = reverse("ratings:tournament-delete", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert "3 Partien werden gelöscht" in page
    assert "Die DWZ-Auswertungen von 3 Spielern entfallen" in page
    assert "0 spätere Turniere" in page
    response = client.post(url)
    assert response.status_code == 302
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert [dwz(p) for p in players] == [(1600, 10), (1500, 10), (1400, 10)]
    event = AuditEvent.objects.get(action=AuditAction.DELETE, object_id=tournament.pk)
    assert len(event.snapshot["games"]) == 3
    assert "Turnier „Vereinsmeisterschaft" in client.get(response.url).content.decode()
    # An admin restores it: same games, same ratings.
    restored, _report = tournament_restore(event=event, user=users["admin"])
    assert restored.name == "Vereinsmeisterschaft"
    assert Game.objects.filter(tournament=restored).count() == 3
    assert [dwz(p) for p in players] == [(1620, 11), (1482, 11), (1396, 11)]
    assert TournamentEntryMode.objects.get(tournament=restored).mode == "rr"
    event.refresh_from_db()
    assert event.restored_as == restored.pk
    assert AuditEvent.objects.filter(action=AuditAction.RESTORE, object_id=restored.pk).exists()
    with pytest.raises(Exception, match="schon wiederhergestellt"):
        tournament_restore(event=event, user=users["admin"])


def test_participants_add_remove_and_search(login, users, tournament, players):
    """The Teilnehmer tab of the draft: search (page and autocomplete), add, remove; each change is kept."""
    client = login(users["officer_a"])
    url = reverse("ratings:tournament-participants", args=[tournament.pk])
    client.post(url, {"add": players[0].pk})
    html = client.get(url, {"q": "Ber"}).content.decode()
    assert f'name="add" value="{players[1].pk}"' in html
    client.post(url, {"add": players[1].pk})
    assert TournamentDraft.objects.get(tournament=tournament).participants == [players[0].pk, players[1].pk]
    client.post(url, {"remove": players[0].pk})
    assert TournamentDraft.objects.get(tournament=tournament).participants == [players[1].pk]
    # The grid shows the draft's participants.
    html = client.get(reverse("ratings:tournament-grid", args=[tournament.pk])).content.decode()
    assert f'name="p" value="{players[1].pk}"' in html and f'name="p" value="{players[0].pk}"' not in html
    # Autocomplete endpoint: by ZPS-member number and by name; participants excluded.
    search = reverse("ratings:officer-player-search")
    assert players[2].name in client.get(search, {"q": "C0501-3"}).content.decode()
    assert players[0].name not in client.get(search, {"q": "Anton", "p": players[0].pk}).content.decode()
    assert "„Zzz“ nicht gefunden – neu anlegen" in client.get(search, {"q": "Zzz"}).content.decode()


def test_new_player_inline_with_duplicate_warning(login, users, tree, tournament, players):
    """Created from the Teilnehmer tab's search, the new player joins the draft at once: leaving the page
    loses nothing and leaves no player record without its participant."""
    client = login(users["officer_a"])
    url = reverse("ratings:tournament-participants", args=[tournament.pk])
    client.post(url, {"add": players[1].pk})
    data = {
        "q": "Anton, Test",
        "new_player": "1",
        "np-surname": "Anton",
        "np-first_name": "Test",
        "np-birth_year": "1980",
        "np-club": tree["club_a"].pk,
        "np-dwz": "1700",
        "np-index": "3",
    }
    html = client.post(url, data).content.decode()
    assert "Es gibt schon Spieler mit diesem Namen" in html
    assert Player.objects.filter(surname="Anton").count() == 1
    response = client.post(url, {**data, "np-confirm_duplicate": "on"}, follow=True)
    new = Player.objects.filter(surname="Anton").order_by("-pk").first()
    assert new.pk != players[0].pk
    assert (new.dwz, new.index) == (1700, 3)
    assert new.memberships.get().club == tree["club_a"]
    assert (
        "Spieler „Anton, Test“ angelegt und als Nr. 2 in den Entwurf aufgenommen."
        in response.content.decode()
    )
    assert TournamentDraft.objects.get(tournament=tournament).participants == [players[1].pk, new.pk]
    # Still there when the officer comes back, on the participants and in the grid.
    html = client.get(reverse("ratings:tournament-grid", args=[tournament.pk])).content.decode()
    assert f'name="p" value="{new.pk}"' in html
    assert AuditEvent.objects.filter(object_type=AuditObjectType.PLAYER, object_id=new.pk).exists()
    assert AuditEvent.objects.filter(object_type=AuditObjectType.ADJUSTMENT, player_ref=new.pk).exists()


def test_new_player_needs_own_club(login, users, tree, tournament):
    client = login(users["officer_a"])
    url = reverse("ratings:tournament-participants", args=[tournament.pk])
    html = client.post(
        url, {"new_player": "1", "np-surname": "Fremd", "np-club": tree["club_b"].pk}
    ).content.decode()
    assert not Player.objects.filter(surname="Fremd").exists()
    assert not TournamentDraft.objects.filter(tournament=tournament).exists()
    assert "Auswahl" in html or "gültige" in html


def test_swiss_boards_save(login, users, tournament, players):
    """A Swiss with byes, entered round by round in the draft and published: the values of the former
    boards form (A 1620, B 1482, C 1396); the stored boards come back for the next correction."""
    TournamentEntryMode.objects.filter(tournament=tournament).update(mode="swiss")
    client = login(users["officer_a"])
    client.post(
        reverse("ratings:tournament-participants", args=[tournament.pk]),
        {"lines": "\n".join(p.key for p in players)},
    )
    client.post(reverse("ratings:tournament-participants", args=[tournament.pk]), {"renumber": "1"})
    order = TournamentDraft.objects.get(tournament=tournament).participants
    no = {pk: i for i, pk in enumerate(order, start=1)}
    a, b, c = (no[p.pk] for p in players)
    for round_no, lines in (
        (1, [f"{a} {b} 1", f"{c} +"]),
        (2, [f"{c} {a} 0", f"{b} h"]),
        (3, [f"{b} {c} r"]),
    ):
        for line in lines:
            client.post(reverse("ratings:tournament-round", args=[tournament.pk, round_no]), {"line": line})
    response = client.post(reverse("ratings:tournament-draft-publish", args=[tournament.pk]))
    assert response.status_code == 302
    assert [dwz(p) for p in players] == [(1620, 11), (1482, 11), (1396, 11)]
    assert Game.objects.filter(tournament=tournament, black__isnull=True).count() == 2
    assert TournamentEntryMode.objects.get(tournament=tournament).mode == "swiss"
    html = client.get(reverse("ratings:tournament-round", args=[tournament.pk, 3])).content.decode()
    assert "½-½" in html
    # The grid is for round robins: a Swiss is sent to its rounds.
    grid = client.get(reverse("ratings:tournament-grid", args=[tournament.pk]))
    assert grid["Location"] == reverse("ratings:tournament-rounds", args=[tournament.pk])


def test_paste_block_fills_the_grid_without_saving(login, users, tournament, players):
    client = login(users["officer_a"])
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    data = grid_data(players, {}, paste="x 1 1\n0 x r\n0 r x", do_paste="1")
    html = client.post(url, data).content.decode()
    assert f'id="id_rr-{players[1].pk}-{players[2].pk}" value="r"' in html
    assert "1620-11" in html  # the preview is rendered inline (no JavaScript needed)
    assert not Game.objects.exists()


def test_the_old_results_page_redirects_for_good(login, users, tournament, players):
    """The former "Ergebnisse" URL answers 301 to the entry, which opens the tab the tournament is at: the
    participants while there are none, then the grid (round robin) or the rounds (Swiss). A search keeps its
    meaning on the participants' search."""
    client = login(users["officer_a"])
    old = f"/turniere/{tournament.pk}/ergebnisse/"
    response = client.get(old)
    assert response.status_code == 301
    assert response["Location"] == reverse("ratings:tournament-entry", args=[tournament.pk])
    assert client.post(old, {"save": "1"}).status_code == 301
    response = client.get(old, {"q": "Anton"})
    assert response.status_code == 301
    assert (
        response["Location"] == reverse("ratings:tournament-participants", args=[tournament.pk]) + "?q=Anton"
    )
    entry = reverse("ratings:tournament-entry", args=[tournament.pk])
    assert client.get(entry)["Location"] == reverse("ratings:tournament-participants", args=[tournament.pk])
    client.post(reverse("ratings:tournament-participants", args=[tournament.pk]), {"add": players[0].pk})
    assert client.get(entry)["Location"] == reverse("ratings:tournament-grid", args=[tournament.pk])
    TournamentEntryMode.objects.filter(tournament=tournament).update(mode="swiss")
    assert client.get(entry)["Location"] == reverse("ratings:tournament-rounds", args=[tournament.pk])
    # Another officer's tournament: the entry refuses as every tab does.
    other = login(users["officer_b"])
    assert other.get(entry).status_code == 403


def test_grid_kept_as_draft_is_not_rated_and_comes_back(login, users, tournament, players):
    client = login(users["officer_a"])
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    response = client.post(url, grid_data(players, RESULTS, keep="1"))
    assert response.status_code == 302
    assert not Game.objects.filter(tournament=tournament).exists()
    draft = TournamentDraft.objects.get(tournament=tournament)
    assert draft.participants == [p.pk for p in players] and len(draft.games) == 3
    html = client.get(url).content.decode()
    assert f'id="id_rr-{players[1].pk}-{players[2].pk}" value="½"' in html
    assert "Entwurf, noch nicht ausgewertet" in html
    # Saving the grid evaluates it and drops the draft.
    assert client.post(url, grid_data(players, RESULTS, save="1")).status_code == 302
    assert not TournamentDraft.objects.filter(tournament=tournament).exists()
    assert [dwz(p) for p in players] == [(1620, 11), (1482, 11), (1396, 11)]


def test_a_participant_ticked_as_non_member_is_counted_but_keeps_his_dwz(login, users, tournament, players):
    """WO 3.4.3: C (1400) is not a DSB member. The preview and the save count his games for A and B exactly
    as before (spec values above: A 1620, B 1482), but C keeps 1400-10 and his row is "Nichtmitglied"."""
    client = login(users["officer_a"])
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    c = players[2]
    preview = client.post(url, grid_data(players, RESULTS, nm=[str(c.pk)])).content.decode()
    assert f'name="nm" value="{c.pk}" id="nm-{c.pk}" checked' in preview
    assert 'Nichtmitglied</span> <span class="text-body-secondary small">(1400)</span>' in preview
    response = client.post(url, grid_data(players, RESULTS, nm=[str(c.pk)], save="1"))
    assert response.status_code == 302
    assert [dwz(p) for p in players] == [(1620, 11), (1482, 11), (1400, 10)]
    entries = TournamentEntry.objects.filter(tournament=tournament).order_by("start_rank")
    assert [e.member for e in entries] == [True, True, False]
    # The page shows the stored flag again; saving without the tick makes him a member.
    page = client.get(url).content.decode()
    assert f'id="nm-{c.pk}" checked' in page and f'id="nm-{players[0].pk}" checked' not in page
    client.post(url, grid_data(players, RESULTS, save="1"))
    assert dwz(c) == (1396, 11)
