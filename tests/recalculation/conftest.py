"""Fixtures shared by the recalculation tests."""

from __future__ import annotations

import pytest

from ratings import bulk


@pytest.fixture
def read_ahead_snapshots(monkeypatch) -> list[str | None]:
    """The snapshot each ``bulk.read_ahead`` of the test was given (None: read one window after the other),
    in call order; the reading itself is the real one."""
    snapshots: list[str | None] = []
    read_ahead = bulk.read_ahead

    def spy(items, load, *, snapshot, prepare=None):
        snapshots.append(snapshot)
        return read_ahead(items, load, snapshot=snapshot, prepare=prepare)

    monkeypatch.setattr(bulk, "read_ahead", spy)
    return snapshots
