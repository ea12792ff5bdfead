"""Tournament-level rules (spec §2, §3, §6, §7.4) on small hand-made tournaments."""

from __future__ import annotations

import dataclasses
import datetime
import re

import pytest

from ratings.dwz import GameInput, PlayerInput, RestpartieValue, TournamentInput, UnsupportedInput, evaluate
from ratings.dwz.contract import parse_tournament

from .builders import assert_same, example, solo, tournament_unchecked

D = datetime.date


def by_id(t: TournamentInput):
    return {p.id: p for p in evaluate(t).players}


def test_forfeits_never_count():
    """Forfeits are dropped: A's only real game is the draw against B."""
    t = TournamentInput(
        end_date=D(2020, 1, 1),
        players=(
            PlayerInput("A", dwz=1500, index=10),
            PlayerInput("B", dwz=1500, index=10),
            PlayerInput("C", dwz=1500),
        ),
        games=(
            GameInput("A", "B", "1/2-1/2"),
            GameInput("A", "C", "+-"),
            GameInput("C", "B", "-+"),
            GameInput("B", "C", "--"),
        ),
    )
    p = by_id(t)
    assert (p["A"].n, p["A"].points, p["A"].dwz_new) == (1, 500, 1500)
    assert (p["C"].n, p["C"].coefficient, p["C"].expected, p["C"].dwz_new, p["C"].index_new) == (
        0,
        None,
        None,
        1500,
        0,
    )


def test_rated_player_without_games_is_not_evaluated():
    t = TournamentInput(end_date=D(2020, 1, 1), players=(PlayerInput("A", dwz=1500, index=3),), games=())
    a = evaluate(t).players[0]
    assert (a.status, a.n, a.dwz_new, a.index_new, a.level, a.performance, a.coefficient) == (
        "rated",
        0,
        1500,
        3,
        None,
        None,
        None,
    )


def test_takeover_without_games_keeps_elo_and_index_6():
    """Spec §13 table: rated with n = 0 shows old values, for a take-over Elo / 6."""
    t = TournamentInput(end_date=D(2020, 1, 1), players=(PlayerInput("F", fide_elo=2000),), games=())
    f = evaluate(t).players[0]
    assert (f.dwz_old, f.index_old, f.dwz_new, f.index_new, f.fide_takeover) == (2000, 6, 2000, 6, True)


def test_dwz_wins_over_fide():
    t = solo("2020-01-01", 1500, [(1500, "½")])
    t = TournamentInput(
        t.end_date, (PlayerInput("A", dwz=1500, index=4, fide_elo=2200), *t.players[1:]), t.games
    )
    a = evaluate(t).players[0]
    assert (a.dwz_old, a.index_old, a.index_new, a.fide_takeover) == (1500, 4, 5, False)


def test_missing_index_is_zero():
    """DWZ without index: index 0, cap 0, E = 5 wins; index_new 1."""
    a = evaluate(solo("2020-01-01", 2000, [(2000, "1")], index=None)).players[0]
    assert (a.index_old, a.coefficient, a.index_new) == (0, 5, 1)
    # 2000 + 800 * 0.5 / 6 = 2066.67
    assert a.dwz_new == 2067


def test_age_from_end_date_year():
    """Born 2000, tournament in 2020: youth (20), 2021: junior. R0 2000 loses: E 21 vs 26."""
    young = evaluate(solo("2020-12-31", 2000, [(2000, "0")], birth_year=2000)).players[0]
    junior = evaluate(solo("2021-01-01", 2000, [(2000, "0")], birth_year=2000)).players[0]
    assert (young.coefficient, junior.coefficient) == (21, 26)


def _first_rating_tournament(u_results: list[str], restpartien=()) -> TournamentInput:
    rated = [PlayerInput(f"R{k}", birth_year=1980, dwz=1500 + 20 * k, index=10) for k in range(5)]
    u = PlayerInput("U", birth_year=1990, restpartien=tuple(restpartien))
    code = {"1": "1-0", "½": "1/2-1/2", "0": "0-1"}
    games = [GameInput("U", f"R{k}", code[r]) for k, r in enumerate(u_results)]
    return TournamentInput(end_date=D(2020, 6, 1), players=(*rated, u), games=tuple(games))


def test_unrated_with_100_percent_gets_no_first_rating_and_hands_back_restpartien():
    u = by_id(_first_rating_tournament(["1"] * 5))["U"]
    assert u.status == "not_rated"
    assert [(rp.opponent_rating, rp.score) for rp in u.restpartien] == [
        (1500 + 20 * k, 1000) for k in range(5)
    ]
    assert all(rp.end_date == D(2020, 6, 1) for rp in u.restpartien)


