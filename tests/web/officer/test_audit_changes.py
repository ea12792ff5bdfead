"""What the audit trail records and how officers read it.

* values are shown human-readably (names instead of keys, local dates, ja/nein, choice labels, "System"
  for events without a user) while the stored JSON stays machine-readable for restore;
* admin edits of tournaments, players and memberships record the real diff (the "before" snapshot is taken
  before the admin writes anything);
* a change of the tournament type (``TournamentEntryMode``) is part of the diff.
"""

import datetime

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from ratings.models import Evaluation, Game, Membership, Player, Tournament, TournamentEntry
from ratings.models.audit import AuditAction, AuditEvent, AuditObjectType
from ratings.models.officer import TournamentEntryMode, TournamentMode
from ratings.services import tournament_create, tournament_delete, tournament_save_head
from ratings.web.officer.hooks import officer_panel
from tests.builders import grid_data

pytestmark = pytest.mark.django_db


def trail(user, tournament=None, player=None) -> str:
    """The trail as the public page of ``tournament`` or ``player`` shows it to ``user``."""
    request = RequestFactory().get("/")
    request.user = user
    panel = officer_panel(request, tournament=tournament, player=player)
    context = {"show": panel["show"], "trail": panel.get("trail")}
    return render_to_string("ratings/officer/_audit_trail.html", context, request)


def errors(response) -> str:
    """The admin's form errors, for a failed assertion."""
    context = response.context or {}
    found = [str(context.get("errors") or "")]
    for inline in context.get("inline_admin_formsets") or []:
        found.append(str(inline.formset.errors) + str(inline.formset.non_form_errors()))
    return " ".join(found)


def last_event(**filters) -> AuditEvent:
    return AuditEvent.objects.filter(**filters).order_by("-pk").first()


# --- 2. readable values ------------------------------------------------------------------------------------


def test_trail_shows_names_local_dates_yes_no_and_system(users, tree):
    t = Tournament(
        name="Stadtmeisterschaft",
        start_date=datetime.date(2025, 12, 14),
        end_date=datetime.date(2026, 1, 12),
        rounds=5,
        organiser_club=tree["club_a"],
        rating_officer=users["officer_a"],
    )
    tournament_create(tournament=t, entries=[], games=[], mode=TournamentMode.SWISS, user=None)
    html = trail(users["officer_a"], tournament=t)
    assert "Ausrichter (Verein): – → SV Stuttgart (C0501)" in html
    assert "Beginn: – → 14.12.2025" in html
    assert "Ende: – → 12.01.2026" in html
    assert "DWZ-gewertet: – → ja" in html
    assert "Wertungsreferent: – → officer_a" in html
    assert "Turnierart: – → Schweizer System / Runden" in html
    assert "· System ·" in html  # no user: seed_demo, imports
    for raw in ("→ True", "2025-12-14", f"(Verein): – → {tree['club_a'].pk}<", "Notizen: – → –", "· – ·"):
        assert raw not in html
    # The stored JSON stays machine-readable (restore parses it).
    event = last_event(object_id=t.pk)
    assert event.changes["head"]["start_date"] == [None, "2025-12-14"]
    assert event.changes["head"]["organiser_club_id"] == [None, tree["club_a"].pk]
    assert event.changes["head"]["rated"] == [None, True]

    t.rated = False
    t.organiser_club = tree["club_b"]
    tournament_save_head(tournament=t, user=users["officer_lv"])
    html = trail(users["officer_a"], tournament=t)
    assert "DWZ-gewertet: ja → nein" in html
    assert "Ausrichter (Verein): SV Stuttgart (C0501) → SF Ulm (C0601)" in html
    assert "· officer_lv ·" in html


def test_trail_dates_follow_the_language(users, tournament):
    tournament.end_date = datetime.date(2024, 3, 12)
    tournament_save_head(tournament=tournament, user=users["officer_a"])
    with translation.override("en"):
        html = trail(users["officer_a"], tournament=tournament)
    assert "10 Mar 2024 → 12 Mar 2024" in html  # English dates are never month/day
    assert "2024-03-12" not in html


def test_deleted_club_falls_back_to_its_key(users, tournament):
    tournament_save_head(tournament=tournament, user=users["officer_a"])
    AuditEvent.objects.filter(object_id=tournament.pk).update(
        changes={"head": {"organiser_club_id": [999999, tournament.organiser_club_id]}}
    )
    html = trail(users["officer_a"], tournament=tournament)
    assert "Ausrichter (Verein): #999999 → SV Stuttgart (C0501)" in html


