"""The draft as the one way to enter a tournament: a result typed over a stored one is said in place with an
undo; a participant asked for again is named; the board results of the round screen and their messages
(what the former boards form of the "Ergebnisse" page checked)."""

import datetime

import pytest
from django.urls import reverse

from ratings.models import Player, Tournament, TournamentDraft
from tests.builders import club_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(tree):
    return Tournament.objects.create(
        name="Herbst-Open",
        start_date=datetime.date(2024, 9, 1),
        end_date=datetime.date(2024, 9, 1),
        rounds=3,
        organiser_club=tree["club_a"],
    )


@pytest.fixture
def four(tree):
    names = ["Anna", "Bernd", "Carla", "Dora"]
    return [
        club_player(tree["club_a"], name, 1800 - 100 * i, number=str(40 + i)) for i, name in enumerate(names)
    ]


@pytest.fixture
def entered(client, users, swiss, four):
    """Officer A logged in, the four players in start order 1–4."""
    client.force_login(users["officer_a"])
    client.post(_url("tournament-participants", swiss), {"lines": "\n".join(p.key for p in four)})
    return client


def _url(name, t, *args):
    return reverse(f"ratings:{name}", args=[t.pk, *args])


def _results(swiss, round_no=1):
    return {
        g["board"]: g["result"]
        for g in TournamentDraft.objects.get(tournament=swiss).games
        if g["round"] == round_no
    }


def test_typing_over_a_stored_result_says_so_and_undo_restores_it(entered, swiss):
    round_url = _url("tournament-round", swiss, 1)
    entered.post(round_url, {"line": "1 4 1"})
    entered.post(round_url, {"line": "2 3 ½"})
    # Round 1 complete: the page moves on, nothing was replaced, nothing to say.
    html = entered.get(_url("tournament-round", swiss, 2)).content.decode()
    assert 'id="overwrite-notice"' not in html
    # The correction: same pairing, another result. It stays on round 1 and says what it replaced.
    response = entered.post(round_url, {"line": "1 4 0"})
    assert response["Location"].startswith(round_url)
    assert _results(swiss) == {1: "0-1", 2: "1/2-1/2"}
    html = entered.get(round_url).content.decode()
    assert 'id="overwrite-notice"' in html
    assert "Brett 1:" in html and "1-0 → 0-1" in html
    assert 'name="undo" value="1"' in html
    # Said once, not again on the next visit.
    assert 'id="overwrite-notice"' not in entered.get(round_url).content.decode()
    # Undo puts the old result back and says so.
    response = entered.post(round_url, {"undo": "1", "undo_old": "1-0", "undo_new": "0-1"})
    assert response["Location"].startswith(round_url)
    assert _results(swiss) == {1: "1-0", 2: "1/2-1/2"}
    assert "Brett 1: wieder 1-0 (rückgängig gemacht)." in entered.get(round_url).content.decode()


def test_a_pasted_round_over_stored_results_names_each_replaced_board(entered, swiss):
    round_url = _url("tournament-round", swiss, 1)
    entered.post(round_url, {"paste": "1 4 1\n2 3 1", "do_paste": "1"})
    entered.post(round_url, {"paste": "1 4 1\n2 3 0", "do_paste": "1"})  # board 1 unchanged, board 2 replaced
    html = entered.get(round_url).content.decode()
    assert "1-0 → 0-1" in html and "Brett 2:" in html and "Brett 1:" not in html


def test_undo_refuses_when_the_board_changed_since(entered, swiss):
    round_url = _url("tournament-round", swiss, 1)
    entered.post(round_url, {"line": "1 4 1"})
    entered.post(round_url, {"line": "1 4 0"})
    entered.post(round_url, {"line": "1 4 ½"})  # another correction after the one the undo was offered for
    html = entered.post(round_url, {"undo": "1", "undo_old": "1-0", "undo_new": "0-1"}).content.decode()
    assert "Nichts rückgängig gemacht: Brett 1 wurde inzwischen geändert." in html
    assert _results(swiss) == {1: "1/2-1/2"}
    # A forged old result that is no result code is refused too.
    html = entered.post(round_url, {"undo": "1", "undo_old": "<x>", "undo_new": "1/2-1/2"}).content.decode()
    assert "Nichts rückgängig gemacht" in html and _results(swiss) == {1: "1/2-1/2"}


def test_a_pairing_typed_again_with_the_same_result_is_no_overwrite(entered, swiss):
    round_url = _url("tournament-round", swiss, 1)
    entered.post(round_url, {"line": "1 4"})  # pairing only
    entered.post(round_url, {"line": "1 4 1"})  # the result after: filling in, not replacing
    entered.post(round_url, {"line": "1 4 1"})
    assert 'id="overwrite-notice"' not in entered.get(round_url).content.decode()


