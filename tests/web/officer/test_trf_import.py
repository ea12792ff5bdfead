"""The officer page "Turnier aus Datei": upload → read → players → preview → save; nothing before."""

from pathlib import Path

import pytest
from django.urls import reverse

from ratings.models import Evaluation, Game, Player, Tournament
from tests.builders import club_player, ger_line, player_line, trf

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data" / "trf"
UPLOAD = reverse("ratings:trf-upload")


def _upload(client, data: bytes, name="turnier.trf", **extra):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(UPLOAD, {"file": SimpleUploadedFile(name, data), **extra})


def _counts():
    return (
        Player.objects.count(),
        Tournament.objects.count(),
        Game.objects.count(),
        Evaluation.objects.count(),
    )


def test_visitors_and_members_cannot_upload(client, users):
    assert client.get(UPLOAD).status_code == 302
    client.force_login(users["member"])
    assert client.get(UPLOAD).status_code == 403


def test_bad_file_shows_the_errors_and_saves_nothing(client, users):
    client.force_login(users["officer_a"])
    response = _upload(client, trf(player_line(1, "A", [(287, "w", "1")])))
    assert response.status_code == 200
    assert (
        "Zeile 4, Spalten 92–95: Gegner 0287 steht nicht in der Teilnehmerliste." in response.content.decode()
    )
    response = _upload(client, b"x", name="turnier.pdf")
    assert "Bitte eine .trf-, .txt- oder .xml-Datei hochladen." in response.content.decode()
    assert _counts() == (0, 0, 0, 0)


def test_a_csv_uploaded_as_trf_is_called_no_trf_file(client, users):
    """Issue 32: not "Zeile 977 … Rundenzahl" but what the file is."""
    client.force_login(users["officer_a"])
    data = (DATA.parent / "dewis-organizations-2019-08-02.csv").read_bytes()
    page = _upload(client, data, name="turnier.txt").content.decode()
    assert "Keine TRF-Datei: die Datei sieht aus wie eine CSV-Tabelle" in page
    assert "Zeile 977" not in page and "Rundenzahl" not in page
    assert _counts() == (0, 0, 0, 0)


def test_ambiguous_dates_ask_for_the_order(client, users):
    client.force_login(users["officer_a"])
    data = trf(
        player_line(1, "A", [(2, "w", "1")]),
        player_line(2, "B", [(1, "b", "0")]),
        head=("012 T", "042 08/04/2018", "052 10/04/2018"),
    )
    response = _upload(client, data)
    assert "Bitte das Datumsformat der Datei wählen." in response.content.decode()
    response = _upload(client, data, date_order="mdy")
    assert response.status_code == 302


def test_the_whole_path(client, users, tree):
    known = club_player(tree["club_a"], "Anton", 1600)
    lines = [
        player_line(1, "Anton, Test", [(2, "w", "1"), (0, "-", "H")], birth="1980", points="1.5"),
        ger_line(1, "1650", known.key),
        player_line(2, "Neu, Nina", [(1, "b", "0"), (0, "-", "U")], birth="2001", points="1.0"),
        ger_line(2, "1500", "", "12"),
    ]
    client.force_login(users["officer_a"])
    response = _upload(
        client, trf(*lines, head=("012 Sommer-Open", "022 Stuttgart", "042 2024/07/01", "052 2024/07/02"))
    )
    assert response.status_code == 302
    review = response["Location"]
    page = client.get(review).content.decode()
    assert "Sommer-Open" in page and "Stuttgart" in page
    assert "gefunden über ZPS-Mitgliedsnummer" in page and "Datei: 1650" in page  # differs from 1600
    assert _counts()[1:] == (0, 0, 0)
    post = {
        "name": "Sommer-Open",
        "place": "Stuttgart",
        "start_date": "2024-07-01",
        "end_date": "2024-07-02",
        "code": "",
        "organiser": f"c{tree['club_a'].pk}",
        "new_player_club": tree["club_a"].pk,
        "rated": "on",
        "p-1": f"player:{known.pk}",
        "p-2": "new",
        "preview": "1",
    }
    page = client.post(review, post).content.decode()
    assert 'id="rating-preview"' in page and "Speichern und auswerten" in page
    assert _counts() == (1, 0, 0, 0)  # the preview writes nothing
    response = client.post(review, {**post, "save": "1"})
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "ratings:tournament-detail", args=[tournament.pk]
    )
    assert tournament.organiser_club == tree["club_a"] and tournament.entries.count() == 2
    assert sorted(tournament.games.values_list("result", flat=True)) == ["+", "1-0", "H"]
    nina = Player.objects.get(surname="Neu")
    assert nina.memberships.get().club == tree["club_a"] and nina.dwz is not None
    ev = Evaluation.objects.get(tournament=tournament, player=known)
    assert ev.dwz_old == 1600  # dwzsite's history, not the file's 1650
    # The upload is gone after saving.
    assert client.get(review).status_code == 404


