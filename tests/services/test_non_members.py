"""Non-members (WO 3.4.3, 4.1.2): entered with ``TournamentEntry.member = False`` they take part in the
calculation, but no DWZ and no Restpartien are stored for them; their later tournaments start from the
state before, and the stored results agree with a full replay (``recalculate --verify``)."""

import datetime

import pytest

from ratings.dwz import PlayerInput, TournamentInput, evaluate
from ratings.dwz.types import GameInput
from ratings.enums import EvaluationStatus
from ratings.models import Evaluation, Restpartie, TournamentEntry
from ratings.recalculation import ratings_verify, recalculate
from tests.builders import player, save_tournament, snapshot
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

D = datetime.date
RESULTS = ["1-0", "0-1", "1/2-1/2", "0-1", "1-0"]


def _field():
    return [player(dwz=1500 + 40 * i, index=10 + i, birth_year=1970 + i) for i in range(5)]


def _games(me, field, results=RESULTS):
    return [(me, opp, r) for opp, r in zip(field, results, strict=True)]


def _stored(t, p):
    return Evaluation.objects.get(tournament=t, player=p)


def test_rated_non_member_is_counted_but_keeps_his_dwz():
    n = player(dwz=1554, index=12, birth_year=1985)
    field = _field()
    t, _ = save_tournament([n, *field], _games(n, field), end=D(2024, 5, 5), non_members=[n])
    row = _stored(t, n)
    assert (row.status, row.dwz_old, row.index_old, row.entry_rating) == (
        EvaluationStatus.NON_MEMBER,
        1554,
        12,
        1554,
    )
    assert (row.n, row.points, row.coefficient, row.dwz_new, row.index_new) == (5, 2.5, None, None, None)
    n.refresh_from_db()
    assert (n.dwz, n.index) == (1554, 12)
    # His opponents are evaluated exactly as if he were a member: he is part of the calculation.
    inputs = [PlayerInput(str(n.pk), 1985, 1554, 12)] + [
        PlayerInput(str(p.pk), p.birth_year, 1500 + 40 * i, 10 + i) for i, p in enumerate(field)
    ]
    games = [GameInput(str(a.pk), str(b.pk), r) for a, b, r in _games(n, field)]
    want = {
        int(r.id): r for r in evaluate(TournamentInput(D(2024, 5, 5), tuple(inputs), tuple(games))).players
    }
    for p in field:
        assert (_stored(t, p).dwz_new, _stored(t, p).expected * 1000) == (
            want[p.pk].dwz_new,
            want[p.pk].expected,
        )
    assert ratings_verify() == []


def test_a_later_tournament_starts_from_the_state_before_the_non_member_one():
    n = player(dwz=1554, index=12, birth_year=1985)
    field = _field()
    t1, _ = save_tournament([n, *field], _games(n, field), end=D(2024, 5, 5), non_members=[n])
    t2, _ = save_tournament([n, *field], _games(n, field, RESULTS[::-1]), end=D(2024, 9, 1))
    row = _stored(t2, n)
    assert (row.status, row.dwz_old, row.index_old, row.index_new) == (EvaluationStatus.RATED, 1554, 12, 13)
    n.refresh_from_db()
    assert (n.dwz, n.index) == (row.dwz_new, 13)
    assert ratings_verify() == []
    # Incremental and full recalculation agree; toggling the flag re-evaluates and still verifies.
    before = snapshot()
    recalculate()
    assert snapshot() == before
    TournamentEntry.objects.filter(tournament=t1, player=n).update(member=True)
    recalculate()
    assert _stored(t2, n).dwz_old == _stored(t1, n).dwz_new != 1554
    assert ratings_verify() == []


def test_unrated_non_member_gets_no_first_rating_but_his_opponents_meet_one():
    """U scores 2/5 against rated players: a member would get a first rating. As a non-member he gets none;
    his opponents still meet him at the first rating he would have had (his stored entry rating)."""
    u = player(birth_year=1990)
    MembershipFactory(player=u)  # a member elsewhere: the flag on the entry decides
    field = _field()
    t, _ = save_tournament(
        [u, *field],
        _games(u, field, ["1-0", "0-1", "0-1", "1/2-1/2", "1/2-1/2"]),
        end=D(2024, 5, 5),
        non_members=[u],
    )
    row = _stored(t, u)
    assert row.status == EvaluationStatus.NON_MEMBER and row.dwz_new is None and row.entry_rating is not None
    assert row.performance is not None and row.dwz_old is None
    u.refresh_from_db()
    assert (u.dwz, u.index) == (None, None)
    assert not Restpartie.objects.exists()
    assert ratings_verify() == []


