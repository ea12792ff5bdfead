"""The officer pages ask before "Speichern und auswerten" when something looks wrong (issue 26 §2–3): all
warnings listed together, nothing saved, and one "Trotzdem speichern" that confirms exactly those."""

import datetime
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ratings.models import Evaluation, Tournament, TournamentDraft
from ratings.selectors import plausibility
from ratings.services.drafts import draft_save
from tests.builders import grid_data, make_player

pytestmark = [pytest.mark.django_db, pytest.mark.plausibility]

DATA = Path(__file__).resolve().parents[2] / "data" / "trf"
LICHESS = (DATA / "lichess-swiss-2020-06.trf").read_bytes()


def _codes(page: str) -> list[str]:
    import re

    return re.findall(r'<li data-code="([a-z_]+)"', page)


def _confirm_value(page: str) -> str:
    import re

    return re.search(r'name="save" value="(confirm:[0-9a-f]+)"', page).group(1)


def _review(client, tree, data=LICHESS):
    response = client.post(reverse("ratings:trf-upload"), {"file": SimpleUploadedFile("lichess.trf", data)})
    assert response.status_code == 302
    return response["Location"]


def _trf_post(tree, choices=None):
    post = {
        "name": "Mai 5 Plus 0 Turnier",
        "place": "",
        "start_date": "2020-05-29",
        "end_date": "2020-05-29",
        "code": "",
        "time_control": "",
        "organiser": f"c{tree['club_a'].pk}",
        "new_player_club": tree["club_a"].pk,
        "rated": "on",
    }
    post |= {f"p-{rank}": "new" for rank in range(1, 14)}
    return post | (choices or {})


def test_the_same_trf_file_twice(client, users, tree):
    client.force_login(users["officer_a"])
    review = _review(client, tree)
    page = client.post(review, _trf_post(tree) | {"save": "1"}).content.decode()
    assert Tournament.objects.count() == 0  # nothing saved while warnings are open
    assert sorted(_codes(page)) == sorted(
        [plausibility.OLD_END, plausibility.NO_TIME_CONTROL, plausibility.UNKNOWN_WITHOUT_BIRTH_YEAR]
    )
    assert "Trotzdem speichern" in page and 'id="rating-preview"' in page
    response = client.post(review, _trf_post(tree) | {"save": _confirm_value(page)})
    assert response.status_code == 302
    first = Tournament.objects.get()
    assert first.source_digest == plausibility.file_digest(LICHESS)

    # The same file again: every line matched to the stored players, the duplicate is named with a link.
    review = _review(client, tree)
    choices = {f"p-{e.start_rank}": f"player:{e.player_id}" for e in first.entries.all()}
    page = client.post(review, _trf_post(tree, choices) | {"save": "1"}).content.decode()
    codes = _codes(page)
    assert plausibility.SAME_FILE in codes
    assert first.get_absolute_url() in page and "Diese Datei wurde schon als" in page
    assert Tournament.objects.count() == 1
    # A confirmation of other warnings (the first upload's) does not save.
    stale = "confirm:" + "0" * 32
    page = client.post(review, _trf_post(tree, choices) | {"save": stale}).content.decode()
    assert Tournament.objects.count() == 1 and _codes(page) == codes
    response = client.post(review, _trf_post(tree, choices) | {"save": _confirm_value(page)})
    assert response.status_code == 302 and Tournament.objects.count() == 2  # nothing merged or dropped


def test_a_readable_time_control_is_taken_from_tag_122(client, users, tree):
    client.force_login(users["officer_a"])
    data = LICHESS.replace(b"122\n", b"122 5+0\n")
    review = _review(client, tree, data)
    page = client.get(review).content.decode()
    assert 'value="5+0"' in page  # prefilled from the file
    page = client.post(review, _trf_post(tree, {"time_control": "5+0"}) | {"save": "1"}).content.decode()
    assert plausibility.SHORT_TIME_CONTROL in _codes(page)
    assert "5 Minuten je Spieler" in page
    client.post(review, _trf_post(tree, {"time_control": "5+0"}) | {"save": _confirm_value(page)})
    assert Tournament.objects.get().time_control == "5+0"


def _recent_tournament(tree, **kwargs):
    end = datetime.date.today() - datetime.timedelta(days=3)
    return Tournament.objects.create(
        name="Vereinsmeisterschaft",
        start_date=end - datetime.timedelta(days=2),
        end_date=end,
        organiser_club=tree["club_a"],
        time_control=kwargs.pop("time_control", "90 min + 30 s"),
        **kwargs,
    )


