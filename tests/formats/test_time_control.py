"""Time controls: the usual notations, and the WO 4.2 total per player (spec dwz-rules.md §17)."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.formats.time_control import Period, TimeControl, minutes_per_player, parse, shortfall


def tc(*periods, inc=0):
    return TimeControl(tuple(Period(Decimal(m), n) for m, n in periods), Decimal(inc))


# Worked by hand: minutes of every period + the increment as if the game lasted 60 moves (≤ 30 s).
@pytest.mark.parametrize(
    ("text", "expected", "minutes"),
    [
        ("90/40+30+30s", tc((90, 40), (30, None), inc=30), 150),  # 90 + 30 + 30 s × 60 = 150
        ("90 min + 30 s", tc((90, None), inc=30), 120),
        ("40/120+60", tc((120, 40), (60, None)), 180),
        ("40/120, 60", tc((120, 40), (60, None)), 180),  # the Karl-Mala file's tag 122
        ("120'+30\"", tc((120, None), inc=30), 150),
        ("90+30", tc((90, None), inc=30), 120),
        ("5+0", tc((5, None)), 5),
        ("G/90; +30", tc((90, None), inc=30), 120),
        ("5400+30", tc((90, None), inc=30), 120),  # FIDE TRF: seconds
        ("40/7200:3600+30", tc((120, 40), (60, None), inc=30), 210),  # PGN TimeControl
        ("90 Min. + 30 Sek.", tc((90, None), inc=30), 120),
        ("90 Min./40 Züge + 30 Min., 30 Sek./Zug", tc((90, 40), (30, None), inc=30), 150),
        ("90 minutes + 30 seconds per move", tc((90, None), inc=30), 120),
        ("2 h/40 Züge + 1 h", tc((120, 40), (60, None)), 180),
        (
            "90 min for 40 moves, 30 min for the rest of the game, 30 seconds increment from move 1",
            tc((90, 40), (30, None), inc=30),
            150,
        ),
        ("90 min + 45 s", tc((90, None), inc=45), 120),  # above 30 s counts as 30 s: 90 + 30
        ("15 min + 10 s", tc((15, None), inc=10), 25),  # rapid
        ("G90", tc((90, None)), 90),
    ],
)
def test_notations_and_minutes(text, expected, minutes):
    assert parse(text) == expected
    assert minutes_per_player(expected) == minutes


@pytest.mark.parametrize(
    "text", ["", "   ", "Blitz", "Schnellschach", "90 min + 30 s + 5 min", "40/40/40", "x+y"]
)
def test_unreadable_text_gives_none(text):
    assert parse(text) is None


def test_limits_of_wo_4_2():
    assert shortfall(parse("90 min")) is None  # exactly the limit
    assert shortfall(parse("60 min + 29 s")).minutes == 89  # one minute short
    assert shortfall(parse("60 min + 30 s")) is None  # the increment reaches it
    assert shortfall(parse("60 min + 60 s")) is None  # capped at 30 s = 90
    assert shortfall(parse("45 min + 60 s")).minutes == 75  # capped: 45 + 30, not 45 + 60
    assert shortfall(parse("5+0")).kind == "total"
    # U12: 60 minutes
    assert shortfall(parse("45 min + 15 s"), u12=True) is None
    assert shortfall(parse("45 min + 14 s"), u12=True).limit == 60


def test_a_split_control_needs_a_first_period_of_60_minutes():
    short_first = parse("50 min/40 Züge + 60 min")  # 110 in total, first period 50
    assert shortfall(short_first).kind == "first_period"
    assert shortfall(short_first).minutes == 50
    assert shortfall(parse("60 min/40 Züge + 30 min")) is None
    assert shortfall(short_first, u12=True) is None  # U12: 40 minutes
    assert shortfall(parse("35 min/40 Züge + 60 min"), u12=True).kind == "first_period"


minutes = st.integers(min_value=1, max_value=240)
moves = st.integers(min_value=20, max_value=60)
seconds = st.integers(min_value=0, max_value=60)


@given(first=minutes, n=moves, second=minutes, inc=seconds)
def test_every_notation_of_one_split_control_reads_the_same(first, n, second, inc):
    expected = tc((first, n), (second, None), inc=inc)
    notations = [
        f"{first} Min./{n} Züge + {second} Min., {inc} Sek./Zug",
        f"{n} moves/{first} min + {second} min + {inc} s",
        f"{first}'/{n} + {second}' + {inc}\"",
    ]
    if first * 60 > 240:  # PGN in seconds: a bare first number above 240 is read as seconds
        notations.append(f"{n}/{first * 60}:{second * 60}+{inc}")
    if n < first:  # bare a/b: the smaller number is the move count
        notations.append(f"{first}/{n}+{second}+{inc}s")
    for text in notations:
        assert parse(text) == expected, text


@given(base=minutes, inc=seconds)
def test_the_total_counts_the_increment_60_times_and_caps_it_at_30_seconds(base, inc):
    total = minutes_per_player(parse(f"{base}+{inc}"))
    assert total == base + min(inc, 30)
    assert minutes_per_player(parse(f"{base}+{inc + 1}")) >= total  # more time never counts less
