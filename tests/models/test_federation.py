"""The federation models against the real 2019 DSB tree (tests/data/README.md)."""

import csv
import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from ratings.models import Club, Organisation
from ratings.models.federation import CLUB_ZPS_RE, ORGANISATION_CODE_RE
from ratings.models.tournament import TOURNAMENT_CODE_RE, tournament_code_validator

TREE = Path(__file__).resolve().parent.parent / "data" / "dewis-organizations-2019-08-02.csv"


def _rows():
    with TREE.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_every_code_of_the_2019_tree_passes_our_validators():
    rows = _rows()
    clubs = [r for r in rows if len(r["vkz"]) == 5]
    units = [r for r in rows if len(r["vkz"]) == 3]
    assert len(clubs) == 2150 and len(units) + len(clubs) == len(rows)
    assert all(re.fullmatch(CLUB_ZPS_RE, r["vkz"]) for r in clubs)
    assert all(re.fullmatch(ORGANISATION_CODE_RE, r["vkz"]) for r in units)
    assert all(r["vkz"][:3] == r["parent_vkz"] for r in clubs)  # formats.md §5


@pytest.mark.django_db
def test_the_2019_tree_loads_into_organisations_and_clubs():
    rows = _rows()
    units = {}
    # parents first: DSB, then Landesverbände, then districts (which may nest, e.g. Bavaria 210 -> 211)
    pending = [r for r in rows if len(r["vkz"]) == 3]
    while pending:
        ready = [r for r in pending if not r["parent_vkz"] or r["parent_vkz"] in units]
        assert ready, "cycle in the tree"
        for r in ready:
            units[r["vkz"]] = Organisation.objects.create(
                code=r["vkz"], name=r["name"], parent=units.get(r["parent_vkz"])
            )
        pending = [r for r in pending if r["vkz"] not in units]
    Club.objects.bulk_create(
        Club(zps=r["vkz"], name=r["name"], organisation=units[r["parent_vkz"]])
        for r in rows
        if len(r["vkz"]) == 5
    )
    assert Organisation.objects.get(code="000").parent is None
    assert Organisation.objects.get(code="C05").parent.code == "C00"
    assert Organisation.objects.get(code="101").level == 2
    assert Club.objects.get(zps="10102").organisation.code == "101"


@pytest.mark.parametrize("code", ["B148-C12-SLG", "A417-E00-MMX", "C529-K00-HT1"])
def test_tournament_codes_of_the_spec_are_valid(code):
    assert re.fullmatch(TOURNAMENT_CODE_RE, code)


@pytest.mark.parametrize("code", ["C554-C05-ABC", "C5-C05-ABC", "c524-C05-ABC", "C524C05ABC"])
def test_bad_tournament_codes_are_rejected(code):
    with pytest.raises(ValidationError):
        tournament_code_validator(code)
