"""Ranking lists: the stored snapshot of each entry's DWZ at the season's reference date."""

from __future__ import annotations

from django.db import transaction

from leagues.models import RankingEntry, RankingList
from leagues.selectors.ratings_at import dwz_at
from ratings.generation import bump_generation


def ranking_snapshot(*, ranking_list: RankingList) -> int:
    """Store every entry's DWZ and index at the season's reference date (the last evaluation ending on or
    before it); entries without a rating then get none. Returns the number of entries changed."""
    with transaction.atomic():
        entries = list(RankingEntry.objects.select_for_update().filter(ranking_list=ranking_list))
        ratings = dwz_at(player_ids=[e.player_id for e in entries], on=ranking_list.season.reference_date)
        changed = []
        for e in entries:
            dwz, index = ratings.get(e.player_id, (None, None))
            if (e.dwz, e.dwz_index) != (dwz, index):
                e.dwz, e.dwz_index = dwz, index
                changed.append(e)
        RankingEntry.objects.bulk_update(changed, ["dwz", "dwz_index"])
        if changed:
            bump_generation()  # a bulk update: no model signal (``ratings.generation``)
        return len(changed)
