"""Issue 9 §1: random sequences of the officers' operations keep the stored ratings equal to a full replay.

After every step ``ratings_verify()`` is clean and the stored evaluations, Restpartien and player ratings
equal what a from-scratch ``recalculate()`` writes (run in a savepoint and rolled back). The default run is
short (ten times as many examples with ``--hypothesis-profile=thorough``);
``DWZ_STATE_MACHINE_EXAMPLES`` / ``DWZ_STATE_MACHINE_STEPS`` make a long one, e.g.
``DWZ_STATE_MACHINE_EXAMPLES=2000 pytest tests/services/test_recalculation_state_machine.py``.
"""

import datetime
import itertools
import os

import pytest
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from ratings.enums import AdjustmentKind
from ratings.models import (
    Evaluation,
    Game,
    Membership,
    Player,
    RatingAdjustment,
    Restpartie,
    Tournament,
    TournamentEntry,
)
from ratings.services import (
    adjustment_save,
    membership_delete,
    membership_end,
    membership_save,
    ratings_verify,
    recalculate,
    tournament_delete,
    tournament_save,
)
from ratings.services.recalculation import EVALUATION_FIELDS
from tests.conftest import examples
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("DWZ_STATE_MACHINE_EXAMPLES", examples(8)))
STEPS = int(os.environ.get("DWZ_STATE_MACHINE_STEPS", "8"))
# Both rule editions: the 2026 rules apply from 2026-06-08 on.
FIRST_DAY = datetime.date(2026, 4, 1)
DAYS = 150
RESULTS = ("1-0", "0-1", "1/2-1/2", "1-0", "0-1", "+-", "--")
CODES = (None, None, "C615-C00-AB1", "C615-C00-AB2", "C620-C01-ZZ9")

# Every stored evaluation field but the keys (tournament and player are compared by name and key).
STORED_FIELDS = [f for f in EVALUATION_FIELDS if f not in ("id", "tournament_id", "player_id")]

days = st.integers(0, DAYS)
results = st.lists(st.sampled_from(RESULTS), min_size=10, max_size=10)


def full_snapshot():
    """Every derived row by stable values, the stored positions included."""
    evaluations = sorted(Evaluation.objects.values_list("tournament__name", "player__key", *STORED_FIELDS))
    restpartien = sorted(
        Restpartie.objects.values_list(
            "tournament__name", "player__key", "seq", "opponent_rating", "score", "end_date"
        )
    )
    players = sorted(Player.objects.values_list("key", "dwz", "index", "last_evaluated"))
    return {"evaluations": evaluations, "restpartien": restpartien, "players": players}


def replayed_snapshot():
    savepoint = transaction.savepoint()
    try:
        recalculate()
        return full_snapshot()
    finally:
        transaction.savepoint_rollback(savepoint)


class RecalculationMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.savepoint = transaction.savepoint()
        self.club = ClubFactory()
        self.players = []
        for i in range(8):
            p = PlayerFactory(birth_year=1960 + 6 * i)
            kind = i % 4
            if kind in (0, 1):
                self._start(p, dwz=1300 + 150 * i, index=3 + i)
            elif kind == 2 and i == 2:
                self._start(p, fide_elo=1900)
            else:
                Membership.objects.create(player=p, club=self.club, member_number=f"{i + 1:04d}")
            self.players.append(p)
        self.numbers = itertools.count(100)
        self.tournaments: list[int] = []

    def teardown(self):
        transaction.savepoint_rollback(self.savepoint)

    @staticmethod
    def _start(p, **values):
        adjustment_save(adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.START, **values))

    def _date(self, offset: int) -> datetime.date:
        return FIRST_DAY + datetime.timedelta(days=offset)

    def _save(self, tournament, picked, outcomes):
        players = [self.players[i] for i in sorted(picked)]
        entries = [TournamentEntry(player=p, start_rank=n) for n, p in enumerate(players, start=1)]
        games, busy = [], {}
        for (white, black), result in zip(itertools.combinations(players, 2), itertools.cycle(outcomes)):
            rnd = 1
            while busy.get(rnd, set()) & {white.pk, black.pk}:
                rnd += 1
            busy.setdefault(rnd, set()).update({white.pk, black.pk})
            games.append(Game(round=rnd, white=white, black=black, result=result))
        tournament_save(tournament=tournament, entries=entries, games=games)

    def _new(self, end, picked, outcomes, code=None):
        t = Tournament(name=f"T{next(self.numbers)}", start_date=end, end_date=end, code=code)
        if code and Tournament.objects.filter(code=code).exists():
            t.code = None
        self._save(t, picked, outcomes)
        self.tournaments.append(t.pk)

    def _tournament(self, i: int) -> Tournament:
        return Tournament.objects.get(pk=self.tournaments[i % len(self.tournaments)])

    # --- operations -----------------------------------------------------------------------------------

    @rule(
        offset=days,
        picked=st.sets(st.integers(0, 7), min_size=2, max_size=5),
        outcomes=results,
        code=st.sampled_from(CODES),
    )
    def import_tournament(self, offset, picked, outcomes, code):
        self._new(self._date(offset), picked, outcomes, code)

    @precondition(lambda self: len(self.tournaments) >= 2)
    @rule(
        i=st.integers(0, 99), j=st.integers(0, 99), picked=st.sets(st.integers(0, 7), min_size=2, max_size=4)
    )
    def insert_between(self, i, j, picked):
        a, b = self._tournament(i).end_date, self._tournament(j).end_date
        self._new(min(a, b) + abs(b - a) // 2, picked, ("1/2-1/2", "1-0"))

    @precondition(lambda self: self.tournaments)
    @rule(i=st.integers(0, 99), outcomes=results)
    def correct_results(self, i, outcomes):
        t = self._tournament(i)
        picked = {self.players.index(e.player) for e in t.entries.select_related("player")}
        self._save(t, picked, outcomes)

    @precondition(lambda self: self.tournaments)
    @rule(i=st.integers(0, 99), shift=st.integers(-40, 40).filter(bool))
    def move_end_date(self, i, shift):
        t = self._tournament(i)
        t.end_date = min(max(t.end_date + datetime.timedelta(days=shift), FIRST_DAY), self._date(DAYS))
        t.start_date = min(t.start_date, t.end_date)
        tournament_save(tournament=t)

    @precondition(lambda self: self.tournaments)
    @rule(i=st.integers(0, 99), code=st.sampled_from(CODES))
    def change_code(self, i, code):
        t = self._tournament(i)
        if code and Tournament.objects.exclude(pk=t.pk).filter(code=code).exists():
            return
        t.code = code
        tournament_save(tournament=t)

    @precondition(lambda self: self.tournaments)
    @rule(i=st.integers(0, 99))
    def delete(self, i):
        t = self._tournament(i)
        self.tournaments.remove(t.pk)
        tournament_delete(tournament=t)

    @rule(who=st.integers(0, 7), offset=days, dwz=st.integers(900, 2300), index=st.integers(1, 30))
    def add_adjustment(self, who, offset, dwz, index):
        adjustment_save(
            adjustment=RatingAdjustment(
                player=self.players[who],
                kind=AdjustmentKind.CORRECTION,
                date=self._date(offset),
                dwz=dwz,
                index=index,
            )
        )

    @rule(who=st.integers(0, 7))
    def add_membership(self, who):
        p = self.players[who]
        if not Membership.objects.filter(player=p, club=self.club).exists():
            membership_save(membership=Membership(player=p, club=self.club, member_number=f"{who + 50:04d}"))

    @rule(who=st.integers(0, 7), offset=days)
    def end_membership(self, who, offset):
        membership = Membership.objects.current().filter(player=self.players[who]).first()
        if membership is not None:
            membership_end(membership=membership, until=self._date(offset))

    @rule(who=st.integers(0, 7))
    def delete_membership(self, who):
        membership = Membership.objects.filter(player=self.players[who]).first()
        if membership is not None:
            membership_delete(membership=membership)

    # --- after every step ------------------------------------------------------------------------------

    @invariant()
    def stored_equals_a_full_replay(self):
        assert ratings_verify() == []
        assert full_snapshot() == replayed_snapshot()


def test_recalculation_state_machine():
    run_state_machine_as_test(
        RecalculationMachine,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
