"""The DSB list as an admin uses it: admin login, upload, the report, then the player card and club page.
The flow runs at 1366 px; the card, the page the list changes most, is seen at 390 px as well."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from ratings.models import Membership
from tests.dsb_lists import generate

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_upload_report_card_and_club(live_server, page, tmp_path):
    get_user_model().objects.create_superuser("chef", "chef@example.org", "geheim-123")
    generated = generate(80, seed=31)
    path = tmp_path / "LV-0-csv_20260301.zip"
    path.write_bytes(generated.zip_bytes())
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(live_server.url + "/admin/login/")
    page.fill("#id_username", "chef")
    page.fill("#id_password", "geheim-123")
    page.click("input[type=submit]")
    page.goto(live_server.url + "/admin/ratings/listimport/add/")
    page.set_input_files("#id_file", str(path))
    page.click("#list-upload input[type=submit]")
    expect(page.locator("#list-import-status")).to_have_text("fertig")
    expect(page.locator("#list-import-summary")).to_contain_text("01.03.2026")
    expect(page.locator("#report-download")).to_be_visible()
    assert Membership.objects.count() == 80

    muster = next(r for r in generated.players if r.member_number == "0901")
    # The card loaded at 390 px, then widened (its chart only grows with its box; the rest is CSS).
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(f"{live_server.url}/spieler/{muster.person_id}/")
    memberships = page.locator("#memberships")
    expect(memberships).to_contain_text(f"{muster.zps}-0901")
    expect(memberships).to_contain_text("passiv")
    expect(page.locator("#current-dwz")).to_have_text("1802-45")
    for width in (390, 1366):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= width

    club = Membership.objects.get(player__dsb_id=muster.person_id, status="A").club
    Membership.objects.filter(club=club).exclude(player__dsb_id=muster.person_id).update(
        valid_until="2026-06-01"
    )
    page.goto(f"{live_server.url}/vereine/{club.zps}/")
    expect(page.locator("#past-members")).to_be_visible()
