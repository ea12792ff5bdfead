"""The organisation tree alone (DeWIS' CSV, tests/data/README.md) read as federations and clubs (issue 32)."""

from pathlib import Path

import pytest

from ratings.formats.dsb_list import ListError, read_list, read_list_bytes
from ratings.formats.organisation_tree import GENERATION, is_organisation_tree, read_organisation_tree

TREE = Path(__file__).resolve().parent.parent / "data" / "dewis-organizations-2019-08-02.csv"
HEADER = "dewis_id,vkz,name,parent_vkz,has_rating_officer,is_leaf\r\n"


def test_the_real_tree_reads_every_federation_and_club():
    tree = read_organisation_tree(TREE.read_bytes(), TREE.name)
    assert tree.generation == GENERATION and not tree.players
    assert (tree.rows, len(tree.federations), len(tree.clubs)) == (2349, 199, 2150)
    assert tree.problems == [] and tree.warnings == []
    dsb = tree.federations[0]
    assert (dsb.line, dsb.code, dsb.parent, dsb.name) == (2, "000", "", "Deutscher Schachbund")
    viernheim = next(c for c in tree.clubs if c.zps == "10102")
    assert (viernheim.line, viernheim.parent, viernheim.name) == (5, "101", "SC Viernheim 1934 e.V.")
    assert read_list(TREE).generation == GENERATION  # the list reader recognises it too


def test_bad_rows_are_named_by_line_and_left_out():
    text = (
        HEADER
        + "1,000,Deutscher Schachbund,,1,0\r\n"
        + "2,C05,,C00,1,0\r\n"  # line 3: no name
        + "3,X1,Irgendwas,000,0,1\r\n"  # line 4: neither federation nor club
        + "4,C0505,SF Stuttgart,C05,0,1\r\n"
        + "\r\n"
        + "5,C0505,SF Stuttgart doppelt,C05,0,1\r\n"  # line 7: twice
        + "6,C0506,Ohne Bezirk,??,0,1\r\n"  # a parent that is no code: the district of the ZPS
    )
    tree = read_organisation_tree(text.encode(), "baum.csv")
    problems = [(p.line, p.template[:14]) for p in tree.problems]
    assert problems == [(3, "Name fehlt ode"), (4, "VKZ „%(value)s")]
    assert [(w.line, w.params) for w in tree.warnings] == [(7, {"code": "C0505", "line": 5})]
    assert [(c.zps, c.parent) for c in tree.clubs] == [("C0505", "C05"), ("C0506", "C05")]
    assert tree.rows == 6


@pytest.mark.parametrize(
    "data",
    [
        ("\ufeff" + HEADER + "1,000,Deutscher Schachbund,,1,0\r\n").encode(),
        HEADER.replace(",", ";").encode() + b"1;100;Badischer Schachverband;000;1;0\r\n",
        (HEADER + "1,10102,SC Viernheim Großsachsen,101,0,1\r\n").encode("cp1252"),
        b"vkz,name,parent_vkz\n100,Baden,000\n",
    ],
)
def test_bom_semicolon_windows_1252_and_the_three_columns_alone(data):
    assert is_organisation_tree(data)
    tree = read_list_bytes(data, "baum.csv")
    assert tree.generation == GENERATION and len(tree.federations) + len(tree.clubs) == 1
    assert "ß" in tree.clubs[0].name if tree.clubs else True


@pytest.mark.parametrize(
    "data",
    [b"", b"ID,ZPS,Mitgliedsnummer\r\n", b"vkz,name\r\n100,Baden\r\n", HEADER.encode(), b"\x00\xff\xfe"],
)
def test_what_is_no_tree_is_refused(data):
    with pytest.raises(ListError):
        read_organisation_tree(data, "x.csv")


def test_an_unreadable_csv_line_is_a_list_error_naming_it():
    """The csv module's own errors (a cell past its size limit here) are a ListError with the line, not a
    crash of the upload or the command."""
    text = HEADER + "1,000,Deutscher Schachbund,,1,0\r\n" + '2,C05,"' + "x" * 200_000 + '",000,1,0\r\n'
    with pytest.raises(ListError) as error:
        read_organisation_tree(text.encode())
    assert "Zeile" in str(error.value)