def test_not_rated_non_member_keeps_no_restpartien_but_keeps_the_earlier_ones():
    u = player(birth_year=1990)
    MembershipFactory(player=u)
    field = _field()
    save_tournament([u, *field[:3]], _games(u, field[:3], ["1-0", "0-1", "0-1"]), end=D(2023, 5, 1))
    assert Restpartie.objects.filter(player=u).count() == 3
    t2, _ = save_tournament(
        [u, *field[3:]], _games(u, field[3:], ["1-0", "0-1"]), end=D(2023, 9, 1), non_members=[u]
    )
    assert _stored(t2, u).status == EvaluationStatus.NON_MEMBER
    assert Restpartie.objects.filter(player=u).count() == 3  # nothing from t2
    # As a member again: his three Restpartien plus two games of t3 give him a first rating from 5 games.
    t3, _ = save_tournament([u, *field[3:]], _games(u, field[3:], ["1-0", "0-1"]), end=D(2024, 2, 1))
    row = _stored(t3, u)
    assert (row.status, row.n) == (EvaluationStatus.FIRST, 5)
    assert ratings_verify() == []


def test_import_tournament_reads_member_false(tmp_path):
    import io
    import json

    from django.core.management import call_command

    path = tmp_path / "t.json"
    players = [
        {"id": f"C0501-{i:04d}", "name": f"Spieler{i}, V", "dwz": 1500 + 30 * i, "index": 5} for i in range(6)
    ]
    players[0]["member"] = False
    games = [{"white": players[0]["id"], "black": p["id"], "result": "1/2-1/2"} for p in players[1:]]
    path.write_text(
        json.dumps({"tournament": {"end_date": "2026-09-20"}, "players": players, "games": games})
    )
    call_command("import_tournament", str(path), stdout=io.StringIO())
    entry = TournamentEntry.objects.get(player__key="C0501-0000")
    assert not entry.member
    row = Evaluation.objects.get(player=entry.player)
    assert (row.status, row.dwz_new, row.entry_rating) == (EvaluationStatus.NON_MEMBER, None, 1500)
    entry.player.refresh_from_db()
    assert entry.player.dwz == 1500
    assert ratings_verify() == []


def test_import_trf_non_member_option(tmp_path):
    import io
    from pathlib import Path

    from django.core.management import call_command
    from django.core.management.base import CommandError

    lichess = Path(__file__).resolve().parent.parent / "data" / "trf" / "lichess-swiss-2020-06.trf"
    with pytest.raises(CommandError) as exc:
        call_command(
            "import_trf", str(lichess), "--create-unknown", "--non-member", "99", stdout=io.StringIO()
        )
    assert exc.value.returncode == 2 and "--non-member 99" in str(exc.value)
    call_command("import_trf", str(lichess), "--create-unknown", "--non-member", "2", stdout=io.StringIO())
    entries = TournamentEntry.objects.order_by("start_rank")
    assert [e.start_rank for e in entries if not e.member] == [2]
    assert Evaluation.objects.get(player=entries[1].player).status == EvaluationStatus.NON_MEMBER
    assert ratings_verify() == []


def test_re_saving_with_the_flag_changed_replays_the_later_tournaments():
    """The incremental path: re-saving the first tournament with the tick changed re-evaluates the later
    one from the new state, both ways, and equals a full recalculation."""
    n = player(dwz=1554, index=12, birth_year=1985)
    field = _field()
    t1, _ = save_tournament([n, *field], _games(n, field), end=D(2024, 5, 5))
    t2, _ = save_tournament([n, *field], _games(n, field, RESULTS[::-1]), end=D(2024, 9, 1))
    as_member = _stored(t2, n).dwz_old
    assert as_member == _stored(t1, n).dwz_new != 1554
    save_tournament([n, *field], _games(n, field), end=D(2024, 5, 5), tournament=t1, non_members=[n])
    assert (_stored(t1, n).status, _stored(t2, n).dwz_old, _stored(t2, n).index_old) == (
        "non_member",
        1554,
        12,
    )
    assert ratings_verify() == []
    before = snapshot()
    recalculate()
    assert snapshot() == before
    save_tournament([n, *field], _games(n, field), end=D(2024, 5, 5), tournament=t1)
    assert _stored(t2, n).dwz_old == as_member
    assert ratings_verify() == []
