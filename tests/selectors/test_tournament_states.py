"""A tournament's way: announced → in Erfassung → ausgewertet → eingereicht / geändert seit Einreichung →
bestätigt / abweichend, the diff since the submission, and the fixed number of queries."""

import datetime

import pytest
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.formats.dsb_xml_snapshot import snapshot_digest
from ratings.models import (
    Game,
    ListImport,
    ListImportStatus,
    OfficialVerdict,
    Player,
    Tournament,
    TournamentDraft,
    TournamentEntry,
    VerdictState,
)
from ratings.selectors.dsb_xml_export import dsb_export
from ratings.selectors.tournament_states import (
    ANNOUNCED,
    CHANGED,
    CONFIRMED,
    DEVIATING,
    ENTRY,
    EVALUATED,
    SUBMITTED,
    snapshot_changes,
    tournament_states,
)
from ratings.services import tournament_save_head, tournament_save_results
from ratings.services.submissions import tournament_submit
from tests.builders import make_player, make_tournament

pytestmark = pytest.mark.django_db


def _tournament(name="Maiturnier"):
    a, b, c = (
        make_player(surname=n, first_name="Vorname", birth_year=1980 + i)
        for i, n in enumerate(("Alpha", "Beta", "Gamma"))
    )
    games = [(1, a, b, "1-0"), (2, b, c, "1/2-1/2"), (3, c, a, "0-1")]
    t = make_tournament([a, b, c], games, end=datetime.date(2026, 5, 3), name=name)
    Game.objects.filter(tournament=t).update(board=1)
    return t


def _submit(t):
    check, data = dsb_export(tournament=t)
    return tournament_submit(tournament=t, user=None, data=data, file_uuid=check.report.header.file_uuid)


def _state(t, **kwargs):
    t = Tournament.objects.get(pk=t.pk)
    return tournament_states(tournaments=[t], **kwargs)[t.pk]


def test_announced_then_in_entry_then_evaluated():
    t = Tournament.objects.create(
        name="Sommeropen",
        start_date=datetime.date(2026, 8, 1),
        end_date=datetime.date(2026, 8, 3),
        announced=True,
    )
    assert _state(t).code == ANNOUNCED and _state(t).label == "angemeldet"
    Tournament.objects.filter(pk=t.pk).update(announced=False)
    assert _state(t).code == ENTRY
    TournamentDraft.objects.create(tournament=t)
    assert _state(t).code == ENTRY
    done = _tournament()
    assert _state(done).code == EVALUATED


def test_submitted_until_something_changes_then_changed_with_what():
    t = _tournament()
    submission = _submit(t)
    state = _state(t)
    assert (state.code, state.submission, state.changes) == (SUBMITTED, submission, [])
    # a result of round 2 changes, the end date moves, a player is added
    t.refresh_from_db()
    entries = list(TournamentEntry.objects.filter(tournament=t).order_by("start_rank"))
    newcomer = make_player(surname="Delta", first_name="Vorname", birth_year=2000)
    entries = [TournamentEntry(player=e.player, start_rank=e.start_rank) for e in entries]
    entries.append(TournamentEntry(player=newcomer, start_rank=4))
    games = [
        Game(round=g.round, board=g.board, white=g.white, black=g.black, result=g.result)
        for g in Game.objects.filter(tournament=t).order_by("round")
    ]
    games[1].result = "1-0"
    tournament_save_results(tournament=t, entries=entries, games=games)
    t.refresh_from_db()
    t.end_date = datetime.date(2026, 5, 4)
    tournament_save_head(tournament=t)
    state = _state(t)
    assert state.code == CHANGED and state.label == "geändert seit Einreichung"
    assert state.changes == [
        "Enddatum",
        "Spieler hinzugefügt: Delta, Vorname (4)",
        "Ergebnis Runde 2 Brett 1",
    ]
    _submit(t)
    assert _state(t).code == SUBMITTED


def test_a_change_of_player_data_is_named():
    t = _tournament()
    _submit(t)
    Player.objects.filter(surname="Beta").update(birth_year=1999)
    assert _state(t).changes == ["Spielerdaten geändert: Beta, Vorname (2)"]


