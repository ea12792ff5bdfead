"""Benchmark of the previews (issue 26 §4): what a save and a delete would re-evaluate, computed by the
recalculation's reach without writing (``later_after_save`` / ``later_after_delete``), against the former way
(the save or delete itself, run under the rating lock and rolled back).

On ``bench/recalc.py``'s synthetic federation (its ``generate``) of the given size: a late club round robin
of 8 (one year before the last tournament; head stored, results previewed) and the delete of a tournament
two years before the last one. Each way is timed (best of ``--repeat``) and its queries counted.

Usage (from the repository root):

    .venv/bin/python bench/preview.py                       # SQLite, 20k evaluations
    .venv/bin/python bench/preview.py --db postgres --sizes 20000 200000
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import random
import time

from recalc import configure, generate, wipe


def _late(last: datetime.date):
    from ratings.models import Club, Game, Player, Tournament
    from ratings.services import tournament_create

    rng = random.Random(2)
    club = Club.objects.order_by("pk").first()
    group = list(Player.objects.filter(memberships__club=club, dwz__isnull=False).order_by("pk")[:8])
    end = last - datetime.timedelta(days=365)
    head = Tournament(name="Nachtrag", start_date=end, end_date=end)
    tournament_create(tournament=head)
    games = [
        Game(round=r, white_id=w.pk, black_id=b.pk, result=rng.choice(["1-0", "0-1", "1/2-1/2"]))
        for r, (w, b) in enumerate(itertools.combinations(group, 2), start=1)
    ]
    return head, group, games


def _rolled_back(work):
    """The former preview: the writing service inside a transaction that is rolled back."""
    from django.db import transaction

    with transaction.atomic():
        report = work()
        transaction.set_rollback(True)
    return report


def _measure(function, repeat: int):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    best, result, queries = float("inf"), None, 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            result = function()
            best = min(best, time.perf_counter() - started)
        queries = len(captured.captured_queries)
    return best, queries, result


def _size(size: int, repeat: int) -> None:
    from ratings.models import Tournament, TournamentEntry
    from ratings.recalculation import recalculate
    from ratings.selectors.previews import later_after_delete, later_after_save
    from ratings.services import tournament_delete, tournament_save_results

    wipe()
    made, last = generate(size)
    recalculate()
    head, group, games = _late(last)
    entries = [TournamentEntry(player_id=p.pk, start_rank=i) for i, p in enumerate(group, 1)]
    two_years = last - datetime.timedelta(days=730)
    gone = Tournament.objects.filter(end_date__lte=two_years).order_by("-end_date")[0]

    def save_before():
        for g in games:
            g.pk = None
        report = _rolled_back(lambda: tournament_save_results(tournament=head, entries=entries, games=games))
        return [pk for pk in report.tournaments if pk != head.pk], bool(report.unfinished)

    def delete_before():
        report = _rolled_back(lambda: tournament_delete(tournament=Tournament.objects.get(pk=gone.pk)))
        return [pk for pk in report.tournaments if pk != gone.pk], bool(report.unfinished)

    ways = {
        "save": {
            "rolled back": save_before,
            "reach": lambda: later_after_save(tournament=head, players=group, games=games),
        },
        "delete": {
            "rolled back": delete_before,
            "reach": lambda: later_after_delete(tournament=gone),
        },
    }
    for preview, by_way in ways.items():
        answers = []
        for way, function in by_way.items():
            seconds, queries, answer = _measure(function, repeat)
            answers.append(answer)
            print(f"{made:>8} {preview:<8} {way:<12} {seconds:>8.3f} {queries:>8}  {len(answer[0])}")
        assert answers[0] == answers[1], answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    configure(args.db)
    print(f"{'evals':>8} {'preview':<8} {'way':<12} {'seconds':>8} {'queries':>8}  later")
    for size in args.sizes:
        _size(size, args.repeat)


if __name__ == "__main__":
    main()
