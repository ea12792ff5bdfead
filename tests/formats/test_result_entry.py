"""Result entry without a database: the codes an officer types, the grid's rounds, board numbers, the paste
boxes and the entry mode read from stored games."""

import pytest

from ratings.enums import BYE_RESULTS, PAIRING_RESULTS, ResultCode
from ratings.formats.berger import berger_rounds
from ratings.formats.result_entry import (
    BOARD_DISPLAY,
    BYE_CODES,
    PAIRING_CODES,
    GameSpec,
    PastedBoard,
    ResultEntryError,
    grid_cells,
    grid_games,
    is_round_robin,
    mirror_clashes,
    number_boards,
    parse_board_block,
    parse_board_result,
    parse_cell,
    parse_grid_block,
    unrepresentable_count,
)

pytestmark = pytest.mark.unit

A, B, C, D = 11, 12, 13, 14


def test_the_vocabulary_is_the_stored_result_codes():
    assert PAIRING_CODES == PAIRING_RESULTS
    assert BYE_CODES == BYE_RESULTS
    assert set(BOARD_DISPLAY) == {code.value for code in ResultCode}


@pytest.mark.parametrize(
    ("typed", "cell"),
    [
        ("1", "1"),
        (" 0 ", "0"),
        ("½", "½"),
        ("5", "½"),
        ("R", "½"),
        ("0,5", "½"),
        ("1/2", "½"),
        ("+", "+"),
        ("-", "-"),
        ("--", "--"),
        ("–", "-"),
        ("", ""),
    ],
)
def test_cells(typed, cell):
    assert parse_cell(typed) == cell


def test_unknown_cell_names_what_was_typed():
    with pytest.raises(ResultEntryError) as info:
        parse_cell(" 2 ")
    assert (info.value.code, info.value.params) == ("unknown_cell", {"value": "2"})


@pytest.mark.parametrize(
    ("typed", "has_black", "code"),
    [
        ("1", True, "1-0"),
        ("0-1", True, "0-1"),
        ("r", True, "1/2-1/2"),
        ("½-½", True, "1/2-1/2"),
        ("+", True, "+-"),
        ("+", False, "+"),
        ("-+", True, "-+"),
        ("--", True, "--"),
        ("h", False, "H"),
        ("Z", False, "Z"),
        ("", True, ""),
    ],
)
def test_board_results(typed, has_black, code):
    assert parse_board_result(typed, has_black=has_black) == code


@pytest.mark.parametrize(
    ("typed", "has_black", "error"),
    [("2-0", True, "unknown_board"), ("H", True, "bye_with_black"), ("1", False, "game_without_black")],
)
def test_board_result_errors(typed, has_black, error):
    with pytest.raises(ResultEntryError) as info:
        parse_board_result(typed, has_black=has_black)
    assert info.value.code == error


def test_mirror_clashes_need_both_cells_filled():
    cells = {(A, B): "1", (B, A): "½", (A, C): "1", (C, A): "", (B, C): "+", (C, B): "-"}
    assert mirror_clashes([A, B, C], cells) == [(A, B)]


def test_grid_games_follow_the_berger_table():
    players = [A, B, C, D]
    cells = {(A, B): "1", (C, D): "½", (B, C): "0"}
    games = grid_games(players, cells, schedule=berger_rounds(4), existing={})
    assert len(games) == 3
    rounds: dict[int, set[int]] = {}
    for g in games:
        assert not rounds.setdefault(g.round, set()) & {g.white_id, g.black_id}
        rounds[g.round] |= {g.white_id, g.black_id}
    by_pair = {frozenset((g.white_id, g.black_id)): g for g in games}
    ab = by_pair[frozenset((A, B))]
    assert ab.result == ("1-0" if ab.white_id == A else "0-1")


def test_grid_games_keep_stored_rounds_and_colours_and_move_clashes():
    cells = {(A, B): "1", (B, C): "1", (A, C): "½"}
    games = grid_games([A, B, C], cells, schedule=berger_rounds(3), existing={(B, A): 2, (C, B): 2})
    assert GameSpec(2, B, A, "0-1") in games
    moved = next(g for g in games if {g.white_id, g.black_id} == {B, C})
    assert (moved.white_id, moved.result) == (C, "0-1")
    assert moved.round > 2  # round 2 is taken by B already: the first free round for both
    assert len({(g.round, pk) for g in games for pk in (g.white_id, g.black_id)}) == 2 * len(games)


def test_grid_cells_show_both_sides_and_skip_byes():
    cells = grid_cells([(A, B, "1-0"), (C, A, "-+"), (B, None, "+"), (B, C, "1/2-1/2")])
    assert cells == {
        (A, B): "1",
        (B, A): "0",
        (C, A): "-",
        (A, C): "+",
        (B, C): "½",
        (C, B): "½",
    }


def test_boards_numbered_per_round_byes_last():
    games = [
        GameSpec(2, C, None, "+"),
        GameSpec(1, A, B, "1-0"),
        GameSpec(1, C, None, "H"),
        GameSpec(2, A, B, "0-1"),
    ]
    numbered = [(g.round, g.board, g.white_id) for g in number_boards(games)]
    assert numbered == [(1, 1, A), (1, 2, C), (2, 1, A), (2, 2, C)]


@pytest.mark.parametrize(
    ("games", "seated", "expected", "unrepresentable"),
    [
        ([], [A, B], True, 0),
        ([(A, B, "1-0"), (A, C, "0-1"), (B, C, "1/2-1/2")], [A, B, C], True, 0),
        ([(A, B, "1-0")], [A, B, C], False, 0),  # incomplete
        ([(A, B, "1-0"), (B, A, "1-0")], [A, B], False, 1),  # double round
        ([(A, B, "1-0"), (C, None, "+")], [A, B, C], False, 1),  # bye
    ],
)
def test_mode_inference(games, seated, expected, unrepresentable):
    assert is_round_robin(games, seated=seated) is expected
    assert unrepresentable_count(games) == unrepresentable


def test_paste_grid_block_with_and_without_own_cell():
    values, errors = parse_grid_block("x 1 1\n0 ½\n0 . x", [A, B, C])
    assert errors == []
    assert values[(B, C)] == "½" and values[(C, B)] == "" and values[(A, C)] == "1"


def test_paste_grid_block_errors():
    _values, errors = parse_grid_block("x 1\n0 x ½ 1 1\n1 1 x\n1 1 1 1", [A, B, C])
    assert [(e.code, e.params) for e in errors] == [
        ("too_many_lines", {"lines": 4, "n": 3}),
        ("row_length", {"row": 2, "got": 5, "n": 3}),
    ]


def test_paste_board_block():
    rows, errors = parse_board_block("1 1 2 1\n1;3;+\n2 9 1 0\nabc\n1 a 2 1", [A, B, C])
    assert rows == [PastedBoard(1, A, B, "1"), PastedBoard(1, C, None, "+")]
    assert [(e.code, e.params) for e in errors] == [
        ("start_number", {"row": 3, "n": 3}),
        ("board_syntax", {"row": 4}),
        ("board_numbers", {"row": 5}),
    ]
