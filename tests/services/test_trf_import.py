"""Importing TRF files: matching, start values, byes, points, the command's exit codes, nothing partial."""

import datetime
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.enums import AdjustmentKind, ResultCode
from ratings.models import (
    Club,
    Evaluation,
    Game,
    Membership,
    Organisation,
    Player,
    RatingAdjustment,
    Tournament,
)
from ratings.models.audit import AuditAction, AuditEvent, AuditObjectType
from ratings.selectors.trf_import import (
    REASON_DSB_ID,
    REASON_FIDE_ID,
    REASON_MEMBER,
    REASON_NAME,
    Decision,
    TrfImportError,
    attach_stored_ratings,
    decisions_from_matches,
    fold,
    head_from_file,
    trf_match,
    trf_preview,
    trf_read,
)
from ratings.services import adjustment_save
from ratings.services.trf_import import trf_save
from tests.builders import ger_line, player_line, stored_points, trf

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent.parent / "data" / "trf"
KARL_MALA = DATA / "fide-example1-karl-mala-2005.trf"
LICHESS = DATA / "lichess-swiss-2020-06.trf"


@pytest.fixture
def club():
    lv = Organisation.objects.create(code="C00", name="Schachverband Württemberg")
    bezirk = Organisation.objects.create(code="C05", name="Bezirk Stuttgart", parent=lv)
    return Club.objects.create(zps="C0505", name="SK Musterstadt", organisation=bezirk)


def _counts():
    return (
        Player.objects.count(),
        Tournament.objects.count(),
        Game.objects.count(),
        Evaluation.objects.count(),
        RatingAdjustment.objects.count(),
        Membership.objects.count(),
    )


# --- the real files ------------------------------------------------------------------------------------


def test_karl_mala_imports_every_game_and_bye_with_the_file_points():
    t = trf_read(KARL_MALA.read_bytes())
    matches = trf_match(t)
    assert all(m.player is None and not m.candidates for m in matches)
    result = trf_save(
        tournament=t, head=head_from_file(t), decisions=decisions_from_matches(matches, create_unknown=True)
    )
    tournament = result.tournament
    assert (tournament.name, tournament.end_date, tournament.rounds) == (
        "9. Karl-Mala-Gedenkturnier",
        datetime.date(2005, 7, 31),
        7,
    )
    assert len(result.created) == 283 and tournament.entries.count() == 283
    assert tournament.games.filter(black__isnull=False).count() == 980
    assert tournament.games.filter(black__isnull=True).count() == 21
    assert tournament.games.filter(result__in=["+-", "-+", "--"]).count() == 10
    # Byes count for the standings: every player has the file's points.
    file_points = {p.start_rank: p.points for p in t.players}
    assert stored_points(tournament) == file_points
    # FIDE Elo is the start value of players without a DWZ (a take-over); ratings come from the engine.
    vasquez = Player.objects.get(key="FIDE-3400042")
    assert RatingAdjustment.objects.get(player=vasquez, kind=AdjustmentKind.START).fide_elo == 2558
    assert Evaluation.objects.filter(tournament=tournament).count() == 283
    # Every new player has his audit row, as if created one by one.
    created = AuditEvent.objects.filter(object_type=AuditObjectType.PLAYER, action=AuditAction.CREATE)
    assert created.count() == 283 and created.get(player_ref=vasquez.pk).snapshot["fide_id"] == 3400042


def test_lichess_byes_half_points_and_absences():
    t = trf_read(LICHESS.read_bytes())
    result = trf_save(
        tournament=t,
        head=head_from_file(t),
        decisions=decisions_from_matches(trf_match(t), create_unknown=True),
    )
    tournament = result.tournament
    byes = set(tournament.games.filter(black__isnull=True).values_list("result", flat=True))
    assert set(byes) == {ResultCode.BYE, ResultCode.HALF_POINT_BYE, ResultCode.ZERO_POINT_BYE}
    assert stored_points(tournament) == {p.start_rank: p.points for p in t.players}
    # Players without any rating (lichess user names) get no start value.
    assert not RatingAdjustment.objects.filter(player__in=result.created).exists()


# --- matching ------------------------------------------------------------------------------------------


def test_fold_is_umlaut_and_case_insensitive():
    assert fold("Müller") == fold("MUELLER") == fold("mueller") == "mueller"
    assert fold("Weiß-Groß") == fold("Weiss Gross")


