"""Swiss entry by round and the draft: boards by start number, byes, pasted rounds, participants in bulk;
a draft is saved on every change, is never part of a rating, and is evaluated only when published."""

import datetime

import pytest
from django.urls import reverse

from ratings.enums import AdjustmentKind
from ratings.models import Evaluation, Game, RatingAdjustment, Tournament, TournamentDraft, TournamentEntry
from ratings.services import adjustment_save, tournament_save_results
from tests.builders import club_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(tree):
    return Tournament.objects.create(
        name="Schnellschach-Open",
        start_date=datetime.date(2024, 5, 1),
        end_date=datetime.date(2024, 5, 1),
        rounds=3,
        organiser_club=tree["club_a"],
    )


@pytest.fixture
def five(tree):
    club = tree["club_a"]
    dwz = [1500, 1900, 1700, 1600, 1800]
    return [
        club_player(club, name, d, number=str(10 + i))
        for i, (name, d) in enumerate(zip(["Ernst", "Anna", "Carla", "Dora", "Bernd"], dwz, strict=True))
    ]


def _url(name, t, *args):
    return reverse(f"ratings:{name}", args=[t.pk, *args])


def _participants(client, t, players):
    lines = "\n".join(p.key for p in players)
    return client.post(_url("tournament-participants", t), {"lines": lines})


def test_bulk_paste_orders_by_dwz_and_survives_leaving_the_page(client, users, swiss, five):
    client.force_login(users["officer_a"])
    response = _participants(client, swiss, five)
    assert response.status_code == 302
    draft = TournamentDraft.objects.get(tournament=swiss)
    assert draft.participants == [p.pk for p in five]
    assert not TournamentEntry.objects.filter(tournament=swiss).exists()  # nothing written but the draft
    client.post(_url("tournament-participants", swiss), {"order": "dwz"})
    draft.refresh_from_db()
    assert [p.surname for p in _ordered(draft, five)] == ["Anna", "Bernd", "Carla", "Dora", "Ernst"]
    client.post(_url("tournament-participants", swiss), {"order": "alpha"})
    client.post(_url("tournament-participants", swiss), {"renumber": "1", f"no-{five[0].pk}": "1"})
    draft.refresh_from_db()
    assert _ordered(draft, five)[0].surname == "Ernst"
    html = client.get(_url("tournament-participants", swiss)).content.decode()
    assert "Entwurf, noch nicht ausgewertet" in html and "Ernst, Test" in html


def _ordered(draft, players):
    by_pk = {p.pk: p for p in players}
    return [by_pk[pk] for pk in draft.participants]


