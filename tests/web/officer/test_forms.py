"""Form validation: every error case ends as a message at its field or cell. (The board results of a Swiss are
typed on the round screen: ``test_draft_entry.py``.)"""

import pytest
from django.http import QueryDict

from ratings.models import Club, Organisation, Tournament
from ratings.web.officer.forms import (
    NewPlayerForm,
    RoundRobinForm,
    TournamentHeadForm,
    berger_rounds,
    parse_round_robin_block,
)

pytestmark = pytest.mark.django_db


def head(tree, **data):
    base = {
        "name": "T",
        "start_date": "2024-03-01",
        "end_date": "2024-03-10",
        "organiser": f"club:{tree['club_a'].pk}",
        "mode": "rr",
    }
    base.update(data)
    return TournamentHeadForm(
        base,
        instance=Tournament(),
        clubs=Club.objects.filter(pk=tree["club_a"].pk),
        organisations=Organisation.objects.none(),
    )


def test_head_valid(tree):
    form = head(tree, code="c524-c05-vm1")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["code"] == "C524-C05-VM1"


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"code": "C5-C05-VM1"}, "code", "YYWW-ZZZ-KKK"),
        ({"code": "C554-C05-VM1"}, "code", "YYWW-ZZZ-KKK"),  # week 54
        ({"end_date": "2024-02-28"}, "end_date", "Das Ende liegt vor dem Beginn"),
        ({"end_date": "31.02.2024"}, "end_date", "gültiges Datum"),
        ({"rounds": "0"}, "rounds", "1"),
        ({"organiser": "club:999999"}, "organiser", "gültige Auswahl"),
        ({"name": ""}, "name", "erforderlich"),
    ],
)
def test_head_errors(tree, data, field, message):
    form = head(tree, **data)
    assert not form.is_valid()
    assert message in " ".join(form.errors[field])


def test_head_duplicate_code(tree):
    Tournament.objects.create(name="A", code="C524-C05-VM1", start_date="2024-01-01", end_date="2024-01-02")
    form = head(tree, code="C524-C05-VM1")
    assert not form.is_valid()
    assert "code" in form.errors


def grid(players, values, rounds=None):
    data = QueryDict(mutable=True)
    for (i, j), v in values.items():
        data[f"rr-{players[i].pk}-{players[j].pk}"] = v
    return RoundRobinForm(data, players=players, rounds=rounds)


def test_grid_codes_and_mirror(players):
    form = grid(players, {(0, 1): "r", (2, 0): "+", (1, 2): "0,5"})
    assert form.is_valid(), form.errors
    results = {(g.white_id, g.black_id): g.result for g in form.games()}
    a, b, c = (p.pk for p in players)
    assert results.get((a, b), results.get((b, a))) == "1/2-1/2"
    assert results.get((c, a)) == "+-" or results.get((a, c)) == "-+"


def test_grid_unknown_code_at_the_cell(players):
    form = grid(players, {(0, 1): "2"})
    assert not form.is_valid()
    assert "Unbekanntes Ergebnis „2“" in form.errors[f"rr-{players[0].pk}-{players[1].pk}"][0]


def test_grid_mirror_disagrees_at_both_cells(players):
    form = grid(players, {(0, 1): "1", (1, 0): "½"})
    assert not form.is_valid()
    assert f"rr-{players[0].pk}-{players[1].pk}" in form.errors
    assert f"rr-{players[1].pk}-{players[0].pk}" in form.errors


def test_grid_more_rounds_than_declared(players):
    form = grid(players, {(0, 1): "1", (0, 2): "1", (1, 2): "1"}, rounds=2)
    assert not form.is_valid()
    assert "3 Runden" in form.non_field_errors()[0]


@pytest.mark.parametrize("n", [2, 3, 4, 7, 10])
def test_berger_schedule_is_a_valid_round_robin(n):
    schedule = berger_rounds(n)
    assert len(schedule) == n * (n - 1) // 2
    per_round: dict[int, list[int]] = {}
    for (i, j), (rnd, _white) in schedule.items():
        per_round.setdefault(rnd, []).extend([i, j])
    assert all(len(v) == len(set(v)) for v in per_round.values())
    assert max(per_round) == (n - 1 if n % 2 == 0 else n)


def test_paste_round_robin_block(players):
    values, errors = parse_round_robin_block("x 1 1\n0 x ½\n0 ½ x", players)
    assert errors == []
    assert values[f"rr-{players[1].pk}-{players[2].pk}"] == "½"
    _values, errors = parse_round_robin_block("x 1\n0 x ½ 1 1", players)
    assert errors


def test_new_player_index_needs_dwz(tree):
    form = NewPlayerForm(
        {"np-surname": "Neu", "np-club": tree["club_a"].pk, "np-index": "5"},
        clubs=Club.objects.all(),
    )
    assert not form.is_valid()
    assert "index" in form.errors
