"""Stichtagslisten (issue 30 §1): frozen by an officer of the area or an admin, stored and never
recalculated; its page shows what a later (late) tournament revised since."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from ratings.enums import AdjustmentKind
from ratings.models import FrozenList, FrozenListRow, Player, RatingAdjustment
from ratings.selectors import frozen_lists
from ratings.services import adjustment_save
from ratings.services.frozen_lists import frozen_list_create
from ratings.services.merge import players_merge
from tests.builders import make_player, make_tournament, make_user
from tests.frozen_list_fixtures import DAY

pytestmark = pytest.mark.django_db


def test_an_officer_freezes_his_club_as_of_a_day(area):
    club, _other, players, stranger = area
    officer = make_user("referent", club=club)
    frozen = frozen_list_create(user=officer, name="Rangliste 01.08.2025", stichtag=DAY, club=club)
    rows = list(frozen_lists.frozen_rows(frozen=frozen))
    assert [r.player_id for r in rows][:1] == [players[0].pk]
    assert stranger.pk not in {r.player_id for r in rows}
    assert len(rows) == 4
    # The values at the day (after "Juni", before "September"), with their rank and tournament.
    for row in rows:
        player = next(p for p in players if p.pk == row.player_id)
        ev = player.evaluations.get(tournament__name="Juni")
        assert (row.dwz, row.index, row.last_evaluated) == (ev.dwz_new, ev.index_new, ev.end_date)
        assert row.source.name == "Juni"
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert rows[0].rank == 1


def test_outside_his_area_or_without_a_name_is_refused(area):
    club, other, _players, _stranger = area
    officer = make_user("referent", club=club)
    with pytest.raises(PermissionDenied):
        frozen_list_create(user=officer, name="X", stichtag=DAY, club=other)
    with pytest.raises(PermissionDenied):
        frozen_list_create(user=officer, name="X", stichtag=DAY)
    with pytest.raises(ValidationError):
        frozen_list_create(user=officer, name="  ", stichtag=DAY, club=club)
    admin = make_user("admin", staff=True)
    everything = frozen_list_create(user=admin, name="Alle", stichtag=DAY)
    assert everything.rows.count() == 5
    assert FrozenList.objects.count() == 1


def test_a_late_tournament_revises_but_never_changes_the_frozen_rows(client, area):
    club, _other, players, _stranger = area
    officer = make_user("referent", club=club)
    frozen = frozen_list_create(user=officer, name="Rangliste 01.08.2025", stichtag=DAY, club=club)
    stored = list(FrozenListRow.objects.filter(frozen_list=frozen).values_list("dwz", "index", "rank"))
    a, b, _c, d = players
    make_tournament([b, d], [(1, d, b, "1-0")], end=datetime.date(2025, 7, 1), name="Nachtrag Juli")
    assert (
        list(FrozenListRow.objects.filter(frozen_list=frozen).values_list("dwz", "index", "rank")) == stored
    )
    revised = {r.row.player_id: r for r in frozen_lists.revisions(frozen=frozen)}
    assert set(revised) == {b.pk, d.pk}
    b.refresh_from_db()
    late = b.evaluations.get(tournament__name="Nachtrag Juli")
    assert (revised[b.pk].dwz, revised[b.pk].index) == (late.dwz_new, late.index_new)
    assert revised[b.pk].tournament.name == "Nachtrag Juli" and revised[b.pk].new_source
    page = client.get(reverse("ratings:frozen-list-detail", args=[frozen.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Stand: 01.08.2025" in html and "Nachtrag Juli" in html
    assert html.count('class="revised"') == 2
    assert a.pk not in revised


def test_a_merged_or_deleted_player_stays_hidden_on_the_list(client, area):
    """Issue 30 §4 on frozen lists: an objection survives a merge (the rows follow the kept player), and a
    row whose player is gone is hidden, since whether he objected can no longer be known; the box of changes
    since freezing names tournaments only, never an adjustment's player."""
    club, _other, players, _stranger = area
    officer = make_user("referent", club=club)
    frozen = frozen_list_create(user=officer, name="Rangliste 01.08.2025", stichtag=DAY, club=club)
    a, b, _c, d = players
    twin = make_player(surname="Zwilling", first_name="Z", birth_year=1990)
    Player.objects.filter(pk=b.pk).update(publication_objection=True)
    b.refresh_from_db()
    players_merge(keep=twin, drop=b)
    twin.refresh_from_db()
    assert twin.publication_objection
    row = frozen_lists.frozen_rows(frozen=frozen).get(surname=b.surname)
    assert row.player_id == twin.pk and row.hidden
    FrozenListRow.objects.filter(frozen_list=frozen, player=d).update(player=None)  # as after a delete
    assert frozen_lists.frozen_rows(frozen=frozen).get(surname=d.surname).hidden
    adjustment_save(
        adjustment=RatingAdjustment(
            player=a, kind=AdjustmentKind.UMSTUFUNG, date=datetime.date(2025, 10, 1), dwz=1500, index=3
        )
    )
    page = client.get(reverse("ratings:frozen-list-detail", args=[frozen.pk])).content.decode()
    assert b.surname not in page and d.surname not in page
    assert a.surname not in "".join(e.object_repr for e in frozen_lists.changes_since(frozen=frozen))
