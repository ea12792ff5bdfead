"""Issue 26 §1: every write the product has, in random order, keeps the stored ratings equal to a full replay.

A small federation (part of it from a DSB list, part typed in) and a hypothesis state machine whose rules are
the writes of the services: create a tournament (often on a day that already has tournaments), correct its
results, move its end date onto another tournament's day or between two, change its code, delete it,
restore it from the audit trail; change a birth year, merge two records of one person, add, move and
delete a dated correction, add, end and delete memberships; import a DSB list that changes a DWZ or a
birth year. After every step ``ratings_verify()`` is clean and every stored evaluation, Restpartie and
player row (DWZ, index, last evaluation) equals what a from-scratch ``recalculate()`` writes (run in a
savepoint and rolled back).

The second machine sets the background threshold to 0: every chain that reaches a later tournament stops
at the changed one and leaves the rest to a ``RecalculationJob``. The worker is a rule of its own, so
several writes may queue behind one job (its resume points); whenever no job is pending the invariant
holds.

The default run is short; ``DWZ_STATE_MACHINE_EXAMPLES`` / ``DWZ_STATE_MACHINE_STEPS`` make a long one
(``bench/state_machine.py`` runs it and counts steps).
"""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import os

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.test import TestCase, override_settings
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from ratings.enums import AdjustmentKind
from ratings.formats.dsb_list import read_list_bytes
from ratings.models import (
    Evaluation,
    Game,
    Membership,
    Player,
    RatingAdjustment,
    RatingSpan,
    RecalculationJob,
    Restpartie,
    Tournament,
    TournamentEntry,
)
from ratings.models.audit import AuditAction, AuditEvent, AuditObjectType
from ratings.models.recalculation import UNFINISHED
from ratings.recalculation import ratings_verify, recalculate
from ratings.recalculation._write import EVALUATION_FIELDS
from ratings.services import (
    adjustment_delete,
    adjustment_save,
    membership_delete,
    membership_end,
    membership_save,
    player_save,
    tournament_create,
    tournament_delete,
    tournament_restore,
    tournament_save_head,
    tournament_save_results,
)
from ratings.services.dsb_list import dsb_list_import
from ratings.services.merge import players_merge
from tests.conftest import examples
from tests.dsb_lists import generate
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("DWZ_STATE_MACHINE_EXAMPLES", examples(6)))
STEPS = int(os.environ.get("DWZ_STATE_MACHINE_STEPS", "10"))
# Both rule editions: the 2026 rules apply from 2026-06-08 on.
FIRST_DAY = datetime.date(2026, 4, 1)
DAYS = 150
POOL = 8  # players the tournaments draw from: five from the DSB list, three typed in
RESULTS = ("1-0", "0-1", "1/2-1/2", "1-0", "0-1", "+-", "--")
CODES = (None, None, "C615-C00-AB1", "C615-C00-AB2", "C620-C01-ZZ9")
STORED_FIELDS = [f for f in EVALUATION_FIELDS if f not in ("id", "tournament_id", "player_id")]
# ``bench/state_machine.py``: a file each example appends its count of steps and full checks to.
COUNT_FILE = os.environ.get("DWZ_STATE_MACHINE_COUNT")

days = st.integers(0, DAYS)
results = st.lists(st.sampled_from(RESULTS), min_size=10, max_size=10)
picks = st.sets(st.integers(0, POOL - 1), min_size=2, max_size=5)
anyone = st.integers(0, POOL - 1)
index = st.integers(0, 99)


def full_snapshot() -> dict[str, list]:
    """Every derived row by stable values (player keys, tournament names), the stored positions included."""
    return {
        "evaluations": sorted(
            Evaluation.objects.values_list("tournament__name", "player__key", *STORED_FIELDS)
        ),
        "restpartien": sorted(
            Restpartie.objects.values_list(
                "tournament__name", "player__key", "seq", "opponent_rating", "score", "end_date"
            )
        ),
        "players": sorted(Player.objects.values_list("key", "dwz", "index", "last_evaluated")),
        # What the lists at a Stichtag read: rewritten with the rows, never left behind them.
        "spans": sorted(
            RatingSpan.objects.values_list(
                "player__key", "valid_from", "valid_until", "value", "last_evaluated"
            )
        ),
    }


def replayed_snapshot() -> dict[str, list]:
    savepoint = transaction.savepoint()
    try:
        recalculate(reuse=False)
        return full_snapshot()
    finally:
        transaction.savepoint_rollback(savepoint)


