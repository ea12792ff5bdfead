"""Tournament page: head, evaluation table, progress table / crosstable, scoresheets (spec §14 E1, E2)."""

import datetime

import pytest
from django.urls import reverse

from ratings.enums import EvaluationStatus, ResultCode
from ratings.models import Evaluation
from ratings.recalculation import recalculate
from tests.builders import make_player, make_tournament
from tests.dwz.builders import example


def url(t):
    return reverse("ratings:tournament-detail", args=[t.pk])


def test_head_and_evaluation_table_e2(client, e2):
    response = client.get(url(e2["tournament"]))
    html = response.content.decode()
    assert "Maiturnier" in html and "1919-C05-MAI" in html
    assert "10.05.2019 – 12.05.2019" in html
    assert "6 Spieler, 5 Runden, 5 Partien" in html
    assert "klassisch" in html
    view = response.context["view"]
    first = view.rows[0]
    assert first.player == e2["player"]
    # Spec E2: A 1850-3, 3/5, We 2.776, E 15, level 1808, performance 1886, 1859-4, +9.
    for cell in ("1850-3", "3/5", "2,776", "1808", "1886", "1859-4", "+9"):
        assert cell in html, cell


def test_swiss_event_has_a_progress_table(client, e2):
    response = client.get(url(e2["tournament"]))
    view = response.context["view"]
    assert not view.round_robin
    html = response.content.decode()
    assert 'id="progress-table"' in html and 'id="crosstable"' not in html
    a = view.rows[0]
    # Round 1: opponent no. 2 with white, won -> 1; round 2: no. 3, draw -> 1.5 in total.
    assert [(c.opponent, c.colour, c.result, c.total) for c in a.progress[:2]] == [
        (2, "w", "1", 1),
        (3, "w", "½", 1.5),
    ]


def test_scoresheet_uses_stored_entry_ratings_and_engine_p(client, e2):
    response = client.get(url(e2["tournament"]))
    a = response.context["view"].rows[0]
    # Spec E2: p per game .702, .598, .430, .286, .760, sum We 2.776.
    assert [line.opponent_rating for line in a.lines] == [1700, 1780, 1900, 2010, 1650]
    assert [str(line.expected) for line in a.lines] == ["0.702", "0.598", "0.43", "0.286", "0.76"]
    assert str(a.expected_sum) == "2.776"
    html = response.content.decode()
    assert 'id="scoresheet-1"' in html and "0,702" in html and "Weiß" in html


def test_round_robin_has_a_crosstable_e1(client, e1):
    response = client.get(url(e1["tournament"]))
    view = response.context["view"]
    assert view.round_robin
    html = response.content.decode()
    assert 'id="crosstable"' in html
    # Spec E1 (A wins): A 1000 -> 1101 (E 5), B 1200 -> 1132 (E 8); p(-200) = 0.240.
    for cell in ("1101-6", "1132-6", "+101", "−68", "0,240", "0,760"):
        assert cell in html, cell
    assert view.rows[0].cells == {2: "1"} and view.rows[1].cells == {1: "0"}


def test_unknown_tournament_is_a_friendly_404(client, db):
    response = client.get("/turniere/999999/")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in response.content.decode()
    assert client.get("/turniere/abc/").status_code == 404


@pytest.mark.parametrize("item_count", [1, 3])
def test_query_count(client, populate, django_assert_num_queries, item_count):
    t = populate(item_count)["tournament"]
    with django_assert_num_queries(6):  # tournament, entries, evaluations, memberships, games, recalculation
        response = client.get(url(t))
    assert len(response.context["view"].rows) == item_count + 1
    with django_assert_num_queries(6):  # sorted by placing: the same rows
        client.get(url(t) + "?sort=rang")


def _store(federation, players, games, *, end, name):
    """Players as (id, dwz, index, birth_year), games as (white id, black id, result): a stored tournament."""
    by_id = {
        pid: make_player(surname=pid, first_name="X", dwz=dwz, index=index, birth_year=birth)
        for pid, dwz, index, birth in players
    }
    rows = [(i, by_id[w], by_id[b], res) for i, (w, b, res) in enumerate(games, start=1)]
    t = make_tournament(list(by_id.values()), rows, end=end, name=name, organiser_club=federation["club"])
    return t, by_id


