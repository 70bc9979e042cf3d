"""Engine factory and transactions: SQLite with WAL and short IMMEDIATE writes, or any SQLAlchemy URL."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, ExceptionContext, create_engine, event
from sqlalchemy.exc import OperationalError, ProgrammingError

from taskcore.errors import SchemaError
from taskcore.storage.unit import SqlUnit

T = TypeVar("T")

BUSY_TIMEOUT_MS = 5000
SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
    "PRAGMA foreign_keys=ON",
    "PRAGMA synchronous=NORMAL",
)
_BUSY_MARKERS = ("database is locked", "database is busy", "deadlock detected", "could not serialize",
                 "statement timeout")
# SQLite reports a missing table or column as an OperationalError; PostgreSQL as SQLSTATE 42P01 / 42703.
_SCHEMA_MARKERS = ("no such table", "no such column", "has no column named")
_SCHEMA_SQLSTATES = frozenset({"42P01", "42703"})


def sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL of a SQLite file, made absolute."""
    return f"sqlite:///{path.expanduser().resolve()}"


def _on_sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.isolation_level = None  # transactions are begun explicitly in _on_sqlite_begin
    cursor = dbapi_conn.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def _sqlite_busy_timeout(conn: Connection, wait_ms: int) -> None:
    """Set the connection's busy timeout (outside any transaction: on the driver's connection itself)."""
    conn.connection.dbapi_connection.execute(f"PRAGMA busy_timeout={max(0, int(wait_ms))}")  # type: ignore[union-attr]


def _on_sqlite_begin(conn: Connection) -> None:
    mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
    conn.exec_driver_sql(f"BEGIN {mode}")


def _without_row_values(context: ExceptionContext) -> None:
    """PostgreSQL's error DETAIL quotes the row or key that failed (``Key (id)=(34600112233) already exists``,
    ``Failing row contains (...)``): drop it from the driver's message and from SQLAlchemy's, so neither the error
    text nor a logged traceback carries values. The SQLSTATE and the diagnostics stay on the driver's exception."""
    for error in (context.original_exception, context.sqlalchemy_exception):
        message = error.args[0] if error is not None and error.args else None
        if error is not None and isinstance(message, str) and "\nDETAIL:" in message:
            error.args = (message.split("\nDETAIL:", 1)[0], *error.args[1:])


def make_engine(url: str, *, pool_size: int = 5) -> Engine:
    """An engine with this service's connection settings; SQLite files get WAL, busy_timeout 5000 and friends.
    Bound parameters are left out of every error text (``hide_parameters``): they hold phone numbers and messages."""
    if url.startswith("sqlite"):
        database = url.split("///", 1)[1] if "///" in url else ""
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, pool_size=pool_size, max_overflow=10, pool_pre_ping=False, hide_parameters=True)
        event.listen(engine, "connect", _on_sqlite_connect)
        event.listen(engine, "begin", _on_sqlite_begin)
        return engine
    engine = create_engine(url, pool_size=pool_size, max_overflow=10, pool_pre_ping=True, hide_parameters=True)
    event.listen(engine, "handle_error", _without_row_values)
    return engine


def is_busy_error(exc: BaseException) -> bool:
    """True for lock and serialisation failures that a retry of the whole transaction can cure."""
    return isinstance(exc, OperationalError) and any(m in str(exc.orig).lower() for m in _BUSY_MARKERS)


def is_schema_error(exc: BaseException) -> bool:
    """True when the schema is not what this code needs (a missing table or column, a refused migration history):
    waiting cannot cure it, so the process stops with one clear line (SPEC section 17)."""
    if isinstance(exc, SchemaError):
        return True
    if not isinstance(exc, OperationalError | ProgrammingError):
        return False
    if getattr(exc.orig, "sqlstate", None) in _SCHEMA_SQLSTATES:
        return True
    return any(marker in str(exc.orig).lower() for marker in _SCHEMA_MARKERS)


def is_unavailable(exc: BaseException) -> bool:
    """True when the database could not do the work for a reason outside the request: a full or read-only disk,
    an I/O error, a lock held too long, a lost connection. Trying the same work later may succeed; a programming
    error, a violated constraint or a missing table (``is_schema_error``) is not one of these."""
    return isinstance(exc, OperationalError) and not is_schema_error(exc)


def unavailable_reason(exc: BaseException) -> str:
    """The driver's own one-line message of ``exc`` (``database or disk is full``...), never the statement or its
    parameters."""
    cause = getattr(exc, "orig", None) or exc
    return str(cause).splitlines()[0] if str(cause) else type(cause).__name__


