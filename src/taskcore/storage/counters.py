"""Metric counters kept in the database, so counts made in the web process show at the bot's /metrics (SPEC 11)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from taskcore.storage.prepared import Prepared, dialect_insert
from taskcore.storage.schema import metric_counters

mc = metric_counters


def _bump_statement(dialect: str) -> Any:
    stmt = dialect_insert(dialect, mc)
    return stmt.on_conflict_do_update(
        index_elements=[mc.c.name, mc.c.label], set_={"value": mc.c.value + stmt.excluded.value}
    )


_BUMP = Prepared(_bump_statement, ["name", "label", "value"])


def bump_counter(conn: Connection, name: str, label: str = "", by: int = 1) -> None:
    """Add ``by`` to the (name, label) counter, creating it at ``by``."""
    _BUMP.run(conn, {"name": name, "label": label, "value": by})


def counter_values(conn: Connection) -> dict[tuple[str, str], int]:
    """Every counter by (name, label)."""
    rows = conn.execute(select(mc.c.name, mc.c.label, mc.c.value))
    return {(name, label): int(value) for name, label, value in rows}
