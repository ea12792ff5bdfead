"""Privacy (issue 30 §4): a player who objected to publication appears nowhere public by name, stays in
every calculation and is fully visible to officers; the birth year of players under 18 is never shown."""

import datetime
import json
import re

import pytest
from django.urls import reverse

from ratings.age_classes import class_ceiling, class_floor
from ratings.models import AuditEvent
from ratings.models.player import HIDDEN_NAME
from ratings.services.privacy import player_publication_set
from tests.builders import make_player, make_user
from tests.privacy_fixtures import HIDDEN_FIRST_NAME, HIDDEN_SURNAME, YOUTH_BIRTH_YEAR

pytestmark = pytest.mark.django_db


def public_urls(club, hidden, youth, tournament, frozen) -> list[str]:
    """Every public page, download and API answer that could name the players of ``hidden_area``."""
    pk, org = tournament.pk, club.organisation.code
    return [
        reverse("ratings:home"),
        reverse("ratings:player-detail", args=[hidden.key]),
        reverse("ratings:player-detail", args=[hidden.key]) + "?stichtag=2025-07-01",
        reverse("ratings:player-detail", args=[youth.key]),
        reverse("ratings:rating-list"),
        reverse("ratings:rating-list") + "?_export=csv",
        reverse("ratings:rating-list") + "?_export=csv&stichtag=2025-07-01",
        reverse("ratings:rating-list") + f"?q={HIDDEN_SURNAME}",
        reverse("ratings:player-list"),
        reverse("ratings:player-list") + f"?q={HIDDEN_SURNAME}",
        reverse("ratings:player-list") + "?stichtag=2025-07-01",
        reverse("ratings:club-detail", args=[club.zps]),
        reverse("ratings:club-detail", args=[club.zps]) + "?_export=csv",
        reverse("ratings:organisation-detail", args=[org]),
        reverse("ratings:club-comparison", args=[org]),
        reverse("ratings:search") + f"?q={HIDDEN_SURNAME}",
        reverse("ratings:search") + f"?q={HIDDEN_FIRST_NAME}",
        reverse("ratings:search") + "?q=Sommeropen",
        reverse("ratings:tournament-list"),
        reverse("ratings:tournament-detail", args=[pk]),
        reverse("ratings:tournament-detail", args=[pk]) + "?sort=rang",
        reverse("ratings:tournament-games", args=[pk]),
        reverse("ratings:tournament-trf", args=[pk]),
        reverse("ratings:tournament-evaluation-csv", args=[pk]),
        reverse("ratings:tournament-print", args=[pk]),
        reverse("ratings:tournament-print-progress", args=[pk]),
        reverse("ratings:tournament-print-crosstable", args=[pk]),
        reverse("ratings:frozen-lists"),
        reverse("ratings:frozen-list-detail", args=[frozen.pk]),
        reverse("ratings:frozen-list-detail", args=[frozen.pk]) + "?_export=csv",
        reverse("ratings:api-player", args=[hidden.key]),
        reverse("ratings:api-club-players", args=[club.zps]),
        reverse("ratings:api-tournament", args=[pk]),
        reverse("ratings:statistics"),
        reverse("ratings:categories"),
    ]