@pytest.fixture
def e8(federation):
    """Spec §14 E8 stored through the services: A (1150) is an Ausnahmespieler with Rh 1906."""
    data = example("E8")["input"]
    players = [(p["id"], p["dwz"], p["index"], p["birth_year"]) for p in data["players"]]
    games = [(g["white"], g["black"], g["result"]) for g in data["games"]]
    t, by_id = _store(federation, players, games, end=datetime.date(2019, 11, 24), name="E8")
    return {"tournament": t, **by_id}


@pytest.fixture
def pass2(federation):
    """A (1068, youth) is an Ausnahmespieler (pass-1 Rh 1755 > 1368); the unrated U, who drew with him, gets a
    different first rating in pass 2, which moves A's final performance to 1777: his entry rating (1755)
    is not his stored performance, so only the stored entry rating gives the exact We of his opponents."""
    players = [
        ("A", 1068, 4, 2008),
        ("R0", 1580, 20, 1980),
        ("R1", 1510, 20, 1980),
        ("R2", 1703, 20, 1980),
        ("R3", 1680, 20, 1980),
        ("U", None, None, 1990),
    ]
    games = [
        ("A", "R0", "1/2-1/2"), ("A", "R1", "1/2-1/2"), ("A", "R2", "1-0"), ("A", "R3", "1-0"),
        ("A", "U", "1/2-1/2"), ("R0", "R1", "1-0"), ("R0", "R2", "0-1"), ("R0", "R3", "0-1"),
        ("R0", "U", "1/2-1/2"), ("R1", "R2", "1-0"), ("R1", "R3", "1/2-1/2"), ("R1", "U", "0-1"),
        ("R2", "R3", "0-1"), ("R2", "U", "1/2-1/2"), ("R3", "U", "1-0"),
    ]  # fmt: skip
    t, by_id = _store(federation, players, games, end=datetime.date(2019, 11, 24), name="Pass 2")
    return {"tournament": t, **by_id}


@pytest.fixture
def e12(federation):
    """Spec §14 E12 (WO 2026) stored through the services: U1 (L 1420, first rating 1466) beat U2 (L 870,
    first rating 1157)."""
    data = example("E12")["input"]
    players = [(p["id"], p.get("dwz"), p.get("index"), p["birth_year"]) for p in data["players"]]
    games = [(g["white"], g["black"], g["result"]) for g in data["games"]]
    t, by_id = _store(federation, players, games, end=datetime.date(2026, 10, 4), name="E12")
    return {"tournament": t, **by_id}


def _rows(client, t):
    view = client.get(url(t)).context["view"]
    return {row.player.surname: row for row in view.rows}


def _assert_we_sums_match_stored(rows):
    """Classic: We is the sum of the shown per-game P. WO 2026 (spec §16): the unrounded sum rounded once,
    within (n + 1) / 2 thousandths of the shown sum, and then shown in its own footer line."""
    for row in rows.values():
        ev = row.evaluation
        if ev.status == EvaluationStatus.RATED and ev.n > 0:
            if ev.tournament.end_date < datetime.date(2026, 6, 8):
                assert row.expected_sum == ev.expected, row.player.surname
                assert row.we_from_unrounded_sum is None
            else:
                assert 2000 * abs(row.expected_sum - ev.expected) <= ev.n + 1, row.player.surname
                assert row.we_from_unrounded_sum == (ev.expected if row.expected_sum != ev.expected else None)


def test_scoresheet_e8_ausnahmespieler_enters_at_rh(client, e8):
    """Spec E8: B meets A at 1906 (not 1150): p(1610 - 1906) = .148; B's We 2.654."""
    rows = _rows(client, e8["tournament"])
    assert rows["A"].evaluation.entry_rating == 1906 and rows["B"].evaluation.entry_rating == 1610
    line = next(line for line in rows["B"].lines if line.opponent.player_id == e8["A"].pk)
    assert (line.opponent_rating, str(line.expected)) == (1906, "0.148")
    assert str(rows["B"].expected_sum) == "2.654" == str(rows["B"].evaluation.expected)
    # A's own We is against his opponents' R0 (spec E8: 0.451), his own rating R0.
    assert [line.opponent_rating for line in rows["A"].lines] == [1610, 1540, 1495, 1580, 1455]
    _assert_we_sums_match_stored(rows)