class Database:
    """One database handle: it opens the units of work the use cases run in (``unit``: ``taskcore.unit``; the shells
    run a use case in one with ``tasksvc_run.units``), short read transactions, and write transactions that take the
    write lock up front."""

    def __init__(self, engine: Engine, *, busy_retries: int = 5) -> None:
        self.engine = engine
        self.busy_retries = busy_retries
        self.is_sqlite = engine.dialect.name == "sqlite"

    @classmethod
    def from_url(cls, url: str) -> Database:
        """Build the engine for ``url`` and wrap it."""
        return cls(make_engine(url))

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction (deferred on SQLite, so it never waits for writers in WAL mode)."""
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def read_prepared(self) -> Iterator[Connection]:
        """A read transaction for ``storage.prepared`` statements only, begun on the driver's connection without
        SQLAlchemy's transaction machinery (a third of a short read's CPU): SQLite gets a deferred BEGIN, so every
        statement sees one snapshot; psycopg begins on the first statement. The driver's rollback ends it (a read
        has nothing to keep), and the pool's reset on return would too. Statements run through
        ``Connection.execute`` here would begin a second, SQLAlchemy-managed transaction: use ``read`` for them."""
        with self.engine.connect() as conn:
            driver: Any = conn.connection.dbapi_connection
            if self.is_sqlite:
                driver.execute("BEGIN")
            try:
                yield conn
            finally:
                driver.rollback()

    @contextmanager
    def write(self, *, wait_ms: int | None = None) -> Iterator[Connection]:
        """A write transaction; on SQLite it begins IMMEDIATE so the lock is taken before any read.

        ``wait_ms`` bounds how long it waits for the database: SQLite's busy timeout for this transaction (the write
        lock), PostgreSQL's statement timeout; past it the busy error is raised (``is_busy_error``)."""
        with self.engine.connect() as conn, self._immediate(conn, wait_ms), conn.begin():
            if wait_ms is not None and not self.is_sqlite:
                conn.exec_driver_sql(f"SET LOCAL statement_timeout = {max(1, int(wait_ms))}")
            yield conn

    @contextmanager
    def _immediate(self, conn: Connection, wait_ms: int | None) -> Iterator[None]:
        """On SQLite, the connection's next transaction begins IMMEDIATE and waits at most ``wait_ms`` for the lock
        (the usual busy timeout again afterwards)."""
        if self.is_sqlite:
            conn.execution_options(sqlite_begin="IMMEDIATE")
            if wait_ms is not None:
                _sqlite_busy_timeout(conn, wait_ms)
        try:
            yield
        finally:
            if wait_ms is not None and self.is_sqlite and not conn.invalidated:
                _sqlite_busy_timeout(conn, BUSY_TIMEOUT_MS)

    @contextmanager
    def unit(self, *, wait_ms: int | None = None) -> Iterator[SqlUnit]:
        """One unit of work on a write transaction (``wait_ms`` as in ``write``), not retried: what ``commit`` keeps
        is kept; the rest, or everything when the block raises, is rolled back."""
        with self.engine.connect() as conn, self._immediate(conn, wait_ms):
            transaction = conn.begin()
            try:
                if wait_ms is not None and not self.is_sqlite:
                    conn.exec_driver_sql(f"SET LOCAL statement_timeout = {max(1, int(wait_ms))}")
                yield SqlUnit(conn, transaction)
            finally:
                if transaction.is_active:
                    transaction.rollback()

    @contextmanager
    def reading(self, *, prepared: bool = False) -> Iterator[SqlUnit]:
        """A read transaction as the unit a read-only use case takes (``taskcore.unit.Reading``); ``prepared``: one
        for ``storage.prepared`` statements only (``read_prepared``)."""
        with self.read_prepared() if prepared else self.read() as conn:
            yield SqlUnit(conn)

    def transact(self, work: Callable[[Connection], T], *, wait_ms: int | None = None,
                 retries: int | None = None) -> T:
        """Run ``work`` in a write transaction, retrying the whole of it when the database is busy (``retries``
        times, by default ``busy_retries``; ``wait_ms`` as in ``write``)."""
        limit = self.busy_retries if retries is None else retries
        for attempt in range(limit + 1):
            try:
                with self.write(wait_ms=wait_ms) as conn:
                    return work(conn)
            except OperationalError as exc:
                if not is_busy_error(exc) or attempt == limit:
                    raise
                time.sleep(0.01 * 2**attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