def body(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode("utf-8-sig", errors="replace")


def shows(text: str, secret: str) -> bool:
    """``secret`` stands in ``text`` as a word or number of its own: a player key such as ``P001977`` (the
    keys count up through the whole run on PostgreSQL) is not the birth year 1977."""
    return re.search(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", text) is not None


def test_a_hidden_player_appears_nowhere_public(client, hidden_area):
    club, hidden, youth, _others, tournament, frozen = hidden_area
    seen_hidden = 0
    for url in public_urls(club, hidden, youth, tournament, frozen):
        response = client.get(url)
        assert response.status_code == 200, url
        text = body(response)
        # A search for his name echoes the query (the visitor's own words), never his row or other name.
        query = url.partition("?q=")[2]
        secrets = [s for s in (HIDDEN_SURNAME, HIDDEN_FIRST_NAME, "98765431", "1977") if s not in query]
        for secret in secrets:
            assert not shows(text, secret), (url, secret)
        if len(secrets) < 4:
            assert "nicht veröffentlicht" not in text, url  # the name did not find him
        assert not shows(text, str(YOUTH_BIRTH_YEAR)), url
        seen_hidden += "nicht veröffentlicht" in text
    assert seen_hidden >= 15  # the placeholder stands where his name would


def test_he_stays_in_the_calculation(client, hidden_area):
    club, hidden, _youth, others, _tournament, _frozen = hidden_area
    data = client.get(reverse("ratings:api-club-players", args=[club.zps])).json()
    ranks = {p["key"]: p["rank"] for p in data["players"]}
    assert ranks[hidden.key] == 1  # the strongest, still ranked first
    assert ranks[others[0].key] == 2
    row = next(p for p in data["players"] if p["key"] == hidden.key)
    assert row["name"] == "nicht veröffentlicht"
    assert row["published"] is False
    assert row["surname"] is None and row["fide_id"] is None and row["birth_year"] is None
    assert row["dwz"] == hidden.dwz
    card = client.get(reverse("ratings:api-player", args=[hidden.key])).json()
    assert card["history"] == [] and card["memberships"] == []
    # His evaluation and his opponents' stay as the engine computed them.
    assert hidden.evaluations.count() == 1


def test_the_youth_shows_his_age_class(client, hidden_area):
    club, _hidden, youth, _others, _tournament, _frozen = hidden_area
    data = client.get(reverse("ratings:api-player", args=[youth.key])).json()
    assert data["birth_year"] is None
    assert data["age_class"] == "U14"
    assert data["name"] == "Jugendlich, Jan"
    page = body(client.get(reverse("ratings:player-detail", args=[youth.key])))
    assert "U14" in page
    rows = body(client.get(reverse("ratings:club-detail", args=[club.zps]) + "?_export=csv"))
    assert "U14" in rows


def test_an_officer_sees_him_in_full(client, hidden_area):
    club, hidden, _youth, _others, _tournament, _frozen = hidden_area
    officer = make_user("referent-privacy", club=club)
    client.force_login(officer)
    page = body(client.get(reverse("ratings:player-detail", args=[hidden.key])))
    assert HIDDEN_SURNAME in page
    assert 'id="publication-objection"' in page
    assert "Widerspruch aufheben" in page


def test_the_officer_sets_and_withdraws_the_objection_audited(client, hidden_area):
    club, hidden, _youth, _others, _tournament, _frozen = hidden_area
    officer = make_user("referent-privacy", club=club)
    client.force_login(officer)
    url = reverse("ratings:officer-player-publication", args=[hidden.key])
    response = client.post(url, {"objection": "0"})
    assert response.status_code == 302
    hidden.refresh_from_db()
    assert hidden.publication_objection is False
    client.logout()
    assert HIDDEN_SURNAME in body(client.get(reverse("ratings:player-detail", args=[hidden.key])))
    client.force_login(officer)
    client.post(url, {"objection": "1", "note": "Mail vom 01.12."})
    hidden.refresh_from_db()
    assert hidden.publication_objection is True
    events = AuditEvent.objects.filter(player_ref=hidden.pk, changes__has_key="publication_objection")
    assert events.count() == 3  # the fixture's, the withdrawal, this one
    assert events.first().changes["note"] == [None, "Mail vom 01.12."]


def test_an_officer_of_another_club_may_not(client, hidden_area):
    _club, hidden, _youth, _others, _tournament, _frozen = hidden_area
    from tests.factories import ClubFactory

    stranger = make_user("fremd", club=ClubFactory(zps="C0699"))
    client.force_login(stranger)
    client.post(reverse("ratings:officer-player-publication", args=[hidden.key]), {"objection": "0"})
    hidden.refresh_from_db()
    assert hidden.publication_objection is True
    # and a visitor is sent to the login
    client.logout()
    response = client.post(
        reverse("ratings:officer-player-publication", args=[hidden.key]), {"objection": "0"}
    )
    assert response.status_code == 302 and "anmelden" in response["Location"]


def test_the_service_refuses_an_anonymous_user(hidden_area):
    from django.contrib.auth.models import AnonymousUser
    from django.core.exceptions import PermissionDenied

    _club, hidden, *_ = hidden_area
    with pytest.raises(PermissionDenied):
        player_publication_set(player=hidden, objection=False, user=AnonymousUser())


def test_the_privacy_page_names_the_operator_from_settings(client, settings):
    settings.PRIVACY_OPERATOR_NAME = "Schachverband Musterland e. V."
    settings.PRIVACY_OPERATOR_ADDRESS = "Hauptstraße 1;12345 Musterstadt"
    settings.PRIVACY_OPERATOR_EMAIL = "datenschutz@example.org"
    page = body(client.get(reverse("ratings:privacy")))
    assert "Schachverband Musterland e. V." in page
    assert "12345 Musterstadt" in page and "Hauptstraße 1<br>" in page
    assert "mailto:datenschutz@example.org" in page
    settings.PRIVACY_OPERATOR_NAME = ""
    assert "noch nicht hinterlegt" in body(client.get(reverse("ratings:privacy")))


def test_the_api_schema_describes_the_new_fields(client):
    schema = json.loads(body(client.get(reverse("ratings:api-openapi"))))
    text = json.dumps(schema)
    assert "age_class" in text and "published" in text


def test_the_age_class_by_calendar_year():
    from ratings.age_classes import age_class, public_birth_year

    year = 2026
    assert age_class(2026 - 17, year=year) == "U18"
    assert age_class(2026 - 18, year=year) is None
    assert age_class(2026 - 7, year=year) == "U8"
    assert age_class(2026 - 15, year=year) == "U16"
    assert age_class(None, year=year) is None
    assert public_birth_year(1980, year=year) == "1980"
    assert public_birth_year(2015, year=year) == "U12"
    assert public_birth_year(None, year=year) == ""
    assert datetime.date.today().year >= 2026


def test_an_age_filter_tells_no_more_than_the_age_class():
    """Under 18 the filter's bounds widen to whole classes: 'from 15 to 15' finds the whole U16 (14 and 15),
    so no filter narrows a youth to his birth year; from 18 on the bounds are exact."""
    assert [(class_floor(a), class_ceiling(a)) for a in (0, 7, 8, 9, 14, 15, 16, 17)] == [
        (0, 7),
        (0, 7),
        (8, 9),
        (8, 9),
        (14, 15),
        (14, 15),
        (16, 17),
        (16, 17),
    ]
    assert (class_floor(18), class_ceiling(18), class_floor(40), class_ceiling(40)) == (18, 18, 40, 40)
    for age in range(0, 18):  # every minor's filter result is the same for both years of his class
        low, high = class_floor(age), class_ceiling(age)
        assert all((class_floor(a), class_ceiling(a)) == (low, high) for a in range(low, high + 1))


@pytest.mark.usefixtures("hidden_area")
def test_the_age_filter_on_the_list_finds_the_whole_class(client):
    age = datetime.date.today().year - YOUTH_BIRTH_YEAR
    url = reverse("ratings:rating-list")
    for exact in (class_floor(age), class_floor(age) + 1):  # either year of his class finds him
        page = body(client.get(url, {"alter_von": exact, "alter_bis": exact}))
        assert "Jugendlich, Jan" in page


def test_in_name_order_a_hidden_player_sorts_at_the_end_not_at_his_name(client, hidden_area):
    club = hidden_area[0]
    make_player(dwz=1500, club=club, surname="Zimmermann", first_name="Zora")  # after "Verborgenhausen"

    for url in (reverse("ratings:player-list"), reverse("ratings:rating-list") + "?sort=name"):
        page = body(client.get(url))
        rows = page[page.index("<tbody") :].split("<tr")[1:]
        hidden_at = [i for i, row in enumerate(rows) if str(HIDDEN_NAME) in row]
        assert hidden_at == [len(rows) - 1], url