def test_restpartien_complete_the_five_games():
    """3 tournament games + 2 valid Restpartien = 5: Zusatzstufe 1; n and points include them."""
    rps = [RestpartieValue(1600, 1000, D(2019, 1, 1)), RestpartieValue(1400, 0, D(2018, 6, 1))]
    t = _first_rating_tournament(["½", "½", "½"], rps)
    u = by_id(t)["U"]
    assert (u.status, u.n, u.points, u.index_new, u.level) == ("first", 5, 2500, 1, 1520)


def test_restpartien_alone_never_start_an_evaluation():
    """Five valid Restpartien but no game against a rated player in this tournament: not rated."""
    rps = [RestpartieValue(1500, 500, D(2019, 1, 1))] * 5
    t = TournamentInput(
        end_date=D(2020, 6, 1),
        players=(PlayerInput("R", dwz=1500), PlayerInput("U", restpartien=rps), PlayerInput("V")),
        games=(GameInput("U", "V", "1-0"),),
    )
    assert by_id(t)["U"].status == "not_rated"
    assert by_id(t)["U"].restpartien == ()  # his game was against a not-rated player


def test_expired_restpartien_are_ignored():
    rps = [RestpartieValue(1600, 1000, D(2018, 5, 31)), RestpartieValue(1400, 0, D(2018, 6, 1))]
    u = by_id(_first_rating_tournament(["½", "½", "½"], rps))["U"]
    assert u.status == "not_rated"  # only 4 games: the 2018-05-31 one expired on 2020-06-01


def test_ausnahmespieler_raises_entry_rating():
    """A 1150 scores 4.5/5 against 1455..1610: Rh 1906 > 1450, so B meets A at 1906 (spec E8)."""
    p_after = by_id(
        solo("2019-11-24", 1150, [(1610, "1"), (1540, "1"), (1495, "½"), (1580, "1"), (1455, "1")])
    )
    p_before = by_id(
        solo("2016-07-31", 1150, [(1610, "1"), (1540, "1"), (1495, "½"), (1580, "1"), (1455, "1")])
    )
    # O0 (1610, lost to A) expects .148 instead of .948 against A after the rule.
    assert p_before["O0"].expected - p_after["O0"].expected == 800
    assert p_after["A"].dwz_new == p_before["A"].dwz_new  # A's own Rn still starts from R0
    assert p_after["O0"].level == 1906


def test_not_rated_hands_back_only_games_against_auswahl_1():
    """U3 lost to R (rated), Z1 player U1 and Z2 player U2: only R and U1 become Restpartien (E9 pattern)."""
    p = by_id(parse_tournament(example("E9")["input"]))
    assert [rp.opponent_rating for rp in p["U3"].restpartien] == [1720, 1610, 1540, 1480, 1572]


def _two_players(**changes) -> TournamentInput:
    players = [PlayerInput("A", 1990, dwz=1500, index=3), PlayerInput("B", 1990, dwz=1400, index=3)]
    games = [GameInput("A", "B", "1-0")]
    for key, value in changes.items():
        if key == "games":
            games = value
        else:
            players[0] = dataclasses.replace(players[0], **{key: value})
    return TournamentInput(end_date=datetime.date(2020, 5, 1), players=tuple(players), games=tuple(games))


@pytest.mark.parametrize(
    ("t", "message"),
    [
        (_two_players(dwz="1500"), "players[0].dwz"),
        (_two_players(dwz=True), "players[0].dwz"),
        (_two_players(dwz=1500.0), "players[0].dwz"),
        (_two_players(dwz=None, fide_elo="1900"), "players[0].fide_elo"),
        (_two_players(index=-2), "players[0].index"),
        (_two_players(index=2.0), "players[0].index"),
        (_two_players(birth_year="1990"), "players[0].birth_year"),
        (_two_players(id="B"), "players[1].id: duplicate"),
        (_two_players(games=[GameInput("A", "X", "1-0")]), "games[0]: unknown player"),
        (_two_players(games=[GameInput("A", "X", "+-")]), "games[0]: unknown player"),
        (_two_players(games=[GameInput("A", "A", "1-0")]), "games[0]: a player against himself"),
        (_two_players(games=[GameInput("A", "B", "2-0")]), "games[0].result"),
        (
            _two_players(dwz=None, restpartien=(RestpartieValue(None, 1000, datetime.date(2020, 1, 1)),)),
            "players[0].restpartien[0].opponent_rating",
        ),
        (
            _two_players(dwz=None, restpartien=(RestpartieValue(1500, 250, datetime.date(2020, 1, 1)),)),
            "players[0].restpartien[0].score",
        ),
    ],
)
def test_input_outside_the_contract_is_a_typed_error(t, message):
    """No silent fallback: input the JSON contract (spec §13) rejects is an UnsupportedInput naming it."""
    with pytest.raises(UnsupportedInput, match=re.escape(message)) as raised:
        evaluate(t)
    assert isinstance(raised.value, ValueError)


