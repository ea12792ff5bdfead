"""Fixtures for the public pages and the JSON API (imported by their ``conftest.py``): data built with the
factories and the services, so evaluations are real."""

import datetime

import pytest

from ratings.enums import ResultCode, Sex
from tests.builders import make_player, make_tournament
from tests.factories import ClubFactory, OrganisationFactory


@pytest.fixture
def federation(db):
    land = OrganisationFactory(code="C00", name="Württembergischer Schachbund", parent=None)
    bezirk = OrganisationFactory(code="C05", name="Bezirk Stuttgart", parent=land)
    other = OrganisationFactory(code="B00", name="Badischer Schachbund", parent=None)
    club = ClubFactory(zps="C0501", name="SF Stuttgart", organisation=bezirk)
    other_club = ClubFactory(zps="B0101", name="SK Karlsruhe", organisation=other)
    return {"land": land, "bezirk": bezirk, "other": other, "club": club, "other_club": other_club}


@pytest.fixture
def e2(federation):
    """Spec §14 E2 as a stored tournament: A (1850, adult, idx 3) plays five rated opponents, 2019-05-12.

    By hand (spec): W 3.0, We 2.776, E 15, Rn 1859 (index 4), level 1808, performance 1886; p per game
    .702, .598, .430, .286, .760.
    """
    club = federation["club"]
    a = make_player(
        surname="Müller",
        first_name="Hans",
        dwz=1850,
        index=3,
        birth_year=1980,
        club=club,
        member_number="1014",
    )
    opponents = [
        make_player(surname=f"Gegner{i}", first_name="X", dwz=r, index=20, club=federation["other_club"])
        for i, r in enumerate((1700, 1780, 1900, 2010, 1650), start=1)
    ]
    results = [
        ResultCode.WHITE_WINS,
        ResultCode.DRAW,
        ResultCode.WHITE_WINS,
        ResultCode.BLACK_WINS,
        ResultCode.DRAW,
    ]
    games = [(i, a, o, res) for i, (o, res) in enumerate(zip(opponents, results, strict=True), start=1)]
    t = make_tournament(
        [a, *opponents],
        games,
        end=datetime.date(2019, 5, 12),
        name="Maiturnier",
        code="1919-C05-MAI",
        organiser_club=club,
    )
    a.refresh_from_db()
    return {"player": a, "opponents": opponents, "tournament": t}


@pytest.fixture
def e1(federation):
    """Spec §14 E1 (A wins): A 1000 and B 1200, both 15, idx 5, 2018-11-15; A → 1101, B → 1132."""
    a = make_player(
        surname="Älter",
        first_name="Anna",
        dwz=1000,
        index=5,
        birth_year=2003,
        sex=Sex.FEMALE,
        club=federation["club"],
    )
    b = make_player(
        surname="Böhm", first_name="Ben", dwz=1200, index=5, birth_year=2003, club=federation["club"]
    )
    t = make_tournament(
        [a, b], [(1, a, b, ResultCode.WHITE_WINS)], end=datetime.date(2018, 11, 15), name="Jugendduell"
    )
    a.refresh_from_db()
    b.refresh_from_db()
    return {"a": a, "b": b, "tournament": t}


__all__ = ["make_player", "make_tournament"]


@pytest.fixture
def populate(federation):
    """``populate(n)``: a central player who plays ``n`` rated club members (n items everywhere: list rows,
    tournament rows, history rows of the central player via ``n`` tournaments)."""

    def build(n: int):
        club = federation["club"]
        central = make_player(surname="Zentral", first_name="Zoe", dwz=1600, index=10, club=club)
        members = [
            make_player(surname=f"Mitglied{i}", first_name="M", dwz=1500 + 10 * i, index=5, club=club)
            for i in range(n)
        ]
        games = [(i + 1, central, m, ResultCode.DRAW) for i, m in enumerate(members)]
        tournament = make_tournament(
            [central, *members],
            games,
            end=datetime.date(2024, 3, 10),
            name="Vereinsturnier",
            organiser_club=club,
        )
        for i in range(n):
            other = make_player(surname=f"Gast{i}", first_name="G", dwz=1400, index=5)
            make_tournament(
                [central, other],
                [(1, central, other, ResultCode.WHITE_WINS)],
                end=datetime.date(2024, 4, 10 + i),
                name=f"Blitz {i}",
            )
        central.refresh_from_db()
        return {"central": central, "members": members, "tournament": tournament}

    return build
