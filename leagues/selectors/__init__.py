"""Reads of the league's public pages, API and exports: keyword-only functions with a fixed number of
queries. The table, crosstable and completeness come from the pure core (``leagues.core``) fed by the rows
read here."""
