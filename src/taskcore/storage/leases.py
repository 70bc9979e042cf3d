"""Leases on named jobs, so that one instance at a time runs a scheduled job (SPEC section 13)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, or_, select, update

from taskcore.storage.schema import job_leases
from taskcore.storage.sql import insert_ignore

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def take_lease(conn: Connection, *, name: str, owner: str, now: datetime, ttl: timedelta) -> bool:
    """Take or renew the lease on ``name`` for ``owner`` until now + ttl; False while another owner holds it."""
    until = now + ttl
    if insert_ignore(conn, job_leases, {"name": name, "owner": owner, "lease_until": until}, ["name"]):
        return True
    stmt = (
        update(job_leases)
        .where(job_leases.c.name == name, or_(job_leases.c.lease_until <= now, job_leases.c.owner == owner))
        .values(owner=owner, lease_until=until)
    )
    return bool(conn.execute(stmt).rowcount == 1)


def end_lease(conn: Connection, *, name: str, owner: str) -> None:
    """Give the lease up early (only the holder can)."""
    conn.execute(update(job_leases).where(job_leases.c.name == name, job_leases.c.owner == owner)
                 .values(lease_until=EPOCH))


def live_lease_owners(conn: Connection, *, now: datetime) -> set[str]:
    """The owners of job leases that have not run out."""
    rows = conn.execute(select(job_leases.c.owner).where(job_leases.c.lease_until > now).distinct())
    return {str(owner) for owner in rows.scalars()}


def release_leases_of(conn: Connection, owners: Collection[str], *, now: datetime) -> int:
    """End at once the job leases ``owners`` (processes that died) still hold; how many."""
    if not owners:
        return 0
    stmt = (update(job_leases).where(job_leases.c.owner.in_(list(owners)), job_leases.c.lease_until > now)
            .values(lease_until=EPOCH))
    return int(conn.execute(stmt).rowcount)


def holder_of(conn: Connection, *, name: str) -> tuple[str, datetime] | None:
    """Who holds (or last held) the lease on ``name`` and until when; None when it was never taken."""
    row = conn.execute(select(job_leases.c.owner, job_leases.c.lease_until)
                       .where(job_leases.c.name == name)).one_or_none()
    return None if row is None else (row.owner, row.lease_until)
