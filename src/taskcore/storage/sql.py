"""Small dialect-neutral helpers: insert-or-ignore and upsert on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Table
from sqlalchemy.dialects import postgresql, sqlite


def dialect_insert(conn: Connection, table: Table) -> Any:
    """The dialect's INSERT construct, which knows ON CONFLICT."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def insert_ignore(conn: Connection, table: Table, values: Mapping[str, Any], keys: Sequence[str]) -> bool:
    """Insert a row unless one with the same ``keys`` exists; True when a row was inserted."""
    stmt = dialect_insert(conn, table).values(**values).on_conflict_do_nothing(index_elements=list(keys))
    # RETURNING yields a row only for an inserted row; row counts are unreliable for INSERT on psycopg.
    return conn.execute(stmt.returning(*(table.c[key] for key in keys))).first() is not None


def upsert(
    conn: Connection, table: Table, values: Mapping[str, Any], keys: Sequence[str], update: Sequence[str]
) -> None:
    """Insert a row, or update the ``update`` columns of the row with the same ``keys``."""
    stmt = dialect_insert(conn, table).values(**values)
    stmt = stmt.on_conflict_do_update(
        index_elements=list(keys), set_={name: stmt.excluded[name] for name in update}
    )
    conn.execute(stmt)
