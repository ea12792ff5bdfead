"""The snapshot and digest of a DSB XML report: the header is no part of it, key order does not matter,
every element of head, players and games does."""

import dataclasses
import datetime
import uuid

from ratings.formats.dsb_xml import Game, Header, Player, Report, Tournament
from ratings.formats.dsb_xml_snapshot import report_digest, report_snapshot, snapshot_digest


def _report() -> Report:
    return Report(
        Header(
            datetime.datetime(2026, 5, 4, 20, 15), "Bezirk - Eva Schulz", "dwzsite 0.1.0", uuid.UUID(int=1)
        ),
        Tournament(
            uuid.UUID(int=2),
            "Maiturnier",
            "SR",
            1,
            datetime.date(2026, 5, 2),
            datetime.date(2026, 5, 2),
            "Ulm",
        ),
        (Player(1, "Müller", "Jörg", 1970), Player(2, "Weiß", "Anna", 1985, vkz="C0505", member_number=7)),
        (Game(1, 1, 2, "1", "0"),),
    )


def test_the_header_is_no_part_of_the_digest():
    r = _report()
    other = dataclasses.replace(
        r, header=Header(datetime.datetime(2027, 1, 1), "x", "dwzsite 9", uuid.UUID(int=99))
    )
    assert report_digest(r) == report_digest(other) and len(report_digest(r)) == 64


def test_key_order_does_not_matter_but_every_value_does():
    snapshot = report_snapshot(_report())
    reordered = {key: snapshot[key] for key in reversed(list(snapshot))}
    assert snapshot_digest(reordered) == snapshot_digest(snapshot)
    assert snapshot["players"][1]["member_number"] == 7 and snapshot["head"]["end_date"] == "2026-05-02"
    r = _report()
    for changed in (
        dataclasses.replace(r, games=(Game(1, 1, 2, "0.5", "0.5"),)),
        dataclasses.replace(r, players=(r.players[0], dataclasses.replace(r.players[1], birth_year=1986))),
        dataclasses.replace(
            r, tournament=dataclasses.replace(r.tournament, end_date=datetime.date(2026, 5, 3))
        ),
    ):
        assert report_digest(changed) != report_digest(r)
