"""Storage calls only the tests make: setting up rows the service writes in bulk, and reading back what it wrote."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection

from taskcore.storage.reminders import claim_deliveries


def claim_delivery(conn: Connection, *, user_id: str, slot: str, outcome: str, now: datetime) -> bool:
    """Record one (user, slot) delivery as the reminder tick does; True when this call recorded it."""
    return bool(claim_deliveries(conn, [(user_id, slot, outcome)], now=now))
