"""Metric counters kept in the database (SPEC 11): counts made in the web process, read by the bot's /metrics."""

from __future__ import annotations

from taskcore.storage.counters import counter_values
from taskcore.storage.db import Database


def read_counters(db: Database) -> dict[tuple[str, str], int]:
    """Every counter by (name, label), read in one short read transaction."""
    with db.read() as conn:
        return counter_values(conn)
