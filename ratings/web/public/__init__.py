"""The public pages: rating lists, players, clubs, organisations, tournaments, search, statistics, the
calculator and the start page. Read-only; no login needed."""
