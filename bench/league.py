"""Benchmark of a league division's public reads and of the DWZ side of a match report save (issue 29).

On ``bench/recalc.py``'s synthetic federation (its ``generate``) of the given size, a division of
``--teams`` teams × ``--boards`` boards (single round robin, every round played, the federation's players)
is built with the models, and its DWZ tournament created from its rated games (``tournament_create``).
Timed, best of ``--repeat``, with the queries counted:

* ``division_page``: the public division page (``leagues.web.public.views.division_detail``, rendered: table,
  crosstable, rounds with every board) — the goal is ≤ 100 ms at 2 M evaluations;
* ``division_api``: ``/api/divisions/<id>``; ``dsb_xml``: the division's DSB report;
* ``report_save_dwz``: what a match report save costs on the rating side — one board's result flipped and the
  division's tournament saved through ``tournament_save_results`` (rolled back). The league's own writes (one
  match, its boards) are not in it: the match report service is built in parallel (issue 29 part 1).

One JSON line per measurement with ``reference_seconds`` and ``commit`` (as ``bench/federation.py``).

Usage (from the repository root):

    .venv/bin/python bench/league.py --evaluations 20000
    .venv/bin/python bench/league.py --db postgres --evaluations 200000
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from federation import commit, reference_seconds
from recalc import configure, generate, wipe


def _measure(function, repeat: int) -> tuple[float, int, object]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    best, queries, result = float("inf"), 0, None
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            result = function()
            seconds = time.perf_counter() - started
        if seconds < best:
            best, queries = seconds, len(captured)
    return best, queries, result


def _clear() -> None:
    """The league rows and clubs of an earlier run (matches protect their teams, so they go first)."""
    from leagues.models import Board, Match, Season
    from ratings.models import Club, Tournament
    from ratings.services import tournament_delete

    for tournament in Tournament.objects.filter(name__startswith="Bench-Liga"):
        tournament_delete(tournament=tournament)
    Board.objects.all().delete()
    Match.objects.all().delete()
    Season.objects.all().delete()
    Club.objects.filter(name__startswith="Verein ").delete()


def _division(teams: int, boards: int):
    from ratings.models import Player
    from tests.leagues.league_builders import round_robin_division

    _clear()
    players = list(Player.objects.filter(birth_year__isnull=False).order_by("?")[: teams * boards])
    return round_robin_division(teams=teams, boards=boards, players=players, seed=7, name="Bench-Liga")


def _tournament(division):
    """The division's DWZ tournament from its rated games (what issue 29 part 1's service will keep)."""
    from leagues.models import DivisionPart
    from leagues.selectors.divisions import division_data
    from ratings.models import Game, Tournament, TournamentEntry
    from ratings.services import tournament_create

    data = division_data(pk=division.pk)
    games = data.rated_games
    players = sorted({int(p) for g in games for p in (g.white, g.black)})
    days = [g.played_on for g in games]
    head = Tournament(name=str(division), start_date=min(days), end_date=max(days), rounds=division.rounds)
    rows = [
        Game(round=g.round, board=g.board, white_id=int(g.white), black_id=int(g.black), result=g.result)
        for g in games
    ]
    entries = [TournamentEntry(player_id=p) for p in players]
    tournament_create(tournament=head, entries=entries, games=rows)
    DivisionPart.objects.filter(division=division).update(tournament=head)
    return head, entries, rows


def _save(tournament, entries, games):
    from django.db import transaction

    from ratings.models import Game, TournamentEntry
    from ratings.services import tournament_save_results

    flip = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}
    changed = [
        Game(round=g.round, board=g.board, white_id=g.white_id, black_id=g.black_id, result=g.result)
        for g in games
    ]
    changed[len(changed) // 2].result = flip[changed[len(changed) // 2].result]
    fresh = [TournamentEntry(player_id=e.player_id) for e in entries]
    with transaction.atomic():
        tournament_save_results(tournament=tournament, entries=fresh, games=changed)
        transaction.set_rollback(True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--evaluations", type=int, default=20_000)
    parser.add_argument("--teams", type=int, default=10)
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-generate", action="store_true", help="reuse the federation generated before")
    args = parser.parse_args()
    # The test settings: plain static storage (no collected manifest), background jobs run at once.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dwzsite.settings_test")
    configure(args.db)
    import django

    django.setup()
    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    from leagues.api import views as api
    from leagues.exports import dsb_xml_of
    from leagues.selectors.divisions import division_data
    from leagues.web.public import views
    from ratings.models import Evaluation
    from ratings.recalculation import recalculate

    if not args.skip_generate:
        _clear()
        wipe()
        generate(args.evaluations)
        recalculate()
    evaluations = Evaluation.objects.count()
    division = _division(args.teams, args.boards)
    started = time.perf_counter()
    tournament, entries, games = _tournament(division)
    created = time.perf_counter() - started
    factory = RequestFactory()

    def get(view, path):
        request = factory.get(path)
        request.user = AnonymousUser()
        response = view(request, pk=division.pk)
        assert response.status_code == 200, response.status_code
        return len(response.content)

    measurements = {
        "division_page": lambda: get(views.division_detail, f"/ligen/staffel/{division.pk}/"),
        "division_api": lambda: get(api.division.__wrapped__, f"/api/divisions/{division.pk}"),
        "dsb_xml": lambda: len(dsb_xml_of(division_data(pk=division.pk, players=True))),
        "report_save_dwz": lambda: _save(tournament, entries, games),
    }
    common = {
        "bench": "league", "evaluations": evaluations, "teams": args.teams, "boards": args.boards,
        "games": len(games), "db": args.db,
    }  # fmt: skip
    print(json.dumps({**common, "phase": "tournament_create", "seconds": round(created, 3)}), flush=True)
    for name, function in measurements.items():
        repeat = args.repeat if name != "report_save_dwz" else max(1, args.repeat // 2)
        seconds, queries, size = _measure(function, repeat)
        line = {**common, "phase": name, "seconds": round(seconds, 4), "queries": queries}
        if isinstance(size, int):
            line["bytes"] = size
        line.update(commit=commit(), reference_seconds=reference_seconds())
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
