"""PostgreSQL only: the case-insensitive lookups the search ORs with the trigram conditions (a player key
``iexact``, a tournament code ``istartswith``) as expression indexes, so the whole OR is a bitmap of index
scans instead of a sequential scan of players or tournaments."""

from django.db import migrations

POSTGRESQL_INDEXES = [
    ("ratings_player_key_upper", "ratings_player (UPPER(key::text) text_pattern_ops)"),
    ("ratings_tournament_code_upper", "ratings_tournament (UPPER(code::text) text_pattern_ops)"),
]


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, target in POSTGRESQL_INDEXES:
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {target}")


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _target in POSTGRESQL_INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("ratings", "0016_recalculation_job")]

    operations = [migrations.RunPython(create_indexes, drop_indexes)]