def test_matching_order_and_reasons(club):
    by_nu = Player.objects.create(key="NU4005017", surname="Muster", first_name="Max", birth_year=1963)
    by_fide = Player.objects.create(key="C0505-0002", surname="Anders", first_name="Anna", fide_id=4612345)
    by_member = Player.objects.create(key="C0505-0003", surname="Dritter", first_name="Dora")
    Membership.objects.create(player=by_member, club=club, member_number="1043")
    by_name = Player.objects.create(key="C0505-0004", surname="Müller", first_name="Jürgen", birth_year=1970)
    twin_a = Player.objects.create(key="C0505-0005", surname="Schmidt", first_name="Hans", birth_year=1980)
    twin_b = Player.objects.create(key="C0505-0006", surname="Schmidt", first_name="Hans", birth_year=1980)
    lines = [
        player_line(1, "Muster, Max", [(2, "w", "1")], fide_id="4612345"),
        ger_line(1, "1802", "NU4005017"),
        player_line(2, "Unbekannt, Anna", [(1, "b", "0")], fide_id="4612345"),
        player_line(3, "Dritter, Dora", [(4, "w", "=")]),
        ger_line(3, "", "C0505-1043"),
        player_line(4, "MUELLER, Juergen", [(3, "b", "=")], birth="1970/05/01"),
        player_line(5, "Schmidt, Hans", [(6, "w", "1")], birth="1980"),
        player_line(6, "Neu, Nina", [(5, "b", "0")], birth="2001"),
        player_line(7, "Müller, Jürgen", [], birth=""),
    ]
    matches = {m.trf.start_rank: m for m in trf_match(trf_read(trf(*lines)))}
    assert (matches[1].player, matches[1].reason) == (by_nu, REASON_DSB_ID)  # before the FIDE id
    assert (matches[2].player, matches[2].reason) == (by_fide, REASON_FIDE_ID)
    assert (matches[3].player, matches[3].reason) == (by_member, REASON_MEMBER)
    assert (matches[4].player, matches[4].reason, matches[4].certain) == (by_name, REASON_NAME, True)
    assert (
        matches[5].player is None and set(matches[5].candidates) == {twin_a, twin_b} and matches[5].ambiguous
    )
    assert matches[6].player is None and matches[6].candidates == []
    assert (matches[7].player, matches[7].certain) == (by_name, False)  # no birth year: only a proposal
    decisions = decisions_from_matches(list(matches.values()), create_unknown=True)
    assert set(decisions) == {1, 2, 3, 4, 6}  # the ambiguous and the uncertain line stay open


def test_name_match_says_what_it_compared():
    """Issue 32: "gefunden über Name und Geburtsjahr" only when the file's birth year was compared."""
    with_year = Player.objects.create(key="C0505-0011", surname="Jahr", first_name="Jana", birth_year=1990)
    without = Player.objects.create(key="C0505-0012", surname="Ohne", first_name="Otto")
    lines = [
        player_line(1, "Jahr, Jana", [(2, "w", "1")], birth="1990"),
        player_line(2, "Ohne, Otto", [(1, "b", "0")]),
        player_line(3, "Jahr, Jana", [], birth=""),
    ]
    first, second, third = trf_match(trf_read(trf(*lines)))
    assert (first.player, first.reason_label) == (with_year, "Name und Geburtsjahr")
    assert (second.player, second.certain) == (without, True)
    assert second.reason_label == "den Namen (beide ohne Geburtsjahr)"
    assert (third.player, third.certain) == (with_year, False)
    assert third.reason_label == "den Namen (Geburtsjahr fehlt in der Datei)"


def test_known_player_rating_from_history_file_rating_flagged(club):
    p = Player.objects.create(key="NU1", surname="Muster", first_name="Max", birth_year=1963)
    adjustment_save(adjustment=RatingAdjustment(player=p, kind=AdjustmentKind.START, dwz=1750, index=20))
    lines = [
        player_line(1, "Muster, Max", [(2, "w", "1")], rating="2000"),
        ger_line(1, "1802", "NU1"),
        player_line(2, "Neu, Nina", [(1, "b", "0")], birth="2001"),
        ger_line(2, "1500", "NU2", "7"),
    ]
    t = trf_read(trf(*lines))
    matches = trf_match(t)
    head = head_from_file(t)
    attach_stored_ratings(matches, head)
    assert (matches[0].stored_dwz, matches[0].file_dwz, matches[0].differs) == (1750, 1802, True)
    decisions = decisions_from_matches(matches, create_unknown=True)
    preview = trf_preview(tournament=t, head=head, decisions=decisions)
    olds = {line.trf.start_rank: line.result.dwz_old for line in preview.lines}
    assert olds == {1: 1750, 2: 1500}  # dwzsite's value for the known player, the file's for the new one
    result = trf_save(tournament=t, head=head, decisions=decisions)
    new = Player.objects.get(key="NU2")
    start = RatingAdjustment.objects.get(player=new, kind=AdjustmentKind.START)
    assert (start.dwz, start.index, start.fide_elo) == (1500, 7, None)
    rows = {
        e.player_id: (e.dwz_old, e.dwz_new) for e in Evaluation.objects.filter(tournament=result.tournament)
    }
    assert {pk: old for pk, (old, _new) in rows.items()} == {p.pk: 1750, new.pk: 1500}
    assert {pk: new for pk, (_old, new) in rows.items()} == {
        line.player.pk if line.player else new.pk: line.result.dwz_new for line in preview.lines
    }