# --- 3. admin edits ----------------------------------------------------------------------------------------


def _inline(prefix: str, rows: list[dict], initial: int) -> dict:
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(rows)),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(rows):
        data.update({f"{prefix}-{i}-{k}": "" if v is None else str(v) for k, v in row.items()})
    return data


def _tournament_admin_data(t: Tournament, games: list[dict], **head) -> dict:
    entries = list(TournamentEntry.objects.filter(tournament=t).order_by("start_rank"))
    stored = list(Game.objects.filter(tournament=t).order_by("pk"))
    data = {
        "name": t.name,
        "code": t.code or "",
        "place": t.place,
        "start_date": t.start_date.isoformat(),
        "end_date": t.end_date.isoformat(),
        "rounds": t.rounds,
        "organiser_club": t.organiser_club_id or "",
        "organiser_organisation": t.organiser_organisation_id or "",
        "rating_officer": t.rating_officer_id or "",
        "rated": "on" if t.rated else "",
        "notes": t.notes,
        **head,
    }
    data = {k: v for k, v in data.items() if v != ""}
    data.update(
        _inline(
            "entries",
            [
                {"id": e.pk, "tournament": t.pk, "player": e.player_id, "start_rank": e.start_rank}
                for e in entries
            ],
            len(entries),
        )
    )
    rows = [
        {"id": g.pk, "tournament": t.pk, "round": g.round, "board": g.board, "white": g.white_id,
         "black": g.black_id, "result": g.result}
        for g in stored
    ] + [{"tournament": t.pk, **g} for g in games]  # fmt: skip
    data.update(_inline("games", rows, len(stored)))
    return data


def test_admin_tournament_edit_records_the_real_diff(client, users, tournament, players):
    client.force_login(users["officer_a"])
    client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]),
        grid_data(players, {(0, 1): "1"}, save="1"),
    )
    client.force_login(users["admin"])
    url = reverse("admin:ratings_tournament_change", args=[tournament.pk])
    _a, b, c = players
    data = _tournament_admin_data(
        tournament,
        [{"round": 2, "board": 1, "white": b.pk, "black": c.pk, "result": "0-1"}],
        name="VM 2024",
        end_date="2024-03-12",
    )
    response = client.post(url, data)
    assert response.status_code == 302, errors(response)
    event = last_event(object_id=tournament.pk, object_type=AuditObjectType.TOURNAMENT)
    assert event.action == AuditAction.UPDATE
    assert event.username == "admin"
    assert event.changes["head"]["name"] == ["Vereinsmeisterschaft", "VM 2024"]
    assert event.changes["head"]["end_date"] == ["2024-03-10", "2024-03-12"]
    assert event.changes["games_added"] == ["R2/B1: Berta, Test – Carl, Test 0-1"]
    assert "games_removed" not in event.changes
    assert len(event.snapshot["games"]) == 2
    html = trail(users["officer_a"], tournament=tournament)
    assert "Ende: 10.03.2024 → 12.03.2024" in html


def test_admin_tournament_create_is_a_create_with_everything_added(client, users, tree, players):
    client.force_login(users["admin"])
    data = {
        "name": "Blitz",
        "start_date": "2024-05-01",
        "end_date": "2024-05-01",
        "rounds": "1",
        "organiser_club": tree["club_a"].pk,
        "rated": "on",
        **_inline("entries", [{"player": p.pk, "start_rank": i} for i, p in enumerate(players[:2], 1)], 0),
        **_inline("games", [{"round": 1, "board": 1, "white": players[0].pk, "black": players[1].pk,
                             "result": "1-0"}], 0),
    }  # fmt: skip
    response = client.post(reverse("admin:ratings_tournament_add"), data)
    assert response.status_code == 302, errors(response)
    t = Tournament.objects.get(name="Blitz")
    event = last_event(object_id=t.pk, object_type=AuditObjectType.TOURNAMENT)
    assert event.action == AuditAction.CREATE
    assert event.changes["head"]["name"] == [None, "Blitz"]
    assert event.changes["entries_added"] == ["Anton, Test", "Berta, Test"]
    assert event.changes["games_added"] == ["R1/B1: Anton, Test – Berta, Test 1-0"]


