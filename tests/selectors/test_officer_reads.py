"""The officer pages' reads (ratings.selectors.officer and .officer_results): what each returns, in which
order, and that each is one query whatever the number of rows. Rows are built directly with the factories:
these are reads, the rows only need to exist."""

import datetime

import pytest

from ratings.enums import ResultCode
from ratings.models import TournamentDraft
from ratings.models.officer import TournamentEntryMode, TournamentMode
from ratings.selectors import officer, officer_results
from tests.factories import (
    ClubFactory,
    EntryFactory,
    GameFactory,
    MembershipFactory,
    OfficerScopeFactory,
    PlayerFactory,
    TournamentFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def four():
    """A tournament with four players entered at start numbers 3, 1, 2 and none, and four games:
    round 1 A–B and C–D, round 2 B–C and a bye for A."""
    t = TournamentFactory(rounds=3)
    a, b, c, d = (PlayerFactory(surname=name) for name in ("Adler", "Bauer", "Clauß", "Dörr"))
    EntryFactory(tournament=t, player=a, start_rank=3)
    EntryFactory(tournament=t, player=b, start_rank=1)
    EntryFactory(tournament=t, player=c, start_rank=2)
    EntryFactory(tournament=t, player=d, start_rank=None)
    GameFactory(tournament=t, round=1, white=a, black=b, result=ResultCode.WHITE_WINS)
    GameFactory(tournament=t, round=1, white=c, black=d, result=ResultCode.DRAW)
    GameFactory(tournament=t, round=2, white=b, black=c, result=ResultCode.BLACK_WINS)
    GameFactory(tournament=t, round=2, white=a, black=None, result=ResultCode.BYE)
    return t, (a, b, c, d)


def test_entry_mode_none_until_chosen():
    t = TournamentFactory()
    assert officer_results.entry_mode(tournament=t) is None
    TournamentEntryMode.objects.create(tournament=t, mode=TournamentMode.SWISS)
    assert officer_results.entry_mode(tournament=t) == TournamentMode.SWISS


def test_stored_games_seated_and_rounds(four, django_assert_num_queries):
    t, (a, b, c, d) = four
    with django_assert_num_queries(1):
        games = officer_results.stored_games(tournament=t)
    assert sorted(games, key=str) == sorted(
        [
            (a.pk, b.pk, ResultCode.WHITE_WINS),
            (c.pk, d.pk, ResultCode.DRAW),
            (b.pk, c.pk, ResultCode.BLACK_WINS),
            (a.pk, None, ResultCode.BYE),
        ],
        key=str,
    )
    assert sorted(officer_results.seated_ids(tournament=t)) == sorted(p.pk for p in (a, b, c, d))
    with django_assert_num_queries(1):
        rounds = officer_results.pairing_rounds(tournament=t)
    assert rounds == {(a.pk, b.pk): 1, (c.pk, d.pk): 1, (b.pk, c.pk): 2}  # the bye is no pairing
    assert len(officer_results.games(tournament=t)) == 4


def test_entries_in_start_order_with_players(four, django_assert_num_queries):
    t, _players = four
    with django_assert_num_queries(1):
        entries = officer_results.entries(tournament=t)
        names = [e.player.surname for e in entries]  # players come along: no query per entry
    assert sorted(names) == ["Adler", "Bauer", "Clauß", "Dörr"]
    # Start numbers ascending; where the one without a number goes differs by database (NULL order).
    assert [n for n in names if n != "Dörr"] == ["Bauer", "Clauß", "Adler"]


def test_primary_memberships_current_a_before_p(django_assert_num_queries):
    first, second, old = ClubFactory(name="Erster SK"), ClubFactory(name="Zweiter SK"), ClubFactory()
    p, q, r = PlayerFactory(), PlayerFactory(), PlayerFactory()
    MembershipFactory(
        player=p, club=old, valid_from=datetime.date(2010, 1, 1), valid_until=datetime.date(2020, 1, 1)
    )
    MembershipFactory(player=p, club=second, status="P", valid_from=datetime.date(2015, 1, 1))
    MembershipFactory(player=p, club=first, status="A", valid_from=datetime.date(2021, 1, 1))
    MembershipFactory(player=q, club=old, valid_until=datetime.date(2020, 1, 1))
    with django_assert_num_queries(1):
        out = officer_results.primary_memberships(players=[p, q, r])
        label = out[p.pk].club.name  # the club comes along
    assert label == "Erster SK"
    assert set(out) == {p.pk}  # ended memberships and none at all: left out


def test_club_members_and_participant_clubs(django_assert_num_queries):
    club, other, organiser = (
        ClubFactory(name="B-Verein"),
        ClubFactory(name="C-Verein"),
        ClubFactory(name="A-Verein"),
    )
    zander, berg, gone = (PlayerFactory(surname=s) for s in ("Zander", "Berg", "Alt"))
    MembershipFactory(player=zander, club=club)
    MembershipFactory(player=berg, club=club)
    MembershipFactory(player=gone, club=club, valid_until=datetime.date(2020, 1, 1))
    MembershipFactory(player=PlayerFactory(), club=other)
    assert officer.club_member_ids(club=club) == [berg.pk, zander.pk]
    manageable = type(club).objects.filter(pk__in=[club.pk, other.pk])
    with django_assert_num_queries(1):
        names = [
            c.name for c in officer.participant_clubs(manageable=manageable, organiser_club_id=organiser.pk)
        ]
    assert names == ["A-Verein", "B-Verein", "C-Verein"]
    assert [c.name for c in officer.participant_clubs(manageable=manageable, organiser_club_id=None)] == [
        "B-Verein",
        "C-Verein",
    ]
    assert officer.chosen_club(clubs=manageable, pk=club.pk) == club
    assert officer.chosen_club(clubs=manageable, pk=organiser.pk) is None  # not offered
    assert officer.chosen_club(clubs=manageable, pk=None) is None
    # Scope of the duplicates page: any membership, ended ones too, each player once.
    assert set(officer.players_of_clubs(club_ids=[club.pk])) == {zander, berg, gone}
    scoped = officer.players_of_clubs(club_ids=[club.pk])
    assert officer.ids_among(players=scoped, pks=[zander.pk, berg.pk + 1000]) == {zander.pk}


def test_players_by_key_and_pk():
    p = PlayerFactory(key="C0501-12")
    assert officer.players_by_key(keys=["C0501-12", "X"]) == {"C0501-12": p}
    assert officer.players_by_pk(pks={p.pk: None}) == {p.pk: p}  # any iterable of pks
    assert officer.player_keys(pks=[p.pk]) == {p.pk: "C0501-12"}
    assert officer.player_exists(pk=p.pk) and not officer.player_exists(pk=p.pk + 1)


def test_tournament_reads(four):
    t, _players = four
    later = TournamentFactory(end_date=datetime.date(2024, 5, 1), code="c-later")
    earlier = TournamentFactory(end_date=datetime.date(2024, 1, 1))
    assert officer.last_round(tournament=t) == 2
    assert officer.last_round(tournament=later) is None
    assert officer.game_counts(tournament=t) == (3, 1)  # the bye apart, as the tournament page counts
    assert officer.evaluated_count(tournament=t) == 0
    assert list(officer.tournaments_by_date(pks=[later.pk, earlier.pk])) == [earlier, later]
    assert officer.tournament_names(pks=[t.pk, later.pk]) == {t.pk: t.name, later.pk: later.name}
    assert officer.tournament_by_code(code="c-later") == later
    assert officer.tournament_by_code(code="c-none") is None
    assert officer.tournament_or_none(pk=t.pk) == t
    assert officer.tournament_exists(pk=earlier.pk)
    earlier.delete()
    assert officer.tournament_or_none(pk=earlier.pk) is None


def test_dashboard_latest_first_with_draft_flag(django_assert_num_queries):
    old = TournamentFactory(end_date=datetime.date(2023, 1, 1))
    new = TournamentFactory(end_date=datetime.date(2024, 1, 1))
    TournamentDraft.objects.create(tournament=old, participants=[], games=[])
    manageable = type(old).objects.all()
    with django_assert_num_queries(1):
        rows = [(t.pk, t.has_draft) for t in officer.dashboard_tournaments(manageable=manageable)]
    assert rows == [(new.pk, False), (old.pk, True)]
    assert len(officer.dashboard_tournaments(manageable=manageable, limit=1)) == 1


def test_officer_scopes_with_club():
    scope = OfficerScopeFactory()
    assert [s.club for s in officer.officer_scopes(user=scope.user)] == [scope.club]
