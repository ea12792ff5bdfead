"""Team leagues: seasons, divisions, teams, ranking lists and matches (issue 29).

Depends on ``ratings`` (players, clubs, tournaments, the services that rate a division) and never the other
way round; the import contract in ``pyproject.toml`` keeps it so.
"""
