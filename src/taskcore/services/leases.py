"""Leases on named jobs, so that one instance at a time runs a scheduled job (SPEC section 13): each call is its
own short transaction, taken by the schedulers in a worker thread."""

from __future__ import annotations

from datetime import datetime, timedelta

from taskcore.storage import leases
from taskcore.unit import Reading, UnitOfWork


def acquire_lease(uow: UnitOfWork, *, name: str, owner: str, now: datetime, ttl: timedelta) -> bool:
    """Take or renew the lease on ``name`` for ``owner`` until now + ttl; False while another owner holds it."""
    return leases.take_lease(uow.conn, name=name, owner=owner, now=now, ttl=ttl)


def release_lease(uow: UnitOfWork, *, name: str, owner: str) -> None:
    """Give the lease up early (only the holder can)."""
    leases.end_lease(uow.conn, name=name, owner=owner)


def lease_holder(uow: Reading, *, name: str) -> tuple[str, datetime] | None:
    """Who holds (or last held) the lease on ``name`` and until when; None when it was never taken."""
    conn = uow.conn
    return leases.holder_of(conn, name=name)