def test_new_player_with_member_key_of_an_unknown_club_is_refused():
    lines = [
        player_line(1, "A, A", [(2, "w", "1")]),
        ger_line(1, "", "C9999-1"),
        player_line(2, "B, B", [(1, "b", "0")]),
    ]
    t = trf_read(trf(*lines))
    before = _counts()
    with pytest.raises(TrfImportError) as exc:
        trf_save(
            tournament=t,
            head=head_from_file(t),
            decisions={1: Decision(create=True), 2: Decision(create=True)},
        )
    assert "Verein C9999" in exc.value.messages[0] and "DSB-Liste" in exc.value.messages[0]
    assert _counts() == before


def test_new_player_joins_the_club_of_his_member_key(club):
    lines = [
        player_line(1, "A, A", [(2, "w", "1")]),
        ger_line(1, "", "C0505-77"),
        player_line(2, "B, B", [(1, "b", "0")]),
    ]
    t = trf_read(trf(*lines))
    trf_save(
        tournament=t,
        head=head_from_file(t),
        decisions={1: Decision(create=True), 2: Decision(create=True, club_id=club.pk)},
    )
    a = Player.objects.get(key="C0505-77")
    assert a.memberships.get().member_number == "77"
    b = Player.objects.get(surname="B")
    assert b.key.startswith("C0505-T") and b.memberships.get().club == club


def test_every_line_needs_a_decision_and_players_only_once(club):
    p = Player.objects.create(key="X1", surname="X")
    t = trf_read(trf(player_line(1, "A, A", [(2, "w", "1")]), player_line(2, "B, B", [(1, "b", "0")])))
    with pytest.raises(TrfImportError, match="keinem Spieler zugeordnet"):
        trf_save(tournament=t, head=head_from_file(t), decisions={1: Decision(create=True)})
    with pytest.raises(TrfImportError, match="mehreren Zeilen"):
        trf_save(
            tournament=t,
            head=head_from_file(t),
            decisions={1: Decision(player_id=p.pk), 2: Decision(player_id=p.pk)},
        )
    assert Tournament.objects.count() == 0


# --- the command ---------------------------------------------------------------------------------------


def _call(*args):
    from io import StringIO

    out = StringIO()
    call_command("import_trf", *[str(a) for a in args], stdout=out)
    return out.getvalue()


def test_command_unknown_players_exit_2_listing_them():
    before = _counts()
    with pytest.raises(CommandError) as exc:
        _call(LICHESS)
    assert exc.value.returncode == 2
    assert "   1 mattderkuerschner: unbekannt" in str(exc.value) and str(exc.value).count("unbekannt") == 13
    assert _counts() == before


def test_command_dry_run_and_create_unknown(club):
    before = _counts()
    out = _call(LICHESS, "--create-unknown", "--dry-run")
    assert "Probelauf: nichts gespeichert." in out and "13 Spieler, 10 Runden" in out
    assert _counts() == before
    out = _call(LICHESS, "--create-unknown", "--organiser", "C0505")
    t = Tournament.objects.get()
    assert t.organiser_club == club and t.entries.count() == 13 and "neue Spieler: 13" in out
    # A second import of the same file finds all players by name (lichess has no ids): no new players.
    out = _call(LICHESS, "--organiser", "C0505")
    assert Player.objects.count() == 13 and Tournament.objects.count() == 2


def test_command_several_files_share_new_players():
    _call(LICHESS, DATA / "lichess-swiss-2021-03.trf", "--create-unknown")
    # 7 of the 9 players of 2021-03 played the 2020-06 tournament too (same lichess user names).
    assert Player.objects.count() == 13 + 2 and Tournament.objects.count() == 2


def test_academic_titles_do_not_hide_a_player():
    t = trf_read(KARL_MALA.read_bytes())
    trf_save(
        tournament=t,
        head=head_from_file(t),
        decisions=decisions_from_matches(trf_match(t), create_unknown=True),
    )
    again = trf_match(trf_read(KARL_MALA.read_bytes()))
    kiese = next(m for m in again if m.trf.surname == "Kiese")
    assert kiese.player is not None and kiese.player.first_name == "Matthias Dr." and kiese.certain
    assert all(m.player is not None and m.certain for m in again)


