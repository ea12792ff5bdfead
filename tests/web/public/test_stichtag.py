"""DWZ at a date (issue 30 §1): the card, the lists and the API at a Stichtag agree with the stored history,
for every evaluation day of many players, the day before and the day after; bad dates never give a 500."""

import csv
import datetime
import itertools
import random

import pytest
from django.urls import reverse

from ratings.dwz.rounding import rhu_div
from ratings.enums import AdjustmentKind, EvaluationStatus
from ratings.models import Evaluation, Player, RatingAdjustment
from ratings.services import adjustment_save
from tests.builders import random_history, save_tournament
from tests.factories import ClubFactory, MembershipFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_api_limit")]


@pytest.fixture
def no_api_limit(settings):
    settings.API_LIMIT = 0  # no throttle (0: off, as tests/leagues/test_league_api.py)


ONE = datetime.timedelta(days=1)


def expected_at(player: Player, day: datetime.date) -> tuple[int | None, int | None, datetime.date | None]:
    """(DWZ, index, last evaluation) of ``player`` after his stored history up to ``day``, read from the
    stored rows in the order of spec §9 (a day's adjustments before its tournaments)."""
    events = []
    evaluations = Evaluation.objects.filter(player=player).values_list(
        "end_date", "code_suffix", "tournament_id", "status", "n", "dwz_new", "index_new"
    )
    for end, suffix, tournament, status, n, dwz, index in evaluations:
        sets = status == EvaluationStatus.FIRST or (status == EvaluationStatus.RATED and n > 0)
        if sets and dwz is not None and end <= day:
            events.append(((end, 1, suffix is None, suffix or "", tournament), dwz, index, end))
    for pk, date, dwz, index in RatingAdjustment.objects.filter(player=player).values_list(
        "pk", "date", "dwz", "index"
    ):
        if dwz is not None and (date is None or date <= day):
            events.append(((date or datetime.date.min, 0, False, "", pk), dwz, index, None))
    events.sort(key=lambda e: e[0])
    dwz = index = last = None
    for _key, dwz_e, index_e, end in events:
        dwz, index = dwz_e, index_e
        last = end or last
    return dwz, index, last


@pytest.fixture
def history():
    """A small federation of one club over three years, with dated adjustments (one on a tournament's end
    date: it comes before the tournament) and tournaments sharing end dates in both code orders."""
    rng = random.Random(30)
    pool, plan = random_history(rng, n_players=20, n_tournaments=9)
    club = ClubFactory(zps="C0301", name="SK Stichtag")
    for n, p in enumerate(pool, start=1):
        if not p.memberships.exists():
            MembershipFactory(player=p, club=club, member_number=str(n))
        else:
            p.memberships.update(club=club)
    for end, members, games, name in plan:
        save_tournament(members, games, end=end, name=name, code=f"{end:%y}01-C03-{rng.randint(100, 999)}")
    # Two on one day: the KKK suffix decides (spec §9).
    same_day = plan[0][0]
    for suffix in ("900", "100"):
        members = rng.sample(pool, 4)
        save_tournament(
            members,
            [(a, b, "1-0") for a, b in itertools.pairwise(members)],
            end=same_day,
            name=f"Same {suffix}",
            code=f"{same_day:%y}01-C03-{suffix}",
        )
    rated = [p for p in pool if Evaluation.objects.filter(player=p).exists()]
    for p in rated[:3]:
        day = Evaluation.objects.filter(player=p).order_by("end_date").first().end_date
        adjustment_save(
            adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.CORRECTION, date=day, dwz=1500, index=7)
        )
    for p in rated[3:5]:
        day = Evaluation.objects.filter(player=p).order_by("-end_date").first().end_date + 10 * ONE
        adjustment_save(
            adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.DSB_LIST, date=day, dwz=1777, index=12)
        )
    return club, list(Player.objects.filter(pk__in=[p.pk for p in pool]))


