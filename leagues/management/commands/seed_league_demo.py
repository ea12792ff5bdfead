"""``manage.py seed_league_demo``: after ``seed_demo``, one season with two divisions on the demo clubs: the
Bezirksliga finished and evaluated, the Kreisklasse half played (round 1 approved, round 2 reported and
waiting for the director, round 3 scheduled); the demo logins of a director and a captain. Runs once."""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.db.models import Count, Q

from leagues.models import Division, Match, RankingEntry, RankingList, Season, Team
from leagues.services.division_tournament import division_evaluate
from leagues.services.matches import BoardReport, match_approve, match_report_save
from leagues.services.ranking import ranking_snapshot
from ratings.models import Club, Membership

DIRECTOR = ("staffelleiter", "demo-staffel")
CAPTAIN = ("mannschaftsfuehrer", "demo-mf")
D = datetime.date
BOARDS = 4
PAIRINGS = [[(0, 3), (1, 2)], [(3, 2), (0, 1)], [(1, 3), (2, 0)]]
DIVISIONS = (
    ("Bezirksliga", 1, [D(2026, 9, 13), D(2026, 10, 4), D(2026, 10, 25)]),
    ("Kreisklasse", 2, [D(2026, 10, 11), D(2026, 11, 15), D(2026, 12, 20)]),
)


class Command(BaseCommand):
    help = "Legt die Demo-Ligen an (nach seed_demo)."

    def handle(self, *args, **options) -> None:
        if Season.objects.filter(name="2026/27").exists():
            self.stdout.write("Demo-Ligen vorhanden.")
            return
        clubs = list(
            Club.objects.annotate(
                n=Count(
                    "memberships",
                    filter=Q(memberships__valid_until__isnull=True, memberships__player__dwz__isnull=False),
                )
            )
            .filter(n__gte=2 * BOARDS + 2)
            .order_by("-n", "zps")[:4]
        )
        if len(clubs) < 4:
            self.stdout.write("Zu wenige Vereine für die Demo-Ligen (erst seed_demo).")
            return
        with transaction.atomic():
            self._seed(clubs)
        self.stdout.write(self.style.SUCCESS("Demo-Ligen angelegt."))
        self.stdout.write(f"  Staffelleiter: {DIRECTOR[0]} / {DIRECTOR[1]}")
        self.stdout.write(f"  Mannschaftsführer: {CAPTAIN[0]} / {CAPTAIN[1]}")

    def _user(self, login: tuple[str, str]):
        user = get_user_model().objects.create_user(username=login[0], password=login[1])
        return user

    def _seed(self, clubs: Sequence[Club]) -> None:
        rng = random.Random(29)
        director, captain = self._user(DIRECTOR), self._user(CAPTAIN)
        # seed_demo's Wertungsreferent of Bezirk C05 evaluates (None without him).
        officer = get_user_model().objects.filter(username="referent").first()
        season = Season.objects.create(
            organisation=clubs[0].organisation, name="2026/27", reference_date=D(2026, 8, 1), rule_400=True
        )
        ranked: dict[int, list[int]] = {}
        used: set[int] = set()  # a member of two demo clubs plays for one
        for club in clubs:
            ranking = RankingList.objects.create(season=season, club=club)
            players = list(
                Membership.objects.filter(club=club, valid_until__isnull=True, player__dwz__isnull=False)
                .order_by("-player__dwz", "player_id")
                .exclude(player_id__in=used)
                .values_list("player_id", flat=True)[: 3 * BOARDS]
            )
            used.update(players)
            for k, pk in enumerate(players):
                RankingEntry.objects.create(
                    ranking_list=ranking,
                    player_id=pk,
                    rank=k + 1,
                    team_number=k // BOARDS + 1 if k < 2 * BOARDS else None,
                )
            ranking_snapshot(ranking_list=ranking)
            ranked[club.pk] = players
        for name, number, dates in DIVISIONS:
            division = Division.objects.create(
                season=season,
                name=name,
                level=number,
                boards=BOARDS,
                rounds=3,
                director=director,
                rating_officer=officer,
            )
            teams = [
                Team.objects.create(
                    division=division,
                    club=c,
                    number=number,
                    name=f"{c.name} {number}"[:100],
                    draw_number=i + 1,
                    captain=captain if (number, i) == (2, 0) else None,
                )
                for i, c in enumerate(clubs)
            ]
            for r, pairs in enumerate(PAIRINGS, start=1):
                for h, a in pairs:
                    match = Match.objects.create(
                        division=division, round=r, home=teams[h], away=teams[a], scheduled_date=dates[r - 1]
                    )
                    if number == 2 and r == 3:
                        continue
                    home = ranked[teams[h].club_id][(number - 1) * BOARDS :][:BOARDS]
                    away = ranked[teams[a].club_id][(number - 1) * BOARDS :][:BOARDS]
                    boards = [
                        BoardReport(n + 1, home[n], away[n], rng.choice(["1-0", "0-1", "1/2-1/2"]))
                        for n in range(BOARDS)
                    ]
                    match_report_save(match=match, boards=boards, user=director)
                    if number == 1 or r == 1:
                        match_approve(match=match, user=director)
            if number == 1:
                division_evaluate(division=division, user=None)
