"""The worked examples of spec §14: full outputs from dwz-examples.json and the intermediate values the
spec derives by hand."""

from __future__ import annotations

import dataclasses
import datetime
from decimal import Decimal

import pytest

from ratings.dwz import evaluate
from ratings.dwz.contract import parse_tournament, result_to_json
from ratings.dwz.editions import CLASSIC, COMMON, WO2026
from ratings.dwz.expectation import expected_sum, unrounded_sum
from ratings.dwz.first_rating import IterationPlayer, iterate, map_first_rating, start_value
from ratings.dwz.search import solve

from .builders import example, load_examples
from .reference import evaluate_json

EXAMPLES = load_examples()


@pytest.mark.parametrize("ex", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_full_output(ex):
    assert result_to_json(evaluate(parse_tournament(ex["input"]))) == ex["output"]


def test_all_fourteen_examples_present():
    assert len(EXAMPLES) == 14


def _players(example_id: str) -> dict:
    result = evaluate(parse_tournament(example(example_id)["input"]))
    return {p.id: p for p in result.players}


def test_e1_values():
    """E1a: p(-200) = .240; A: E 5, Rn 1101; B: SBr, E 8, Rn 1132."""
    p = _players("E1a")
    assert (p["A"].expected, p["A"].coefficient, p["A"].dwz_new) == (240, Decimal(5), 1101)
    assert (p["B"].expected, p["B"].coefficient, p["B"].dwz_new) == (760, Decimal(8), 1132)
    c = _players("E1c")
    assert (c["A"].coefficient, c["A"].dwz_new, c["B"].coefficient, c["B"].dwz_new) == (12, 985, 5, 1232)


def test_e2_intermediate():
    """We 2.776, E 27 capped by index 3 to 15, level 1808, f(1885) = 2.993, f(1886) = 3.000 -> 1886."""
    opponents = [1700, 1780, 1900, 2010, 1650]
    assert expected_sum(1850, opponents) == 2776
    assert expected_sum(1885, opponents) == 2993
    assert expected_sum(1886, opponents) == 3000
    assert solve(opponents, 3000) == 1886
    a = _players("E2")["A"]
    assert (a.expected, a.coefficient, a.dwz_new, a.index_new, a.level, a.performance) == (
        2776,
        Decimal(15),
        1859,
        4,
        1808,
        1886,
    )


def test_e3_braking_surcharge_cap_150():
    a = _players("E3")["A"]
    assert (a.expected, a.coefficient, a.dwz_new, a.performance, a.level) == (
        1686,
        Decimal(150),
        534,
        291,
        662,
    )
    assert expected_sum(291, [620, 700, 580, 760, 650]) == 500


def test_e6_takeover():
    f = _players("E6")["F"]
    assert (f.dwz_old, f.index_old, f.expected, f.coefficient, f.dwz_new, f.index_new) == (
        1950,
        6,
        3638,
        Decimal(5),
        2041,
        7,
    )
    assert f.fide_takeover
    opponents = [1880, 2050, 1920, 1760, 2105, 1990, 1840]
    assert expected_sum(2107, opponents) == 4995 and expected_sum(2108, opponents) == 5003
    assert (f.performance, f.level) == (2108, 1935)


def test_e7_fictitious_draw():
    """Add a draw against the level 1664 and solve 5.5 of 6: f(2064) = 5.499 is closest."""
    opponents = [1620, 1710, 1555, 1690, 1745, 1664]
    assert [expected_sum(r, opponents) for r in (2063, 2064, 2065)] == [5496, 5499, 5502]
    assert _players("E7")["A"].performance == 2064


def test_e8_ausnahmespieler_tie_rule():
    """f(1905) = 4.499 and f(1906) = 4.501 tie; the unrounded sums 4.49841 / 4.50146 pick 1906."""
    opponents = [1610, 1540, 1495, 1580, 1455]
    assert expected_sum(1905, opponents) == 4499 and expected_sum(1906, opponents) == 4501
    assert unrounded_sum(1905, opponents) == pytest.approx(4498.41, abs=0.01)
    assert unrounded_sum(1906, opponents) == pytest.approx(4501.46, abs=0.01)
    assert solve(opponents, 4500) == 1906
    p = _players("E8")
    assert (p["A"].expected, p["A"].coefficient, p["A"].dwz_new, p["A"].performance) == (451, 5, 1474, 1906)
    assert (p["B"].expected, p["B"].coefficient, p["B"].dwz_new, p["B"].level) == (2654, 22, 1605, 1595)


def test_e8_without_the_rule_before_2016_08_01():
    """The same tournament ending 2016-07-31 has no Ausnahmespieler: B gets 1582 (spec §14 E8)."""
    data = example("E8")["input"]
    data = {**data, "tournament": {**data["tournament"], "end_date": "2016-07-31"}}
    p = {r.id: r for r in evaluate(parse_tournament(data)).players}
    assert (p["B"].expected, p["B"].dwz_new) == (3454, 1582)


def _entry_ratings(data: dict) -> list[dict[str, int | None]]:
    """Entry ratings by player id from the engine and from the test oracle."""
    engine = {p.id: p.entry_rating for p in evaluate(parse_tournament(data)).players}
    oracle = {p["id"]: p["entry_rating"] for p in evaluate_json(data, internals=True)["players"]}
    return [engine, oracle]


def test_e8_entry_ratings():
    """A is an Ausnahmespieler (Rh 1906 > 1150 + 300): he enters his opponents' We at 1906, everybody
    else at R0 (B 1610); the same tournament before 2016-08-01 keeps A at 1150."""
    data = example("E8")["input"]
    r0 = {p["id"]: p["dwz"] for p in data["players"]}
    for by_path in _entry_ratings(data):
        assert by_path["A"] == 1906 and by_path["B"] == 1610
        assert by_path == {**r0, "A": 1906}
    before = {**data, "tournament": {**data["tournament"], "end_date": "2016-07-31"}}
    for by_path in _entry_ratings(before):
        assert by_path == r0


def test_e9_entry_ratings():
    """First ratings enter at their final value (U1 1572, U2 1509); the not-rated U3 has none; rated at R0."""
    data = example("E9")["input"]
    for by_path in _entry_ratings(data):
        assert (by_path["U1"], by_path["U2"], by_path["U3"]) == (1572, 1509, None)
        assert by_path["R1"] == 1720
    # Not part of the JSON contract (spec §13).
    assert "entry_rating" not in result_to_json(evaluate(parse_tournament(data)))["players"][0]


def test_entry_rating_is_rh_of_pass_1_not_the_final_performance():
    """A (1068) is an Ausnahmespieler with pass-1 Rh 1755; U's first rating moves in pass 2 and with it A's
    final performance (1777). A enters his opponents' We at 1755 (spec §7.4: the test is done once)."""
    rated = {"A": (1068, 4, 2008), "R0": (1580, 20, 1980), "R1": (1510, 20, 1980), "R2": (1703, 20, 1980)}
    rated["R3"] = (1680, 20, 1980)
    players = [{"id": i, "dwz": d, "index": x, "birth_year": b} for i, (d, x, b) in rated.items()]
    players.append({"id": "U", "birth_year": 1990})
    results = "½½11½100½1½00½1"
    order = ["A", "R0", "R1", "R2", "R3", "U"]
    pairs = [(w, b) for k, w in enumerate(order) for b in order[k + 1 :]]
    code = {"1": "1-0", "0": "0-1", "½": "1/2-1/2"}
    games = [{"white": w, "black": b, "result": code[r]} for (w, b), r in zip(pairs, results, strict=True)]
    data = {"tournament": {"end_date": "2019-11-24"}, "players": players, "games": games}
    a = next(p for p in evaluate(parse_tournament(data)).players if p.id == "A")
    assert (a.performance, a.entry_rating) == (1777, 1755)
    for by_path in _entry_ratings(data):
        assert by_path == {"A": 1755, "R0": 1580, "R1": 1510, "R2": 1703, "R3": 1680, "U": 1646}


def test_entry_rating_of_a_rated_player_without_counted_games_is_r0():
    """Rated with n = 0 (only a forfeit): not evaluated, but in Auswahl II at R0 (spec §3)."""
    t = parse_tournament(
        {
            "tournament": {"end_date": "2020-05-01"},
            "players": [{"id": "A", "dwz": 1500, "index": 3}, {"id": "B", "dwz": 1400, "index": 3}],
            "games": [{"white": "A", "black": "B", "result": "+-"}],
        }
    )
    assert [(p.n, p.entry_rating) for p in evaluate(t).players] == [(0, 1500), (0, 1400)]


def test_e9_start_values_and_rounds():
    """Start U1 = 9500/6 + D(0.5) = 1583, U2 = 7933/5 + D(0.4) = 1586.6 - 71.657 = 1515; then the
    Jacobi rounds (1573, 1512), (1573, 1510), (1572, 1510), (1572, 1509), (1572, 1509)."""
    u1_start = start_value([1720, 1610, 1540, 1480, 1600, 1550], 3000)
    u2_start = start_value([1720, 1610, 1540, 1480, u1_start], 2000)
    assert (u1_start, u2_start) == (1583, 1515)
    players = {
        1: IterationPlayer(fixed=(1720, 1610, 1540, 1480, 1600, 1550), moving=(2,), points=3500),
        2: IterationPlayer(fixed=(1720, 1610, 1540, 1480), moving=(1,), points=2000),
    }
    rounds = []
    for cap in range(1, 6):
        values, _ = iterate(players, {1: 1583, 2: 1515}, dataclasses.replace(COMMON, iteration_cap=cap))
        rounds.append((values[1], values[2]))
    assert rounds == [(1573, 1512), (1573, 1510), (1572, 1510), (1572, 1509), (1572, 1509)]
    assert expected_sum(1509, [1720, 1610, 1540, 1480, 1572]) == 1998
    assert expected_sum(1510, [1720, 1610, 1540, 1480, 1572]) == 2004


def test_e9_expired_restpartie_and_statuses():
    p = _players("E9")
    assert [p[i].status for i in ("U1", "U2", "U3")] == ["first", "first", "not_rated"]
    assert p["U1"].n == 7  # 5 tournament games + 2 valid Restpartien (the 2020-12-31 one expired)


def test_e10_first_rating_below_800():
    """Start 863 + D(0.2) = 625; rounds 619, 619; 700 + 619/8 = 777.375 -> 777."""
    assert start_value([905, 830, 880, 760, 940], 1000) == 625
    assert expected_sum(619, [905, 830, 880, 760, 940]) == 999
    assert map_first_rating(619, CLASSIC) == 777
    p = _players("E10")
    assert (p["U"].performance, p["U"].dwz_new) == (619, 777)
    assert (p["R2"].expected, p["R2"].coefficient, p["R2"].dwz_new) == (2346, 27, 809)


def test_e11_k_values():
    p = _players("E11")
    ks = {i: p[i].coefficient for i in "BYLJFC"}
    assert ks == {
        "B": Decimal("25.7"),
        "Y": Decimal("80.0"),
        "L": Decimal("27.0"),
        "J": Decimal("48.0"),
        "F": Decimal("60.0"),
        "C": Decimal("25.0"),
    }
    assert {i: p[i].dwz_new for i in "BYLJFC"} == {
        "B": 1385,
        "Y": 1201,
        "L": 1100,
        "J": 1522,
        "F": 1901,
        "C": 2253,
    }
    assert (p["F"].index_old, p["F"].index_new) == (6, 7)
    assert (p["C"].level, p["C"].performance) == (1411, 1970)
    # Spec §16: the rated players' We are the rounded unrounded sums; per game they would be 2.066, 0.863,
    # 0.668. K and Rn are the same under both readings here.
    assert {i: p[i].expected for i in "BYL"} == {"B": 2065, "Y": 864, "L": 669}


def test_e12_wo2026_first_ratings():
    """Start U1 1260 + D(0.7) = 1408, U2 1260 + D(0.1) = 898; L 1420 / 870 -> 1466.4 / 1156.95."""
    rated = [1400, 1250, 1180, 1320, 1150]
    assert start_value(rated, 3500) == 1408
    assert start_value(rated, 500) == 898
    assert (map_first_rating(1420, WO2026), map_first_rating(870, WO2026)) == (1466, 1157)
    p = _players("E12")
    assert (p["U1"].performance, p["U1"].dwz_new, p["U2"].performance, p["U2"].dwz_new) == (
        1420,
        1466,
        870,
        1157,
    )
    # Spec §16: We = rhu(sum of the unrounded P, 3) = 2.162 (per game 2.160), so R3 gets
    # 1180 + 73.3 * 0.838 = 1241.43 -> 1241, not 1242.
    assert (p["R3"].expected, p["R3"].coefficient, p["R3"].dwz_new) == (2162, Decimal("73.3"), 1241)
    assert expected_sum(1180, [1400, 1250, 1320, 1150, 1466, 1157]) == 2160
    assert (p["R5"].coefficient, p["R5"].dwz_new) == (Decimal("26.0"), 1139)


def test_example_dates_choose_the_stated_edition():
    for ex in EXAMPLES:
        end = datetime.date.fromisoformat(ex["input"]["tournament"]["end_date"])
        assert (end >= datetime.date(2026, 6, 8)) == (ex["output"]["edition"] == "wo2026")