def _days(players) -> list[datetime.date]:
    days = set(Evaluation.objects.filter(player__in=players).values_list("end_date", flat=True))
    days |= {
        d for d in RatingAdjustment.objects.filter(player__in=players).values_list("date", flat=True) if d
    }
    return sorted({d + shift for d in days for shift in (-ONE, 0 * ONE, ONE)})


def _list_values(client, url: str, day: datetime.date) -> dict[str, tuple]:
    response = client.get(url, {"stichtag": day.isoformat(), "per_page": 200})
    assert response.status_code == 200
    assert f"Stand: {day:%d.%m.%Y}" in response.content.decode()
    return {
        row.record.key: (row.record.dwz, row.record.index, row.record.last_evaluated, row.record.rank)
        for row in response.context["table"].page.object_list
    }


def test_card_lists_and_api_agree_with_the_stored_history(client, history):
    club, players = history
    days = _days(players)
    assert len(days) > 20
    for day in days:
        want = {p.key: expected_at(p, day) for p in players}
        # Ranks by the day's DWZ: one more than the players with a higher one.
        values = [v[0] for v in want.values() if v[0] is not None]
        rank = {k: (1 + sum(x > v[0] for x in values) if v[0] is not None else None) for k, v in want.items()}
        for url in (reverse("ratings:rating-list"), reverse("ratings:club-detail", args=[club.zps])):
            shown = _list_values(client, url, day)
            assert {k: v[:3] for k, v in shown.items()} == want, (url, day)
            assert {k: v[3] for k, v in shown.items()} == rank, (url, day)
        api = client.get(
            reverse("ratings:api-club-players", args=[club.zps]), {"stichtag": day.isoformat()}
        ).json()
        assert api["stichtag"] == day.isoformat()
        got = {p["key"]: (p["dwz"], p["index"], p["last_evaluated"], p["rank"]) for p in api["players"]}
        assert got == {
            k: (v[0], v[1], v[2].isoformat() if v[2] else None, rank[k]) for k, v in want.items()
        }, day
    for p in players:
        for day in _days([p]):
            want = expected_at(p, day)
            card = client.get(reverse("ratings:player-detail", args=[p.key]), {"stichtag": f"{day:%d.%m.%Y}"})
            shown = card.context["player"]
            assert (shown.dwz, shown.index, shown.last_evaluated) == want, (p.key, day)
            assert all(row.date is None or row.date <= day for row in card.context["history"])
            data = client.get(
                reverse("ratings:api-player", args=[p.key]), {"stichtag": day.isoformat()}
            ).json()
            last = want[2].isoformat() if want[2] else None
            assert (data["dwz"], data["index"], data["last_evaluated"]) == (*want[:2], last)
            assert all(item["date"] is None or item["date"] <= day.isoformat() for item in data["history"])


def test_club_averages_follow_the_stichtag(client, history):
    club, players = history
    for day in _days(players)[::5]:
        values = sorted((expected_at(p, day)[0] for p in players if expected_at(p, day)[0]), reverse=True)
        response = client.get(reverse("ratings:club-detail", args=[club.zps]), {"stichtag": day.isoformat()})
        stats = response.context["stats"]
        assert stats.rated == len(values)
        assert stats.average == (rhu_div(sum(values), len(values)) if values else None)
        assert stats.best10 == (rhu_div(sum(values[:10]), 10) if len(values) >= 10 else None)


def test_far_future_is_today(client, history):
    """At a day after everything, the values are the stored ones (the replay's)."""
    _club, players = history
    shown = _list_values(client, reverse("ratings:rating-list"), datetime.date(2100, 1, 1))
    assert shown == {p.key: (p.dwz, p.index, p.last_evaluated, shown[p.key][3]) for p in players}
    for p in players:
        assert expected_at(p, datetime.date(2100, 1, 1)) == (p.dwz, p.index, p.last_evaluated)


BAD = ["2026-13-01", "31.02.2026", "gestern", "2026-8-1x", "9" * 400, "2026-08-01T00:00", "\u0661\u0662"]


