import datetime
import os

import pytest

from ratings.enums import ResultCode, Sex
from tests.builders import make_player, make_tournament
from tests.conftest import CHROMIUM
from tests.factories import ClubFactory, OrganisationFactory


def pytest_collection_modifyitems(config, items):
    """Browser tests skip only when no Chromium is installed."""
    if os.path.exists(CHROMIUM):
        return
    skip = pytest.mark.skip(reason=f"Chromium not installed at {CHROMIUM}")
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(skip)


@pytest.fixture
def data(db):
    land = OrganisationFactory(code="C00", name="Württembergischer Schachbund", parent=None)
    bezirk = OrganisationFactory(code="C05", name="Bezirk Stuttgart", parent=land)
    baden = OrganisationFactory(code="B00", name="Badischer Schachbund", parent=None)
    club = ClubFactory(zps="C0501", name="SF Stuttgart", organisation=bezirk)
    other = ClubFactory(zps="B0101", name="SK Karlsruhe", organisation=baden)
    hans = make_player(surname="Müller", first_name="Hans", dwz=1850, index=3, club=club, sex=Sex.MALE)
    opponents = [
        make_player(surname=f"Gegner{i}", first_name="X", dwz=r, index=20, club=other)
        for i, r in enumerate((1700, 1780, 1900, 2010, 1650), start=1)
    ]
    results = [
        ResultCode.WHITE_WINS,
        ResultCode.DRAW,
        ResultCode.WHITE_WINS,
        ResultCode.BLACK_WINS,
        ResultCode.DRAW,
    ]
    make_tournament(
        [hans, *opponents],
        [(i, hans, o, r) for i, (o, r) in enumerate(zip(opponents, results, strict=True), start=1)],
        end=datetime.date(2019, 5, 12),
        name="Maiturnier",
    )
    make_tournament(
        [hans, opponents[0]],
        [(1, hans, opponents[0], ResultCode.WHITE_WINS)],
        end=datetime.date(2020, 2, 2),
        name="Winterblitz",
    )
    make_player(surname="Groß", first_name="Greta", dwz=2105, index=60, club=club, sex=Sex.FEMALE)
    return {"hans": hans}