def test_open_lines_must_be_decided_and_abandon_saves_nothing(client, users, tree):
    club_player(tree["club_a"], "Schmidt", 1500, number="1")
    club_player(tree["club_a"], "Schmidt", 1400, number="2")
    lines = [
        player_line(1, "Schmidt, Test", [(2, "w", "1")], birth="1980"),
        player_line(2, "B, B", [(1, "b", "0")]),
    ]
    client.force_login(users["officer_a"])
    review = _upload(client, trf(*lines))["Location"]
    page = client.get(review).content.decode()
    assert "1 Zeile braucht eine Entscheidung." in page and "2 Kandidaten" in page
    post = {
        "name": "T",
        "start_date": "2024-03-01",
        "end_date": "2024-03-03",
        "organiser": f"c{tree['club_a'].pk}",
        "new_player_club": tree["club_a"].pk,
        "p-2": "new",
        "save": "1",
    }
    page = client.post(review, post).content.decode()
    assert "Zeile 1 (Schmidt, Test): bitte einen Spieler wählen oder „neu anlegen“." in page
    page = client.post(review, {**post, "k-1": "NOPE"}).content.decode()
    assert "Zeile 1: kein Spieler mit dem Schlüssel „NOPE“." in page
    response = client.post(review, {"abandon": "1"})
    assert response.status_code == 302 and client.get(review).status_code == 404
    assert Tournament.objects.count() == 0


def test_officer_must_stay_in_scope(client, users, tree):
    client.force_login(users["officer_a"])
    review = _upload(client, (DATA / "lichess-swiss-2021-03.trf").read_bytes())["Location"]
    page = client.get(review).content.decode()
    assert f'value="c{tree["club_b"].pk}"' not in page  # other clubs are not offered
    post = {
        "name": "T",
        "start_date": "2020-06-26",
        "end_date": "2020-06-26",
        "organiser": f"c{tree['club_b'].pk}",
        "save": "1",
    }
    assert "organiser" in client.post(review, post).context["form"].errors
    assert Tournament.objects.count() == 0


def test_a_line_ticked_as_non_member_is_counted_without_a_dwz(client, users, tree):
    """WO 3.4.3 in the match step: Anton (1600) is ticked "kein DSB-Mitglied": the preview and the save
    count his game for Nina, but he keeps 1600 and his entry is stored as a non-member."""
    known = club_player(tree["club_a"], "Anton", 1600)
    other = club_player(tree["club_a"], "Berta", 1500, number="2")
    lines = [
        player_line(1, "Anton, Test", [(2, "w", "1")], birth="1980", points="1.0"),
        ger_line(1, "1600", known.key),
        player_line(2, "Berta, Test", [(1, "b", "0")], birth="1980", points="0.0"),
        ger_line(2, "1500", other.key),
    ]
    client.force_login(users["officer_a"])
    review = _upload(client, trf(*lines, head=("012 Gast-Open", "042 2024/07/01", "052 2024/07/02")))[
        "Location"
    ]
    post = {
        "name": "Gast-Open", "start_date": "2024-07-01", "end_date": "2024-07-02", "code": "",
        "organiser": f"c{tree['club_a'].pk}", "rated": "on",
        "p-1": f"player:{known.pk}", "p-2": f"player:{other.pk}", "nm-1": "1", "preview": "1",
    }  # fmt: skip
    page = client.post(review, post).content.decode()
    assert 'id="nm-1" value="1" checked' in page and "Nichtmitglied (1600)" in page
    client.post(review, {**post, "save": "1"})
    tournament = Tournament.objects.get()
    assert [e.member for e in tournament.entries.order_by("start_rank")] == [False, True]
    known.refresh_from_db()
    other.refresh_from_db()
    assert known.dwz == 1600 and other.dwz < 1500


# --- DSB-XML (formats.md §3.10): the same page, told apart by the content ------------------------------

XML = Path(__file__).resolve().parents[2] / "data" / "dsb-xml"


def test_a_dsb_xml_file_is_read_by_its_content_and_saved_through_the_same_review(client, users, tree):
    client.force_login(users["officer_a"])
    form = client.get(UPLOAD).content.decode()
    assert "DSB-XML-Turnierbericht (.xml" in form
    # The NSV sample under a .txt name: read as XML all the same.
    response = _upload(client, (XML / "nsv-style.xml").read_bytes(), name="export.txt")
    assert response.status_code == 302
    review = response["Location"]
    page = client.get(review).content.decode()
    assert "Jugendlandesliga Nord 2025/26 Staffel A" in page and "Lüneburg" in page
    assert "0/0 (4–2) ergibt nicht einen Punkt (Schiedsrichterentscheid)" in page
    post = {
        "name": "Jugendlandesliga Nord 2025/26 Staffel A",
        "place": "Lüneburg",
        "start_date": "2026-03-08",
        "end_date": "2026-04-19",
        "code": "",
        "organiser": f"c{tree['club_a'].pk}",
        "new_player_club": tree["club_a"].pk,
        "rated": "on",
        **{f"p-{n}": "new" for n in range(1, 8)},
        "save": "1",
    }
    response = client.post(review, post)
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and tournament.entries.count() == 7
    assert tournament.games.filter(result="--").count() == 1  # 0/0: kept as a pairing, not rated


def test_a_bad_dsb_xml_file_names_line_and_element_and_saves_nothing(client, users):
    client.force_login(users["officer_a"])
    data = (XML / "clm-style.xml").read_bytes().replace(b"<rounds>3</rounds>", b"<rounds>drei</rounds>")
    page = _upload(client, data, name="bericht.xml").content.decode()
    line = data[: data.index(b"<rounds>drei")].count(b"\n") + 1
    assert f"Zeile {line}, &lt;rounds&gt;:" in page
    page = _upload(client, b"<?xml version='1.0'?><html/>", name="bericht.xml").content.decode()
    assert "Zeile 1, &lt;html&gt;: Kein DSB-Turnierbericht" in page
    assert _counts() == (0, 0, 0, 0)
