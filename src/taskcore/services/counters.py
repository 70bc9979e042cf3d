"""Metric counters kept in the database (SPEC 11): counts made in the web process, read by the bot's /metrics."""

from __future__ import annotations

from taskcore.storage.counters import counter_values
from taskcore.unit import Reading


def read_counters(uow: Reading) -> dict[tuple[str, str], int]:
    """Every counter by (name, label), read in one short read transaction."""
    conn = uow.conn
    return counter_values(conn)
