"""A DSB report as the TRF import's intermediate (``ratings.formats.dsb_xml_trf``): person ids, byes, forfeits
and the arbiters' decisions (formats.md §3.10), worked by hand."""

import datetime
import uuid
from decimal import Decimal

import pytest

from ratings.formats import dsb_xml
from ratings.formats.dsb_xml_trf import is_xml, person_id_text, to_trf
from ratings.formats.trf import TrfBye, TrfGame, person_id


def _report(*games: dsb_xml.Game, players=None) -> dsb_xml.Report:
    return dsb_xml.Report(
        header=dsb_xml.Header(datetime.datetime(2026, 7, 1, 20, 15), "s", "x", uuid.UUID(int=1)),
        tournament=dsb_xml.Tournament(
            uuid.UUID(int=2), "Test", "SW", 3, datetime.date(2026, 6, 1), datetime.date(2026, 6, 3), "Ort"
        ),
        players=players or tuple(dsb_xml.Player(n, f"S{n}", "F", 1980) for n in (1, 2, 3)),
        games=games,
    )


def test_is_xml_by_content():
    assert is_xml(b'<?xml version="1.0"?><a/>') and is_xml(b"\xef\xbb\xbf  \n<DSB_DWZ_TournamentReport/>")
    assert not is_xml(b"012 Test-Open\n001    1 m    Mustermann, Max") and not is_xml(b"")


@pytest.mark.parametrize(
    ("player", "expected", "kind"),
    [
        (
            dsb_xml.Player(1, "A", "B", 1980, dsb_id="NU1234567", vkz="21001", member_number=17),
            "NU1234567",
            "nu",
        ),
        (dsb_xml.Player(1, "A", "B", 1980, dsb_id="10234567"), "10234567", "pkz"),
        (dsb_xml.Player(1, "A", "B", 1980, vkz="21001", member_number=17), "21001-17", "member"),
        (dsb_xml.Player(1, "A", "B", 1980, vkz="21001"), "", None),
    ],
)
def test_person_id_prefers_the_dsb_id_then_the_member_number(player, expected, kind):
    assert person_id_text(player) == expected
    pid = person_id(expected)
    assert (pid.kind if pid else None) == kind


def test_games_byes_forfeits_and_arbiters_decisions():
    G = dsb_xml.Game
    t = to_trf(
        _report(
            G(1, 1, 2, "1", "0"),
            G(1, 3, None, "+", "-"),  # noneBlackPlayer: spielfrei
            G(2, 2, 3, "0.5", "0.5"),
            G(2, None, 1, "-", "1"),  # a full-point bye of black
            G(3, 1, 3, "0", "0", line=40),  # arbiter: kept as a pairing, "--"
            G(3, 2, None, "0.5", "-"),
            G(4, 1, 2, "0.5", "0", line=50),  # arbiter: a bye per side with its points
            G(4, 3, None, "0", "-"),
            G(5, 2, 1, "-", "+"),
            G(5, 3, None, "-", "-"),
        )
    )
    assert t.games == [
        TrfGame(1, 1, 2, "1", "0"),
        TrfGame(2, 2, 3, "=", "="),
        TrfGame(3, 1, 3, "-", "-"),
        TrfGame(5, 2, 1, "-", "+"),
    ]
    assert t.byes == [
        TrfBye(1, 3, "U"),
        TrfBye(2, 1, "F"),
        TrfBye(3, 2, "H"),
        TrfBye(4, 1, "H"),
        TrfBye(4, 2, "Z"),
        TrfBye(4, 3, "Z"),
        TrfBye(5, 3, "Z"),
    ]
    # Points by hand: 1: 1 + 1 + 0 + 0.5 + 1 = 3.5; 2: 0 + 0.5 + 0.5 + 0 + 0 = 1; 3: 1 + 0.5 + 0 + 0 + 0 = 1.5
    assert [p.computed_points for p in t.players] == [Decimal("3.5"), Decimal(1), Decimal("1.5")]
    notes = [(w.line, w.params["stored"]) for w in t.warnings if "stored" in w.params]
    assert notes == [(40, "„--“"), (50, "Freilose H/Z")]
    # The reader's own warning on those games is replaced by the note (none here: built, not parsed).
    assert t.rounds == 5 and t.head.rounds == 3 and t.head.name == "Test" and t.head.city == "Ort"
