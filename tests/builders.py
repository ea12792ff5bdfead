"""Shared test builders and helpers: data through the factories and the services (never derived rows by
hand), TRF text, and the subprocess and browser helpers several test folders use. Engine-only builders (no
database) stay in tests/dwz/builders.py."""

import datetime
import itertools
import os
import random
import subprocess
import sys
import threading
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from ratings.enums import AdjustmentKind, ResultCode
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
from ratings.models.officer import OfficerScope
from ratings.recalculation import lock_ratings
from ratings.services import adjustment_save, tournament_create, tournament_save_results
from tests.factories import MembershipFactory, PlayerFactory

RESULTS = ("1-0", "0-1", "1/2-1/2")


def player(*, dwz=None, index=None, fide_elo=None, birth_year=1980, **kwargs) -> Player:
    p = PlayerFactory(birth_year=birth_year, **kwargs)
    if dwz is not None or fide_elo is not None:
        adjustment_save(
            adjustment=RatingAdjustment(
                player=p, kind=AdjustmentKind.START, dwz=dwz, index=index, fide_elo=fide_elo
            )
        )
        p.refresh_from_db()
    return p


def save_tournament(players, games, *, end, code=None, name=None, tournament=None, non_members=()):
    """``games``: (white, black, result) triples; rounds are assigned so nobody plays twice in a round.
    ``non_members``: players entered as not members of a DSB club (WO 3.4.3)."""
    t = tournament or Tournament(name=name or f"Turnier {end}", start_date=end, end_date=end, code=code)
    entries = [
        TournamentEntry(player=p, start_rank=i, member=p not in non_members)
        for i, p in enumerate(players, start=1)
    ]
    rows, busy = [], {}
    for white, black, result in games:
        rnd = 1
        while white.pk in busy.get(rnd, set()) or black.pk in busy.get(rnd, set()):
            rnd += 1
        busy.setdefault(rnd, set()).update({white.pk, black.pk})
        rows.append(Game(round=rnd, white=white, black=black, result=result))
    save = tournament_create if t.pk is None else tournament_save_results
    report = save(tournament=t, entries=entries, games=rows)
    return t, report


def round_robin(players, rng: random.Random):
    return [(a, b, rng.choice(RESULTS)) for a, b in itertools.combinations(players, 2)]


def snapshot():
    """Everything the recalculation derives, keyed by stable values (not pks of derived rows)."""
    evaluations = sorted(
        Evaluation.objects.values_list(
            "tournament__name",
            "player__key",
            "status",
            "dwz_old",
            "index_old",
            "n",
            "points",
            "expected",
            "coefficient",
            "level",
            "performance",
            "dwz_new",
            "index_new",
            "edition",
            "fide_takeover",
            "entry_rating",
        )
    )
    restpartien = sorted(
        Restpartie.objects.values_list(
            "tournament__name", "player__key", "seq", "opponent_rating", "score", "end_date"
        )
    )
    players = sorted(Player.objects.values_list("key", "dwz", "index", "last_evaluated"))
    return {"evaluations": evaluations, "restpartien": restpartien, "players": players}


def random_history(rng: random.Random, *, n_players=24, n_tournaments=10, start=datetime.date(2023, 1, 15)):
    """A small federation: some rated, some FIDE-only, some unrated members; round robins of 4–8."""
    from tests.factories import MembershipFactory

    pool = []
    for i in range(n_players):
        kind = i % 4
        if kind == 3:
            p = player(birth_year=rng.randint(1950, 2015))
            MembershipFactory(player=p)
        elif kind == 2 and i % 8 == 2:
            p = player(fide_elo=rng.randint(1500, 2200), birth_year=rng.randint(1950, 2010))
        else:
            p = player(
                dwz=rng.randint(700, 2300), index=rng.randint(0, 40), birth_year=rng.randint(1950, 2015)
            )
        pool.append(p)
    plan = []
    for j in range(n_tournaments):
        end = start + datetime.timedelta(days=rng.randint(0, 3 * 365))
        members = rng.sample(pool, rng.randint(4, 8))
        plan.append((end, members, round_robin(members, rng), f"T{j:02d}"))
    return pool, plan


# --- players and tournaments for page tests --------------------------------------------------------------


def make_player(*, dwz=None, index=None, birth_year=1980, club=None, member_number=None, **kwargs):
    player = PlayerFactory(birth_year=birth_year, **kwargs)
    if dwz is not None:
        adjustment_save(
            adjustment=RatingAdjustment(player=player, kind=AdjustmentKind.START, dwz=dwz, index=index)
        )
    if club is not None:
        extra = {"member_number": member_number} if member_number else {}
        MembershipFactory(player=player, club=club, **extra)
    player.refresh_from_db()
    return player


def make_tournament(players, games, *, end, name="Turnier", code=None, **kwargs):
    """``games``: (round, white, black, result)."""
    tournament = Tournament(
        name=name, start_date=end - datetime.timedelta(days=2), end_date=end, code=code, **kwargs
    )
    entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, start=1)]
    rows = [Game(round=r, white=w, black=b, result=res) for r, w, b, res in games]
    tournament_create(tournament=tournament, entries=entries, games=rows)
    return tournament


def club_player(club, surname, dwz, *, index=10, birth_year=1980, number="1"):
    player = Player.objects.create(
        key=f"{club.zps}-{number}", surname=surname, first_name="Test", birth_year=birth_year
    )
    Membership.objects.create(player=player, club=club, member_number=number)
    adjustment_save(
        adjustment=RatingAdjustment(player=player, kind=AdjustmentKind.START, dwz=dwz, index=index)
    )
    player.refresh_from_db()
    return player


