"""``tournament_restore_version`` (issue 32): a tournament put back as it was before a given save, through
the services: atomic, the chronological recalculation (a later tournament follows), audited; the stored
state equals a replay from scratch afterwards (``recalculate --verify``)."""

import datetime
import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from ratings.models import Evaluation, Game, Player, Tournament, TournamentEntry
from ratings.models.audit import AuditAction, AuditEvent
from ratings.models.officer import TournamentEntryMode, TournamentMode
from ratings.recalculation import ratings_verify
from ratings.selectors.audit import restorable_saves, save_event, version_before
from ratings.services import (
    tournament_create,
    tournament_restore_version,
    tournament_save_head,
    tournament_save_results,
)
from ratings.tournament_checks import TournamentConflict, TournamentGone

pytestmark = pytest.mark.django_db

FIRST = {(0, 1): "1-0", (0, 2): "1-0", (1, 2): "1/2-1/2"}
CORRECTED = {(0, 1): "0-1", (0, 2): "1-0", (1, 2): "1/2-1/2"}


def _rows(players, results):
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, 1)]
    games = [
        Game(round=n, board=1, white=players[i], black=players[j], result=r)
        for n, ((i, j), r) in enumerate(sorted(results.items()), 1)
    ]
    return entries, games


def _save(tournament, players, results, user):
    entries, games = _rows(players, results)
    tournament_save_results(
        tournament=Tournament.objects.get(pk=tournament.pk), entries=entries, games=games, user=user
    )
    return Tournament.objects.get(pk=tournament.pk)


def _state(tournament):
    """What a restore must bring back: the games, the evaluations and every player's rating."""
    games = sorted(
        Game.objects.filter(tournament=tournament).values_list("round", "white", "black", "result")
    )
    evaluations = sorted(
        Evaluation.objects.filter(tournament=tournament).values_list("player", "dwz_new", "index_new")
    )
    ratings = sorted(Player.objects.values_list("pk", "dwz", "index"))
    return games, evaluations, ratings


def _last_save(tournament) -> AuditEvent:
    return save_event(tournament_id=tournament.pk, version=Tournament.objects.get(pk=tournament.pk).version)


@pytest.fixture
def later(tree, players):
    """A later tournament of the same three players: its evaluation follows every correction before it."""
    t = Tournament(
        name="Sommerturnier",
        start_date=datetime.date(2024, 6, 1),
        end_date=datetime.date(2024, 6, 2),
        rounds=3,
        organiser_club=tree["club_a"],
    )
    entries, games = _rows(players, FIRST)
    tournament_create(tournament=t, entries=entries, games=games, mode=TournamentMode.ROUND_ROBIN)
    return t


def test_restore_the_version_before_a_correction(users, tournament, players, later):
    officer = users["officer_a"]
    _save(tournament, players, FIRST, officer)
    first = _state(tournament)
    later_first = _state(later)[1]
    corrected = _save(tournament, players, CORRECTED, officer)
    assert _state(tournament) != first and _state(later)[1] != later_first
    correction = _last_save(tournament)
    assert correction.changes["games_changed"] == ["R1/B1: Anton, Test – Berta, Test 1-0 → 0-1"]

    restored, report = tournament_restore_version(event=correction, user=officer, version=corrected.version)
    assert restored.pk == tournament.pk and restored.version == corrected.version + 1
    assert _state(tournament) == first and _state(later)[1] == later_first  # the later one followed
    assert later.pk in report.tournaments
    assert ratings_verify() == []
    out = io.StringIO()
    call_command("recalculate", "--verify", stdout=out)  # raises CommandError on any difference
    assert "Gespeicherter Stand = Neuberechnung." in out.getvalue()
    event = _last_save(tournament)
    assert (event.action, event.user) == (AuditAction.RESTORE, officer)
    assert event.changes["games_changed"] == ["R1/B1: Anton, Test – Berta, Test 0-1 → 1-0"]
    # The restore is a save like any other: the version before it (the correction) comes back.
    assert version_before(event=event) == correction
    tournament_restore_version(event=event, user=officer, version=restored.version)
    assert [g[3] for g in _state(tournament)[0]] == ["0-1", "1-0", "1/2-1/2"]
    assert ratings_verify() == []