def test_a_draft_after_submission_is_in_entry():
    t = _tournament()
    _submit(t)
    TournamentDraft.objects.create(tournament=t)
    assert _state(t).code == ENTRY


def test_the_verdict_hook_confirms_or_deviates_only_an_unchanged_submission():
    t = _tournament()
    assert _state(t, verdicts={t.pk: CONFIRMED}).code == EVALUATED  # nothing submitted yet
    _submit(t)
    assert _state(t, verdicts={t.pk: CONFIRMED}).code == CONFIRMED
    assert _state(t, verdicts={t.pk: DEVIATING}).label == "abweichend"
    Player.objects.filter(surname="Beta").update(birth_year=1999)
    assert _state(t, verdicts={t.pk: CONFIRMED}).code == CHANGED


def test_snapshot_changes_of_games_removed_and_byes():
    before = {
        "head": {},
        "players": [],
        "games": [{"round": 1, "white": 1, "black": None, "point_white": "+"}],
    }
    after = {"head": {}, "players": [], "games": [{"round": 2, "white": 1, "black": 2, "point_white": "1"}]}
    assert snapshot_changes(before, after) == [
        "Partie hinzugefügt: Runde 2, Nr. 1 – Nr. 2",
        "Partie entfernt: Runde 1, spielfrei Nr. 1",
    ]


@pytest.mark.parametrize("n", [1, 4])
def test_states_in_a_fixed_number_of_queries(n, django_assert_num_queries):
    tournaments = [_tournament(name=f"T{i}") for i in range(n)]
    for t in tournaments:
        _submit(t)
    tournaments = list(Tournament.objects.filter(pk__in=[t.pk for t in tournaments]))
    with django_assert_num_queries(8):  # the states (module docstring) and one for the official verdicts
        states = tournament_states(tournaments=tournaments)
    assert {s.code for s in states.values()} == {SUBMITTED}


_points = st.sampled_from(["1", "0.5", "0", "+", "-"])
_games = st.lists(
    st.fixed_dictionaries(
        {
            "round": st.integers(1, 9),
            "white": st.integers(1, 12),
            "black": st.none() | st.integers(13, 20),
            "point_white": _points,
            "point_black": _points,
            "date": st.none(),
        }
    ),
    max_size=12,
    unique_by=lambda g: (g["round"], g["white"], g["black"]),
)


@settings(max_examples=80, deadline=None)
@given(games=_games, data=st.data())
def test_changes_are_named_exactly_when_the_digest_differs(games, data):
    before = {"head": {"end_date": "2026-05-03"}, "players": [], "games": games}
    assert snapshot_changes(before, before) == []
    after = {"head": dict(before["head"]), "players": [], "games": [dict(g) for g in games]}
    if games and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(games) - 1))
        after["games"][i]["point_white"] = data.draw(_points)
    if data.draw(st.booleans()):
        after["head"]["end_date"] = "2026-05-04"
    changed = snapshot_changes(before, after)
    assert bool(changed) == (snapshot_digest(before) != snapshot_digest(after))


def _verdict(t, state, as_of):
    list_import = ListImport.objects.create(file_name="LV.zip", as_of=as_of, status=ListImportStatus.DONE)
    OfficialVerdict.objects.create(
        tournament=t, list_import=list_import, state=state, checked_at=timezone.now()
    )


def test_the_stored_verdict_of_a_later_list_confirms_or_deviates():
    """§3: after the submission a DSB list that agrees makes the tournament "bestätigt", one that differs
    "abweichend"; a list older than the submission cannot judge what was sent, and an unclear verdict leaves
    it "eingereicht"."""
    t = _tournament()
    _submit(t)
    today = timezone.localdate()
    _verdict(t, VerdictState.CONFIRMED, today - datetime.timedelta(days=1))
    assert _state(t).code == SUBMITTED
    _verdict(t, VerdictState.UNCLEAR, today)
    assert _state(t).code == SUBMITTED
    _verdict(t, VerdictState.CONFIRMED, today + datetime.timedelta(days=7))
    assert _state(t).code == CONFIRMED
    _verdict(t, VerdictState.DIFFERS, today + datetime.timedelta(days=14))
    assert _state(t).code == DEVIATING
