"""Byes in the JSON contract of dwz_evaluate and import_tournament: points and standings, never the rating."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.dwz import evaluate
from ratings.dwz.contract import ContractError, parse_tournament
from ratings.models import Tournament
from tests.builders import stored_points

PLAYERS = [
    {"id": "A", "dwz": 1600, "index": 10},
    {"id": "B", "dwz": 1500, "index": 10},
    {"id": "C", "dwz": 1400, "index": 10},
]
GAMES = [
    {"white": "A", "black": "B", "result": "1-0"},
    {"white": "C", "black": None, "result": "+"},
    {"white": "B", "black": "C", "result": "1/2-1/2"},
    {"white": "A", "result": "H"},
]


def _doc(games):
    return {
        "tournament": {"end_date": "2024-05-05", "code": "C418-C05-BYE"},
        "players": PLAYERS,
        "games": games,
    }


def test_byes_are_accepted_and_never_reach_the_engine():
    with_byes = parse_tournament(_doc(GAMES))
    without = parse_tournament(_doc([g for g in GAMES if g.get("black")]))
    assert with_byes.games == without.games and len(with_byes.games) == 2
    assert evaluate(with_byes) == evaluate(without)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ({"white": "X", "black": None, "result": "H"}, 'games[0].white: unknown player id "X"'),
        ({"black": None, "result": "F"}, "games[0].white: missing or not a string"),
        (
            {"white": "A", "black": "B", "result": "U"},
            'games[0].result: a bye ("U") has no black player (null)',
        ),
        ({"white": "A", "black": None, "result": "1-0"}, "games[0].black: missing or not a string"),
        ({"white": "A", "black": None, "result": "Q"}, "games[0].black: missing or not a string"),
    ],
)
def test_bad_byes_name_the_field(game, message):
    with pytest.raises(ContractError) as exc:
        parse_tournament(_doc([game]))
    assert message in exc.value.messages


def test_dwz_evaluate_ignores_byes_for_the_rating(tmp_path):
    outputs = []
    for games in (GAMES, [g for g in GAMES if g.get("black")]):
        path = tmp_path / "t.json"
        path.write_text(json.dumps(_doc(games)))
        out = io.StringIO()
        call_command("dwz_evaluate", str(path), stdout=out)
        outputs.append(json.loads(out.getvalue()))
    assert outputs[0] == outputs[1]


@pytest.mark.django_db
def test_import_tournament_stores_byes_for_the_standings(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_doc(GAMES)))
    call_command("import_tournament", str(path), stdout=io.StringIO())
    t = Tournament.objects.get(code="C418-C05-BYE")
    byes = sorted(t.games.filter(black__isnull=True).values_list("white__key", "result"))
    assert byes == [("A", "H"), ("C", "+")]
    assert stored_points(t) == {1: 1.5, 2: 0.5, 3: 1.5}
    # A player never gets two pairings in one round: A's bye is packed into the round after his game.
    rounds = dict(t.games.filter(white__key="A").values_list("result", "round"))
    assert rounds["1-0"] != rounds["H"]


@pytest.mark.django_db
def test_import_tournament_refuses_a_bye_with_black(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_doc([{"white": "A", "black": "B", "result": "Z"}])))
    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path), stdout=io.StringIO())
    assert exc.value.returncode == 2 and "has no black player" in str(exc.value)
    assert Tournament.objects.count() == 0
