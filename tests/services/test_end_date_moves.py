"""A corrected end date or code moves a tournament in the order; its stored rows must move too."""

import datetime

import pytest

from ratings.models import Evaluation, Player, Restpartie
from ratings.recalculation import ratings_verify, recalculate
from ratings.services import tournament_save_head
from tests.builders import player, save_tournament, snapshot
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

D = datetime.date


def _positions(tournament):
    return set(Evaluation.objects.filter(tournament=tournament).values_list("end_date", "code_suffix"))


def _three_tournaments():
    a, b, c = (player(dwz=r, index=10) for r in (1500, 1600, 1700))
    t1, _ = save_tournament([a, b], [(a, b, "1-0")], end=D(2024, 3, 1), name="T1")
    t2, _ = save_tournament([a, c], [(a, c, "0-1")], end=D(2024, 3, 10), name="T2")
    t3, _ = save_tournament([b, c], [(b, c, "1/2-1/2")], end=D(2024, 3, 20), name="T3")
    return (a, b, c), (t1, t2, t3)


@pytest.mark.parametrize("new_end", [D(2024, 3, 2), D(2024, 2, 1), D(2024, 3, 15), D(2024, 4, 1)])
def test_moving_an_end_date_rewrites_positions_and_equals_a_full_replay(new_end):
    _, (t1, _, _) = _three_tournaments()
    t1.end_date = new_end
    t1.start_date = min(t1.start_date, new_end)
    tournament_save_head(tournament=t1)
    assert _positions(t1) == {(new_end, None)}
    assert ratings_verify() == []
    incremental = snapshot()
    recalculate()
    assert snapshot() == incremental


def test_a_later_save_between_old_and_new_date_keeps_the_moved_tournament():
    (a, b, c), (_, _, t3) = _three_tournaments()
    t3.end_date = t3.start_date = D(2024, 3, 5)  # moved before T2
    tournament_save_head(tournament=t3)
    save_tournament([b, c], [(c, b, "1-0")], end=D(2024, 3, 8), name="T4")
    assert t3.evaluations.count() == 2
    assert ratings_verify() == []
    for p in (a, b, c):
        p.refresh_from_db()
        assert p.dwz is not None
        assert p.last_evaluated == Evaluation.objects.filter(player=p).latest("end_date").end_date


def test_changing_the_code_rewrites_the_stored_suffix():
    _, (t1, _, _) = _three_tournaments()
    t1.code = "B123-456-ABC"
    tournament_save_head(tournament=t1)
    assert _positions(t1) == {(D(2024, 3, 1), "ABC")}
    assert ratings_verify() == []


def test_moving_by_one_day_updates_last_evaluated():
    (_, b, _), (_, _, t3) = _three_tournaments()
    t3.end_date = t3.start_date = D(2024, 3, 21)
    tournament_save_head(tournament=t3)
    b.refresh_from_db()
    assert b.last_evaluated == D(2024, 3, 21)
    assert ratings_verify() == []


# --- verify compares every stored field ---------------------------------------------------------------


def test_verify_reports_evaluations_left_at_the_old_end_date():
    # What the rows looked like before the fix: moved by one day, the rows keep the old date.
    _, (t1, _, _) = _three_tournaments()
    t1.end_date = t1.start_date = D(2024, 3, 2)
    tournament_save_head(tournament=t1)
    assert ratings_verify() == []
    Evaluation.objects.filter(tournament=t1).update(end_date=D(2024, 3, 1))
    problems = ratings_verify()
    assert len([p for p in problems if "end_date stored datetime.date(2024, 3, 1)" in p]) == 2


def test_verify_reports_a_stale_code_suffix_and_edition():
    _, (t1, t2, _) = _three_tournaments()
    Evaluation.objects.filter(tournament=t1).update(code_suffix="XYZ")
    one = Evaluation.objects.filter(tournament=t2).first()
    Evaluation.objects.filter(pk=one.pk).update(edition="wo2026")
    problems = ratings_verify()
    assert sum("code_suffix stored 'XYZ', replay None" in p for p in problems) == 2
    assert (
        sum(f"tournament {t2.pk}, player {one.player_id}: edition stored 'wo2026'" in p for p in problems)
        == 1
    )


def test_verify_reports_a_stale_last_evaluated():
    (a, _, _), _ = _three_tournaments()
    Player.objects.filter(pk=a.pk).update(last_evaluated=D(2024, 3, 9))
    assert any(f"player {a.pk}: stored dwz/index/last" in p for p in ratings_verify())


def test_verify_reports_restpartien_end_date_and_orphans():
    u = player(birth_year=1990)
    MembershipFactory(player=u)
    r = [player(dwz=1500, index=10) for _ in range(3)]
    t, _ = save_tournament([u, *r], [(u, r[0], "1-0"), (u, r[1], "0-1"), (u, r[2], "0-1")], end=D(2023, 5, 1))
    assert ratings_verify() == []
    Restpartie.objects.filter(player=u, seq=0).update(end_date=D(2023, 4, 30))
    assert any(f"tournament {t.pk}, player {u.pk}: restpartien stored" in p for p in ratings_verify())
    Restpartie.objects.filter(player=u, seq=0).update(end_date=D(2023, 5, 1))
    assert ratings_verify() == []
    outsider = player(birth_year=1990)
    Restpartie.objects.create(
        player=outsider, tournament=t, seq=0, opponent_rating=1500, score=1, end_date=D(2023, 5, 1)
    )
    assert f"tournament {t.pk}, player {outsider.pk}: Restpartien without an evaluation" in ratings_verify()
