"""Names in German order (DIN 5007 variant 1: ä = a, ö = o, ü = u, ß = ss, case and accents folded) on the
pages, in the reads behind them and in the exports, the same on SQLite and PostgreSQL (the suite runs on
either: the expected order is written out here, not computed)."""

import csv
import io
import re

import openpyxl
import pytest

from ratings.models import Player
from ratings.selectors import officer, search
from tests.factories import ClubFactory, MembershipFactory

pytestmark = pytest.mark.django_db

# The expected order, written out: umlauts as their base letter (Ärger among the A, Öztürk after Ostermann,
# Schäfer before Schulze), ß = ss, case folded (zander beside Zander), "Mueller" spelled as it stands
# (before "Muller"), the punctuation of "d'Agostino" and the space of "van der Berg" by code point; names
# folding alike by first name (Müller, Anna first), then by their spelling.
ORDER = [
    ("ABEL", "Quirin"),
    ("Abel", "Rita"),
    ("Ärger", "Nina"),
    ("d'Agostino", "Marco"),
    ("Dachs", "Ute"),
    ("Mueller", "Emil"),
    ("Müller", "Anna"),
    ("Muller", "Hans"),
    ("Müller", "Hans"),
    ("muller", "Hans"),
    ("Ostermann", "Ida"),
    ("Öztürk", "Hakan"),
    ("Schäfer", "Jens"),
    ("Schulze", "Bernd"),
    ("Schumacher", "Carl"),
    ("Strauss", "Jens"),
    ("Strauß", "Jens"),
    ("Van Damme", "Vera"),
    ("van der Berg", "Lea"),
    ("Zander", "Otto"),
    ("zander", "Paul"),
]
NAMES = [f"{s}, {f}" for s, f in ORDER]


@pytest.fixture
def club(federation):
    club = ClubFactory(zps="C0577", name="SK Umlaut", organisation=federation["bezirk"])
    # Made in another order than the expected one (reversed, and the alike ones shuffled).
    made = list(reversed(ORDER))
    made[10], made[12] = made[12], made[10]
    for n, (surname, first) in enumerate(made, start=1):
        player = Player.objects.create(key=f"N{n:02d}", surname=surname, first_name=first, birth_year=1980)
        MembershipFactory(player=player, club=club, member_number=str(n))
    return club


def _linked_names(response) -> list[str]:
    """The names of the players linked on a page, in page order (each row links its player once)."""
    assert response.status_code == 200
    keys = re.findall(r'href="/spieler/(N\d\d)/"', response.content.decode())
    names = dict(Player.objects.values_list("key", "surname"))
    first = dict(Player.objects.values_list("key", "first_name"))
    return [f"{names[k]}, {first[k]}" for k in keys]


def _csv_names(response) -> list[str]:
    header, *rows = csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig")), delimiter=";")
    return [row[header.index("Name")] for row in rows]


def test_the_player_list_and_its_name_column(client, club):
    assert _linked_names(client.get("/spieler/", {"per_page": 100})) == NAMES
    assert _linked_names(client.get("/spieler/", {"per_page": 100, "sort": "-name"})) == NAMES[::-1]
    assert _linked_names(client.get("/ranglisten/", {"per_page": 100, "sort": "name"})) == NAMES


def test_the_club_page_and_its_members_read(client, club):
    # Nobody rated: the club's list falls back to the names (its tie-break after DWZ and index).
    assert _linked_names(client.get(f"/vereine/{club.zps}/", {"per_page": 100})) == NAMES
    ids = officer.club_member_ids(club=club)
    assert [Player.objects.get(pk=pk).name for pk in ids] == NAMES


def test_search_results(client, club):
    muller = [n for n in NAMES if n.split(",")[0].lower() in ("mueller", "muller", "müller")]
    assert [p.name for p in search.players(query="Müller", limit=10)] == muller
    assert _linked_names(client.get("/suche/", {"q": "Müller"})) == muller


def test_exports_keep_the_order(client, club):
    assert _csv_names(client.get("/spieler/", {"_export": "csv"})) == NAMES
    assert _csv_names(client.get(f"/vereine/{club.zps}/", {"_export": "csv"})) == NAMES
    sheet = openpyxl.load_workbook(io.BytesIO(client.get("/spieler/", {"_export": "xlsx"}).content)).active
    header, *rows = sheet.iter_rows(values_only=True)
    assert [row[header.index("Name")] for row in rows] == NAMES


def test_club_names_in_order(client, federation):
    for n, name in enumerate(["SK Zugspitze", "SC Öhringen", "Schachfreunde Ärger", "SG Oberland", "sc Ost"]):
        ClubFactory(zps=f"C05{60 + n}", name=name, organisation=federation["bezirk"])
    expected = [
        "SC Öhringen",
        "sc Ost",
        "Schachfreunde Ärger",
        "SF Stuttgart",
        "SG Oberland",
        "SK Karlsruhe",
        "SK Zugspitze",
    ]
    page = client.get("/vereine/", {"sort": "name", "per_page": 100}).content.decode()
    assert re.findall(r'href="/vereine/[A-Z0-9]{5}/">([^<]+)<', page) == expected
    found = search.everything(query="S").clubs
    assert [c.name for c in found] == expected
