"""Stichtagslisten pages (issue 30 §1): the officer's page freezes and lists, the public page downloads in
every format of the live list."""

import csv
import io

import pytest
from django.urls import reverse

from ratings.models import FrozenList
from ratings.services.frozen_lists import frozen_list_create
from tests.builders import make_user
from tests.frozen_list_fixtures import DAY

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("fmt", ["csv", "rfc4180", "xlsx"])
def test_download_in_every_list_format(client, area, fmt):
    club, *_ = area
    frozen = frozen_list_create(user=make_user("admin", staff=True), name="R", stichtag=DAY, club=club)
    response = client.get(reverse("ratings:frozen-list-detail", args=[frozen.pk]), {"_export": fmt})
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert DAY.isoformat() in response["Content-Disposition"]
    if fmt == "xlsx":
        assert body[:2] == b"PK"
        return
    text = body.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";" if fmt == "csv" else ","))
    assert rows[0][:2] == ["Rang", "Name"]
    assert len(rows) == 5
    first = frozen.rows.order_by("position").first()
    assert rows[1][5] == str(first.dwz)


def test_officer_page_creates_and_lists(client, area):
    club, other, *_ = area
    client.force_login(make_user("referent", club=club))
    url = reverse("ratings:officer-frozen-lists")
    page = client.get(url)
    assert page.status_code == 200
    assert "verein:C0401" in page.content.decode() and "verein:C0402" not in page.content.decode()
    bad = client.post(url, {"name": "R", "stichtag": "31.02.2025", "area": "verein:C0401"})
    assert bad.status_code == 200 and "Stichtag: bitte ein Datum" in bad.content.decode()
    outside = client.post(url, {"name": "R", "stichtag": "01.08.2025", "area": f"verein:{other.zps}"})
    assert outside.status_code == 200 and not FrozenList.objects.exists()
    done = client.post(
        url, {"name": "Rangliste 01.08.2025", "stichtag": "01.08.2025", "area": "verein:C0401"}
    )
    frozen = FrozenList.objects.get()
    assert done.status_code == 302 and done["Location"] == reverse(
        "ratings:frozen-list-detail", args=[frozen.pk]
    )
    assert frozen.stichtag == DAY and frozen.club == club
    assert "Rangliste 01.08.2025" in client.get(url).content.decode()
    assert "Rangliste 01.08.2025" in client.get(reverse("ratings:frozen-lists")).content.decode()
    client.logout()
    assert client.get(url).status_code == 302  # the officer page needs a login