class WritePaths(RuleBasedStateMachine):
    background = False

    def __init__(self):
        super().__init__()
        self.savepoint = transaction.savepoint()
        self.numbers = itertools.count(100)
        self.tournaments: list[int] = []
        self.deleted: list[int] = []  # audit events of deleted tournaments
        self.callbacks: list = []  # the commit callbacks that enqueue background jobs (the worker's queue)
        self.steps = self.checks = 0

    @initialize(seed=st.integers(1, 3))
    def federation(self, seed):
        self.list = generate(24, seed=seed)
        self._import_list(FIRST_DAY - datetime.timedelta(days=1))
        listed = list(
            Player.objects.filter(dsb_id__isnull=False, memberships__isnull=False)
            .distinct()
            .order_by("dwz", "pk")
        )
        # Two without a DWZ where the list has them (first ratings), the others rated, spread over the range.
        unrated = [p for p in listed if p.dwz is None][:2]
        rated = [p for p in listed if p.dwz is not None]
        chosen = unrated + rated[:: max(1, len(rated) // (5 - len(unrated)))][: 5 - len(unrated)]
        self.club = ClubFactory()
        typed = [self._typed_in(i) for i in range(POOL - len(chosen))]
        self.players = chosen + typed

    def teardown(self):
        transaction.savepoint_rollback(self.savepoint)
        if COUNT_FILE:
            with open(COUNT_FILE, "a", encoding="utf-8") as f:
                f.write(f"{type(self).__name__} {self.steps} {self.checks}\n")

    # --- helpers ---------------------------------------------------------------------------------------

    def _typed_in(self, i: int) -> Player:
        """A player an officer typed in (no DSB id): one with a start value, one member without, one
        guest with a FIDE rating (his first DWZ may start from it); they can be merged into another
        record."""
        p = PlayerFactory(birth_year=1950 + 11 * i)
        if i % 3 == 0:
            adjustment_save(
                adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=1400 + 90 * i, index=4)
            )
        elif i % 3 == 1:
            Membership.objects.create(player=p, club=self.club, member_number=f"{next(self.numbers):04d}")
        else:
            adjustment_save(adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.START, fide_elo=1900))
        return p

    def _write(self, work):
        """Run one write as a request does; with the background threshold at 0 its job waits for the
        worker rule."""
        if not self.background:
            return work()
        with self._captured() as captured:
            outcome = work()
        self.callbacks += captured
        return outcome

    def _captured(self):
        return TestCase.captureOnCommitCallbacks(using=connection.alias, execute=False)

    def _import_list(self, as_of: datetime.date):
        dsb_list = read_list_bytes(self.list.zip_bytes(), "LV-0-csv.zip")
        return self._write(lambda: dsb_list_import(dsb_list=dsb_list, as_of=as_of))

    def _date(self, offset: int) -> datetime.date:
        return FIRST_DAY + datetime.timedelta(days=offset)

    def _player(self, i: int) -> Player:
        return Player.objects.get(pk=self.players[i].pk)

    def _tournament(self, i: int) -> Tournament:
        return Tournament.objects.get(pk=self.tournaments[i % len(self.tournaments)])

    def _days_taken(self) -> list[datetime.date]:
        return sorted(
            set(Tournament.objects.filter(pk__in=self.tournaments).values_list("end_date", flat=True))
        )

    def _save(self, tournament: Tournament, picked, outcomes):
        players = [self.players[i] for i in sorted(picked)]
        entries = [TournamentEntry(player=p, start_rank=n) for n, p in enumerate(players, start=1)]
        games, busy = [], {}
        for (white, black), result in zip(itertools.combinations(players, 2), itertools.cycle(outcomes)):
            rnd = 1
            while busy.get(rnd, set()) & {white.pk, black.pk}:
                rnd += 1
            busy.setdefault(rnd, set()).update({white.pk, black.pk})
            games.append(Game(round=rnd, white=white, black=black, result=result))
        save = tournament_create if tournament.pk is None else tournament_save_results
        self._write(lambda: save(tournament=tournament, entries=entries, games=games))

    def _new(self, end: datetime.date, picked, outcomes, code=None):
        if code and Tournament.objects.filter(code=code).exists():
            code = None
        t = Tournament(name=f"T{next(self.numbers)}", start_date=end, end_date=end, code=code)
        self._save(t, picked, outcomes)
        self.tournaments.append(t.pk)

    def _move(self, t: Tournament, end: datetime.date):
        t.end_date = min(max(end, FIRST_DAY), self._date(DAYS))
        t.start_date = min(t.start_date, t.end_date)
        self._write(lambda: tournament_save_head(tournament=t))

    # --- tournaments -----------------------------------------------------------------------------------

    @rule(offset=days, picked=picks, outcomes=results, code=st.sampled_from(CODES))
    def create(self, offset, picked, outcomes, code):
        self._new(self._date(offset), picked, outcomes, code)

    @precondition(lambda self: self.tournaments)
    @rule(i=index, picked=picks, outcomes=results, code=st.sampled_from(CODES))
    def create_on_a_day_with_tournaments(self, i, picked, outcomes, code):
        self._new(self._tournament(i).end_date, picked, outcomes, code)

    @precondition(lambda self: len(self.tournaments) >= 2)
    @rule(i=index, j=index, picked=picks)
    def create_between_two(self, i, j, picked):
        a, b = self._tournament(i).end_date, self._tournament(j).end_date
        self._new(min(a, b) + abs(b - a) // 2, picked, ("1/2-1/2", "1-0"))

    @precondition(lambda self: self.tournaments)
    @rule(i=index, outcomes=results, drop=st.booleans())
    def correct_results(self, i, outcomes, drop):
        t = self._tournament(i)
        picked = {self.players.index(p) for p in self.players if t.entries.filter(player=p).exists()}
        if drop and len(picked) > 2:  # a player entered by mistake leaves the tournament
            picked.discard(max(picked))
        self._save(t, picked, outcomes)

    @precondition(lambda self: self.tournaments)
    @rule(i=index, shift=st.integers(-40, 40).filter(bool))
    def move_end_date(self, i, shift):
        t = self._tournament(i)
        self._move(t, t.end_date + datetime.timedelta(days=shift))

    @precondition(lambda self: len(self.tournaments) >= 2)
    @rule(i=index, j=index)
    def move_onto_another_tournaments_day(self, i, j):
        self._move(self._tournament(i), self._tournament(j).end_date)

    @precondition(lambda self: len(self._days_taken()) >= 2)
    @rule(i=index, j=index)
    def move_between_two_days(self, i, j):
        taken = self._days_taken()
        a, b = taken[i % len(taken)], taken[j % len(taken)]
        self._move(self._tournament(i + j), min(a, b) + abs(b - a) // 2)

    @precondition(lambda self: self.tournaments)
    @rule(i=index, code=st.sampled_from(CODES))
    def change_code(self, i, code):
        t = self._tournament(i)
        if code and Tournament.objects.exclude(pk=t.pk).filter(code=code).exists():
            return
        t.code = code
        self._write(lambda: tournament_save_head(tournament=t))

    @precondition(lambda self: self.tournaments)
    @rule(i=index)
    def delete(self, i):
        t = self._tournament(i)
        pk = t.pk
        self.tournaments.remove(pk)
        self._write(lambda: tournament_delete(tournament=t))
        event = AuditEvent.objects.filter(
            action=AuditAction.DELETE, object_type=AuditObjectType.TOURNAMENT, object_id=pk
        ).latest("pk")
        self.deleted.append(event.pk)

    @precondition(lambda self: self.deleted)
    @rule(i=index)
    def restore(self, i):
        event = AuditEvent.objects.get(pk=self.deleted.pop(i % len(self.deleted)))
        try:
            restored, _report = self._write(lambda: tournament_restore(event=event))
        except ValidationError:  # a player merged away meanwhile, or the code is taken
            return
        self.tournaments.append(restored.pk)

    # --- players ---------------------------------------------------------------------------------------

    @rule(who=anyone, year=st.sampled_from([None, 1948, 1979, 2009, 2013, 2016]))
    def change_birth_year(self, who, year):
        p = self._player(who)
        p.birth_year = year
        self._write(lambda: player_save(player=p))

    @rule(keep=anyone, drop=anyone)
    def merge(self, keep, drop):
        """Two records of one person: the typed-in one (without a DSB id) is merged into the other."""
        kept, dropped = self._player(keep), self._player(drop)
        if keep == drop or dropped.dsb_id:
            return
        try:
            self._write(lambda: players_merge(keep=kept, drop=dropped))
        except ValidationError:  # both played in one tournament, or two FIDE ids
            return
        self.players[drop] = self._typed_in(drop)

    @rule(who=anyone, offset=days, dwz=st.integers(900, 2300), idx=st.integers(1, 30))
    def add_correction(self, who, offset, dwz, idx):
        correction = RatingAdjustment(
            player=self._player(who),
            kind=AdjustmentKind.CORRECTION,
            date=self._date(offset),
            dwz=dwz,
            index=idx,
        )
        self._write(lambda: adjustment_save(adjustment=correction))

    @precondition(lambda self: RatingAdjustment.objects.filter(kind=AdjustmentKind.CORRECTION).exists())
    @rule(i=index, offset=days, same_value=st.booleans())
    def move_correction(self, i, offset, same_value):
        """Another date; ``same_value``: the DWZ the player has there, so the tournaments after its new place
        may give him his stored results again."""
        corrections = list(RatingAdjustment.objects.filter(kind=AdjustmentKind.CORRECTION).order_by("pk"))
        correction = corrections[i % len(corrections)]
        correction.date = self._date(offset)
        if same_value:
            p = correction.player
            correction.dwz, correction.index = (
                (p.dwz, p.index) if p.dwz else (correction.dwz, correction.index)
            )
        self._write(lambda: adjustment_save(adjustment=correction))

    @precondition(lambda self: RatingAdjustment.objects.filter(kind=AdjustmentKind.CORRECTION).exists())
    @rule(i=index)
    def delete_correction(self, i):
        corrections = list(RatingAdjustment.objects.filter(kind=AdjustmentKind.CORRECTION).order_by("pk"))
        correction = corrections[i % len(corrections)]
        self._write(lambda: adjustment_delete(adjustment=correction))

    @rule(who=anyone)
    def add_membership(self, who):
        p = self._player(who)
        if not Membership.objects.filter(player=p, club=self.club).exists():
            membership = Membership(player=p, club=self.club, member_number=f"{next(self.numbers):04d}")
            self._write(lambda: membership_save(membership=membership))

    @rule(who=anyone, offset=days)
    def end_membership(self, who, offset):
        membership = Membership.objects.current().filter(player=self._player(who)).first()
        if membership is not None and (
            membership.valid_from is None or membership.valid_from <= self._date(offset)
        ):
            self._write(lambda: membership_end(membership=membership, until=self._date(offset)))

    @rule(who=anyone)
    def delete_membership(self, who):
        membership = Membership.objects.filter(player=self._player(who)).first()
        if membership is not None:
            self._write(lambda: membership_delete(membership=membership))

    @rule(
        who=anyone,
        dwz=st.none() | st.integers(800, 2400),
        year=st.none() | st.sampled_from([1951, 1990, 2012]),
        offset=days,
    )
    def import_dsb_list(self, who, dwz, year, offset):
        """A newer DSB list with another DWZ or birth year for one of the listed players (the DWZ of a
        player with a history is compared, not taken; the birth year is taken and replays his history)."""
        p = self._player(who)
        rows = self.list.players
        for n, row in enumerate(rows):
            if p.dsb_id and row.person_id == p.dsb_id:
                changed = {"birth_year": year} if year is not None else {}
                if dwz is not None:
                    changed.update(dwz=dwz, index=(row.index or 0) + 1)
                rows[n] = dataclasses.replace(row, **changed)
        self._import_list(self._date(offset))

    # --- the worker ------------------------------------------------------------------------------------

    @precondition(lambda self: self.callbacks)
    @rule()
    def worker(self):
        """The worker takes the queued jobs (a job run may queue another one)."""
        while self.callbacks:
            queued, self.callbacks = self.callbacks, []
            with self._captured() as captured:
                for callback in queued:
                    callback()
            self.callbacks += captured

    # --- after every step ------------------------------------------------------------------------------

    @invariant()
    def stored_equals_a_full_replay(self):
        if not hasattr(self, "players"):
            return  # before ``federation``
        self.steps += 1
        if RecalculationJob.objects.filter(status__in=UNFINISHED).exists():
            assert self.callbacks, "a pending job nobody will run"
            return
        self._check_replay()

    def _check_replay(self):
        assert ratings_verify() == []
        assert full_snapshot() == replayed_snapshot()
        self.checks += 1


class WritePathsInTheBackground(WritePaths):
    background = True

    @initialize(seed=st.integers(1, 3))
    def federation(self, seed):
        super().federation(seed)
        self.threshold = override_settings(RECALCULATION_BACKGROUND_SECONDS=0)
        self.threshold.enable()

    def teardown(self):
        """The worker finishes what the last writes left to it: then the stored rows equal a full replay
        (whether or not the ``worker`` rule ran after them)."""
        try:
            if hasattr(self, "players"):
                self.worker()
                assert not RecalculationJob.objects.filter(status__in=UNFINISHED).exists()
                self._check_replay()
        finally:
            if hasattr(self, "threshold"):
                self.threshold.disable()
            super().teardown()


def _settings():
    return settings(
        max_examples=EXAMPLES,
        stateful_step_count=STEPS,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def test_every_write_path_keeps_stored_equal_to_a_full_replay():
    run_state_machine_as_test(WritePaths, settings=_settings())


def test_every_write_path_through_the_background_job():
    run_state_machine_as_test(WritePathsInTheBackground, settings=_settings())