@pytest.mark.parametrize("value", BAD)
def test_a_bad_stichtag_is_a_form_error_or_a_400(client, history, value):
    club, players = history
    for url in (
        reverse("ratings:rating-list"),
        reverse("ratings:player-list"),
        reverse("ratings:club-detail", args=[club.zps]),
        reverse("ratings:organisation-detail", args=[club.organisation.code]),
    ):
        response = client.get(url, {"stichtag": value})
        assert response.status_code == 200, url
        assert "Stichtag: bitte ein Datum" in response.content.decode(), url
        assert "Stand:" not in response.content.decode()
        export = client.get(url, {"stichtag": value, "_export": "csv"})
        assert export.status_code == 200
    card = client.get(reverse("ratings:player-detail", args=[players[0].key]), {"stichtag": value})
    assert card.status_code == 200
    assert "Stichtag: bitte ein Datum" in card.content.decode()
    for url in (
        reverse("ratings:api-player", args=[players[0].key]),
        reverse("ratings:api-club-players", args=[club.zps]),
    ):
        response = client.get(url, {"stichtag": value})
        assert response.status_code == 400
        assert response.json()["parameter"] == "stichtag"


def test_exports_at_a_stichtag(client, history):
    club, players = history
    day = _days(players)[len(_days(players)) // 2]
    want = {p.key: expected_at(p, day) for p in players}
    response = client.get(
        reverse("ratings:club-detail", args=[club.zps]), {"stichtag": day.isoformat(), "_export": "rfc4180"}
    )
    assert response.status_code == 200
    assert day.isoformat() in response["Content-Disposition"]
    body = b"".join(response.streaming_content) if response.streaming else response.content
    lines = body.decode().strip().splitlines()
    header = lines[0].split(",")
    by_name = {f"{p.surname}, {p.first_name}" if p.first_name else p.surname: p.key for p in players}
    seen = 0
    for row in csv.reader(lines[1:]):
        cells = dict(zip(header, row, strict=False))
        key = by_name[cells["Name"]]
        dwz, index, last = want[key]
        assert cells["DWZ"] == ("" if dwz is None else str(dwz))
        assert cells["Index"] == ("" if index is None else str(index))
        assert cells["Letzte Auswertung"] == (last.isoformat() if last else "")
        seen += 1
    assert seen == len(players)


@pytest.mark.usefixtures("history")
def test_links_keep_the_stichtag(client):
    response = client.get(reverse("ratings:rating-list"), {"stichtag": "01.08.2025"})
    html = response.content.decode()
    assert "?stichtag=2025-08-01" in html  # the rows' links to cards and clubs
    assert "liste=u20&amp;stichtag=2025-08-01" in html
    assert "stichtag=01.08.2025" in html  # sort and page links keep the query as typed


def test_top_and_rated_filters_follow_the_stichtag(client, history):
    _club, players = history
    day = _days(players)[len(_days(players)) // 3]
    want = {p.key: expected_at(p, day) for p in players}
    values = sorted((v[0] for v in want.values() if v[0] is not None), reverse=True)
    response = client.get(reverse("ratings:rating-list"), {"stichtag": day.isoformat(), "top": "10"})
    shown = {row.record.key for row in response.context["table"].page.object_list}
    border = values[9] if len(values) >= 10 else -1
    assert shown == {k for k, v in want.items() if (v[0] if v[0] is not None else -1) >= border}
    response = client.get(reverse("ratings:rating-list"), {"stichtag": day.isoformat(), "mit_dwz": "on"})
    shown = {row.record.key for row in response.context["table"].page.object_list}
    assert shown == {k for k, v in want.items() if v[0] is not None}


@pytest.mark.parametrize("path", ["/ranglisten/", "/spieler/", "/ranglisten/?stichtag=2025-08-01"])
def test_the_date_field_is_labelled(client, path):
    """The filter form names its Stichtag field (django-filter shows "[invalid name]" for a filter with no
    model field and no label)."""
    page = client.get(path).content.decode()
    assert "[invalid name]" not in page
    assert 'for="id_stichtag">Stichtag</label>' in page