def _player_admin_data(p: Player, **fields) -> dict:
    memberships = list(p.memberships.order_by("pk"))
    data = {
        "key": p.key,
        "surname": p.surname,
        "first_name": p.first_name,
        "sex": p.sex,
        "birth_year": p.birth_year or "",
        "status": p.status,
        "dsb_id": p.dsb_id or "",
        "fide_id": p.fide_id or "",
        "fide_elo": p.fide_elo or "",
        "fide_title": p.fide_title,
        "fide_federation": p.fide_federation,
        **fields,
    }
    data.update(
        _inline(
            "memberships",
            [
                {"id": m.pk, "player": p.pk, "club": m.club_id, "member_number": m.member_number}
                for m in memberships
            ],
            len(memberships),
        )
    )
    data.update(_inline("adjustments", [], p.adjustments.count()))
    return data


def test_admin_player_edit_is_audited(client, users, tree, players):
    anton = players[0]
    client.force_login(users["admin"])
    url = reverse("admin:ratings_player_change", args=[anton.pk])
    response = client.post(url, _player_admin_data(anton, birth_year="1981", sex="m"))
    assert response.status_code == 302, errors(response)
    event = last_event(object_type=AuditObjectType.PLAYER, object_id=anton.pk)
    assert event.action == AuditAction.UPDATE
    assert event.username == "admin"
    assert event.changes == {"birth_year": [1980, 1981], "sex": ["", "m"]}
    html = trail(users["officer_a"], player=anton)
    assert "Geburtsjahr: 1980 → 1981" in html
    assert "Geschlecht: – → männlich" in html
    assert "· admin ·" in html

    # Saving without a change writes no empty row.
    count = AuditEvent.objects.count()
    client.post(url, _player_admin_data(Player.objects.get(pk=anton.pk)))
    assert AuditEvent.objects.count() == count


def test_admin_membership_edit_is_audited_on_the_player(client, users, tree, players):
    anton = players[0]
    membership = Membership.objects.get(player=anton)
    client.force_login(users["admin"])
    response = client.post(
        reverse("admin:ratings_membership_change", args=[membership.pk]),
        {"player": anton.pk, "club": tree["club_b"].pk, "member_number": "77"},
    )
    assert response.status_code == 302, errors(response)
    event = last_event(object_type=AuditObjectType.PLAYER, object_id=anton.pk)
    assert event.username == "admin"
    assert event.changes == {"memberships": [["C0501-1"], ["C0601-77"]]}


def test_admin_player_delete_is_audited(client, users, tree):
    from tests.builders import club_player

    zoe = club_player(tree["club_a"], "Zoe", 1200, number="9")
    pk = zoe.pk
    client.force_login(users["admin"])
    response = client.post(reverse("admin:ratings_player_delete", args=[pk]), {"post": "yes"})
    assert response.status_code == 302
    event = last_event(object_type=AuditObjectType.PLAYER, object_id=pk)
    assert event.action == AuditAction.DELETE
    assert event.snapshot["surname"] == "Zoe"


# --- 4. tournament type ------------------------------------------------------------------------------------


@pytest.mark.parametrize("stored_row", [True, False])
def test_type_change_is_in_the_diff(login, users, tournament, stored_row):
    if not stored_row:  # e.g. imports: no TournamentEntryMode row; without games inferred as a round robin
        TournamentEntryMode.objects.filter(tournament=tournament).delete()
    client = login(users["officer_a"])
    response = client.post(
        reverse("ratings:tournament-edit", args=[tournament.pk]),
        {
            "name": tournament.name,
            "start_date": "2024-03-01",
            "end_date": "2024-03-10",
            "rounds": "3",
            "organiser": f"club:{tournament.organiser_club_id}",
            "mode": "swiss",
            "rated": "on",
        },
    )
    assert response.status_code == 302
    assert TournamentEntryMode.objects.get(tournament=tournament).mode == TournamentMode.SWISS
    event = last_event(object_id=tournament.pk, object_type=AuditObjectType.TOURNAMENT)
    assert event.changes["head"] == {"mode": ["rr", "swiss"]}
    assert event.snapshot["mode"] == "swiss"
    html = trail(users["officer_a"], tournament=tournament)
    assert "Turnierart: Rundenturnier (jeder gegen jeden) → Schweizer System / Runden" in html


