"""The league's pure core (spec/leagues.md §6): table, tie-breaks, crosstable, completeness, eligibility, the
games a division's DWZ tournament holds, and the import contract. No Django, no I/O, like ``ratings.dwz``.

Board points are integers in halves (a won board is 2) so that sums stay exact. Messages are German (the
source language), marked with ``gettext_noop`` and translated by the caller (``Message.template``/``params``).
"""