def test_head_and_type_come_back_too(users, tournament, players, later):
    officer = users["officer_a"]
    _save(tournament, players, FIRST, officer)
    first = _state(tournament)
    head = Tournament.objects.get(pk=tournament.pk)
    head.name, head.place = "VM 2024 (korrigiert)", "Esslingen"
    head.end_date = datetime.date(2024, 7, 1)  # moved after the later tournament: the order changes
    tournament_save_head(tournament=head, mode=TournamentMode.SWISS, user=officer)
    assert _state(tournament) != first
    renamed = _last_save(tournament)
    restored, _report = tournament_restore_version(event=renamed, user=officer)
    assert (restored.name, restored.place) == ("Vereinsmeisterschaft", "")
    assert restored.end_date == datetime.date(2024, 3, 10)
    assert _state(tournament) == first  # back in its place, every rating as before
    assert ratings_verify() == []
    assert TournamentEntryMode.objects.get(tournament=tournament).mode == TournamentMode.ROUND_ROBIN
    changes = _last_save(tournament).changes
    assert changes["head"]["name"] == ["VM 2024 (korrigiert)", "Vereinsmeisterschaft"]
    assert changes["head"]["mode"] == ["swiss", "rr"]


def test_refusals_leave_everything_as_it_was(users, tournament, players):
    officer = users["officer_a"]
    _save(tournament, players, FIRST, officer)
    first = _last_save(tournament)  # the fixture's tournament has no "angelegt" row: nothing before it
    with pytest.raises(ValidationError, match="keine vorherige Fassung"):
        tournament_restore_version(event=first, user=officer)
    corrected = _save(tournament, players, CORRECTED, officer)
    correction = _last_save(tournament)
    with pytest.raises(TournamentConflict):  # the page was loaded before the correction
        tournament_restore_version(event=correction, user=officer, version=corrected.version - 1)
    # The version before names a player merged away or deleted since.
    gone = Player.objects.create(key="C0501-9", surname="Weg", first_name="Willi")
    entries, games = _rows([*players, gone], {**FIRST, (0, 3): "1-0"})
    tournament_save_results(tournament=corrected, entries=entries, games=games, user=officer)
    with_gone = _last_save(tournament)
    _save(tournament, players, CORRECTED, officer)
    Player.objects.filter(pk=gone.pk).delete()
    stored = _state(tournament)
    events = AuditEvent.objects.count()
    with pytest.raises(ValidationError, match="Spieler fehlen inzwischen: Weg, Willi"):
        tournament_restore_version(event=_last_save(tournament), user=officer)
    assert _state(tournament) == stored and AuditEvent.objects.count() == events
    assert with_gone.pk in restorable_saves(tournament_id=tournament.pk)
    assert first.pk not in restorable_saves(tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).delete()
    with pytest.raises(TournamentGone):
        tournament_restore_version(event=correction, user=officer)


def test_a_version_outside_the_officers_scope_is_refused(users, tree, tournament, players):
    _save(tournament, players, FIRST, users["officer_a"])
    head = Tournament.objects.get(pk=tournament.pk)
    head.organiser_club = tree["club_b"]
    tournament_save_head(tournament=head, user=users["admin"])  # the admin moves it to club B
    head = Tournament.objects.get(pk=tournament.pk)
    head.name = "VM B"
    tournament_save_head(tournament=head, user=users["admin"])
    renamed = _last_save(tournament)
    moved = version_before(event=renamed)
    with pytest.raises(ValidationError, match="außerhalb Ihres Bereichs"):
        # officer_b manages club B now, but the version before the move belonged to club A
        tournament_restore_version(event=moved, user=users["officer_b"])
    restored, _report = tournament_restore_version(event=renamed, user=users["officer_b"])
    assert restored.name == "Vereinsmeisterschaft" and restored.organiser_club == tree["club_b"]