def test_scoresheet_uses_the_stored_entry_rating_not_the_performance(client, pass2):
    rows = _rows(client, pass2["tournament"])
    a = rows["A"].evaluation
    assert (a.dwz_old, a.performance, a.entry_rating) == (1068, 1777, 1755)
    assert rows["U"].evaluation.status == EvaluationStatus.FIRST
    for name in ("R0", "R1", "R2", "R3", "U"):
        line = next(line for line in rows[name].lines if line.opponent.player_id == pass2["A"].pk)
        assert line.opponent_rating == 1755, name
    _assert_we_sums_match_stored(rows)
    html = client.get(url(pass2["tournament"])).content.decode()
    assert ">1755<" in html and ">1777<" in html  # the entry rating in the scoresheets, the performance


def test_scoresheet_shows_no_we_for_rows_stored_without_entry_rating(client, pass2):
    """Rows stored before the engine kept the entry rating: no guess until ``manage.py recalculate``."""
    Evaluation.objects.filter(tournament=pass2["tournament"]).update(entry_rating=None)
    rows = _rows(client, pass2["tournament"])
    line = next(line for line in rows["R0"].lines if line.opponent.player_id == pass2["A"].pk)
    assert (line.opponent_rating, line.expected, line.counted) == (None, None, False)
    recalculate()
    rows = _rows(client, pass2["tournament"])
    line = next(line for line in rows["R0"].lines if line.opponent.player_id == pass2["A"].pk)
    assert line.opponent_rating == 1755
    _assert_we_sums_match_stored(rows)


def test_scoresheet_between_two_first_ratings_uses_the_iteration_values(client, e12):
    """Spec E12, §6.8/§6.9: rated players meet U1 at his first rating 1466 (R3: p .156), but U1 and U2 meet
    each other at their iteration values 1420 and 870, so their We sums are the spec's 4.498 and 0.500."""
    rows = _rows(client, e12["tournament"])
    u1_vs_u2 = next(line for line in rows["U1"].lines if line.opponent.player_id == e12["U2"].pk)
    u2_vs_u1 = next(line for line in rows["U2"].lines if line.opponent.player_id == e12["U1"].pk)
    assert (u1_vs_u2.opponent_rating, u2_vs_u1.opponent_rating) == (870, 1420)
    r3_vs_u1 = next(line for line in rows["R3"].lines if line.opponent.player_id == e12["U1"].pk)
    assert (r3_vs_u1.opponent_rating, str(r3_vs_u1.expected)) == (1466, "0.156")
    assert str(rows["U1"].expected_sum) == "4.498" == str(rows["U1"].evaluation.expected)
    assert str(rows["U2"].expected_sum) == "0.500" == str(rows["U2"].evaluation.expected)
    _assert_we_sums_match_stored(rows)


def test_scoresheet_wo2026_shows_the_we_of_the_unrounded_sum(client, e12):
    """Spec §16 / E12: R3's per-game P add up to 2.160, his We is the unrounded sum rounded once, 2.162
    (new DWZ 1241); the scoresheet shows both, R5's sums agree (one footer line)."""
    t = e12["tournament"]
    rows = _rows(client, t)
    r3 = rows["R3"]
    ev = r3.evaluation
    assert (str(r3.expected_sum), str(ev.expected), ev.dwz_new) == ("2.160", "2.162", 1241)
    assert str(r3.we_from_unrounded_sum) == "2.162"
    html = client.get(url(t)).content.decode()
    sheet = html[html.index(f'id="scoresheet-{r3.number}"') :]
    sheet = sheet[: sheet.index("</details>")]
    assert "2,160" in sheet and "2,162" in sheet and "ungerundeten P" in sheet


def test_rating_officer_by_full_name_never_by_login(client, e2):
    from django.contrib.auth import get_user_model

    tournament = e2["tournament"]
    officer = get_user_model().objects.create_user(username="wr_login_7", password="x" * 12)
    tournament.rating_officer = officer
    tournament.save(update_fields=["rating_officer"])
    assert "wr_login_7" not in client.get(url(tournament)).content.decode()
    officer.first_name, officer.last_name = "Klara", "Schach"
    officer.save()
    html = client.get(url(tournament)).content.decode()
    assert "Klara Schach" in html and "wr_login_7" not in html


def _evaluation_names(html):
    body = html[html.index('id="evaluation-table"') :]
    body = body[body.index("<tbody>") : body.index("</tbody>")]
    return [
        tr.split('class="name"><a href="', 1)[1].split(">", 1)[1].split("<", 1)[0]
        for tr in body.split("<tr")[1:]
    ]