def test_command_bad_file_and_unknown_organiser_exit_2(tmp_path):
    bad = tmp_path / "bad.trf"
    bad.write_bytes(trf(player_line(1, "A", [(3, "w", "1")])))
    with pytest.raises(CommandError) as exc:
        _call(bad, "--create-unknown")
    assert exc.value.returncode == 2 and "Zeile 4, Spalten 92–95: Gegner 0003" in str(exc.value)
    with pytest.raises(CommandError) as exc:
        _call(LICHESS, "--create-unknown", "--organiser", "X9999")
    assert exc.value.returncode == 2 and "import_dsb_list" in str(exc.value)
    with pytest.raises(CommandError) as exc:
        _call(tmp_path / "missing.trf")
    assert exc.value.returncode == 2
    assert _counts() == (0, 0, 0, 0, 0, 0)


def test_command_several_files_nothing_saved_if_one_is_bad(tmp_path):
    bad = tmp_path / "bad.trf"
    bad.write_bytes(b"nothing here\n")
    with pytest.raises(CommandError) as exc:
        _call(LICHESS, bad, "--create-unknown")
    assert "Keine TRF-Datei" in str(exc.value)
    assert Tournament.objects.count() == 0


def test_command_ambiguous_date_asks_for_the_order(tmp_path):
    path = tmp_path / "t.trf"
    path.write_bytes(
        trf(
            player_line(1, "A", [(2, "w", "1")]),
            player_line(2, "B", [(1, "b", "0")]),
            head=("012 T", "042 08/04/2018", "052 10/04/2018"),
        )
    )
    with pytest.raises(CommandError) as exc:
        _call(path, "--create-unknown")
    assert "--date-order" in str(exc.value)
    _call(path, "--create-unknown", "--date-order", "mdy")
    assert Tournament.objects.get().end_date == datetime.date(2018, 10, 4)


# --- mutated files: a clean import or an error, never a partial save -----------------------------------

SMALL = (DATA / "lichess-swiss-2021-03.trf").read_bytes()


@st.composite
def mutated(draw) -> bytes:
    lines = SMALL.split(b"\n")
    i = draw(st.integers(0, len(lines) - 1))
    line = lines[i]
    j = draw(st.integers(0, max(len(line) - 1, 0)))
    kind = draw(st.sampled_from(["flip", "truncate", "shift"]))
    if kind == "flip":
        line = line[:j] + bytes([draw(st.integers(0, 255))]) + line[j + 1 :]
    elif kind == "truncate":
        line = line[:j]
    else:
        line = line[:j] + b" " + line[j:]
    lines[i] = line
    return b"\n".join(lines)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=mutated())
def test_mutated_file_imports_cleanly_or_saves_nothing(data):
    before = _counts()
    try:
        t = trf_read(data)
        trf_save(
            tournament=t,
            head=head_from_file(t),
            decisions=decisions_from_matches(trf_match(t), create_unknown=True),
        )
    except TrfImportError as exc:
        assert exc.messages and _counts() == before
    else:
        tournament = Tournament.objects.order_by("-pk").first()
        assert stored_points(tournament) == {p.start_rank: p.computed_points for p in t.players}
        Tournament.objects.filter(pk=tournament.pk).delete()


def test_dsb_person_id_field_matches_and_is_set_on_new_players():
    pkz = Player.objects.create(key="C0505-0099", surname="Alt", first_name="Otto", dsb_id="10012345")
    nu = Player.objects.create(key="C0505-0098", surname="Neu", first_name="Nora", dsb_id="NU4005017")
    lines = [
        player_line(1, "Irgendwer, Otto", [(2, "w", "1")]),
        ger_line(1, "", "10012345"),
        player_line(2, "Anders, Nora", [(1, "b", "0")]),
        ger_line(2, "", "NU4005017"),
        player_line(3, "Frisch, Fritz", [(4, "w", "=")]),
        ger_line(3, "1500", "NU4999999"),
        player_line(4, "Frosch, Frieda", [(3, "b", "=")]),
    ]
    t = trf_read(trf(*lines))
    matches = {m.trf.start_rank: m for m in trf_match(t)}
    assert (matches[1].player, matches[1].reason) == (pkz, REASON_DSB_ID)
    assert (matches[2].player, matches[2].reason) == (nu, REASON_DSB_ID)
    trf_save(
        tournament=t,
        head=head_from_file(t),
        decisions=decisions_from_matches(list(matches.values()), create_unknown=True),
    )
    fritz = Player.objects.get(surname="Frisch")
    assert (fritz.key, fritz.dsb_id, fritz.dwz) == ("NU4999999", "NU4999999", 1500)
    again = {m.trf.start_rank: m for m in trf_match(t)}
    assert again[3].player == fritz and again[3].reason == REASON_DSB_ID
