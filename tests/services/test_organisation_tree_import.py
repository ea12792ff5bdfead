"""The organisation tree alone imported with the list import's report (issue 32)."""

from pathlib import Path

import pytest

from ratings.formats.organisation_tree import read_organisation_tree
from ratings.models import Club, Organisation
from ratings.services.dsb_list import (
    CREATED,
    REJECTED,
    UNCHANGED,
    UPDATED,
    dsb_list_import,
    organisation_tree_import,
    report_csv,
)

pytestmark = pytest.mark.django_db

TREE = Path(__file__).resolve().parent.parent / "data" / "dewis-organizations-2019-08-02.csv"


def _tree(text: str):
    header = "dewis_id,vkz,name,parent_vkz,has_rating_officer,is_leaf\n"
    return read_organisation_tree((header + text).encode())


def test_the_real_tree_imports_and_a_second_run_changes_nothing():
    steps = []
    report = organisation_tree_import(
        tree=read_organisation_tree(TREE.read_bytes()), progress=lambda label, done, total: steps.append(done)
    )
    assert steps[0] == 0 and steps[-1] == 3 and steps == sorted(steps)  # progress, step by step
    assert Organisation.objects.count() == 199 and Club.objects.count() == 2150
    assert report.counts[CREATED] == 2349 and report.exit_code == 0
    summary = report.summary()
    assert (summary["organisations_created"], summary["clubs_created"], summary["rows"]) == (199, 2150, 2349)
    assert Organisation.objects.get(code="C05").parent.code == "C00"
    assert Organisation.objects.get(code="211").parent.code == "210"  # nested districts (Bavaria)
    assert Club.objects.get(zps="10102").organisation.code == "101"
    again = organisation_tree_import(tree=read_organisation_tree(TREE.read_bytes()))
    assert again.counts[UNCHANGED] == 2349 and again.counts[CREATED] == 0


def test_renamed_and_moved_rows_are_reported_with_what_changed():
    organisation_tree_import(
        tree=_tree(
            "1,000,DSB,,1,0\n2,C00,Württemberg,000,1,0\n3,C05,Stuttgart,C00,1,0\n4,C06,Unterland,C00,1,0\n"
        )
    )
    organisation_tree_import(tree=_tree("5,C0505,SF Stuttgart,C05,0,1\n"))
    report = organisation_tree_import(
        tree=_tree("3,C05,Bezirk Stuttgart,C00,1,0\n5,C0505,SF Stuttgart 1879,C06,0,1\n6,C9,kaputt,C00,0,1\n")
    )
    rows = {item.key or item.line: item for item in report.items}
    assert rows["C05"].outcome == UPDATED and rows["C05"].detail == "Name: Stuttgart → Bezirk Stuttgart"
    club = rows["C0505"]
    assert club.outcome == UPDATED
    assert club.detail == "Name: SF Stuttgart → SF Stuttgart 1879; Verband: C05 → C06"
    assert rows[4].outcome == REJECTED and "weder ein Verband" in rows[4].detail
    assert report.exit_code == 1
    assert Club.objects.get(zps="C0505").organisation.code == "C06"
    lines = report_csv(items=report.items).splitlines()
    assert lines[0] == "Ergebnis,Zeile,Schlüssel,Name,Hinweis" and lines[1].startswith("geändert,2,C05,")


def test_a_dry_run_writes_nothing_and_the_list_import_takes_a_tree():
    report = organisation_tree_import(tree=_tree("1,000,DSB,,1,0\n2,100,Baden,000,1,0\n"), dry_run=True)
    assert report.dry_run and report.counts[CREATED] == 2
    assert not Organisation.objects.exists()
    tree = _tree("1,000,DSB,,1,0\n2,100,Baden,000,1,0\n3,10102,SC Viernheim,100,0,1\n")
    report = dsb_list_import(dsb_list=tree)
    assert report.counts[CREATED] == 3 and Club.objects.get().organisation.code == "100"
