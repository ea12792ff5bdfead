"""What a DSB XML report sent (formats.md §3.10), as plain JSON, and its digest. Pure Python, no Django.

A submission keeps the snapshot of the file it exported; the tournament as stored now gives another
snapshot (``ratings.selectors.dsb_xml_export``). Equal digests: the DSB has the current state ("eingereicht");
different ones: "geändert seit Einreichung", and the two snapshots tell what changed. The header (creation
date, file UUID, sender, system) is no part of either: the same tournament exported twice is the same.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from .dsb_xml import Report

HEAD_KEYS = ("uuid", "label", "type", "time_control", "rounds", "start_date", "end_date", "location", "notes")
PLAYER_KEYS = (
    "number",
    "dsb_id",
    "surname",
    "forename",
    "birth_year",
    "vkz",
    "member_number",
    "club",
    "fide_id",
    "fide_rating",
    "sex",
)


def report_snapshot(report: Report) -> dict[str, Any]:
    """Head, players and games of ``report`` as JSON-ready values (header left out)."""
    t = report.tournament
    head = {
        "uuid": str(t.uuid),
        "label": t.label,
        "type": t.type,
        "time_control": t.time_control,
        "rounds": t.rounds,
        "start_date": t.start_date.isoformat(),
        "end_date": t.end_date.isoformat(),
        "location": t.location,
        "notes": t.notes,
    }
    players = [{key: getattr(p, key) for key in PLAYER_KEYS} for p in report.players]
    games = [
        {
            "round": g.round,
            "white": g.white,
            "black": g.black,
            "point_white": g.point_white,
            "point_black": g.point_black,
            "date": g.date.isoformat() if g.date else None,
        }
        for g in report.games
    ]
    return {"head": head, "players": players, "games": games}


def snapshot_digest(snapshot: dict[str, Any]) -> str:
    """SHA-256 (hex) of a snapshot in a canonical JSON form: key order and spacing do not matter."""
    text = json.dumps(snapshot, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def report_digest(report: Report) -> str:
    return snapshot_digest(report_snapshot(report))
