"""The round screen's typed boards: ``3 7 1``, ``3-7 1``, byes by start number, pasted rounds."""

import pytest

from ratings.formats.pairing_input import (
    BoardLine,
    PairingInputError,
    apply_board,
    parse_board_line,
    parse_round_block,
    remove_board,
    unpaired,
)

PKS = [101, 102, 103, 104, 105]  # start numbers 1..5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3 7 1", BoardLine(3, 7, "1")),
        ("3-7 1", BoardLine(3, 7, "1")),
        ("3 - 7 ½", BoardLine(3, 7, "½")),
        ("  3:7   1-0 ", BoardLine(3, 7, "1-0")),
        ("3–7 0", BoardLine(3, 7, "0")),
        ("3 7", BoardLine(3, 7, "")),
        ("12 4 1/2", BoardLine(12, 4, "1/2")),
        ("5 +", BoardLine(5, None, "+")),
        ("5 spielfrei", BoardLine(5, None, "+")),
        ("5 h", BoardLine(5, None, "h")),
    ],
)
def test_lines(text, expected):
    assert parse_board_line(text) == expected


@pytest.mark.parametrize("text", ["", "x 7 1", "3", "Müller Meier 1"])
def test_lines_not_understood(text):
    with pytest.raises(PairingInputError) as info:
        parse_board_line(text)
    assert info.value.code == "syntax"


def test_pasted_round_skips_board_numbers_and_reports_bad_lines():
    boards, errors = parse_round_block("1. 1 5 1\nBrett 2: 2-4 ½\n\n3 +\nunsinn\n")
    assert boards == [(1, BoardLine(1, 5, "1")), (2, BoardLine(2, 4, "½")), (4, BoardLine(3, None, "+"))]
    assert [(k, e.code) for k, e in errors] == [(5, "syntax")]


def _add(games, white, black, result="1-0", round_no=1):
    return apply_board(
        games, round_no=round_no, white_no=white, black_no=black, result=result, participants=PKS
    )


def test_boards_are_numbered_per_round_and_a_repeat_sets_the_result():
    games = _add([], 1, 5, "")
    games = _add(games, 2, 4)
    games = _add(games, 3, None, "")
    assert [(g["board"], g["white"], g["black"], g["result"]) for g in games] == [
        (1, 101, 105, ""),
        (2, 102, 104, "1-0"),
        (3, 103, None, "+"),
    ]
    games = _add(games, 1, 5, "1/2-1/2")
    assert games[0]["result"] == "1/2-1/2" and len(games) == 3
    assert unpaired(games, round_no=1, participants=PKS) == []
    assert unpaired(games, round_no=2, participants=PKS) == [1, 2, 3, 4, 5]
    assert [g["board"] for g in remove_board(games, round_no=1, board=1)] == [1, 2]


@pytest.mark.parametrize(
    ("white", "black", "code"), [(6, 1, "number"), (0, 1, "number"), (2, 2, "self"), (5, 3, "paired")]
)
def test_refused_boards(white, black, code):
    games = _add([], 1, 5)
    with pytest.raises(PairingInputError) as info:
        _add(games, white, black)
    assert info.value.code == code
