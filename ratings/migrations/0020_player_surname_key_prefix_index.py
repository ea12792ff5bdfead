"""PostgreSQL only: the surname key as a prefix index (pattern operators, whatever the database's
collation), then the search's order. The search reads the players whose surname equals or begins with the
term on their own (``ratings.selectors.search.players``): an index range instead of matching every player
against the trigram condition, where a common name ("Müller") is in thousands of surnames."""

from django.db import migrations

NAME = "ratings_player_surname_key_prefix"
TARGET = "ratings_player (surname_key varchar_pattern_ops, surname, first_name, id)"


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {NAME} ON {TARGET}")


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {NAME}")


class Migration(migrations.Migration):
    dependencies = [("ratings", "0019_drop_redundant_recalculation_indexes")]

    operations = [migrations.RunPython(create_index, drop_index)]
