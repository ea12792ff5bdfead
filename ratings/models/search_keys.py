"""The search key of a name column as a database expression (``ratings.folding.search_key`` in SQL).

Stored as generated columns (``Player.surname_key``, ``Tournament.name_key``): the database keeps them equal
to the name on every insert and update, bulk ones included, and PostgreSQL indexes them (trigram GIN, so a
search "anywhere in the name" is an index scan). Portable: nested REPLACE and LOWER on SQLite and PostgreSQL.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Func, Value
from django.db.models.functions import Lower, Replace

from ratings.folding import CHAR_FOLDS, PAIR_FOLDS


def search_key_expression(field_name: str) -> Func:
    """A database expression computing ``search_key`` of a column."""
    expr: F | Func = F(field_name)
    for src, dst in CHAR_FOLDS:
        expr = Replace(expr, Value(src), Value(dst))
    expr = Lower(expr)
    for src, dst in PAIR_FOLDS:
        expr = Replace(expr, Value(src), Value(dst))
    return expr


def search_key_field(field_name: str, max_length: int) -> models.GeneratedField:
    """A stored column holding the search key of ``field_name`` (never written by Python)."""
    return models.GeneratedField(
        expression=search_key_expression(field_name),
        output_field=models.CharField(max_length=max_length * 2),
        db_persist=True,
        editable=False,
    )
