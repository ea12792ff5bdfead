"""The rating officers' pages (Wertungsreferenten and staff): tournaments, result entry, rounds, TRF import,
participants, duplicates and the DSB list downloads."""