PASSWORD = "geheim-123"  # of every user the officer tests create


def make_user(username, *, staff=False, **scope):
    """A user with ``PASSWORD``: a superuser with ``staff``, else an officer if a ``scope`` (club= or
    organisation=) is given, else a plain member."""
    user_model = get_user_model()
    if staff:
        return user_model.objects.create_superuser(username=username, password=PASSWORD, email="")
    user = user_model.objects.create_user(username=username, password=PASSWORD)
    if scope:
        OfficerScope.objects.create(user=user, **scope)
    return user


def grid_data(players, cells: dict[tuple[int, int], str], **extra) -> dict:
    """POST data for the round-robin grid: ``cells`` maps (row index, column index) to the typed value."""
    data: dict = {"p": [str(p.pk) for p in players]}
    for (i, j), value in cells.items():
        data[f"rr-{players[i].pk}-{players[j].pk}"] = value
    data.update(extra)
    return data


def head_data(tree, **changes) -> dict:
    """POST data for the head form of the ``tournament`` fixture, with ``changes``."""
    data = {
        "name": "Vereinsmeisterschaft",
        "start_date": "2024-03-01",
        "end_date": "2024-03-10",
        "rounds": "3",
        "organiser": f"club:{tree['club_a'].pk}",
        "mode": "rr",
        "rated": "on",
        "version": "1",
    }
    return data | changes


# --- TRF text ----------------------------------------------------------------------------------------------


def player_line(  # noqa: PLR0913 -- existing; issue 27
    rank, name, rounds=(), *, sex=" ", title="", rating="", fed="", fide_id="", birth="", points="", place=""
):
    """A 001 line built column by column (formats.md §1.3); rounds are (opponent, colour, code) triples."""
    line = (
        f"001 {rank:>4} {sex}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide_id:>11} {birth:<10} "
        f"{points:>4} {place:>4}  "
    )
    for opponent, colour, code in rounds:
        line += f"{opponent:>4} {colour} {code}  "
    return line.rstrip()


def ger_line(rank, dwz="", number="", index=""):
    """A TRF26 GER line (formats.md §2.4): DWZ in 49–52, DSB id in 58–68, the index in 11–13."""
    return f"GER {rank:>4}  {index:>3} {'':<33} {dwz:>4}     {number:>11}".rstrip()


def trf(*lines: str, head=("012 Test-Open", "042 2024/03/01", "052 2024/03/03")) -> bytes:
    return ("\n".join([*head, *lines]) + "\n").encode()


def stored_points(tournament: Tournament) -> dict[int, Decimal]:
    """Every participant's points from the stored games and byes, by start rank."""
    values = {
        ResultCode.WHITE_WINS: (1, 0),
        ResultCode.BLACK_WINS: (0, 1),
        ResultCode.DRAW: (Decimal("0.5"), Decimal("0.5")),
        ResultCode.WHITE_WINS_FORFEIT: (1, 0),
        ResultCode.BLACK_WINS_FORFEIT: (0, 1),
        ResultCode.DOUBLE_FORFEIT: (0, 0),
        ResultCode.BYE: (1, None),
        ResultCode.FULL_POINT_BYE: (1, None),
        ResultCode.HALF_POINT_BYE: (Decimal("0.5"), None),
        ResultCode.UNPAIRED: (0, None),
        ResultCode.ZERO_POINT_BYE: (0, None),
    }
    rank = dict(tournament.entries.values_list("player_id", "start_rank"))
    points = dict.fromkeys(rank.values(), Decimal(0))
    for g in tournament.games.all():
        w, b = values[g.result]
        points[rank[g.white_id]] += Decimal(w)
        if g.black_id:
            points[rank[g.black_id]] += Decimal(b)
    return points


# --- processes and pages ----------------------------------------------------------------------------------


ROOT = Path(__file__).resolve().parents[1]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "dwzsite.settings",
    "DJANGO_DEBUG": "False",
    "DJANGO_SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "DJANGO_ALLOWED_HOSTS": "dwz.example.org",
    "DJANGO_SECURE_SSL_REDIRECT": "True",
    "DJANGO_HSTS_SECONDS": "31536000",
}


def collect_errors(page):
    errors = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


@contextmanager
def holding_rating_lock():
    """Another connection holds the rating lock for as long as the block runs (transactional tests on
    PostgreSQL: SQLite's shared-cache test database refuses at once instead of waiting)."""
    taken, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                lock_ratings()
                taken.set()
                release.wait(60)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert taken.wait(10)
        yield
    finally:
        release.set()
        holder.join()


def admin_form_data(a, b, result="1-0", white=None, black=None) -> dict:
    """The admin's add form of a one-game tournament between players ``a`` and ``b`` (both members)."""
    return {
        "name": "Vereinsmeisterschaft",
        "code": "",
        "place": "Ulm",
        "start_date": "2018-11-10",
        "end_date": "2018-11-15",
        "rounds": "1",
        "notes": "",
        "rated": "on",
        "entries-TOTAL_FORMS": "2",
        "entries-INITIAL_FORMS": "0",
        "entries-0-player": str(a.pk),
        "entries-0-start_rank": "1",
        "entries-0-member": "on",
        "entries-1-player": str(b.pk),
        "entries-1-start_rank": "2",
        "entries-1-member": "on",
        "games-TOTAL_FORMS": "1",
        "games-INITIAL_FORMS": "0",
        "games-0-round": "1",
        "games-0-white": str((white or a).pk),
        "games-0-black": str((black or b).pk),
        "games-0-result": result,
    }
