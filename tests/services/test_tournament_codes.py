"""Tournament identifiers (spec §9, §16): DSB codes and the 2026 portal's UUIDs, everywhere a code is
taken, and the evaluation order (KKK only for DSB codes; UUID and uncoded tournaments after them, in creation
order)."""

import datetime
import io
import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.dwz.codes import TOURNAMENT_CODE_RE, is_dsb_code, normalise_code, order_suffix
from ratings.dwz.replay import tournament_order
from ratings.models import Club, Evaluation, Organisation, Tournament
from ratings.models.tournament import tournament_code_validator
from ratings.recalculation import ratings_verify
from ratings.web.officer.forms import TournamentHeadForm
from tests.builders import player, save_tournament

pytestmark = pytest.mark.django_db

D = datetime.date
DAY = D(2026, 9, 20)
UUID4 = "c20ee10e-fba0-4b31-9d0e-5a2f61c0d7e3"
UUID7 = "019f75b9-af1b-77c0-8e1a-3c5d2b7f9a10"


@pytest.mark.parametrize("code", [UUID4, UUID7, "C524-C05-VM1", "B148-C12-SLG"])
def test_portal_uuids_and_dsb_codes_are_tournament_codes(code):
    assert re.fullmatch(TOURNAMENT_CODE_RE, code)
    tournament_code_validator(code)


@pytest.mark.parametrize(
    "code",
    [
        UUID4.upper(),  # stored in lower case; the entry points lower-case it first
        UUID4[:-1],
        UUID4 + "0",
        UUID4.replace("-", ""),
        "{" + UUID4 + "}",
        "g20ee10e-fba0-4b31-9d0e-5a2f61c0d7e3",
        "C524-C05-VM1-" + UUID4[:23],
    ],
)
def test_malformed_uuids_are_rejected(code):
    with pytest.raises(ValidationError):
        tournament_code_validator(code)


def test_only_dsb_codes_have_a_kkk():
    assert (is_dsb_code("C524-C05-VM1"), order_suffix("C524-C05-VM1")) == (True, "VM1")
    assert (is_dsb_code(UUID4), order_suffix(UUID4)) == (False, None)
    assert order_suffix(None) is None
    assert normalise_code(f"  {UUID7.upper()} ") == UUID7
    assert normalise_code(" c524-c05-vm1 ") == "C524-C05-VM1"


def _tournament(code, end=DAY):
    return Tournament.objects.create(name=code or "ohne Code", code=code, start_date=end, end_date=end)


def test_evaluation_order_kkk_for_dsb_codes_then_the_others_by_creation():
    """Same end date: DSB codes by KKK first (even when created later), then a UUID and an uncoded
    tournament in creation order. The database order and the replay's order key agree."""
    uuid_first = _tournament(UUID7)
    plain = _tournament(None)
    uuid_last = _tournament(UUID4)
    dsb_b = _tournament("C538-C05-BBB")
    dsb_a = _tournament("C538-C05-AAA")
    earlier = _tournament(UUID4.replace("c", "d"), end=D(2026, 9, 19))
    want = [earlier, dsb_a, dsb_b, uuid_first, plain, uuid_last]
    assert list(Tournament.objects.in_evaluation_order()) == want
    assert sorted(want, key=lambda t: tournament_order(t.end_date, t.code, t.pk)) == want
    suffixes = Tournament.objects.in_bulk([dsb_a.pk, uuid_first.pk, plain.pk])
    assert [suffixes[t.pk].code_suffix for t in (dsb_a, uuid_first, plain)] == ["AAA", None, None]