def test_a_tournament_without_a_mode_row_records_the_type_its_games_show(users, tournament, players):
    """Issue 32: created without a mode (seed_demo, imports), a Swiss tournament's "angelegt" entry said
    round robin; the first save with the Swiss entry then showed "Rundenturnier → Schweizer System"."""
    a, b, c = players
    swiss = Tournament(
        name="Schnellschach-Open",
        start_date=datetime.date(2024, 4, 1),
        end_date=datetime.date(2024, 4, 1),
        rounds=2,
        organiser_club=tournament.organiser_club,
    )
    tournament_create(
        tournament=swiss,
        entries=[TournamentEntry(player=p, start_rank=i) for i, p in enumerate(players, 1)],
        games=[
            Game(round=1, board=1, white=a, black=b, result="1-0"),
            Game(round=1, white=c, black=None, result="+"),
            Game(round=2, board=1, white=c, black=a, result="0-1"),
            Game(round=2, white=b, black=None, result="+"),
        ],
    )
    created = last_event(object_id=swiss.pk, action=AuditAction.CREATE)
    assert created.snapshot["mode"] == TournamentMode.SWISS
    assert not TournamentEntryMode.objects.filter(tournament=swiss).exists()
    tournament_save_head(
        tournament=Tournament.objects.get(pk=swiss.pk), mode=TournamentMode.SWISS, user=users["officer_a"]
    )
    saved = last_event(object_id=swiss.pk, action=AuditAction.UPDATE)
    assert "head" not in saved.changes  # no phantom type change
    assert "Rundenturnier" not in trail(users["officer_a"], tournament=swiss)


# --- restore -----------------------------------------------------------------------------------------------


def test_restore_recomputes_the_evaluations(client, users, tournament, players):
    client.force_login(users["officer_a"])
    client.post(
        reverse("ratings:tournament-grid", args=[tournament.pk]),
        grid_data(players, {(0, 1): "1", (0, 2): "1", (1, 2): "5"}, save="1"),
    )
    fields = ("player_id", "status", "dwz_old", "dwz_new", "index_new", "points", "expected", "performance")
    stored = sorted(Evaluation.objects.filter(tournament=tournament).values_list(*fields))
    assert len(stored) == 3
    tournament_delete(tournament=Tournament.objects.get(pk=tournament.pk), user=users["officer_a"])
    assert not Evaluation.objects.filter(tournament_id=tournament.pk).exists()
    event = AuditEvent.objects.get(action=AuditAction.DELETE)
    client.force_login(users["admin"])
    client.post(
        reverse("admin:ratings_auditevent_changelist"),
        {"action": "restore_tournament", "_selected_action": [event.pk]},
    )
    restored = Tournament.objects.get(name="Vereinsmeisterschaft")
    assert sorted(Evaluation.objects.filter(tournament=restored).values_list(*fields)) == stored
    assert TournamentEntryMode.objects.get(tournament=restored).mode == TournamentMode.ROUND_ROBIN
    restore = last_event(object_id=restored.pk, object_type=AuditObjectType.TOURNAMENT)
    assert restore.action == AuditAction.RESTORE
    assert restore.username == "admin"
    assert restore.snapshot["mode"] == TournamentMode.ROUND_ROBIN


def test_admin_log_names_events_without_user_system(client, users, tournament):
    tournament_save_head(tournament=tournament, user=None)
    client.force_login(users["admin"])
    page = client.get(reverse("admin:ratings_auditevent_changelist")).content.decode()
    assert ">System<" in page


def test_admin_edit_of_an_outdated_tournament_is_refused(client, users, tournament, players):
    client.force_login(users["admin"])
    url = reverse("admin:ratings_tournament_change", args=[tournament.pk])
    assert 'name="loaded_version" value="1"' in client.get(url).content.decode()
    moved = Tournament.objects.get(pk=tournament.pk)
    moved.end_date = datetime.date(2024, 3, 11)
    tournament_save_head(tournament=moved, user=users["officer_a"])  # another officer, meanwhile
    data = _tournament_admin_data(tournament, [], name="VM 2024", loaded_version="1")
    response = client.post(url, data)
    assert response.status_code == 200
    assert "jemand anderes hat das Turnier inzwischen geändert" in response.content.decode()
    stored = Tournament.objects.get(pk=tournament.pk)
    assert (stored.name, stored.end_date, stored.version) == (
        "Vereinsmeisterschaft",
        datetime.date(2024, 3, 11),
        2,
    )
    assert client.post(url, data | {"loaded_version": "2"}).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).name == "VM 2024"