def test_names_and_unknown_lines(client, users, swiss, five):
    client.force_login(users["officer_a"])
    response = client.post(
        _url("tournament-participants", swiss), {"lines": "Anna, Test\nniemand, da\n" + str(five[2].key)}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Zeile 2: „niemand, da“ nicht gefunden." in html
    draft = TournamentDraft.objects.get(tournament=swiss)
    assert draft.participants == [five[1].pk, five[2].pk]


def test_whole_club(client, users, swiss, five, players, tree):
    client.force_login(users["officer_a"])
    client.post(_url("tournament-participants", swiss), {"club": tree["club_a"].pk})
    assert len(TournamentDraft.objects.get(tournament=swiss).participants) == 8


def test_round_entry_by_start_number_then_publish(client, users, swiss, five):
    client.force_login(users["officer_a"])
    _participants(client, swiss, five)
    round_url = _url("tournament-round", swiss, 1)
    assert client.post(round_url, {"line": "1 5 1"})["Location"].startswith(round_url)
    client.post(round_url, {"line": "2-4 ½"})
    # The last player of round 1 gets a bye; the round is complete and the page moves on to round 2.
    assert client.post(round_url, {"line": "3 +"})["Location"].startswith(_url("tournament-round", swiss, 2))
    html = client.get(_url("tournament-round", swiss, 2)).content.decode()
    assert "Noch ohne Paarung:" in html
    client.post(_url("tournament-round", swiss, 2), {"paste": "5-2 0\n4 3 1\n1 spielfrei", "do_paste": "1"})
    draft = TournamentDraft.objects.get(tournament=swiss)
    assert [(g["round"], g["board"], g["result"]) for g in draft.games] == [
        (1, 1, "1-0"),
        (1, 2, "1/2-1/2"),
        (1, 3, "+"),
        (2, 1, "0-1"),
        (2, 2, "1-0"),
        (2, 3, "+"),
    ]
    # A draft is never part of any rating.
    assert not Game.objects.filter(tournament=swiss).exists()
    assert not Evaluation.objects.filter(tournament=swiss).exists()
    response = client.post(_url("tournament-draft-publish", swiss))
    assert response["Location"] == reverse("ratings:officer-report")
    assert not TournamentDraft.objects.filter(tournament=swiss).exists()
    assert Game.objects.filter(tournament=swiss).count() == 6
    entries = TournamentEntry.objects.filter(tournament=swiss).order_by("start_rank")
    assert list(entries.values_list("player", flat=True)) == [p.pk for p in five]
    assert Evaluation.objects.filter(tournament=swiss).count() == 5


def test_mistakes_are_named_and_nothing_partial_is_saved(client, users, swiss, five):
    client.force_login(users["officer_a"])
    _participants(client, swiss, five)
    round_url = _url("tournament-round", swiss, 1)
    client.post(round_url, {"line": "1 5 1"})
    html = client.post(round_url, {"line": "5 2 1"}).content.decode()
    assert "Nr. 5 ist in Runde 1 schon gepaart (Brett 1)." in html
    assert 'value="5 2 1"' in html  # the typed line stays for correcting
    html = client.post(round_url, {"line": "2 9 1"}).content.decode()
    assert "Startnummer 9 gibt es nicht (1–5)." in html
    html = client.post(round_url, {"line": "2 3 7"}).content.decode()
    assert "Unbekanntes Ergebnis „7“" in html
    html = client.post(round_url, {"paste": "2 3 1\n4 4 1", "do_paste": "1"}).content.decode()
    assert "Zeile 2: Startnummer 4 kann nicht gegen sich selbst spielen." in html
    assert len(TournamentDraft.objects.get(tournament=swiss).games) == 1
    # An open board blocks publishing, named.
    client.post(round_url, {"line": "2 3"})
    response = client.post(_url("tournament-draft-publish", swiss), follow=True)
    assert "Runde 1, Brett 2: Ergebnis fehlt." in response.content.decode()
    assert not Game.objects.filter(tournament=swiss).exists()


def test_discard_returns_to_the_stored_state(client, users, swiss, five):
    client.force_login(users["officer_a"])
    _participants(client, swiss, five)
    client.post(_url("tournament-draft-discard", swiss))
    assert not TournamentDraft.objects.filter(tournament=swiss).exists()
    assert "Noch keine Teilnehmer." in client.get(_url("tournament-round", swiss, 1)).content.decode()


@pytest.mark.parametrize("name", ["tournament-participants", "tournament-rounds"])
def test_other_officers_may_not(client, users, swiss, name):
    client.force_login(users["officer_b"])
    assert client.get(_url(name, swiss)).status_code == 403
    client.logout()
    assert client.get(_url(name, swiss)).status_code == 302


def test_participants_tables_show_the_rating_at_the_tournaments_time(client, users, swiss, five):
    anna = five[1]
    adjustment_save(
        adjustment=RatingAdjustment(
            player=anna, kind=AdjustmentKind.CORRECTION, date=datetime.date(2025, 1, 1), dwz=2100, index=30
        )
    )
    anna.refresh_from_db()
    assert anna.dwz == 2100  # today's rating; the tournament (2024) uses 1900-10
    client.force_login(users["officer_a"])
    _participants(client, swiss, five)
    html = client.get(_url("tournament-participants", swiss)).content.decode()
    assert "1900-10" in html and "2100" not in html
    html = client.get(_url("tournament-round", swiss, 1)).content.decode()
    assert "1900-10" in html and "2100" not in html
    TournamentEntry.objects.bulk_create([TournamentEntry(tournament=swiss, player=p) for p in five])
    client.post(_url("tournament-draft-discard", swiss))
    html = client.get(_url("tournament-grid", swiss)).content.decode()
    assert "1900-10" in html and "2100-30" not in html


def test_a_save_by_someone_else_meanwhile_is_not_overwritten_silently(client, users, swiss, five):
    client.force_login(users["officer_a"])
    _participants(client, swiss, five)
    client.post(_url("tournament-round", swiss, 1), {"line": "1 5 1"})
    # Meanwhile another officer saves the tournament with two participants.
    tournament_save_results(
        tournament=Tournament.objects.get(pk=swiss.pk),
        entries=[
            TournamentEntry(player=five[0], start_rank=1),
            TournamentEntry(player=five[1], start_rank=2),
        ],
        games=[],
    )
    response = client.post(_url("tournament-draft-publish", swiss), follow=True)
    assert "anderweitig gespeichert" in response.content.decode()
    assert TournamentEntry.objects.filter(tournament=swiss).count() == 2  # the other save stands
    assert TournamentDraft.objects.filter(tournament=swiss).exists()  # and the draft is kept
    # Publishing again, knowingly, replaces it.
    client.post(_url("tournament-draft-publish", swiss))
    assert TournamentEntry.objects.filter(tournament=swiss).count() == 5
    assert Game.objects.filter(tournament=swiss).count() == 1


def test_participants_in_german_alphabetical_order(client, users, swiss, tree):
    """ "ABC" sorts the draft by DIN 5007: Schäfer before Schulze, Ärger among the A, ß = ss (issue 32)."""
    names = ["Schulze", "Zander", "Schäfer", "Ärger", "Strauß", "Abel", "Öztürk", "Ostermann", "Straub"]
    players = [club_player(tree["club_a"], n, 1500 + i, number=str(40 + i)) for i, n in enumerate(names)]
    client.force_login(users["officer_a"])
    assert _participants(client, swiss, players).status_code == 302
    client.post(_url("tournament-participants", swiss), {"order": "alpha"})
    draft = TournamentDraft.objects.get(tournament=swiss)
    assert [p.surname for p in _ordered(draft, players)] == [
        "Abel",
        "Ärger",
        "Ostermann",
        "Öztürk",
        "Schäfer",
        "Schulze",
        "Straub",
        "Strauß",
        "Zander",
    ]
