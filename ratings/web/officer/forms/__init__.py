"""Forms of the officer pages: tournament head and new player (``tournament``), result entry (``results``) and
the TRF upload (``trf``). Forms only validate; services write. (The public calculator and search box are in
``ratings.web.public.forms``.)
"""

from ratings.formats.berger import berger_rounds
from ratings.formats.result_entry import (
    BOARD_ALIASES,
    BOARD_DISPLAY,
    CELL_ALIASES,
    CELL_MIRROR,
    CELL_TO_RESULT,
    RESULT_TO_CELL,
    GameSpec,
)

from .results import (
    RoundRobinForm,
    parse_board_result,
    parse_cell,
    parse_participants,
    parse_round_robin_block,
    round_robin_initial,
)
from .tournament import NewPlayerForm, TournamentHeadForm

__all__ = [
    "BOARD_ALIASES",
    "BOARD_DISPLAY",
    "CELL_ALIASES",
    "CELL_MIRROR",
    "CELL_TO_RESULT",
    "RESULT_TO_CELL",
    "GameSpec",
    "NewPlayerForm",
    "RoundRobinForm",
    "TournamentHeadForm",
    "berger_rounds",
    "parse_board_result",
    "parse_cell",
    "parse_participants",
    "parse_round_robin_block",
    "round_robin_initial",
]
