"""Standings: placing by points, then tie-breaks with FIDE's handling of unplayed rounds (worked by hand)."""

from decimal import Decimal
from pathlib import Path

from ratings.formats.standings import RoundScore, compute_standings, parse_tiebreaks, scores_from_trf
from ratings.formats.trf import read_trf

D = Decimal
DATA = Path(__file__).resolve().parent.parent / "data" / "trf"


def game(r, a, b, pa, colour="w"):
    """Both sides of a game played over the board."""
    pb = 1 - D(pa)
    other = "b" if colour == "w" else "w"
    return (
        (a, RoundScore(r, D(pa), b, played=True, colour=colour)),
        (b, RoundScore(r, pb, a, played=True, colour=other)),
    )


def build(*items):
    scores = {}
    for item in items:
        pairs = item if isinstance(item[0], tuple) else (item,)
        for player, score in pairs:
            scores.setdefault(player, []).append(score)
    return scores


def bye(r, p, points, voluntary=False):
    return (p, RoundScore(r, D(points), voluntary=voluntary))


def test_buchholz_and_sonneborn_berger_with_byes():
    # R1: A-B 1-0, C-D 1-0, E pairing bye; R2: A-C draw, E-B 0-1, D pairing bye.
    scores = build(
        game(1, "A", "B", 1),
        game(1, "C", "D", 1),
        bye(1, "E", 1),
        game(2, "A", "C", "0.5"),
        game(2, "E", "B", 0),
        bye(2, "D", 1),
    )
    s = compute_standings(scores).by_player()
    # A: BH = B 1 + C 1.5 = 2.5, SB = 1·1 + 1.5·½ = 1.75; C the same: they share first place.
    assert (s["A"].rank, s["A"].values, s["A"].shared) == (1, (D("2.5"), D("1.75")), True)
    assert (s["C"].rank, s["C"].values) == (1, (D("2.5"), D("1.75")))
    # The bye counts as a game against a dummy with the player's own score (1): D's BH = C 1.5 + 1.
    assert (s["B"].rank, s["B"].values) == (3, (D("2.5"), D(1)))
    assert (s["D"].rank, s["D"].values) == (3, (D("2.5"), D(1)))
    assert (s["E"].rank, s["E"].values, s["E"].shared) == (5, (D(2), D(1)), False)


def test_withdrawn_opponent_counts_draws_after_his_last_round():
    # W loses round 1 and is absent afterwards (voluntarily unplayed): his score counts 0 + ½ + ½ = 1.
    scores = build(
        game(1, "A", "W", 1),
        game(1, "B", "C", "0.5"),
        game(2, "A", "B", 1),
        bye(2, "C", 1),
        bye(2, "W", 0, voluntary=True),
        game(3, "A", "C", 0),
        bye(3, "B", 1),
        bye(3, "W", 0, voluntary=True),
    )
    st = compute_standings(scores, tiebreaks=["BH", "BH/C1"])
    s = st.by_player()
    assert [(r.player, r.rank, r.points) for r in st.rows] == [
        ("C", 1, D("2.5")),
        ("A", 2, D(2)),
        ("B", 3, D("1.5")),
        ("W", 4, D(0)),
    ]
    assert s["A"].values == (D(5), D(4))  # W (1) + B 1.5 + C 2.5; cut: the lowest, W
    assert s["C"].values == (D(6), D("4.5"))  # B 1.5 + dummy 2.5 + A 2; cut: B
    # W's own absences are cut first (each a dummy with his 0 points).
    assert s["W"].values == (D(2), D(2))


def test_direct_encounter_breaks_a_tie_of_players_who_met():
    # A and B end on 1 point each; A beat B.
    scores = build(game(1, "A", "B", 1), game(1, "C", "D", 1), game(2, "A", "C", 0), game(2, "B", "D", 1))
    st = compute_standings(scores, tiebreaks=["DE", "WIN", "BPG", "PS"])
    assert [(r.player, r.rank, r.values) for r in st.rows] == [
        ("C", 1, (0, 2, 1, 3)),
        ("A", 2, (1, 1, 0, 2)),
        ("B", 3, (0, 1, 1, 1)),
        ("D", 4, (0, 0, 2, 0)),
    ]


def test_parse_tiebreak_codes():
    parsed, ignored = parse_tiebreaks(["PTS", "BH/C1", "SB", "BH:MP/C1/P", "EDET/P", "bh/m1", "ARO"])
    assert [(t.code, t.base, t.cut, t.median) for t in parsed] == [
        ("BH/C1", "BH", 1, 0),
        ("SB", "SB", 0, 0),
        ("BH/M1", "BH", 0, 1),
        ("ARO", "ARO", 0, 0),
    ]
    assert ignored == ("BH:MP/C1/P", "EDET/P")


def test_unsupported_only_falls_back_to_buchholz_and_sonneborn_berger():
    st = compute_standings(build(game(1, "A", "B", 1)), tiebreaks=["EDET/P"])
    assert [t.code for t in st.tiebreaks] == ["BH", "SB"] and st.ignored == ("EDET/P",)


def test_average_rating_of_opponents_rounds_half_up():
    scores = build(game(1, "A", "B", 1), game(2, "A", "C", 1))
    st = compute_standings(scores, tiebreaks=["ARO"], ratings={"B": 1500, "C": 1601})
    assert st.by_player()["A"].values == (D(1551),)  # 1550.5 -> 1551


def test_real_file_standings_agree_with_the_file():
    t = read_trf((DATA / "lichess-swiss-2021-03.trf").read_bytes())
    st = compute_standings(scores_from_trf(t), rounds=t.rounds)
    points = {p.start_rank: p.points for p in t.players}
    assert all(row.points == points[row.player] for row in st.rows)
    assert [row.rank for row in st.rows] == sorted(row.rank for row in st.rows)
    # Three players share 6.0 points; Buchholz decides among them.
    six = [row for row in st.rows if row.points == 6]
    assert len(six) == 3 and {row.rank for row in six} <= {3, 4, 5}


def test_karl_mala_forfeits_and_byes_count_as_unplayed():
    t = read_trf((DATA / "fide-example1-karl-mala-2005.trf").read_bytes())
    scores = scores_from_trf(t)
    st = compute_standings(scores, rounds=t.rounds)
    assert len(st.rows) == 283 and st.rows[0].points == D("6.5")
    bakhmatov = next(s for s in scores[13] if s.round == 1)
    assert bakhmatov.opponent == 153 and not bakhmatov.played and bakhmatov.voluntary