def test_evaluation_sortable_by_placing_or_start_number(client, e2, django_assert_max_num_queries):
    t = e2["tournament"]
    by_number = _evaluation_names(client.get(url(t)).content.decode())
    assert by_number[:2] == ["Müller, Hans", "Gegner1, X"]
    with django_assert_max_num_queries(8):
        html = client.get(url(t) + "?sort=rang").content.decode()
    by_rank = _evaluation_names(html)
    assert by_rank[:2] == ["Müller, Hans", "Gegner4, X"] and sorted(by_rank) == sorted(by_number)
    assert 'href="?sort=nr#evaluation-table"' in html
    assert _evaluation_names(client.get(url(t) + "?sort=quatsch").content.decode()) == by_number


def test_empty_cells_show_a_dash_and_first_rating_badge_sits_with_the_name(client, federation):
    newcomer = make_player(surname="Neu", first_name="Nina", club=federation["club"])
    rated = [make_player(surname=f"R{i}", first_name="X", dwz=1500 + 50 * i, index=5) for i in range(5)]
    games = [(i, newcomer, o, ResultCode.DRAW) for i, o in enumerate(rated, start=1)]
    t = make_tournament([newcomer, *rated], games, end=datetime.date(2024, 5, 1), name="Erstturnier")
    html = client.get(url(t)).content.decode()
    row = html[html.index(">Neu, Nina<") :]
    name_cell, rest = row.split("</td>", 1)
    assert "Erst-DWZ" in name_cell and "Erst-DWZ" not in rest[: rest.index("</tr>")]
    assert '<td class="num d-none d-md-table-cell">–</td>' in rest[: rest.index("</tr>")]  # no DWZ alt


def test_large_tournament_loads_its_games_on_their_own(client, e2, monkeypatch):
    """Above LAZY_GAMES_FROM players the page leaves the progress table and the scoresheets to
    /turniere/<pk>/partien/: HTMX fetches them as the reader scrolls there; without JavaScript a link."""
    from ratings.web.public.views import detail as public_detail

    t = e2["tournament"]

    def tables(html: str) -> str:  # the evaluation and the placing tables
        return html[html.index('id="evaluation-table"') : html.index('id="standings-note"')]

    whole = client.get(url(t)).content.decode()
    monkeypatch.setattr(public_detail, "LAZY_GAMES_FROM", 5)
    games_url = reverse("ratings:tournament-games", args=[t.pk])
    html = client.get(url(t)).content.decode()
    assert 'id="evaluation-table"' in html and 'id="standings-table"' in html
    # Read without the games' details (expectations, crosstable, progress), the tables are the same.
    assert tables(html) == tables(whole)
    assert 'id="progress-table"' not in html and 'id="scoresheet-1"' not in html
    assert f'hx-get="{games_url}"' in html and f'href="{games_url}"' in html
    partial = client.get(games_url, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in partial and 'id="progress-table"' in partial and 'id="scoresheet-1"' in partial
    page = client.get(games_url).content.decode()
    assert "<html" in page and "Maiturnier" in page and "0,702" in page
    assert client.get(reverse("ratings:tournament-games", args=[t.pk + 999])).status_code == 404


def test_the_games_markup_written_in_python_e1_e2(client, e1, e2):
    """The crosstable, progress cells and scoresheets come from ``templatetags.tournament_games``: the cells
    as the template wrote them, names escaped."""
    cross = client.get(url(e1["tournament"])).content.decode()
    assert '<td class="self" aria-label="—"></td><td>1</td>' in cross
    assert '<td class="fw-semibold">1</td></tr>' in cross
    html = client.get(url(e2["tournament"])).content.decode()
    assert '<td>2w1<br><small class="text-body-secondary">1</small></td>' in html
    assert '<td>3w½<br><small class="text-body-secondary">1,5</small></td>' in html
    assert '<th scope="row" colspan="5">Summe (We)</th><td class="num fw-semibold">2,776</td>' in html
    assert '<td class="num">1700</td>\n        <td>Weiß</td>' in html


def test_a_name_in_the_games_tables_is_escaped(client, e2):
    player = e2["player"]
    type(player).objects.filter(pk=player.pk).update(first_name="<b>Eva</b>")
    html = client.get(reverse("ratings:tournament-games", args=[e2["tournament"].pk])).content.decode()
    assert "<b>Eva</b>" not in html and "&lt;b&gt;Eva&lt;/b&gt;" in html
