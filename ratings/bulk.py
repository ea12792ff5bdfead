"""Mass inserts without model instances: PostgreSQL ``COPY``, SQLite ``executemany``.

For the few writes of many thousand plain rows (a DSB list of 100,000 memberships), where building and
preparing one model instance per row costs more than the database work. Values are given in field order, as
Python values of the fields (dates, datetimes, strings, integers, None); nothing is validated here: callers
validate before. Everything else uses the ORM.
"""

from __future__ import annotations

import datetime
import itertools
import queue
import re
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any, TypeVar

from django.db import connection, connections, models, transaction
from django.db.models.options import Options

from ratings.folding import name_sort_key

T = TypeVar("T")
R = TypeVar("R")


def with_sort_keys(
    model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]], *, offset: int = 0
) -> tuple[list[str], Iterable[Sequence[Any]]]:
    """``fields`` and ``rows`` with the model's DIN 5007 sort keys (``SortKeyField``) appended, where the rows
    write a key's names but not the key: no ``save()`` keeps it on this path. ``offset``: values before the
    fields in each row (``update_rows``' keys). A row naming some of a key's names but not all cannot give
    it: the caller then passes the key itself."""
    from ratings.models.search_keys import SortKeyField  # the models import nothing of this module

    names = list(fields)
    keys = [
        f
        for f in model._meta.concrete_fields
        if isinstance(f, SortKeyField) and f.name not in names and set(f.sources) & set(names)
    ]
    if not keys:
        return names, rows
    for key in keys:
        if not set(key.sources) <= set(names):
            raise ValueError(
                f"{model.__name__}.{key.name}: write {', '.join(key.sources)} together, or the key"
            )
    positions = [[offset + names.index(s) for s in key.sources] for key in keys]
    keyed = ([*row, *(name_sort_key(*(row[i] or "" for i in at)) for at in positions)] for row in rows)
    return [*names, *(key.name for key in keys)], keyed


