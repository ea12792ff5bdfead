"""The search key of a name column as a database expression (``ratings.folding.search_key`` in SQL).

Stored as generated columns (``Player.surname_key``, ``Tournament.name_key``): the database keeps them equal
to the name on every insert and update, bulk ones included, and PostgreSQL indexes them (trigram GIN, so a
search "anywhere in the name" is an index scan). Portable: nested REPLACE and LOWER on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F, Func, Value
from django.db.models.functions import Lower, Replace

from ratings.folding import CHAR_FOLDS, PAIR_FOLDS, name_sort_key


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


class SortKeyField(models.CharField):
    """A stored DIN 5007 (variant 1) sort key of the model's ``sources`` fields (``ratings.folding``).

    Written by Python, never by the database: ``pre_save`` sets it on every ``save()`` and ``bulk_create``,
    ``SortKeyModel.save`` adds it to ``update_fields`` naming a source, and the bulk writers of many rows
    (``ratings.services.dsb_list``) write it beside the names. The column compares by code point on both
    databases (SQLite's ``BINARY``, PostgreSQL's ``COLLATE "C"``), so ``ORDER BY`` it gives one order
    everywhere and uses its index. SQLite cannot hold the folding as a generated column (a REPLACE per
    letter nests deeper than its parser allows), and a function of our own in the schema would make the
    database file unusable for the ``sqlite3`` shell.
    """

    def __init__(self, *args: Any, sources: Sequence[str] = (), **kwargs: Any) -> None:
        self.sources = tuple(sources)
        kwargs.setdefault("editable", False)
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        kwargs["sources"] = list(self.sources)
        kwargs.pop("editable", None)
        kwargs.pop("default", None)
        return name, path, args, kwargs

    def db_parameters(self, connection: BaseDatabaseWrapper) -> dict[str, Any]:
        params = super().db_parameters(connection)
        if connection.vendor == "postgresql":
            params["collation"] = "C"
        return params

    def key_of(self, instance: models.Model) -> str:
        return name_sort_key(*(getattr(instance, source) or "" for source in self.sources))

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        value = self.key_of(model_instance)
        setattr(model_instance, self.attname, value)
        return value


class SortKeyModel(models.Model):
    """A model with a ``SortKeyField``: a save naming a source in ``update_fields`` writes the key too."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            names = set(update_fields)
            keys = [
                f.name
                for f in self._meta.concrete_fields
                if isinstance(f, SortKeyField) and names & set(f.sources) and f.name not in names
            ]
            kwargs["update_fields"] = [*update_fields, *keys]
        super().save(*args, **kwargs)
