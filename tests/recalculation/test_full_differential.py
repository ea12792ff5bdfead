"""The certified rows (``recalculation.full.Certificates``) never change what a full recalculation writes:
after anything changed in the database behind the services' back, ``recalculate()`` (reuse) leaves every
evaluation row, Restpartie and player exactly as ``recalculate(reuse=False)`` does from the same state.

Each case mutates one history (recalculated once, so every tournament carries its digest) through the ORM,
then runs both recalculations from that state in two savepoints and compares everything they derive."""

from __future__ import annotations

import datetime
import itertools
import os
import random
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.db import transaction

import ratings.recalculation._base as base
import ratings.recalculation._full as full
from ratings.dwz import WO2026
from ratings.enums import AdjustmentKind
from ratings.models import (
    Evaluation,
    EvaluationDigest,
    Game,
    Membership,
    Player,
    RatingAdjustment,
    Restpartie,
    Tournament,
    TournamentEntry,
)
from ratings.recalculation import ratings_verify, recalculate
from ratings.services import adjustment_save
from tests.builders import ROOT, player, random_history, round_robin, save_tournament
from tests.factories import ClubFactory
from tests.recalculation.stored_rows import derived, played_game

pytestmark = pytest.mark.django_db


@dataclass
class History:
    tournaments: list[int]  # rated, in evaluation order
    unrated: int  # a tournament with entries and games that is not rated
    coded: tuple[int, int]  # two DSB-coded tournaments ending on the same day
    newcomer: int  # an unrated player without a membership (his Restpartien are dropped)
    fide: int  # a player starting from his FIDE Elo
    adjustment: int  # a dated adjustment


@pytest.fixture(scope="module")
def history(django_db_setup, django_db_blocker):
    """A random history with what the certificates must see: both editions (WO2026 from 2026-06-08, K with
    a decimal), DSB codes (one end date, two codes), a non-member entry, forfeits, a dated adjustment,
    unrated members and non-members, a FIDE start, a tournament that is not rated. Recalculated once: every
    rated tournament has its digest."""
    rng = random.Random(16)
    with django_db_blocker.unblock(), transaction.atomic():
        pool, plan = random_history(rng, n_players=20, n_tournaments=10, start=datetime.date(2024, 9, 1))
        newcomer = player(birth_year=2001)  # unrated, no membership
        saved = []
        for k, (end, members, games, name) in enumerate(sorted(plan, key=lambda x: x[0])):
            if k % 3 == 1:
                members = [*members, newcomer]
                games = [*games, (newcomer, members[0], "0-1"), (members[1], newcomer, "1/2-1/2")]
            if k % 4 == 2:  # a forfeit, never counted
                white, black, _ = games[0]
                games = [(white, black, "+-"), *games[1:]]
            non_members = members[-1:] if k == 5 else ()
            t, _ = save_tournament(members, games, end=end, name=name, non_members=non_members)
            saved.append(t)
        day = saved[4].end_date
        first, _ = save_tournament(
            pool[:5], round_robin(pool[:5], rng), end=day, code="2410-A01-002", name="C2"
        )
        second, _ = save_tournament(
            pool[5:10], round_robin(pool[5:10], rng), end=day, code="2410-A01-001", name="C1"
        )
        off = Tournament(name="off", start_date=day, end_date=day, rated=False)
        unrated, _ = save_tournament(pool[10:15], round_robin(pool[10:15], rng), end=day, tournament=off)
        fide = next(
            p for p in pool if RatingAdjustment.objects.filter(player=p, fide_elo__isnull=False).exists()
        )
        target = pool[0]
        adjustment = RatingAdjustment(
            player=target, kind=AdjustmentKind.CORRECTION, date=saved[6].end_date, dwz=1234, index=7
        )
        adjustment_save(adjustment=adjustment)
        report = recalculate()
        assert report.reused == 0
        yield History(
            tournaments=report.tournaments,
            unrated=unrated.pk,
            coded=(first.pk, second.pk),
            newcomer=newcomer.pk,
            fide=fide.pk,
            adjustment=adjustment.pk,
        )
        transaction.set_rollback(True)


