"""The webhook's hot statements, run lean: a Core statement compiled once per dialect, executed on the DBAPI cursor
of the connection's open transaction with SQLAlchemy's own bind and result processors.

``Connection.execute`` costs 25-70 µs a statement around a driver call of 5-15 µs (cache key, execution context,
result object); the create-task path runs four or five statements per event, so that overhead alone was half of
its CPU. A ``Prepared`` statement is built with Core like any other (dialect-neutral SQL, the same types: UTC
datetimes, booleans), compiled by SQLAlchemy for the connection's dialect the first time, and then each call only
converts the parameters, calls the cursor and converts the row. DBAPI errors come out as SQLAlchemy's exceptions,
so ``Database.transact`` still recognises a busy database. Only for single statements without expanding ``IN``
lists, inside a transaction that SQLAlchemy began (the cursor joins it). Values written into the statement itself
(``status == 'allowed'``) are sent as the statement's own parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import import_module
from typing import Any, overload

from sqlalchemy import Connection, exc
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.sql.expression import ClauseElement

from taskcore.errors import ValidationError

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    positional: bool
    names: tuple[str, ...]  # the parameter for each placeholder (positional) or each name (named)
    binds: tuple[Processor, ...]
    results: tuple[Processor, ...]
    fixed: dict[str, Any]  # values the statement carries itself (``status == 'allowed'``), by parameter name
    plan: tuple[tuple[str, Processor], ...]  # (name, converter) per placeholder: ``names`` and ``binds`` together
    converted: bool  # some result column has a converter
    slots: tuple[tuple[int, Processor], ...]  # per name: its index in ``keys`` and its converter (rows by position)


class Prepared:
    """A Core statement and the parameter names every call gives; compiled once per dialect.

    ``statement`` is the statement, or a function of the dialect's name that builds it (for the dialect-specific
    constructs such as ``INSERT ... ON CONFLICT``)."""

    def __init__(self, statement: ClauseElement | Callable[[str], ClauseElement], keys: Sequence[str] = ()) -> None:
        self.statement = statement
        self.keys = tuple(keys)
        self._compiled: dict[tuple[str, str, str], _Compiled] = {}
        self._last: tuple[Dialect, _Compiled] | None = None  # a process uses one dialect: found by identity

    def _for(self, dialect: Dialect) -> _Compiled:
        last = self._last  # one read: another thread may replace the pair meanwhile
        if last is not None and last[0] is dialect:
            return last[1]
        key = (dialect.name, dialect.driver, dialect.paramstyle)
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = self._compile(dialect)
        self._last = (dialect, found)
        return found

    def _compile(self, dialect: Dialect) -> _Compiled:
        statement = self.statement if isinstance(self.statement, ClauseElement) else self.statement(dialect.name)
        compiled: Any = statement.compile(dialect=dialect, column_keys=list(self.keys) or None)
        fixed = {name: bind.effective_value for name, bind in compiled.binds.items()
                 if name not in self.keys and not bind.required}
        missing = set(compiled.binds) - set(self.keys) - set(fixed)
        if compiled.literal_execute_params or compiled.post_compile_params or missing:
            raise ValidationError(f"not a plain prepared statement (parameters not given: {sorted(missing)})")
        names = tuple(compiled.positiontup) if compiled.positional else tuple(compiled.binds)
        # SQLAlchemy's own converters: per bind parameter, and per result column.
        processors = {name: _last_value_kept(convert) if _is_datetime(compiled.binds[name].type) else convert
                      for name, convert in compiled._bind_processors.items()}
        results = tuple(entry.type._cached_result_processor(dialect, None) for entry in compiled._result_columns)
        binds = tuple(processors.get(name) for name in names)
        slots = () if fixed else tuple(zip((self.keys.index(name) for name in names), binds, strict=True))
        return _Compiled(compiled.string, bool(compiled.positional), names, binds, results, fixed,
                         tuple(zip(names, binds, strict=True)), any(convert is not None for convert in results), slots)

    def _arguments(self, compiled: _Compiled, params: Mapping[str, Any]) -> Any:
        given = {**compiled.fixed, **params} if compiled.fixed else params
        values = [given[name] if convert is None else convert(given[name]) for name, convert in compiled.plan]
        return values if compiled.positional else dict(zip(compiled.names, values, strict=True))

    def _by_position(self, compiled: _Compiled, row: Sequence[Any]) -> Any:
        if not compiled.slots:  # values of its own: through the mapping
            return self._arguments(compiled, dict(zip(self.keys, row, strict=True)))
        values = [row[i] if convert is None else convert(row[i]) for i, convert in compiled.slots]
        return values if compiled.positional else dict(zip(compiled.names, values, strict=True))

    def _execute(self, conn: Connection, params: Mapping[str, Any] | None, many: Sequence[Mapping[str, Any]] = (),
                 compiled: _Compiled | None = None, rows: Sequence[Sequence[Any]] = ()) -> Any:
        compiled = compiled or self._for(conn.dialect)
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        arguments: Any = None
        try:
            if params is not None:
                arguments = self._arguments(compiled, params)
                cursor.execute(compiled.sql, arguments)
            else:
                arguments = ([self._arguments(compiled, row) for row in many] if many else
                             [self._by_position(compiled, row) for row in rows])
                cursor.executemany(compiled.sql, arguments)
        except conn.dialect.loaded_dbapi.Error as error:
            cursor.close()
            raise exc.DBAPIError.instance(compiled.sql, arguments, error, conn.dialect.loaded_dbapi.Error,
                                          dialect=conn.dialect) from error
        return cursor

    @staticmethod
    def _row(compiled: _Compiled, raw: Sequence[Any] | None) -> tuple[Any, ...] | None:
        if raw is None:
            return None
        if not compiled.converted:
            return tuple(raw)
        return tuple([value if convert is None else convert(value)
                      for value, convert in zip(raw, compiled.results, strict=True)])

    def run(self, conn: Connection, params: Mapping[str, Any]) -> None:
        """Execute, ignoring any rows."""
        self._execute(conn, params).close()

    def run_many(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Execute once per row (the driver's executemany); for statements without RETURNING."""
        if rows:
            self._execute(conn, None, rows).close()

    def run_rows(self, conn: Connection, rows: Sequence[Sequence[Any]]) -> None:
        """``run_many`` with each row's values in the order of ``keys``: no mapping per row (the reminder tick
        writes thousands)."""
        if rows:
            self._execute(conn, None, rows=rows).close()

    def first(self, conn: Connection, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """Execute; the first row (converted), or None."""
        compiled = self._for(conn.dialect)
        cursor = self._execute(conn, params, compiled=compiled)
        try:
            return self._row(compiled, cursor.fetchone())
        finally:
            cursor.close()

    def raw(self, conn: Connection, params: Mapping[str, Any]) -> list[Any]:
        """Execute; every row as the driver returns it, with no conversion (for columns that need none, or that the
        caller converts itself)."""
        cursor = self._execute(conn, params)
        try:
            return cursor.fetchall()  # type: ignore[no-any-return]
        finally:
            cursor.close()

    def all(self, conn: Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Execute; every row (converted)."""
        cursor = self._execute(conn, params)
        try:
            raws = cursor.fetchall()
        finally:
            cursor.close()
        # Only the columns that have a converter, looked up once for all rows (the tick reads thousands at once).
        converters = [(i, convert) for i, convert in enumerate(self._for(conn.dialect).results) if convert is not None]
        if not converters:
            return [tuple(raw) for raw in raws]
        rows = []
        for raw in raws:
            row = list(raw)
            for i, convert in converters:
                row[i] = convert(row[i])
            rows.append(tuple(row))
        return rows


def _is_datetime(type_: Any) -> bool:
    try:
        return type_.python_type is datetime
    except NotImplementedError:
        return False


def _last_value_kept(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``convert`` remembering its last argument and result: the statements of one transaction bind the same
    ``now`` again and again, and turning a datetime into the driver's form costs more than the call it saves."""
    last: tuple[Any, Any] = (object(), None)

    def convert_once(value: Any) -> Any:
        nonlocal last
        seen, result = last  # one read: another thread may replace the pair meanwhile
        if value is seen:
            return result
        result = convert(value)
        last = (value, result)
        return result

    return convert_once


def dialect_insert(dialect: str, table: Any) -> Any:
    """The dialect's INSERT construct (which knows ON CONFLICT) for a dialect name.

    The dialect package is imported here, when first needed: importing PostgreSQL's (every driver module of it)
    costs a SQLite-only process 2.4 MB of resident memory."""
    return import_module(f"sqlalchemy.dialects.{'postgresql' if dialect == 'postgresql' else 'sqlite'}").insert(table)


# SQLAlchemy's default text format for DATETIME on SQLite: what ``sqlite_text`` writes and
# ``utc_from_db`` reads (with ``fromisoformat``, as SQLAlchemy does).
SQLITE_DATETIME = "%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d.%(microsecond)06d"
_TEXT = "%04d-%02d-%02d %02d:%02d:%02d.%06d"  # SQLITE_DATETIME with positions: no dict to build
_RECENT: dict[int, tuple[datetime, str]] = {}  # id -> (the value itself, its text): a hit is the very same object
_RECENT_MAX = 64


def sqlite_text(value: datetime | None) -> str | None:
    """An aware value as SQLite stores it: naive UTC, ``YYYY-MM-DD HH:MM:SS.ffffff`` (``SQLITE_DATETIME``);
    a naive value is refused, as ambiguous. The text of the last few values is kept by identity (datetimes never
    change): a statement run for many rows binds the same ``now`` in every row."""
    if value is None:
        return None
    recent = _RECENT.get(id(value))
    if recent is not None and recent[0] is value:
        return recent[1]
    if value.tzinfo is None:
        raise ValidationError("naive datetime given to a UTC column")
    utc = value.astimezone(UTC)
    text = _TEXT % (utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second, utc.microsecond)
    if len(_RECENT) >= _RECENT_MAX:
        _RECENT.clear()
    _RECENT[id(value)] = (value, text)
    return text


def sqlite_stamp(value: str | datetime | None) -> datetime | None:
    """A stored SQLite timestamp to aware UTC: ``sqlite_text``'s form in one parse (no room for an offset), anything
    else as ``utc_from_db`` reads it."""
    if isinstance(value, str) and len(value) == 26 and value[19] == ".":
        return datetime.fromisoformat(value + "+00:00")
    return utc_from_db(value)


@overload
def utc_from_db(value: None) -> None: ...


@overload
def utc_from_db(value: str | datetime) -> datetime: ...


def utc_from_db(value: str | datetime | None) -> datetime | None:
    """A stored timestamp as the driver returns it (SQLite: text, PostgreSQL: a naive datetime) to aware UTC."""
    if value is None:
        return None
    stamp: datetime = datetime.fromisoformat(value) if isinstance(value, str) else value
    return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)
