"""Load the demo data once: demo logins and a small, fictional but real-looking federation.

The federation (Schachverband Württemberg with the Bezirke Stuttgart and Unterland-Hohenlohe, codes and
names from the DSB tree in shared/testdata/dsb) has six invented clubs, ~150 invented players and ~40
tournaments from 2024 to 2026, all evaluated through the rating service. Seeded: the same data every time.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from ratings.enums import AdjustmentKind, PlayerStatus, ResultCode, Sex
from ratings.models import (
    Club,
    Game,
    Membership,
    Organisation,
    Player,
    RatingAdjustment,
    Tournament,
    TournamentEntry,
)
from ratings.models.officer import OfficerScope, TournamentMode
from ratings.services import adjustment_save, tournament_create

# Fixed, documented demo logins (README.md). Only this command ever creates them.
DEMO_ADMIN = ("admin", "demo-admin")
# Rating officers: (login, password, scope organisation code, scope club ZPS, description).
DEMO_OFFICERS = [
    ("referent", "demo-referent", "C05", None, "Wertungsreferent Bezirk Stuttgart (C05)"),
    ("vereinsreferent", "demo-verein", None, "C0601", "Wertungsreferent SV Böckingen (C0601, Bezirk C06)"),
]
# Fictional names: a tournament page names its Wertungsreferent (the officer who entered it).
DEMO_OFFICER_NAMES = {"referent": ("Jörg", "Weißmüller"), "vereinsreferent": ("Änne", "Schäfer")}

ORGANISATIONS = [
    ("000", "Deutscher Schachbund", None),
    ("C00", "Schachverband Württemberg e.V.", "000"),
    ("C05", "Bezirk Stuttgart", "C00"),
    ("C06", "Bezirk Unterland-Hohenlohe", "C00"),
]
CLUBS = [
    ("C0501", "SC Feuerbach 1950", "C05", "Stuttgart-Feuerbach"),
    ("C0502", "Schachfreunde Vaihingen-Rohr", "C05", "Stuttgart-Vaihingen"),
    ("C0503", "SK Zuffenhausen 1921", "C05", "Stuttgart-Zuffenhausen"),
    ("C0601", "SV Böckingen 1948", "C06", "Heilbronn"),
    ("C0602", "SG Neckarsulm", "C06", "Neckarsulm"),
    ("C0603", "Schachclub Öhringen", "C06", "Öhringen"),
]


def _words(*lines: str) -> list[str]:
    return [w for line in lines for w in line.split()]


SURNAMES = _words(
    "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer",
    "Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange",
    "Schmitt Werner Schmitz Krause Meier Lehmann Schmid Schulze Maier Köhler Herrmann König Walter",
    "Mayer Huber Kaiser Fuchs Peters Lang Scholz Möller Weiß Jung Hahn Schubert Vogel Friedrich",
    "Keller Günther Frank Berger Winkler Roth Beck Lorenz Baumann Franke Albrecht Schuster Simon",
    "Ludwig Böhm Winter Kraus Martin Schumacher Krämer Vogt Stein Jäger Otto Sommer Groß Seidel",
    "Heinrich Brandt Haas Schreiber Graf Schulte Dietrich Ziegler Kuhn Kühn Pohl Engel Horn Busch",
    "Bergmann Thomas Voigt Sauer Arnold Wolff Pfeiffer",
)
MALE = _words(
    "Lukas Leon Finn Jonas Paul Felix Noah Elias Ben Maximilian Thomas Michael Andreas Stefan Peter",
    "Klaus Jürgen Wolfgang Frank Matthias Markus Christian Dieter Uwe Bernd Helmut Günter Karl Horst",
    "Tobias Florian Jan Moritz",
)
FEMALE = _words(
    "Emma Mia Hannah Lea Sophie Marie Lena Anna Laura Julia Sabine Petra Monika Claudia Andrea",
    "Susanne Birgit Ursula Renate Karin Katharina Johanna Clara Greta Ida",
)


def _code(end: datetime.date, level: str, suffix: str) -> str:
    """DSB tournament code YYWW-ZZZ-KKK from the ISO week of the end date (spec/formats.md §4)."""
    year, week, _ = end.isocalendar()
    return f"{chr(ord('A') + (year - 2000) // 10)}{year % 10}{week:02d}-{level}-{suffix}"


def _expected(a: int, b: int) -> float:
    return 1 / (1 + 10 ** ((b - a) / 400))


class Demo:
    def __init__(self, rng: random.Random, stdout) -> None:
        self.rng = rng
        self.stdout = stdout
        self.strength: dict[int, int] = {}  # hidden playing strength used to draw results

    # --- federation and players ------------------------------------------------------------------
    def federation(self) -> list[Club]:
        orgs: dict[str, Organisation] = {}
        for code, name, parent in ORGANISATIONS:
            orgs[code] = Organisation.objects.create(
                code=code, name=name, parent=orgs[parent] if parent else None
            )
        return [
            Club.objects.create(zps=zps, name=name, organisation=orgs[org]) for zps, name, org, _ in CLUBS
        ]

    def players(self, clubs: list[Club]) -> dict[str, list[Player]]:
        rng = self.rng
        by_club: dict[str, list[Player]] = {}
        used: set[tuple[str, str]] = set()
        for club in clubs:
            members = []
            for number in range(1, 26):
                sex = Sex.FEMALE if rng.random() < 0.2 else Sex.MALE
                while True:
                    first = rng.choice(FEMALE if sex == Sex.FEMALE else MALE)
                    surname = rng.choice(SURNAMES)
                    if (surname, first) not in used:
                        used.add((surname, first))
                        break
                junior = number > 17  # eight juniors per club
                birth_year = rng.randint(2008, 2017) if junior else rng.randint(1944, 2004)
                p = Player.objects.create(
                    key=f"{club.zps}-{number:04d}",
                    surname=surname,
                    first_name=first,
                    sex=sex,
                    birth_year=birth_year,
                    dsb_id=str(10_000_000 + len(self.strength) * 37 + number) if rng.random() < 0.7 else None,
                    status=PlayerStatus.PASSIVE if rng.random() < 0.05 else PlayerStatus.ACTIVE,
                )
                Membership.objects.create(player=p, club=club, member_number=f"{number:04d}")
                newcomer = (junior and number > 22) or number in (15, 16)  # no rating yet
                fide_only = number == 1 and club.zps in ("C0502", "C0601")
                strength = rng.randint(700, 1500) if junior else int(rng.gauss(1650, 280))
                strength = max(600, min(2350, strength))
                self.strength[p.pk] = strength
                if fide_only:
                    p.fide_elo, p.fide_id, p.fide_federation = strength + 40, 24_600_000 + p.pk, "GER"
                    p.save(update_fields=["fide_elo", "fide_id", "fide_federation"])
                    start = RatingAdjustment(player=p, kind=AdjustmentKind.START, fide_elo=strength + 40)
                elif newcomer:
                    start = None
                else:
                    dwz = max(550, strength + rng.randint(-120, 120))
                    index = rng.randint(1, 8) if junior else rng.randint(5, 90)
                    start = RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=dwz, index=index)
                if start is not None:
                    start.reason = "Demo-Startwert"
                    adjustment_save(adjustment=start)
                if strength >= 2150 and rng.random() < 0.6:
                    p.fide_title = "FM" if strength < 2300 else "IM"
                    p.save(update_fields=["fide_title"])
                members.append(p)
            by_club[club.zps] = members
        return by_club

    # --- results -------------------------------------------------------------------------------------
    def result(self, white: Player, black: Player, forfeits: float = 0.0) -> str:
        rng = self.rng
        if forfeits and rng.random() < forfeits:
            return rng.choice([ResultCode.WHITE_WINS_FORFEIT, ResultCode.BLACK_WINS_FORFEIT])
        e = _expected(self.strength[white.pk] + 35, self.strength[black.pk])
        draw = 0.32 * (1 - abs(2 * e - 1))
        r = rng.random()
        if r < draw:
            return ResultCode.DRAW
        return ResultCode.WHITE_WINS if r < draw + (1 - draw) * e else ResultCode.BLACK_WINS

    def round_robin(self, players: list[Player]) -> list[Game]:
        """Berger tables: every pair once, n-1 (or n) rounds."""
        seats = list(players) + ([None] if len(players) % 2 else [])
        n = len(seats)
        games = []
        for rnd in range(1, n):
            for board in range(n // 2):
                a, b = seats[board], seats[n - 1 - board]
                if a is None or b is None:
                    continue
                white, black = (a, b) if (rnd + board) % 2 else (b, a)
                games.append(
                    Game(
                        round=rnd, board=board + 1, white=white, black=black, result=self.result(white, black)
                    )
                )
            seats = [seats[0], seats[-1], *seats[1:-1]]
        return games

    def swiss(self, players: list[Player], rounds: int, forfeits: float = 0.03) -> list[Game]:
        """A simple Swiss system: sort by points then strength, pair neighbours not yet met; odd one out
        gets a bye (spielfrei, one point)."""
        score = {p.pk: 0.0 for p in players}
        met: set[tuple[int, int]] = set()
        had_bye: set[int] = set()
        games = []
        for rnd in range(1, rounds + 1):
            order = sorted(players, key=lambda p: (-score[p.pk], -self.strength[p.pk], p.pk))
            if len(order) % 2:
                bye = next(p for p in reversed(order) if p.pk not in had_bye)
                order.remove(bye)
                had_bye.add(bye.pk)
                score[bye.pk] += 1
                games.append(Game(round=rnd, white=bye, black=None, result=ResultCode.BYE))
            board = 0
            while order:
                a = order.pop(0)
                j = next((i for i, b in enumerate(order) if (a.pk, b.pk) not in met), 0)
                b = order.pop(j)
                met |= {(a.pk, b.pk), (b.pk, a.pk)}
                white, black = (a, b) if (rnd + board) % 2 else (b, a)
                board += 1
                result = self.result(white, black, forfeits)
                games.append(Game(round=rnd, board=board, white=white, black=black, result=result))
                w = {"1-0": 1, "0-1": 0, "1/2-1/2": 0.5, "+-": 1, "-+": 0}[result]
                score[white.pk] += w
                score[black.pk] += 1 - w
        return games

    def save(  # noqa: PLR0913 -- existing; issue 27
        self,
        *,
        name,
        place,
        end,
        days,
        players,
        games,
        code=None,
        club=None,
        org=None,
        rounds=None,
        mode=TournamentMode.SWISS,
    ):
        """Save one tournament through the create service, with the entry mode its games were paired in
        (as the officer's form stores it: the audit's "angelegt" names the real type, issue 32)."""
        t = Tournament(
            name=name,
            place=place,
            code=code,
            start_date=end - datetime.timedelta(days=days),
            end_date=end,
            rounds=rounds or max(g.round for g in games),
            organiser_club=club,
            organiser_organisation=org if club is None else None,
        )
        entries = [TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, 1)]
        report = tournament_create(tournament=t, entries=entries, games=games, mode=mode)
        self.stdout.write(
            f"  {end}  {code or '–':<12}  {name:<48} {len(players):>3} Spieler  {report.elapsed:.2f} s"
        )
        return t

    # --- the tournament calendar --------------------------------------------------------------------------
    def tournaments(self, clubs: list[Club], by_club: dict[str, list[Player]]) -> int:  # noqa: C901 -- existing; issue 27
        rng = self.rng
        orgs = {o.code: o for o in Organisation.objects.all()}
        everyone = [p for ps in by_club.values() for p in ps]
        juniors = [p for p in everyone if p.birth_year and p.birth_year >= 2006]
        plan: list[tuple[str, int, datetime.date, Any]] = []  # (kind, year, end, a Club or a code)
        # Club championships (round robin), three seasons; the 2026 ones on both sides of 2026-06-08.
        for season, base in ((2024, datetime.date(2024, 4, 12)), (2025, datetime.date(2025, 4, 11))):
            for i, club in enumerate(clubs):
                plan.append(("club", season, base + datetime.timedelta(days=7 * i), club))
        for i, club in enumerate(clubs):
            plan.append(("club", 2026, datetime.date(2026, 5, 15) + datetime.timedelta(days=14 * i), club))
        # Opens (Swiss, 7 rounds), juniors' tournaments (Swiss, 5 rounds), district championships.
        d = datetime.date
        for end in (d(2024, 8, 4), d(2025, 1, 6), d(2025, 8, 3), d(2026, 1, 6), d(2026, 6, 7), d(2026, 8, 2)):
            plan.append(("open", end.year, end, None))
        for end in (
            d(2024, 3, 3),
            d(2024, 11, 17),
            d(2025, 3, 2),
            d(2025, 11, 16),
            d(2026, 3, 1),
            d(2026, 10, 18),
        ):
            plan.append(("youth", end.year, end, None))
        for year in (2024, 2025, 2026):
            for j, bezirk in enumerate(("C05", "C06")):
                plan.append(
                    ("district", year, datetime.date(year, 2, 25) + datetime.timedelta(days=7 * j), bezirk)
                )
        plan += [
            ("city", 2024, datetime.date(2024, 10, 6), "C0601"),
            ("city", 2025, datetime.date(2025, 10, 5), "C0501"),
        ]
        plan += [
            ("city", 2026, datetime.date(2026, 6, 14), "C0603"),
            ("city", 2026, datetime.date(2026, 11, 8), "C0502"),
        ]
        plan.sort(key=lambda x: x[2])
        count = 0
        for kind, year, end, ref in plan:
            count += 1
            if kind == "club":
                club = ref
                pool = [p for p in by_club[club.zps] if p.status == PlayerStatus.ACTIVE]
                players = rng.sample(pool, 8)
                town = next(c[3] for c in CLUBS if c[0] == club.zps)
                self.save(
                    name=f"Vereinsmeisterschaft {year - 1}/{str(year)[2:]} {club.name}",
                    place=town,
                    end=end,
                    days=180,
                    players=players,
                    games=self.round_robin(players),
                    code=_code(end, club.zps[:3], f"V{club.zps[-2:]}"),
                    club=club,
                    mode=TournamentMode.ROUND_ROBIN,
                )
            elif kind == "open":
                host = clubs[count % len(clubs)]
                players = rng.sample(everyone, 36)
                self.save(
                    name=f"{_open_name(end)}-Open {year} ({host.name})",
                    place=next(c[3] for c in CLUBS if c[0] == host.zps),
                    end=end,
                    days=4,
                    players=players,
                    games=self.swiss(players, 7),
                    code=_code(end, "C00", "OP1"),
                    club=host,
                )
            elif kind == "youth":
                players = rng.sample(juniors, min(len(juniors), 23))  # odd: one bye per round
                self.save(
                    name=f"Jugendturnier {'Frühjahr' if end.month < 7 else 'Herbst'} {year}",
                    place="Stuttgart",
                    end=end,
                    days=1,
                    players=players,
                    games=self.swiss(players, 5, forfeits=0.05),
                    code=_code(end, "C00", "JU1"),
                    org=orgs["C00"],
                )
            elif kind == "district":
                bezirk = ref
                pool = [p for zps, ps in by_club.items() if zps.startswith(bezirk) for p in ps]
                players = rng.sample(pool, 20)
                self.save(
                    name=f"Bezirkseinzelmeisterschaft {year} {orgs[bezirk].name}",
                    place="Stuttgart" if bezirk == "C05" else "Heilbronn",
                    end=end,
                    days=30,
                    players=players,
                    games=self.swiss(players, 7, forfeits=0.02),
                    code=_code(end, bezirk, "BEM"),
                    org=orgs[bezirk],
                )
            else:  # a small uncoded city tournament (round robin of 6)
                club = Club.objects.get(zps=ref)
                players = rng.sample(by_club[ref], 4) + rng.sample(everyone, 2)
                players = list(dict.fromkeys(players))
                self.save(
                    name=f"Stadtmeisterschaft {year} {next(c[3] for c in CLUBS if c[0] == ref)}",
                    place=next(c[3] for c in CLUBS if c[0] == ref),
                    end=end,
                    days=2,
                    players=players,
                    games=self.round_robin(players),
                    club=club,
                    mode=TournamentMode.ROUND_ROBIN,
                )
        return count


def _open_name(end: datetime.date) -> str:
    """Season names keep two opens of one year apart (one ends before, one after 2026-06-08)."""
    if end.month <= 2:
        return "Neujahrs"
    if end.month <= 6:
        return "Pfingst"
    return "Sommer"


class Command(BaseCommand):
    help = "Legt die Demo-Logins und einen Demo-Verband an (nur einmal) und gibt die Logins aus."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--no-federation", action="store_true", help="only the demo logins")
        parser.add_argument(
            "--site",
            default="http://127.0.0.1:8000/",
            help="the address printed after the logins (make run passes its HOST and PORT)",
        )

    def handle(self, *args, **options) -> None:
        user_model = get_user_model()
        username, password = DEMO_ADMIN
        if not user_model.objects.filter(username=username).exists():
            user_model.objects.create_superuser(username=username, email="", password=password)
            self.stdout.write(self.style.SUCCESS(f"Demo admin created: {username}"))
        if not options["no_federation"]:
            if Organisation.objects.exists() or Tournament.objects.exists():
                self.stdout.write("Demo federation: data present, nothing loaded.")
            else:
                self.stdout.write("Loading the demo federation …")
                with transaction.atomic():
                    demo = Demo(random.Random(20240608), self.stdout)
                    clubs = demo.federation()
                    by_club = demo.players(clubs)
                    n = demo.tournaments(clubs, by_club)
                self.stdout.write(
                    self.style.SUCCESS(
                        f"Demo federation: {len(clubs)} clubs, {Player.objects.count()} players, "
                        f"{n} tournaments."
                    )
                )
        self.stdout.write("")
        self.stdout.write("Demo logins (only for the demo database):")
        self.stdout.write(f"  admin (Django admin /admin/):  {username} / {password}")
        for login, secret, org_code, zps, description in DEMO_OFFICERS:
            org = Organisation.objects.filter(code=org_code).first() if org_code else None
            club = Club.objects.filter(zps=zps).first() if zps else None
            if org is None and club is None:
                continue
            officer, created = user_model.objects.get_or_create(username=login)
            if created:
                officer.set_password(secret)
                officer.first_name, officer.last_name = DEMO_OFFICER_NAMES[login]
                officer.save()
            OfficerScope.objects.get_or_create(user=officer, organisation=org, club=club)
            self.stdout.write(f"  {description}:  {login} / {secret}")
        self.stdout.write(f"Site: {options['site']}")
        self.stdout.write("")