def insert_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Insert ``rows`` (tuples in ``fields`` order) into ``model``'s table; returns the number inserted
    (the sort keys of the names among them added: ``with_sort_keys``)."""
    fields, rows = with_sort_keys(model, fields, rows)
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
        batch: list[tuple[Any, ...]] = []
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


def _field(opts: Options[Any], name: str) -> models.Field[Any, Any]:
    field = opts.get_field(name)
    assert isinstance(field, models.Field)  # a concrete column, not a reverse relation
    return field


def _column(opts: Options[Any], name: str) -> str:
    column = _field(opts, name).column
    assert column is not None
    return column


def _adapter(field: models.Field[Any, Any]) -> Callable[[Any], Any] | None:
    ops = connection.ops
    if isinstance(field, models.DateTimeField):
        return ops.adapt_datetimefield_value
    if isinstance(field, models.DateField):
        return ops.adapt_datefield_value
    return None


def update_rows(
    model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]], *, by: Sequence[str] = ()
) -> int:
    """Update many rows by primary key: ``rows`` are ``(pk, value, ...)`` in ``fields`` order (a pk given
    twice gets its last values). ``by``: the fields of a unique key to find the rows by instead of the
    primary key (each row then starts with their values), where the caller knows that key and not the pk.

    PostgreSQL: one ``UPDATE … FROM unnest(arrays)`` (one array per column): a prepared ``UPDATE`` per row
    cost twice the server's CPU and wall time (100,000 players after a fresh full recalculation). SQLite:
    one prepared statement executed many times. ``bulk_update`` builds a ``CASE WHEN`` per row and field,
    which costs milliseconds per row at this size. The sort keys of names among the fields are added
    (``with_sort_keys``).
    """
    fields, rows = with_sort_keys(model, fields, rows, offset=len(by) or 1)
    opts = model._meta
    quote = connection.ops.quote_name
    table = quote(opts.db_table)
    keys = [_field(opts, name) for name in by] or [opts.pk]
    where = [quote(str(f.column)) for f in keys]
    width = len(keys)
    if connection.vendor == "postgresql":
        latest = {tuple(row[:width]): row[width:] for row in rows}
        if latest:
            types = [f.cast_db_type(connection) for f in (*keys, *(_field(opts, n) for n in fields))]
            arrays = ", ".join(f"%s::{t}[]" for t in types)
            names = ", ".join(f"v{i}" for i in range(len(types)))
            assignments = ", ".join(
                f"{quote(_column(opts, name))} = v.v{i + width}" for i, name in enumerate(fields)
            )
            source = f"unnest({arrays}) AS v({names})"
            match = " AND ".join(f"{column} = v.v{i}" for i, column in enumerate(where))
            sql = f"UPDATE {table} SET {assignments} FROM {source} WHERE {match}"  # noqa: S608 - names and types from the model, values as parameters
            columns = zip(*(key + tuple(values) for key, values in latest.items()), strict=True)
            with connection.cursor() as cursor:
                cursor.execute(sql, [array_literal(list(column)) for column in columns])
        return len(latest)
    assignments = ", ".join(f"{quote(_column(opts, name))} = %s" for name in fields)
    match = " AND ".join(f"{column} = %s" for column in where)
    sql = f"UPDATE {table} SET {assignments} WHERE {match}"  # noqa: S608 - names from the model
    adapters = [_adapter(_field(opts, name)) for name in fields]
    params = [
        (
            *(a(v) if a and v is not None else v for a, v in zip(adapters, row[width:], strict=True)),
            *row[:width],
        )
        for row in rows
    ]
    if params:
        with connection.cursor() as cursor:
            cursor.executemany(sql, params)
    return len(params)


def array_literal(values: list[Any]) -> str | list[Any]:
    """A column of values as one PostgreSQL array literal (text), for a ``%s::type[]`` parameter: psycopg
    dumps a list element by element through a regular expression for quoting, which was a third of the
    late chain's in-place ``UPDATE`` of 6,700 rows x 17 columns. Integers, decimals, booleans, dates and
    strings (quoted and escaped: umlauts, quotes, backslashes, braces and the word NULL stay text); a
    column holding anything else (datetimes) is returned as the list for psycopg to dump."""
    if all(type(v) is int for v in values):
        return "{" + ",".join(map(str, values)) + "}"
    parts = []
    for v in values:
        if v is None:
            parts.append("NULL")
        elif type(v) is int or type(v) is Decimal:
            parts.append(str(v))
        elif type(v) is bool:
            parts.append("t" if v else "f")
        elif isinstance(v, str):
            parts.append('"' + str.__str__(v).replace("\\", "\\\\").replace('"', '\\"') + '"')
        elif type(v) is datetime.date:
            parts.append(v.isoformat())
        else:
            return values
    return "{" + ",".join(parts) + "}"


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


def select_rows(queryset: models.QuerySet[Any, Any]) -> Iterator[tuple[Any, ...]]:
    """The rows of a ``values_list`` query as the driver's tuples (lazily: the query runs at the first row).

    On PostgreSQL the query's own SQL (the ORM builds it) is executed directly and fetched 10,000 rows at a
    time: Django's iterator fetches 100 rows at a time and runs its converters on each value, about a
    sixth of a full recalculation's CPU at 2 M evaluations. psycopg already returns dates, booleans and
    integers as Python values. SQLite goes through the ORM: its dates and booleans need the converters.
    """
    return itertools.chain.from_iterable(_batches_of(queryset))


def _batches_of(queryset: models.QuerySet[Any, Any]) -> Iterator[Iterable[tuple[Any, ...]]]:
    if connection.vendor != "postgresql":
        yield queryset
        return
    yield from _batches(*queryset.query.get_compiler(using=queryset.db).as_sql())


def select_sql(sql: str, params: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
    """The rows of a query the ORM compiled (``select_rows``; PostgreSQL), fetched 10,000 at a time.

    The rows are handed on from each batch by ``itertools.chain``: a generator yielding every one of a full
    recalculation's 12 M rows cost 5-7 % of its CPU."""
    return itertools.chain.from_iterable(_batches(sql, params))