def middle(h: History) -> int:
    return h.tournaments[len(h.tournaments) // 2]


def restpartie() -> Restpartie:
    return Restpartie.objects.order_by("end_date", "pk").first()


def entered(tid: int) -> list[int]:
    return list(
        TournamentEntry.objects.filter(tournament_id=tid)
        .order_by("start_rank", "pk")
        .values_list("player_id", flat=True)
    )


def stranger(tid: int) -> int:
    """A player who is not entered in ``tid``."""
    return Player.objects.exclude(pk__in=entered(tid)).order_by("pk").values_list("pk", flat=True).first()


def _game_result(h, result):
    Game.objects.filter(pk=played_game(middle(h)).pk).update(result=result)


def _swap_rounds(h):
    games = list(Game.objects.filter(tournament_id=middle(h)).order_by("round", "pk"))
    a, b = games[0], games[-1]
    Game.objects.filter(pk=a.pk).update(round=b.round, board=1)
    Game.objects.filter(pk=b.pk).update(round=a.round, board=2)


def _swap_colours(h):
    g = played_game(middle(h))
    Game.objects.filter(pk=g.pk).update(white_id=g.black_id, black_id=g.white_id)


def _swap_start_ranks(h):
    entries = list(TournamentEntry.objects.filter(tournament_id=middle(h)).order_by("start_rank"))
    a, b = entries[0], entries[-1]
    TournamentEntry.objects.filter(pk=a.pk).update(start_rank=None)
    TournamentEntry.objects.filter(pk=b.pk).update(start_rank=a.start_rank)
    TournamentEntry.objects.filter(pk=a.pk).update(start_rank=b.start_rank)


def _remove_entry(h):
    tid = middle(h)
    pid = entered(tid)[-1]
    Game.objects.filter(tournament_id=tid, white_id=pid).delete()
    Game.objects.filter(tournament_id=tid, black_id=pid).delete()
    TournamentEntry.objects.filter(tournament_id=tid, player_id=pid).delete()


def _add_entry(h, *, with_game: bool):
    tid, pid = h.tournaments[2], None
    pid = stranger(tid)
    TournamentEntry.objects.create(tournament_id=tid, player_id=pid, start_rank=99)
    if with_game:
        Game.objects.create(tournament_id=tid, round=20, white_id=pid, black_id=entered(tid)[0], result="1-0")


def _stranger_game(h):
    """Input the engine rejects (an unknown player id): both recalculations fail alike."""
    tid = middle(h)
    Game.objects.create(
        tournament_id=tid, round=20, white_id=stranger(tid), black_id=entered(tid)[0], result="1-0"
    )


def _add_newcomer(h):
    tid = h.tournaments[1]
    if h.newcomer in entered(tid):
        tid = h.tournaments[2]
    TournamentEntry.objects.create(tournament_id=tid, player_id=h.newcomer, start_rank=99)
    Game.objects.create(
        tournament_id=tid, round=20, white_id=h.newcomer, black_id=entered(tid)[0], result="1-0"
    )


def _birth_year(h, year):
    pid = entered(h.tournaments[1])[0]
    Player.objects.filter(pk=pid).update(birth_year=year)


def _entry_member(h, member: bool):
    tid = middle(h)
    if member:
        TournamentEntry.objects.filter(tournament__in=h.tournaments, member=False).update(member=True)
    else:
        TournamentEntry.objects.filter(tournament_id=tid, player_id=entered(tid)[0]).update(member=False)


def _membership_removed(h):
    Membership.objects.filter(player_id=restpartie().player_id).delete()


def _membership_added(h):
    Membership.objects.create(player_id=h.newcomer, club=ClubFactory(), member_number="77")


def _membership_ended(h):
    Membership.objects.filter(player_id=restpartie().player_id).update(valid_until=datetime.date(2024, 1, 1))


def _end_date(h, days):
    tid = middle(h)
    day = Tournament.objects.get(pk=tid).end_date + datetime.timedelta(days)
    Tournament.objects.filter(pk=tid).update(end_date=day, start_date=day)


def _wo2026(h, *, into: bool):
    """A tournament moved across the start of WO2026: the other edition's rules."""
    if into:
        tid, day = middle(h), WO2026.valid_from
    else:
        tid = (
            Evaluation.objects.filter(edition="wo2026")
            .order_by("end_date")
            .values_list("tournament_id", flat=True)[0]
        )
        day = WO2026.valid_from - datetime.timedelta(days=1)
    Tournament.objects.filter(pk=tid).update(end_date=day, start_date=day)


def _k(h):
    row = Evaluation.objects.filter(edition="wo2026", coefficient__isnull=False).order_by("pk").first()
    Evaluation.objects.filter(pk=row.pk).update(coefficient=row.coefficient + Decimal("0.1"))


def _same_day(h):
    """A tournament moved to the day of the coded ones: it now sorts after them."""
    day = Tournament.objects.get(pk=h.coded[0]).end_date
    Tournament.objects.filter(pk=h.tournaments[1]).update(end_date=day, start_date=day)


def _code(h, code):
    Tournament.objects.filter(pk=h.coded[0]).update(code=code)


def _code_added(h):
    Tournament.objects.filter(pk=middle(h)).update(code="2410-B02-000")


def _rated(h, tid_of, rated):
    Tournament.objects.filter(pk=tid_of(h)).update(rated=rated)


def _start_value(h, **values):
    pid = entered(h.tournaments[0])[0]
    RatingAdjustment.objects.filter(player_id=pid, kind=AdjustmentKind.START).update(**values)


def _start_deleted(h):
    pid = entered(h.tournaments[0])[0]
    RatingAdjustment.objects.filter(player_id=pid, kind=AdjustmentKind.START).delete()


def _start_added(h, **values):
    RatingAdjustment.objects.filter(player_id=h.newcomer, kind=AdjustmentKind.START).delete()
    RatingAdjustment.objects.create(player_id=h.newcomer, kind=AdjustmentKind.START, **values)


def _fide_start(h, elo):
    RatingAdjustment.objects.filter(player_id=h.fide, kind=AdjustmentKind.START).update(fide_elo=elo)


def _adjustment_added(h):
    tid = h.tournaments[3]
    pid = entered(tid)[0]
    day = Tournament.objects.get(pk=tid).end_date
    RatingAdjustment.objects.create(
        player_id=pid, kind=AdjustmentKind.CORRECTION, date=day, dwz=1777, index=3
    )


def _adjustment(h, **values):
    RatingAdjustment.objects.filter(pk=h.adjustment).update(**values)


def _merge(h):
    """Two records of one player merged by hand: the dropped one's rows point to the kept one."""
    tids = set(h.tournaments)
    by_player = defaultdict(set)
    for tid, pid in TournamentEntry.objects.filter(tournament__in=tids).values_list(
        "tournament_id", "player_id"
    ):
        by_player[pid].add(tid)
    keep, drop = next(
        (a, b)
        for a in sorted(by_player)
        for b in sorted(by_player)
        if a < b and not by_player[a] & by_player[b]
    )
    if RatingAdjustment.objects.filter(player_id=keep, kind=AdjustmentKind.START).exists():
        RatingAdjustment.objects.filter(player_id=drop, kind=AdjustmentKind.START).delete()
    for model in (TournamentEntry, Evaluation, Restpartie, RatingAdjustment, Membership):
        model.objects.filter(player_id=drop).update(player_id=keep)
    Game.objects.filter(white_id=drop).update(white_id=keep)
    Game.objects.filter(black_id=drop).update(black_id=keep)
    Player.objects.filter(pk=drop).delete()


def _evaluation(h, **values):
    row = Evaluation.objects.filter(tournament_id=middle(h), status="rated", n__gt=0).order_by("pk").first()
    Evaluation.objects.filter(pk=row.pk).update(**values)


def _evaluation_deleted(h):
    Evaluation.objects.filter(
        pk=Evaluation.objects.filter(tournament_id=middle(h)).order_by("pk").first().pk
    ).delete()


def _evaluations_reordered(h):
    """The same rows in another primary-key order (deleted and inserted again, the first one last)."""
    rows = list(Evaluation.objects.filter(tournament_id=middle(h)).order_by("pk"))
    Evaluation.objects.filter(pk=rows[0].pk).delete()
    rows[0].pk = None
    rows[0].save()


def _evaluations_moved(h):
    """Rows of one tournament carried to another that has the same players (none have): copied."""
    source, target = h.tournaments[2], h.tournaments[3]
    for row in Evaluation.objects.filter(tournament_id=source):
        if not Evaluation.objects.filter(tournament_id=target, player_id=row.player_id).exists():
            row.pk, row.tournament_id = None, target
            row.save()


def _restpartie(h, **values):
    Restpartie.objects.filter(pk=restpartie().pk).update(**values)


def _restpartie_deleted(h):
    Restpartie.objects.filter(pk=restpartie().pk).delete()


def _restpartie_added(h):
    """A Restpartie given to a rated player's row."""
    row = Evaluation.objects.filter(tournament_id=middle(h), status="rated").order_by("pk").first()
    Restpartie.objects.create(
        player_id=row.player_id,
        tournament_id=row.tournament_id,
        seq=0,
        opponent_rating=1500,
        score=1,
        end_date=row.end_date,
    )


def _restpartie_orphan(h):
    """A Restpartie in a tournament whose rows do not name the player."""
    rp = restpartie()
    tid = next(t for t in h.tournaments if rp.player_id not in entered(t))
    Restpartie.objects.create(
        player_id=rp.player_id, tournament_id=tid, seq=0, opponent_rating=1500, score=1, end_date=rp.end_date
    )


def _restpartien_swapped(h):
    rp = restpartie()
    mine = list(
        Restpartie.objects.filter(tournament_id=rp.tournament_id, player_id=rp.player_id).order_by("seq")
    )
    assert len(mine) > 1
    a, b = mine[0], mine[-1]
    Restpartie.objects.filter(pk=a.pk).update(seq=100)
    Restpartie.objects.filter(pk=b.pk).update(seq=a.seq)
    Restpartie.objects.filter(pk=a.pk).update(seq=b.seq)


def _digest(h, value):
    EvaluationDigest.objects.filter(tournament_id=middle(h)).update(digest=value)


def _digest_copied(h):
    """Rows and digest of the tournament before copied to this one: its input is another."""
    source, target = h.tournaments[0], h.tournaments[1]
    Evaluation.objects.filter(tournament_id=target).delete()
    Restpartie.objects.filter(tournament_id=target).delete()
    for row in Evaluation.objects.filter(tournament_id=source):
        row.pk, row.tournament_id = None, target
        row.save()
    digest = EvaluationDigest.objects.get(tournament_id=source).digest
    EvaluationDigest.objects.filter(tournament_id=target).update(digest=digest)


def _player(h, **values):
    pid = entered(middle(h))[0]
    Player.objects.filter(pk=pid).update(**values)


def _tournament_deleted(h):
    Tournament.objects.filter(pk=middle(h)).delete()


def _tournament_added(h):
    """A rated tournament with entries and games but no rows and no digest."""
    day = Tournament.objects.get(pk=h.tournaments[2]).end_date
    t = Tournament.objects.create(name="new", start_date=day, end_date=day)
    players = [*entered(h.tournaments[2])[:3], h.newcomer]
    TournamentEntry.objects.bulk_create(
        TournamentEntry(tournament=t, player_id=pid, start_rank=i) for i, pid in enumerate(players, 1)
    )
    Game.objects.bulk_create(
        Game(tournament=t, round=1 + i, white_id=w, black_id=b, result="1/2-1/2")
        for i, (w, b) in enumerate(itertools.pairwise(players))
    )


MUTATIONS: dict[str, Callable[[History], None]] = {
    "nothing": lambda h: None,
    "game result reversed": lambda h: _game_result(h, "0-1"),
    "game drawn": lambda h: _game_result(h, "1/2-1/2"),
    "game forfeited": lambda h: _game_result(h, "+-"),
    "double forfeit": lambda h: _game_result(h, "--"),
    "game became a bye": lambda h: Game.objects.filter(pk=played_game(middle(h)).pk).update(
        result="+", black=None
    ),
    "forfeit played after all": lambda h: Game.objects.filter(result="+-").update(result="1-0"),
    "games in another round order": _swap_rounds,
    "colours swapped": _swap_colours,
    "start ranks swapped": _swap_start_ranks,
    "entry removed with its games": _remove_entry,
    "entry added without games": lambda h: _add_entry(h, with_game=False),
    "entry added with a game": lambda h: _add_entry(h, with_game=True),
    "game against a player not entered": _stranger_game,
    "unrated non-member entered": _add_newcomer,
    "birth year: a junior": lambda h: _birth_year(h, 2012),
    "birth year unknown": lambda h: _birth_year(h, None),
    "entry not a member": lambda h: _entry_member(h, False),
    "entry a member again": lambda h: _entry_member(h, True),
    "membership removed": _membership_removed,
    "membership added": _membership_added,
    "membership ended": _membership_ended,
    "end date a day later": lambda h: _end_date(h, 1),
    "end date a year earlier": lambda h: _end_date(h, -365),
    "end date onto the coded tournaments' day": _same_day,
    "end date into WO2026": lambda h: _wo2026(h, into=True),
    "end date out of WO2026": lambda h: _wo2026(h, into=False),
    "code: another KKK": lambda h: _code(h, "2410-A01-000"),
    "code: same KKK": lambda h: _code(h, "2411-Z99-002"),
    "code: none": lambda h: _code(h, None),
    "code: a UUID": lambda h: _code(h, "0190f3c1-7a2b-7c3d-8e4f-5a6b7c8d9e0f"),
    "code added": _code_added,
    "tournament no longer rated": lambda h: _rated(h, middle, False),
    "unrated tournament rated": lambda h: _rated(h, lambda h: h.unrated, True),
    "start value DWZ": lambda h: _start_value(h, dwz=1901),
    "start value index": lambda h: _start_value(h, index=0),
    "start value deleted": _start_deleted,
    "start value for an unrated player": lambda h: _start_added(h, dwz=1400, index=1),
    "FIDE start for an unrated player": lambda h: _start_added(h, fide_elo=1850),
    "FIDE start changed": lambda h: _fide_start(h, 2105),
    "dated adjustment added": _adjustment_added,
    "dated adjustment value": lambda h: _adjustment(h, dwz=1600),
    "dated adjustment index": lambda h: _adjustment(h, index=25),
    "dated adjustment moved": lambda h: _adjustment(h, date=datetime.date(2023, 2, 1)),
    "dated adjustment deleted": lambda h: RatingAdjustment.objects.filter(pk=h.adjustment).delete(),
    "two players merged": _merge,
    "row: dwz_new": lambda h: _evaluation(h, dwz_new=999),
    "row: index_new": lambda h: _evaluation(h, index_new=0),
    "row: dwz_old": lambda h: _evaluation(h, dwz_old=1000),
    "row: status": lambda h: _evaluation(h, status="first"),
    "row: n": lambda h: _evaluation(h, n=0),
    "row: points": lambda h: _evaluation(h, points="0.5"),
    "row: expected": lambda h: _evaluation(h, expected="0.123"),
    "row: coefficient": lambda h: _evaluation(h, coefficient="3.5"),
    "row: coefficient removed": lambda h: _evaluation(h, coefficient=None),
    "row: WO2026 K a tenth more": _k,
    "row: level": lambda h: _evaluation(h, level=100),
    "row: performance": lambda h: _evaluation(h, performance=None),
    "row: fide_takeover": lambda h: _evaluation(h, fide_takeover=True),
    "row: entry_rating": lambda h: _evaluation(h, entry_rating=1),
    "row: edition": lambda h: _evaluation(h, edition="wo2026"),
    "row: end_date": lambda h: _evaluation(h, end_date=datetime.date(2020, 1, 1)),
    "row: code_suffix": lambda h: _evaluation(h, code_suffix="001"),
    "row: player": lambda h: _evaluation(h, player_id=stranger(middle(h))),
    "rows: every end_date": lambda h: Evaluation.objects.filter(tournament_id=middle(h)).update(
        end_date=datetime.date(2020, 1, 1)
    ),
    "rows: every code_suffix": lambda h: Evaluation.objects.filter(tournament_id=h.coded[0]).update(
        code_suffix="009"
    ),
    "rows: every edition": lambda h: Evaluation.objects.filter(tournament_id=middle(h)).update(
        edition="wo2026"
    ),
    "row deleted": _evaluation_deleted,
    "rows in another order": _evaluations_reordered,
    "rows copied into another tournament": _evaluations_moved,
    "Restpartie: opponent": lambda h: _restpartie(h, opponent_rating=2999),
    "Restpartie: score": lambda h: _restpartie(h, score="0.5"),
    "Restpartie: date": lambda h: _restpartie(h, end_date=datetime.date(2019, 1, 1)),
    "Restpartie deleted": _restpartie_deleted,
    "Restpartie given to a rated player": _restpartie_added,
    "Restpartien in another order": _restpartien_swapped,
    "Restpartie without an evaluation": _restpartie_orphan,
    "digest changed": lambda h: _digest(h, "0" * 32),
    "digest deleted": lambda h: EvaluationDigest.objects.filter(tournament_id=middle(h)).delete(),
    "every digest deleted": lambda h: EvaluationDigest.objects.all().delete(),
    "rows and digest copied from another tournament": _digest_copied,
    "player: dwz": lambda h: _player(h, dwz=100),
    "player: index": lambda h: _player(h, index=None),
    "player: last evaluated": lambda h: _player(h, last_evaluated=datetime.date(2000, 1, 1)),
    "player: FIDE Elo (not an input)": lambda h: _player(h, fide_elo=2400),
    "tournament deleted": _tournament_deleted,
    "tournament added without rows": _tournament_added,
}


def outcome(reuse: bool) -> tuple:
    """``recalculate(reuse=...)`` in a savepoint: what it derives and reports, or the error it raised."""
    try:
        report = recalculate(reuse=reuse)
    except Exception as error:  # the two must fail alike
        return ("error", type(error).__name__, str(error)), None
    return (derived(), report.tournaments, report.evaluations, report.rating_changes), report


@pytest.fixture
def windows(monkeypatch):
    """Windows of about 40 entries: the history is replayed in two, each with its own stored digests."""
    monkeypatch.setattr(full, "WINDOW", 40)
    assert len(full.windows(datetime.date.min)) >= 2


@pytest.mark.parametrize("name", MUTATIONS)
def test_reuse_writes_what_a_full_evaluation_writes(history, windows, name):
    MUTATIONS[name](history)
    mutated = transaction.savepoint()
    reused, report = outcome(reuse=True)
    if report is not None:
        assert ratings_verify() == []
        # The digests it stored certify every row: the next one evaluates nothing and changes nothing.
        again = recalculate()
        assert again.reused == again.evaluations == report.evaluations
        assert derived() == reused[0]
    transaction.savepoint_rollback(mutated)
    evaluated, _ = outcome(reuse=False)
    assert reused == evaluated


def test_the_code_digest_is_the_code_started_with_not_the_files_read_later():
    """A deploy replaces the files while a process still runs its old engine: that process must certify
    with the digest of the code it started with (read at start-up, ``ratings.apps``), not of the files on
    disk at its first full recalculation, or the restarted processes would take its rows as the new
    engine's. The subprocess starts, then every file it reads has other contents."""
    script = (
        "import django, pathlib; django.setup()\n"
        "pathlib.Path.read_bytes = lambda self: b'the files after a deploy'\n"
        "from ratings.recalculation import _full as full\n"
        "print(full.Certificates(set()).code.hex())\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "dwzsite.settings_test"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == base._read_code_digest().hex()
