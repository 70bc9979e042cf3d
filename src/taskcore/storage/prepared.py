"""The webhook's hot statements, run lean: a Core statement compiled once per dialect, executed on the DBAPI cursor
of the connection's open transaction with SQLAlchemy's own bind and result processors.

``Connection.execute`` costs 25-70 µs a statement around a driver call of 5-15 µs (cache key, execution context,
result object); the create-task path runs four or five statements per event, so that overhead alone was half of
its CPU. A ``Prepared`` statement is built with Core like any other (dialect-neutral SQL, the same types: UTC
datetimes, booleans), compiled by SQLAlchemy for the connection's dialect the first time, and then each call only
converts the parameters, calls the cursor and converts the row. DBAPI errors come out as SQLAlchemy's exceptions,
so ``Database.transact`` still recognises a busy database. Only for single statements without expanding ``IN``
lists, inside a transaction that SQLAlchemy began (the cursor joins it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from sqlalchemy import Connection, exc
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.sql.expression import ClauseElement

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    positional: bool
    names: tuple[str, ...]  # the parameter for each placeholder (positional) or each name (named)
    binds: tuple[Processor, ...]
    results: tuple[Processor, ...]


class Prepared:
    """A Core statement and the parameter names every call gives; compiled once per dialect.

    ``statement`` is the statement, or a function of the dialect's name that builds it (for the dialect-specific
    constructs such as ``INSERT ... ON CONFLICT``)."""

    def __init__(self, statement: ClauseElement | Callable[[str], ClauseElement], keys: Sequence[str] = ()) -> None:
        self.statement = statement
        self.keys = tuple(keys)
        self._compiled: dict[tuple[str, str, str], _Compiled] = {}

    def _for(self, dialect: Dialect) -> _Compiled:
        key = (dialect.name, dialect.driver, dialect.paramstyle)
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = self._compile(dialect)
        return found

    def _compile(self, dialect: Dialect) -> _Compiled:
        statement = self.statement if isinstance(self.statement, ClauseElement) else self.statement(dialect.name)
        compiled: Any = statement.compile(dialect=dialect, column_keys=list(self.keys) or None)
        missing = set(compiled.binds) - set(self.keys)
        if compiled.literal_execute_params or compiled.post_compile_params or missing:
            raise ValueError(f"not a plain prepared statement (parameters not given: {sorted(missing)})")
        names = tuple(compiled.positiontup) if compiled.positional else tuple(compiled.binds)
        # SQLAlchemy's own converters: per bind parameter, and per result column.
        processors = compiled._bind_processors
        results = tuple(entry.type._cached_result_processor(dialect, None) for entry in compiled._result_columns)
        return _Compiled(compiled.string, bool(compiled.positional), names,
                         tuple(processors.get(name) for name in names), results)

    def _arguments(self, compiled: _Compiled, params: Mapping[str, Any]) -> Any:
        values = [params[name] if convert is None else convert(params[name])
                  for name, convert in zip(compiled.names, compiled.binds, strict=True)]
        return values if compiled.positional else dict(zip(compiled.names, values, strict=True))

    def _execute(self, conn: Connection, params: Mapping[str, Any] | None, many: Sequence[Mapping[str, Any]] = ()
                 ) -> Any:
        compiled = self._for(conn.dialect)
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        arguments: Any = None
        try:
            if params is not None:
                arguments = self._arguments(compiled, params)
                cursor.execute(compiled.sql, arguments)
            else:
                arguments = [self._arguments(compiled, row) for row in many]
                cursor.executemany(compiled.sql, arguments)
        except conn.dialect.loaded_dbapi.Error as error:
            cursor.close()
            raise exc.DBAPIError.instance(compiled.sql, arguments, error, conn.dialect.loaded_dbapi.Error,
                                          dialect=conn.dialect) from error
        return cursor

    def _row(self, conn: Connection, raw: Sequence[Any] | None) -> tuple[Any, ...] | None:
        if raw is None:
            return None
        processors = self._for(conn.dialect).results
        return tuple(value if convert is None else convert(value)
                     for value, convert in zip(raw, processors, strict=True))

    def run(self, conn: Connection, params: Mapping[str, Any]) -> None:
        """Execute, ignoring any rows."""
        self._execute(conn, params).close()

    def run_many(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Execute once per row (the driver's executemany); for statements without RETURNING."""
        if rows:
            self._execute(conn, None, rows).close()

    def first(self, conn: Connection, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """Execute; the first row (converted), or None."""
        cursor = self._execute(conn, params)
        try:
            return self._row(conn, cursor.fetchone())
        finally:
            cursor.close()

    def all(self, conn: Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Execute; every row (converted)."""
        cursor = self._execute(conn, params)
        try:
            return [row for raw in cursor.fetchall() if (row := self._row(conn, raw)) is not None]
        finally:
            cursor.close()


def dialect_insert(dialect: str, table: Any) -> Any:
    """The dialect's INSERT construct (which knows ON CONFLICT) for a dialect name.

    The dialect package is imported here, when first needed: importing PostgreSQL's (every driver module of it)
    costs a SQLite-only process 2.4 MB of resident memory."""
    return import_module(f"sqlalchemy.dialects.{'postgresql' if dialect == 'postgresql' else 'sqlite'}").insert(table)