def _batches(sql: str, params: Sequence[Any]) -> Iterator[list[tuple[Any, ...]]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(10_000):
            yield rows


def delete_rows(queryset: models.QuerySet[Any, Any]) -> int:
    """Delete the rows of ``queryset`` in one ``DELETE``, without loading them: for derived rows nothing
    refers to (the rating spans). ``QuerySet.delete()`` loads every row first and sends a signal for each
    wherever a receiver listens to every model's deletes (the page generation's does)."""
    return int(queryset._raw_delete(queryset.db))


def delete_sql(model: type[models.Model], field: str) -> str:
    """``DELETE`` of ``model``'s rows whose ``field`` is in a list given as one array parameter."""
    opts = model._meta
    quote = connection.ops.quote_name
    return f"DELETE FROM {quote(opts.db_table)} WHERE {quote(_column(opts, field))} = ANY(%s)"  # noqa: S608 - names from the model


def copy_sql(model: type[models.Model], fields: Sequence[str]) -> str:
    """PostgreSQL ``COPY … FROM STDIN`` into ``model``'s ``fields`` (rows in ``fields`` order)."""
    opts = model._meta
    quote = connection.ops.quote_name
    return f"COPY {quote(opts.db_table)} ({', '.join(quote(_column(opts, f)) for f in fields)}) FROM STDIN"


class WriteBehind:
    """PostgreSQL: deletes and ``COPY``s of the caller's transaction run in a thread, one job at a time, on
    the caller's own connection, while the caller computes the next job's rows (psycopg releases the GIL
    while the server inserts, maintains the indexes and checks the foreign keys).

    While a job runs the caller must not use its connection: ``wait()`` first (``replace`` does). The
    foreign keys are checked when each ``COPY`` ends (``SET CONSTRAINTS ALL IMMEDIATE``: Django creates
    them ``DEFERRABLE INITIALLY DEFERRED``, so the checks would otherwise all run at ``COMMIT``, after the
    work they could overlap); ``close()`` defers them again. Use as a context manager.
    """

    def __init__(self) -> None:
        from concurrent.futures import Future, ThreadPoolExecutor

        assert connection.vendor == "postgresql" and connection.in_atomic_block
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        self._wrapper = connections[connection.alias]  # this thread's Django connection, not the proxy
        self._raw = connection.connection  # its psycopg connection: the caller's transaction
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="write-behind")
        self._pending: Future[None] | None = None

    def replace(
        self, deletes: Sequence[tuple[str, list[int]]], copies: Sequence[tuple[str, list[Any]]]
    ) -> None:
        """After the previous job: ``deletes`` (``delete_sql``, ids), then ``copies`` (``copy_sql``, rows)."""
        self.wait()
        self._pending = self._executor.submit(self._run, deletes, copies)

    def _run(self, deletes: Sequence[tuple[str, list[int]]], copies: Sequence[tuple[str, list[Any]]]) -> None:
        with self._wrapper.wrap_database_errors, self._raw.cursor() as cursor:  # Django's exception classes
            for sql, ids in deletes:
                if ids:
                    cursor.execute(sql, [ids])
            for sql, rows in copies:
                if rows:
                    with cursor.copy(sql) as copy:
                        for row in rows:
                            copy.write_row(row)

    def wait(self) -> None:
        """Wait for the running job; its error is raised here."""
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.result()

    def close(self) -> None:
        try:
            self.wait()
        finally:
            self._executor.shutdown(wait=True)
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")

    def __enter__(self) -> WriteBehind:
        return self

    def __exit__(self, error_type: type[BaseException] | None, *rest: object) -> None:
        if error_type is None:
            self.close()
            return
        try:  # the caller's error is raised; the transaction rolls back
            self.wait()
        except Exception:  # noqa: S110 - the job's error is secondary to the caller's
            pass
        finally:
            self._executor.shutdown(wait=True)


def shared_snapshot() -> str | None:
    """PostgreSQL: export the current transaction's snapshot for a second connection (``read_ahead``).

    Another transaction never sees this one's uncommitted writes: share it only while this transaction has
    written nothing the reader reads (the caller knows: it opened the transaction and took the rating lock
    only). None on SQLite or outside a transaction: then the caller reads on its own connection.
    """
    if connection.vendor != "postgresql" or not connection.in_atomic_block:
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_export_snapshot()")
        (snapshot,) = cursor.fetchone()
    return str(snapshot)


def read_ahead(  # noqa: C901 -- existing; issue 27
    items: Sequence[T],
    load: Callable[[T], R],
    *,
    snapshot: str | None,
    prepare: Callable[[], None] | None = None,
) -> Generator[tuple[T, R], None, None]:
    """``(item, load(item))`` for each item in order; with a ``snapshot`` (``shared_snapshot``) the next
    item is loaded on a second connection in a thread while the caller works on the current one.

    The thread's transaction is REPEATABLE READ READ ONLY on the exported snapshot, so it reads exactly the
    data the caller's transaction saw when exporting it (the caller must not write what ``load`` reads
    before reading it). psycopg releases the GIL while it waits for the server: the server's work on the
    next item overlaps the caller's Python. ``prepare`` runs first in the thread's transaction (settings).
    Close the iterator (``contextlib.closing``) to stop the thread early.
    """
    if snapshot is None:
        for item in items:
            yield item, load(item)
        return
    if not re.fullmatch(r"[0-9A-F]+(-[0-9A-F]+)+", snapshot):
        raise ValueError(f"not a snapshot id: {snapshot!r}")
    loaded: queue.Queue[tuple[T | None, R | None, BaseException | None]] = queue.Queue(maxsize=1)
    stop = threading.Event()

    def put(entry: tuple[T | None, R | None, BaseException | None]) -> bool:
        while not stop.is_set():
            try:
                loaded.put(entry, timeout=0.1)
                return True
            except queue.Full:
                pass
        return False

    def work() -> None:  # its own connection: Django's connections are per thread
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    cursor.execute(f"SET TRANSACTION SNAPSHOT '{snapshot}'")
                if prepare is not None:
                    prepare()
                for item in items:
                    if stop.is_set() or not put((item, load(item), None)):
                        return
        except BaseException as error:
            put((None, None, error))
        finally:
            connection.close()

    thread = threading.Thread(target=work, name="read-ahead", daemon=True)
    thread.start()
    try:
        for _ in items:
            done, value, error = loaded.get()
            if error is not None:
                raise error
            yield done, value  # type: ignore[misc]  # both set when error is None
    finally:
        stop.set()
        thread.join()
