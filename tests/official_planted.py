"""The Abgleich's three planted causes, stored as a list import's comparison (shared by the service, web and
browser tests of the stored Abgleich): a federation of 32 players in three blocks of round robins
(``tests/selectors/official_support.py``), the DSB's list taken from one history, then ours made to differ by
a tournament the DSB lacks (``T12``: hier mehr), one only the DSB has (``DSB-Open``: beim DSB mehr) and a
game of ``T02`` changed (Kette)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from ratings.models import Club, ListImport, ListImportStatus, Membership, Player
from ratings.services.official_comparison import official_comparison_store
from tests.selectors import official_support as s

MISSING, FLIPPED = 12, 2


@dataclass
class Planted:
    world: s.World
    list_import: ListImport
    missing: str  # the tournament the DSB has not evaluated
    dsb_only: list[Player]  # the players of the tournament only the DSB has
    pair: list[Player]  # the two players of the changed game
    flipped: str  # the tournament of the changed game


def plant(*, seed: int = 11) -> Planted:
    """The three causes in ours against the list of ``s.AS_OF`` (OfficialRating rows, as a list import
    leaves them); the comparison not stored yet (``store``)."""
    plan = s.block_plan(seed=seed)
    extra = tuple(sorted(set(range(32)) - set(plan[MISSING]) - set(plan[FLIPPED])))[:4]
    extra_end = s.FIRST + datetime.timedelta(weeks=10, days=3)
    world = s.build(skip=(MISSING,), plan=plan, extra={"DSB-Open": (extra, extra_end)})
    s.publish()
    s.remove(world.tournaments.pop("DSB-Open"))
    s.add(world, s.name(MISSING), plan[MISSING], s.FIRST + datetime.timedelta(weeks=MISSING))
    pair = [world.players[i] for i in plan[FLIPPED][:2]]
    s.flip(world.tournaments[s.name(FLIPPED)], *pair)
    list_import = ListImport.objects.create(
        file_name="LV-C-csv.zip", as_of=s.AS_OF, status=ListImportStatus.DONE, exit_code=0, summary={}
    )
    return Planted(
        world, list_import, s.name(MISSING), [world.players[i] for i in extra], pair, s.name(FLIPPED)
    )


def store(planted: Planted) -> dict:
    """The comparison stored as the list import's background job stores it, its counts in the summary."""
    counts = official_comparison_store(list_import=planted.list_import)
    planted.list_import.summary = {"abgleich": counts}
    planted.list_import.save(update_fields=["summary"])
    return counts


def members_of(club: Club, players: list[Player], *, first: int = 1) -> None:
    """Current memberships of ``players`` in ``club`` (member numbers from ``first``)."""
    Membership.objects.bulk_create(
        Membership(player=p, club=club, member_number=str(n)) for n, p in enumerate(players, start=first)
    )