def test_ratings_outside_the_contract_range_are_evaluated_like_the_oracle():
    """A first rating or an Rn can leave 0-3000 (the contract's range for typed-in values); the next
    tournament must take it as R0. Opponents above 3000 and far below 0 also exercise the general search."""
    data = {
        "tournament": {"end_date": "2021-05-02"},
        "players": [
            {"id": "A", "dwz": 3120, "index": 12},
            {"id": "B", "dwz": 2950, "index": 40},
            {"id": "C", "fide_elo": 3400},
            {"id": "D", "dwz": 2890, "index": 3},
            {"id": "E", "dwz": 2990, "index": 8},
            {"id": "U"},
        ],
        "games": [
            {"white": w, "black": b, "result": r}
            for w, b, r in [
                ("A", "B", "1-0"), ("A", "C", "1/2-1/2"), ("A", "D", "1-0"), ("A", "E", "1-0"),
                ("A", "U", "0-1"), ("B", "U", "0-1"), ("C", "U", "0-1"), ("D", "U", "1/2-1/2"),
                ("E", "U", "0-1"), ("B", "C", "0-1"),
            ]
        ],
    }  # fmt: skip
    assert_same(data, checked=False)
    u = {p.id: p for p in evaluate(tournament_unchecked(data)).players}["U"]
    assert u.status == "first" and u.dwz_new > 3000


@pytest.mark.parametrize("r0", [-20000, -9000, 6001, 12000, 20000])
@pytest.mark.parametrize("end", ["2020-01-01", "2026-08-01"])
def test_an_r0_far_outside_the_tables_gives_the_oracles_we(r0, end):
    """The We of a rated player is read from the search tables only where his R0 lies in their range:
    far outside it an index past the end raised and a negative one wrapped around to a wrong We."""
    players = [{"id": "X", "birth_year": 1980, "dwz": r0, "index": 5}]
    players += [{"id": f"O{k}", "birth_year": 1980, "dwz": 1000 + 100 * k, "index": 5} for k in range(5)]
    games = [{"white": "X", "black": f"O{k}", "result": "0-1" if k else "1/2-1/2"} for k in range(5)]
    assert_same({"tournament": {"end_date": end}, "players": players, "games": games}, checked=False)


def _as_non_member(t: TournamentInput, pid: str) -> TournamentInput:
    players = tuple(dataclasses.replace(p, member=False) if p.id == pid else p for p in t.players)
    return dataclasses.replace(t, players=players)


@pytest.mark.parametrize(("ex", "pid", "status"), [("E9", "U1", "first"), ("E9", "U3", "not_rated"),
                                                   ("E9", "R1", "rated"), ("E8", "A", "rated")])  # fmt: skip
def test_a_non_member_takes_part_but_gets_nothing(ex, pid, status):
    """WO 3.4.3 / 4.1.2: flagging one player as a non-member changes nothing for anybody else (he is part of
    the calculation: E9's U1 still has a first rating his opponents meet, E8's A is still an Ausnahmespieler);
    he himself gets no DWZ, no E/K and no Restpartien, and keeps what he entered with."""
    t = parse_tournament(example(ex)["input"])
    member, non_member = evaluate(t), evaluate(_as_non_member(t, pid))
    for a, b in zip(member.players, non_member.players, strict=True):
        if a.id != pid:
            assert a == b
            continue
        assert a.status == status
        assert (b.status, b.coefficient, b.dwz_new, b.index_new, b.restpartien) == (
            "non_member",
            None,
            None,
            None,
            (),
        )
        assert (b.dwz_old, b.n, b.points, b.expected, b.level, b.performance, b.entry_rating) == (
            a.dwz_old, a.n, a.points, a.expected, a.level, a.performance, a.entry_rating,
        )  # fmt: skip
    assert_same(_json_with_non_member(example(ex)["input"], pid))


def _json_with_non_member(data, pid):
    return {**data, "players": [{**p, "member": False} if p["id"] == pid else p for p in data["players"]]}


def test_a_2026_we_next_to_a_rounding_boundary_is_exact():
    """X's unrounded We lies 1.13e-6 below 1.8985 (the packed sums cannot tell, the exact sum decides): the
    engine gives the oracle's 1.898, not the per-game rounded 1.899."""
    players = [{"id": "X", "birth_year": 1980, "dwz": 1500, "index": 5}]
    players += [{"id": f"O{r}", "birth_year": 1980, "dwz": r, "index": 5} for r in (1128, 809)]
    games = [
        {"white": "X", "black": "O1128", "result": "1-0"},
        {"white": "O809", "black": "X", "result": "0-1"},
    ]
    data = {"tournament": {"end_date": "2026-08-01"}, "players": players, "games": games}
    assert_same(data)
    assert by_id(parse_tournament(data))["X"].expected == 1898