def test_the_results_page_lists_the_warnings_and_saves_after_the_confirmation(client, users, tree):
    future = datetime.date.today() + datetime.timedelta(days=30)
    tournament = _recent_tournament(tree, time_control="")
    Tournament.objects.filter(pk=tournament.pk).update(end_date=future, start_date=future)
    players = [make_player(dwz=1500 + 10 * i, index=3) for i in range(3)]
    client.force_login(users["officer_a"])
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    cells = {(0, 1): "1", (0, 2): "1", (1, 2): "½"}
    page = client.post(url, grid_data(players, cells, save="1")).content.decode()
    assert sorted(_codes(page)) == sorted([plausibility.FUTURE_END, plausibility.NO_TIME_CONTROL])
    assert "liegt in der Zukunft" in page
    assert not Evaluation.objects.exists() and not tournament.games.exists()
    response = client.post(url, grid_data(players, cells, save=_confirm_value(page)))
    assert response.status_code == 302
    assert tournament.games.count() == 3 and Evaluation.objects.filter(tournament=tournament).count() == 3


def test_the_results_page_saves_at_once_without_warnings(client, users, tree):
    tournament = _recent_tournament(tree)
    players = [make_player(dwz=1500 + 10 * i, index=3) for i in range(3)]
    client.force_login(users["officer_a"])
    url = reverse("ratings:tournament-grid", args=[tournament.pk])
    response = client.post(url, grid_data(players, {(0, 1): "1", (0, 2): "1", (1, 2): "½"}, save="1"))
    assert response.status_code == 302 and tournament.games.count() == 3


def test_publishing_a_draft_asks_first(client, users, tree):
    tournament = _recent_tournament(tree, time_control="Blitz")
    a, b = make_player(dwz=1500, index=3), make_player(dwz=1600, index=3)
    draft_save(
        tournament=tournament,
        participants=[a.pk, b.pk],
        games=[{"round": 1, "board": 1, "white": a.pk, "black": b.pk, "result": "1-0"}],
    )
    client.force_login(users["officer_a"])
    url = reverse("ratings:tournament-draft-publish", args=[tournament.pk])
    response = client.post(url, {"back": reverse("ratings:tournament-rounds", args=[tournament.pk])})
    page = response.content.decode()
    assert response.status_code == 200 and _codes(page) == [plausibility.UNREADABLE_TIME_CONTROL]
    assert "„Blitz“ ist nicht lesbar" in page
    assert not tournament.games.exists() and TournamentDraft.objects.filter(tournament=tournament).exists()
    response = client.post(url, {"save": _confirm_value(page)})
    assert response.status_code == 302
    assert (
        tournament.games.count() == 1 and not TournamentDraft.objects.filter(tournament=tournament).exists()
    )


def _head_post(tournament, **changes) -> dict:
    tournament.refresh_from_db()
    data = {
        "name": tournament.name,
        "place": "",
        "start_date": tournament.start_date.isoformat(),
        "end_date": tournament.end_date.isoformat(),
        "time_control": tournament.time_control,
        "rounds": "3",
        "organiser": f"club:{tournament.organiser_club_id}",
        "mode": "rr",
        "rated": "on",
        "version": tournament.version,
    }
    return data | changes


def test_the_head_form_asks_for_what_a_change_brings(client, users, tree):
    """Moving the end date into the future asks before the re-evaluation; a warning the stored head had
    already (no time control) was confirmed when it was saved and does not ask again."""
    tournament = _recent_tournament(tree, time_control="")
    players = [make_player(dwz=1500 + 10 * i, index=3) for i in range(3)]
    client.force_login(users["officer_a"])
    results = reverse("ratings:tournament-grid", args=[tournament.pk])
    page = client.post(results, grid_data(players, {(0, 1): "1", (0, 2): "1", (1, 2): "½"}, save="1"))
    client.post(
        results,
        grid_data(
            players, {(0, 1): "1", (0, 2): "1", (1, 2): "½"}, save=_confirm_value(page.content.decode())
        ),
    )
    assert Evaluation.objects.filter(tournament=tournament).count() == 3
    url = reverse("ratings:tournament-edit", args=[tournament.pk])

    response = client.post(url, _head_post(tournament, name="Umbenannt"))
    assert response.status_code == 302

    future = (datetime.date.today() + datetime.timedelta(days=40)).isoformat()
    page = client.post(url, _head_post(tournament, end_date=future, start_date=future)).content.decode()
    assert _codes(page) == [plausibility.FUTURE_END]
    assert 'form="tournament-head"' in page
    tournament.refresh_from_db()
    assert tournament.end_date < datetime.date.today()  # nothing saved
    response = client.post(
        url, _head_post(tournament, end_date=future, start_date=future, save=_confirm_value(page))
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.end_date.isoformat() == future


def test_the_head_form_of_a_tournament_deleted_meanwhile_is_gone(tree):
    """The head's warnings are read after the page checked the tournament: gone by then, the page says so
    (410) instead of failing."""
    from ratings.web.officer.views.tournaments import _new_head_warnings

    tournament = _recent_tournament(tree)
    head = Tournament.objects.get(pk=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).delete()
    assert _new_head_warnings(head) is None
