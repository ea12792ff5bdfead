"""Mass inserts without model instances: PostgreSQL ``COPY``, SQLite ``executemany``.

For the few writes of many thousand plain rows (a DSB list of 100,000 memberships), where building and
preparing one model instance per row costs more than the database work. Values are given in field order, as
Python values of the fields (dates, datetimes, strings, integers, None); nothing is validated here: callers
validate before. Everything else uses the ORM.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from django.db import connection, models


def insert_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence]) -> int:
    """Insert ``rows`` (tuples in ``fields`` order) into ``model``'s table; returns the number inserted."""
    opts = model._meta
    columns = [_column(opts, name) for name in fields]
    quote = connection.ops.quote_name
    table = quote(opts.db_table)
    column_list = ", ".join(quote(c) for c in columns)
    count = 0
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({column_list}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
                    count += 1
            return count
        adapters = [_adapter(_field(opts, name)) for name in fields]
        sql = f"INSERT INTO {table} ({column_list}) VALUES ({', '.join(['%s'] * len(columns))})"  # noqa: S608 - names from the model, values as parameters
        batch: list[tuple] = []
        for row in rows:
            batch.append(
                tuple(a(v) if a and v is not None else v for a, v in zip(adapters, row, strict=True))
            )
            if len(batch) == 5000:
                cursor.executemany(sql, batch)
                count += len(batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)
            count += len(batch)
    return count


def _field(opts, name: str) -> models.Field:
    field = opts.get_field(name)
    assert isinstance(field, models.Field)  # a concrete column, not a reverse relation
    return field


def _column(opts, name: str) -> str:
    column = _field(opts, name).column
    assert column is not None
    return column


def _adapter(field: models.Field):
    ops = connection.ops
    if isinstance(field, models.DateTimeField):
        return ops.adapt_datetimefield_value
    if isinstance(field, models.DateField):
        return ops.adapt_datefield_value
    return None


def update_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence]) -> int:
    """Update many rows by primary key: ``rows`` are ``(pk, value, ...)`` in ``fields`` order.

    One prepared statement executed many times: ``bulk_update`` builds a ``CASE WHEN`` per row and field,
    which costs milliseconds per row at this size.
    """
    opts = model._meta
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(_column(opts, name))} = %s" for name in fields)
    sql = f"UPDATE {quote(opts.db_table)} SET {assignments} WHERE {quote(str(opts.pk.column))} = %s"  # noqa: S608 - names from the model
    adapters = [
        _adapter(_field(opts, name)) if connection.vendor != "postgresql" else None for name in fields
    ]
    params = [
        (*(a(v) if a and v is not None else v for a, v in zip(adapters, values, strict=True)), pk)
        for pk, *values in rows
    ]
    if params:
        with connection.cursor() as cursor:
            cursor.executemany(sql, params)
    return len(params)


def tune_window_reads(*, work_mem_mb: int) -> None:
    """PostgreSQL: settings of the current transaction for reading a history window by window.

    ``work_mem``: a window's sorts (some 200,000 pairings at 2 M evaluations) stay in memory instead of
    spilling to temporary files under the default 4 MB. ``random_page_cost`` 1.1 instead of 4 (the
    spinning-disk default): a window's rows are read tournament by tournament through indexes, and the rows
    of one tournament lie together, so those reads are nearly sequential; at 4 the planner scanned all 2 M
    evaluations once per window (1.4 s against 0.4 s). ``SET LOCAL`` ends with the transaction; outside
    one, and on SQLite, this does nothing.
    """
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL work_mem = '{int(work_mem_mb)}MB'")
            cursor.execute("SET LOCAL random_page_cost = 1.1")


def select_rows(queryset: models.QuerySet) -> Iterator[tuple]:
    """The rows of a ``values_list`` query as the driver's tuples.

    On PostgreSQL the query's own SQL (the ORM builds it) is executed directly and fetched 10,000 rows at a
    time: Django's iterator fetches 100 rows at a time and runs its converters on each value, about a
    sixth of a full recalculation's CPU at 2 M evaluations. psycopg already returns dates, booleans and
    integers as Python values. SQLite goes through the ORM: its dates and booleans need the converters.
    """
    if connection.vendor != "postgresql":
        yield from queryset
        return
    sql, params = queryset.query.get_compiler(using=queryset.db).as_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(10_000):
            yield from rows