def test_pasting_a_participant_already_in_names_him(entered, swiss, four):
    url = _url("tournament-participants", swiss)
    response = entered.post(url, {"lines": f"{four[1].key}\nDora, Test\n{four[1].key}"}, follow=True)
    html = response.content.decode()
    assert "Schon Teilnehmer, nicht doppelt aufgenommen: Bernd, Test (Nr. 2), Dora, Test (Nr. 4)." in html
    assert TournamentDraft.objects.get(tournament=swiss).participants == [p.pk for p in four]
    html = entered.post(url, {"add": four[0].pk}, follow=True).content.decode()
    assert "Schon Teilnehmer, nicht doppelt aufgenommen: Anna, Test (Nr. 1)." in html


def test_a_line_pasted_twice_adds_the_player_once(client, users, swiss, four):
    client.force_login(users["officer_a"])
    client.post(_url("tournament-participants", swiss), {"lines": f"{four[2].key}\n{four[2].key}"})
    assert TournamentDraft.objects.get(tournament=swiss).participants == [four[2].pk]


def test_new_player_from_the_search_joins_the_draft_at_once(entered, swiss, tree):
    url = _url("tournament-participants", swiss)
    html = entered.get(url, {"q": "Neumann, Nina"}).content.decode()
    assert "„Neumann, Nina“ nicht gefunden – neu anlegen" in html
    assert 'name="np-surname" value="Neumann"' in html and 'name="np-first_name" value="Nina"' in html
    data = {"new_player": "1", "np-surname": "Neumann", "np-first_name": "Nina", "np-club": tree["club_a"].pk}
    response = entered.post(url, data)
    assert response.status_code == 302
    nina = Player.objects.get(surname="Neumann")
    assert TournamentDraft.objects.get(tournament=swiss).participants[-1] == nina.pk
    # She can be paired at once: start number 5.
    entered.post(_url("tournament-round", swiss, 1), {"line": "5 1 1"})
    assert TournamentDraft.objects.get(tournament=swiss).games[0]["white"] == nina.pk


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("1 1 1", "Startnummer 1 kann nicht gegen sich selbst spielen."),
        ("1 2 2-0", "Unbekanntes Ergebnis „2-0“"),
        ("1 2 h", "Ein Freilos hat keinen Gegner"),
        ("1 9 1", "Startnummer 9 gibt es nicht (1–4)."),
    ],
)
def test_board_errors_are_named(entered, swiss, line, message):
    html = entered.post(_url("tournament-round", swiss, 1), {"line": line}).content.decode()
    assert message in html
    assert not TournamentDraft.objects.get(tournament=swiss).games


def test_board_player_twice_in_a_round_and_bye_codes(entered, swiss):
    round_url = _url("tournament-round", swiss, 1)
    entered.post(round_url, {"line": "1 2 ½"})
    assert (
        "Nr. 1 ist in Runde 1 schon gepaart (Brett 1)."
        in entered.post(round_url, {"line": "3 1 0"}).content.decode()
    )
    entered.post(round_url, {"line": "3 +"})
    entered.post(round_url, {"line": "4 z"})
    assert _results(swiss) == {1: "1/2-1/2", 2: "+", 3: "Z"}


def test_a_new_player_is_created_only_with_his_participant(entered, swiss, tree, monkeypatch):
    """Both or neither: when the draft cannot take him, no player record is left behind (no orphan)."""
    from django.core.exceptions import ValidationError

    from ratings.services import drafts

    def refuse(**kwargs):
        raise ValidationError("Entwurf gesperrt.")

    monkeypatch.setattr(drafts, "draft_save", refuse)
    data = {"new_player": "1", "np-surname": "Waise", "np-club": tree["club_a"].pk}
    html = entered.post(_url("tournament-participants", swiss), data).content.decode()
    assert "Entwurf gesperrt." in html
    assert not Player.objects.filter(surname="Waise").exists()


def test_publishing_keeps_a_round_robin_and_the_non_member_tick(client, users, tree, four):
    from ratings.models import TournamentEntry
    from ratings.models.officer import TournamentEntryMode, TournamentMode
    from ratings.services import tournament_save_results

    t = Tournament.objects.create(
        name="Vereinsturnier",
        start_date=datetime.date(2024, 9, 1),
        end_date=datetime.date(2024, 9, 3),
        rounds=3,
        organiser_club=tree["club_a"],
    )
    entries = [
        TournamentEntry(player=p, start_rank=i, member=i != 2) for i, p in enumerate(four[:3], start=1)
    ]
    tournament_save_results(tournament=t, entries=entries, games=[], mode=TournamentMode.ROUND_ROBIN)
    client.force_login(users["officer_a"])
    client.post(_url("tournament-participants", t), {"add": four[3].pk})  # the draft: one more participant
    assert client.post(_url("tournament-draft-publish", t)).status_code == 302
    assert TournamentEntryMode.objects.get(tournament=t).mode == TournamentMode.ROUND_ROBIN
    members = dict(TournamentEntry.objects.filter(tournament=t).values_list("player_id", "member"))
    assert members == {four[0].pk: True, four[1].pk: False, four[2].pk: True, four[3].pk: True}
