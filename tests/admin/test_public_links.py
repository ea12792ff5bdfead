"""The admin's "Auf der Website anzeigen" leads to the public page."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("model", "url"),
    [("player", "/spieler/C0501-1/"), ("club", "/vereine/C0501/"), ("organisation", "/verbaende/C05/")],
)
def test_admin_links_to_the_public_page(client, users, players, tree, model, url):
    objects = {"player": players[0], "club": tree["club_a"], "organisation": tree["bezirk_a"]}
    client.force_login(users["admin"])
    html = client.get(reverse(f"admin:ratings_{model}_change", args=[objects[model].pk])).content.decode()
    href = re.search(r'href="([^"]+)" class="viewsitelink"', html).group(1)
    assert client.get(href)["Location"].endswith(url)
