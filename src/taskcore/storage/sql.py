"""Small dialect-neutral helpers: insert-or-ignore and upsert on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Table

from taskcore.storage.prepared import dialect_insert as _insert_for


def dialect_insert(conn: Connection, table: Table) -> Any:
    """The dialect's INSERT construct, which knows ON CONFLICT."""
    return _insert_for(conn.dialect.name, table)


# The statements below are built once per shape and run with the row as parameters: building a statement with
# .values(**row) on every call costs several times more than executing it (PERFORMANCE.md: the hot paths are short).
@lru_cache(maxsize=256)
def _insert_ignore_stmt(dialect: str, table: Table, keys: tuple[str, ...]) -> Any:
    insert = _insert_for(dialect, table)
    # RETURNING yields a row only for an inserted row; row counts are unreliable for INSERT on psycopg.
    return insert.on_conflict_do_nothing(index_elements=list(keys)).returning(*(table.c[key] for key in keys))


@lru_cache(maxsize=256)
def _upsert_stmt(dialect: str, table: Table, keys: tuple[str, ...], update: tuple[str, ...]) -> Any:
    insert = _insert_for(dialect, table)
    changes = {name: insert.excluded[name] for name in update}
    return insert.on_conflict_do_update(index_elements=list(keys), set_=changes)


def insert_ignore(conn: Connection, table: Table, values: Mapping[str, Any], keys: Sequence[str]) -> bool:
    """Insert a row unless one with the same ``keys`` exists; True when a row was inserted."""
    stmt = _insert_ignore_stmt(conn.dialect.name, table, tuple(keys))
    return conn.execute(stmt, dict(values)).first() is not None


def upsert(
    conn: Connection, table: Table, values: Mapping[str, Any], keys: Sequence[str], update: Sequence[str]
) -> None:
    """Insert a row, or update the ``update`` columns of the row with the same ``keys``."""
    conn.execute(_upsert_stmt(conn.dialect.name, table, tuple(keys), tuple(update)), dict(values))
