"""The embedding example of docs/api.md, run as a club website would: a name with markup stays text."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.builders import make_player
from tests.factories import ClubFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
HOSTILE = '<img src=x onerror="window.pwned = true">'


def test_documented_embedding_shows_a_hostile_name_as_text(live_server, page):
    club = ClubFactory(zps="C0501", name="SF Stuttgart")
    make_player(surname=HOSTILE, first_name="Eve", dwz=1700, index=4, club=club)
    make_player(surname="Müller", first_name="Hans", dwz=1850, index=3, club=club)
    example = re.search(r"## Example: a club's member list.*?```html\n(.*?)```", API_DOC.read_text(), re.S)
    html = example.group(1).replace("https://dwz.example.org", live_server.url)

    page.set_content(html)  # another origin than the API's: the CORS header lets it read the list

    rows = page.locator("#dwz tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Müller, Hans1850-3")
    expect(rows.nth(1).locator("td").nth(1)).to_have_text(f"{HOSTILE}, Eve")
    assert page.locator("#dwz img").count() == 0
    assert page.evaluate("window.pwned") is None
