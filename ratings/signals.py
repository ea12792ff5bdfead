"""Signals other apps may listen to (``following`` mails the followers of re-rated players)."""

from django.dispatch import Signal

# Sent after the transaction of a recalculation committed, once per recalculation. Keyword arguments:
# ``changes`` ({player pk: (DWZ before, DWZ after)}), ``tournament_id``, ``tournament_name``,
# ``tournament_code`` (the tournament whose save or delete caused it, or None) and ``removed`` (it was
# deleted), ``chain`` (the background rest of an announced save), ``cause`` (``enums.RatingChangeCause``:
# a tournament, an officer's adjustment, a merge, a DSB list import, a player's own data). Receivers must
# stay fast: they queue work, they do not do it.
ratings_changed = Signal()

# Sent inside the merge's transaction, before the dropped record is deleted: ``keep`` and ``drop`` (player
# pks). Receivers move what other apps hang on the dropped player (``following``: his followers).
players_merged = Signal()
