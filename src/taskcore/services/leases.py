"""Leases on named jobs, so that one instance at a time runs a scheduled job (SPEC section 13): each call is its
own short transaction, taken by the schedulers in a worker thread."""

from __future__ import annotations

from datetime import datetime, timedelta

from taskcore.storage import leases
from taskcore.storage.db import Database


def acquire_lease(db: Database, *, name: str, owner: str, now: datetime, ttl: timedelta) -> bool:
    """Take or renew the lease on ``name`` for ``owner`` until now + ttl; False while another owner holds it."""
    return db.transact(lambda conn: leases.take_lease(conn, name=name, owner=owner, now=now, ttl=ttl))


def release_lease(db: Database, *, name: str, owner: str) -> None:
    """Give the lease up early (only the holder can)."""
    db.transact(lambda conn: leases.end_lease(conn, name=name, owner=owner))


def lease_holder(db: Database, *, name: str) -> tuple[str, datetime] | None:
    """Who holds (or last held) the lease on ``name`` and until when; None when it was never taken."""
    with db.read() as conn:
        return leases.holder_of(conn, name=name)