def test_a_uuid_tournament_is_evaluated_after_a_dsb_tournament_of_the_same_day():
    """A plays a UUID tournament (saved first) and a DSB-coded one on the same day: the DSB one comes first
    in the §9 order, so the UUID one starts from its result. Verify is clean."""
    a = player(dwz=1600, index=10)
    others = [player(dwz=1500 + 10 * i, index=5) for i in range(4)]
    day = D(2026, 9, 20)
    t_uuid, _ = save_tournament(
        [a, *others[:2]], [(a, others[0], "1-0"), (a, others[1], "1-0")], end=day, code=UUID4
    )
    t_dsb, _ = save_tournament(
        [a, *others[2:]], [(a, others[2], "0-1"), (a, others[3], "0-1")], end=day, code="C538-C05-ZZZ"
    )
    first = Evaluation.objects.get(tournament=t_dsb, player=a)
    second = Evaluation.objects.get(tournament=t_uuid, player=a)
    assert first.dwz_old == 1600 and second.dwz_old == first.dwz_new
    assert (first.code_suffix, second.code_suffix) == ("ZZZ", None)
    assert ratings_verify() == []


def test_import_tournament_takes_a_portal_uuid(tmp_path):
    path = tmp_path / "portal.json"
    data = {
        "tournament": {"code": UUID7.upper(), "name": "Portal", "end_date": "2026-10-04"},
        "players": [{"id": "A", "dwz": 1500, "index": 3}, {"id": "B", "dwz": 1400, "index": 3}],
        "games": [{"white": "A", "black": "B", "result": "1-0"}],
    }
    path.write_text(json.dumps(data))
    call_command("import_tournament", str(path), stdout=io.StringIO())
    t = Tournament.objects.get()
    assert (t.code, t.code_suffix) == (UUID7, None)
    # The same UUID again replaces that tournament.
    data["games"][0]["result"] = "0-1"
    path.write_text(json.dumps(data))
    call_command("import_tournament", str(path), stdout=io.StringIO())
    assert Tournament.objects.get().games.get().result == "0-1"


def test_import_tournament_names_a_bad_code(tmp_path):
    path = tmp_path / "bad.json"
    data = {
        "tournament": {"code": UUID7[:-1], "end_date": "2026-10-04"},
        "players": [{"id": "A", "dwz": 1500}, {"id": "B", "dwz": 1400}],
        "games": [{"white": "A", "black": "B", "result": "1-0"}],
    }
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path), stdout=io.StringIO())
    assert exc.value.returncode == 2
    assert "tournament.code: not a tournament code (YYWW-ZZZ-KKK or a portal UUID)" in str(exc.value)
    assert not Tournament.objects.exists()


def test_import_trf_takes_a_portal_uuid(tmp_path):
    from pathlib import Path

    lichess = Path(__file__).resolve().parent.parent / "data" / "trf" / "lichess-swiss-2020-06.trf"
    call_command(
        "import_trf", str(lichess), "--create-unknown", "--code", UUID4.upper(), stdout=io.StringIO()
    )
    assert Tournament.objects.get().code == UUID4
    with pytest.raises(CommandError) as exc:
        call_command("import_trf", str(lichess), "--code", "no-uuid", stdout=io.StringIO())
    assert exc.value.returncode == 2 and "UUID" in str(exc.value)


def test_officer_head_form_takes_a_portal_uuid():
    lv = Organisation.objects.create(code="C00", name="LV")
    club = Club.objects.create(
        zps="C0505", name="SK", organisation=Organisation.objects.create(code="C05", name="B", parent=lv)
    )
    base = {
        "name": "T",
        "start_date": "2026-09-01",
        "end_date": "2026-09-20",
        "organiser": f"club:{club.pk}",
        "mode": "rr",
    }
    clubs, orgs = Club.objects.all(), Organisation.objects.none()
    form = TournamentHeadForm(
        {**base, "code": UUID7.upper()}, instance=Tournament(), clubs=clubs, organisations=orgs
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["code"] == UUID7
    form = TournamentHeadForm(
        {**base, "code": UUID7[:-2]}, instance=Tournament(), clubs=clubs, organisations=orgs
    )
    assert not form.is_valid() and "UUID des DSB-Portals" in " ".join(form.errors["code"])
