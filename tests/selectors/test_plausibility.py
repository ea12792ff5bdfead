"""Plausibility before a tournament is rated (spec dwz-rules.md §17, issue 26 §2–3): each warning, what does
not warn, and a bounded number of queries. Rows are built directly with the factories: these are reads."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import Game, OfficialRating, Player, Tournament
from ratings.selectors import plausibility as p
from tests.factories import EntryFactory, GameFactory, PlayerFactory, TournamentFactory

pytestmark = [pytest.mark.django_db, pytest.mark.plausibility]

TODAY = datetime.date(2026, 12, 2)
END = datetime.date(2026, 11, 29)


def head(**kwargs):
    values = {"name": "Open", "start_date": END - datetime.timedelta(days=2), "end_date": END}
    return Tournament(**({"time_control": "90 min + 30 s"} | values | kwargs))


def codes(tournament, players=(), games=(), **kwargs):
    return [
        w.code
        for w in p.tournament_warnings(
            tournament=tournament, players=list(players), games=list(games), today=TODAY, **kwargs
        )
    ]


def round_robin(players):
    return [
        Game(round=1, white_id=a.pk, black_id=b.pk, result="1-0")
        for i, a in enumerate(players)
        for b in players[i + 1 :]
    ]


def test_a_plain_tournament_has_no_warnings():
    assert codes(head(), PlayerFactory.create_batch(4)) == []


def test_an_end_date_in_the_future():
    assert codes(head(start_date=TODAY, end_date=TODAY)) == []
    tomorrow = TODAY + datetime.timedelta(days=1)
    warnings = p.tournament_warnings(
        tournament=head(start_date=tomorrow, end_date=tomorrow), players=[], games=[], today=TODAY
    )
    assert [w.code for w in warnings] == [p.FUTURE_END]
    assert "03.12.2026" in warnings[0].message


def test_an_end_date_more_than_a_year_back():
    year_ago = TODAY - datetime.timedelta(days=365)
    assert codes(head(start_date=year_ago, end_date=year_ago)) == []
    older = year_ago - datetime.timedelta(days=1)
    assert codes(head(start_date=older, end_date=older)) == [p.OLD_END]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", p.NO_TIME_CONTROL),
        ("Blitz", p.UNREADABLE_TIME_CONTROL),
        ("5+0", p.SHORT_TIME_CONTROL),
        ("50 min/40 Züge + 60 min", p.SHORT_TIME_CONTROL),
    ],
)
def test_time_control_missing_unreadable_or_below_the_limit(text, code):
    assert codes(head(time_control=text)) == [code]


def test_the_message_names_the_minutes_and_the_limit():
    (warning,) = p.tournament_warnings(
        tournament=head(time_control="15 min + 10 s"), players=[], games=[], today=TODAY
    )
    assert "25 Minuten" in warning.message and "90 Minuten" in warning.message


def test_no_time_control_warning_for_a_tournament_that_is_not_rated():
    assert codes(head(time_control="5+0", rated=False)) == []


def test_the_u12_limit_applies_when_every_player_is_at_most_11_in_the_end_year():
    children = PlayerFactory.create_batch(3, birth_year=END.year - 11)
    assert codes(head(time_control="45 min + 15 s"), children) == []  # 60 minutes
    one_twelve = [*children, PlayerFactory(birth_year=END.year - 12)]
    assert codes(head(time_control="45 min + 15 s"), one_twelve) == [p.SHORT_TIME_CONTROL]


def test_the_same_player_entered_twice():
    a, b = PlayerFactory.create_batch(2)
    assert codes(head(), [a, b, a]) == [p.PLAYER_TWICE]


@pytest.mark.parametrize(
    "same",
    [
        {"dsb_id": "10012345"},
        {"fide_id": 4600001},
        {"surname": "Müller", "first_name": "Hans", "birth_year": 1970},
    ],
)
def test_two_records_of_one_person(same):
    first = PlayerFactory(**({"surname": "Alpha", "first_name": "Ann", "birth_year": 1985} | same))
    # the second as a file would create him (a stored DSB id is unique)
    second = Player(**({"key": "TRF-9", "surname": "Beta", "first_name": "Bob", "birth_year": 1990} | same))
    warnings = p.tournament_warnings(
        tournament=head(), players=[first, PlayerFactory(), second], games=[], today=TODAY
    )
    assert [w.code for w in warnings] == [p.PLAYER_TWICE]
    assert first.key in warnings[0].message and second.key in warnings[0].message


def test_same_name_different_birth_year_is_two_people():
    a = PlayerFactory(surname="Müller", first_name="Hans", birth_year=1970)
    b = PlayerFactory(surname="Müller", first_name="Hans", birth_year=2001)
    assert codes(head(), [a, b]) == []


def test_a_player_without_birth_year_unknown_to_the_dsb_list():
    listed = PlayerFactory(birth_year=None)
    OfficialRating.objects.create(player=listed, as_of=datetime.date(2026, 10, 1), dwz=1500, index=5)
    unlisted = PlayerFactory(birth_year=None, surname="Unbekannt", first_name="Uwe")
    new = Player(key="TRF-1", surname="Neu", first_name="Nina")  # unsaved: created from the file
    warnings = p.tournament_warnings(
        tournament=head(), players=[listed, unlisted, new, PlayerFactory()], games=[], today=TODAY
    )
    assert [w.code for w in warnings] == [p.UNKNOWN_WITHOUT_BIRTH_YEAR]
    assert "Unbekannt, Uwe" in warnings[0].message and "Neu, Nina" in warnings[0].message
    assert listed.name not in warnings[0].message


def test_the_same_file_imported_again():
    stored = TournamentFactory(source_digest="ab" * 32, end_date=datetime.date(2020, 1, 1))
    warnings = p.tournament_warnings(tournament=head(), players=[], games=[], digest="ab" * 32, today=TODAY)
    assert [w.code for w in warnings] == [p.SAME_FILE]
    assert warnings[0].is_duplicate and warnings[0].url == stored.get_absolute_url()
    assert codes(head(), digest="cd" * 32) == []
    assert codes(head(pk=stored.pk), digest="ab" * 32) == []  # replacing that very tournament


def stored_tournament(players, games, **kwargs):
    t = TournamentFactory(**({"end_date": END} | kwargs))
    for i, player in enumerate(players, start=1):
        EntryFactory(tournament=t, player=player, start_rank=i)
    for n, g in enumerate(games, start=1):
        GameFactory(tournament=t, round=n, white_id=g.white_id, black_id=g.black_id, result=g.result)
    return t


def test_an_overlapping_tournament_with_the_same_players_and_games():
    players = PlayerFactory.create_batch(10)
    games = round_robin(players)
    stored = stored_tournament(players, games)
    warnings = p.tournament_warnings(tournament=head(), players=players, games=games, today=TODAY)
    assert [w.code for w in warnings] == [p.DUPLICATE_TOURNAMENT]
    assert warnings[0].url == stored.get_absolute_url() and stored.name in warnings[0].message


def test_games_compare_as_unordered_pairs_with_their_result():
    players = PlayerFactory.create_batch(4)
    games = round_robin(players)
    stored_tournament(players, games)
    swapped = [Game(round=1, white_id=g.black_id, black_id=g.white_id, result="0-1") for g in games]
    assert codes(head(), players, swapped) == [p.DUPLICATE_TOURNAMENT]
    other_results = [Game(round=1, white_id=g.white_id, black_id=g.black_id, result="0-1") for g in games]
    assert codes(head(), players, other_results) == []


def test_80_percent_of_the_players_and_of_the_games():
    players = PlayerFactory.create_batch(10)
    games = round_robin(players)  # 45 games
    stored_tournament(players, games)
    eight_of_ten = players[:8] + PlayerFactory.create_batch(2)
    assert codes(head(), eight_of_ten, games) == [p.DUPLICATE_TOURNAMENT]  # 8/10 players, 45/45 games
    seven = players[:7] + PlayerFactory.create_batch(3)
    assert codes(head(), seven, games) == []
    assert codes(head(), players, games[:36]) == [p.DUPLICATE_TOURNAMENT]  # 36/45 = 80 %
    assert codes(head(), players, games[:35]) == []


def test_no_duplicate_without_overlapping_dates():
    players = PlayerFactory.create_batch(6)
    games = round_robin(players)
    stored_tournament(players, games, end_date=END - datetime.timedelta(days=7))
    assert codes(head(), players, games) == []
    assert codes(head(start_date=END - datetime.timedelta(days=7)), players, games) == [
        p.DUPLICATE_TOURNAMENT
    ]


def test_the_tournament_itself_is_no_duplicate():
    players = PlayerFactory.create_batch(6)
    games = round_robin(players)
    stored = stored_tournament(players, games)
    assert codes(head(pk=stored.pk), players, games) == []


def test_the_query_count_does_not_grow_with_the_tournaments():
    def queries(n):
        players = PlayerFactory.create_batch(8, birth_year=None)
        games = round_robin(players)
        for _ in range(n):
            stored_tournament(players, games)
        with CaptureQueriesContext(connection) as ctx:
            result = p.tournament_warnings(
                tournament=head(), players=players, games=games, digest="ef" * 32, today=TODAY
            )
        assert sum(w.code == p.DUPLICATE_TOURNAMENT for w in result) == n
        return len(ctx.captured_queries)

    assert queries(1) == queries(5) <= 5


def test_the_fingerprint_changes_with_the_warnings():
    a = p.tournament_warnings(tournament=head(time_control=""), players=[], games=[], today=TODAY)
    b = p.tournament_warnings(tournament=head(time_control="5+0"), players=[], games=[], today=TODAY)
    assert p.fingerprint(a) == p.fingerprint(list(a)) != p.fingerprint(b)


@pytest.mark.parametrize("on", [True, False])
def test_the_setting_switches_the_checks(on, settings):
    settings.PLAUSIBILITY_CHECKS = on
    assert bool(codes(head(time_control=""))) is on


@pytest.mark.parametrize(
    ("end", "today", "old"),
    [
        (
            datetime.date(2023, 3, 1),
            datetime.date(2024, 3, 1),
            False,
        ),  # 366 days across 29 Feb: the anniversary
        (datetime.date(2023, 3, 1), datetime.date(2024, 3, 2), True),
        (datetime.date(2024, 2, 29), datetime.date(2025, 2, 28), False),  # as WO 6.2's window counts it
        (datetime.date(2024, 2, 29), datetime.date(2025, 3, 1), True),
    ],
)
def test_a_year_back_is_counted_as_the_correction_window_counts_it(end, today, old):
    found = p.tournament_warnings(
        tournament=head(start_date=end, end_date=end), players=[], games=[], today=today
    )
    assert (p.OLD_END in [w.code for w in found]) is old
