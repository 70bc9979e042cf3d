"""How bot instances share the scheduled jobs through the database's job_leases rows (SPEC section 13).

Two leases per job:
- ``<job>``, the run lease: held while a run is in progress (any instance, scheduled or asked for), renewed every
  third of its TTL, released at the end; a crashed holder blocks the job for one TTL at most.
- ``<job>:tick``, the tick lease: the instance that takes it runs this tick and keeps it until the job's next tick
  is due, so every other instance skips the tick instead of running the job again a moment later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta
from typing import Protocol

from taskcore.services import Database
from taskcore.services.leases import acquire_lease, lease_holder, release_lease
from tasksvc_run import units
from tasksvc_run.clock import Clock
from tasksvc_run.owner import process_owner

__all__ = ["DatabaseLeases", "JobLeases", "LocalLeases", "Sleep", "process_owner", "tick_lease"]

log = logging.getLogger(__name__)
Sleep = Callable[[float], Awaitable[None]]


def tick_lease(job: str) -> str:
    """The name of a job's tick lease."""
    return f"{job}:tick"


class JobLeases(Protocol):
    """What the runtime asks before it runs a job."""

    owner: str

    async def take_tick(self, job: str, *, now: datetime, until: datetime) -> datetime | None:
        """Take this tick of ``job`` until ``until``; None when taken, else when another instance's hold ends."""
        ...

    def hold(self, job: str, *, ttl: timedelta) -> contextlib.AbstractAsyncContextManager[bool]:
        """Hold the run lease of ``job`` for the block (False: another instance is running it)."""
        ...


class LocalLeases:
    """One instance alone: every tick and every run is this process's (the runtime's own lock still applies)."""

    owner = "local"

    async def take_tick(self, job: str, *, now: datetime, until: datetime) -> datetime | None:
        """Always this instance's."""
        return None

    @contextlib.asynccontextmanager
    async def hold(self, job: str, *, ttl: timedelta) -> AsyncIterator[bool]:
        """Always held."""
        yield True


class DatabaseLeases:
    """Leases in job_leases, taken and renewed in worker threads (they are short write transactions)."""

    def __init__(self, db: Database, *, owner: str, clock: Clock, sleep: Sleep = asyncio.sleep) -> None:
        self.db = db
        self.owner = owner
        self.clock = clock
        self._sleep = sleep

    async def take_tick(self, job: str, *, now: datetime, until: datetime) -> datetime | None:
        """Take or keep ``<job>:tick`` until ``until``; when another instance holds it, the end of its hold."""
        name = tick_lease(job)
        if await self._acquire(name, now=now, ttl=until - now):
            return None
        holder = await asyncio.to_thread(units.look, self.db, lease_holder, name=name)
        return now if holder is None else holder[1]

    @contextlib.asynccontextmanager
    async def hold(self, job: str, *, ttl: timedelta) -> AsyncIterator[bool]:
        """Take the run lease ``<job>`` for ``ttl``, renew it every ttl/3 during the block, release it after."""
        if not await self._acquire(job, now=self.clock.now(), ttl=ttl):
            yield False
            return
        renewer = asyncio.ensure_future(self._renew(job, ttl))
        try:
            yield True
        finally:
            renewer.cancel()
            await asyncio.gather(renewer, return_exceptions=True)
            try:
                await asyncio.to_thread(units.run, self.db, release_lease, name=job, owner=self.owner)
            except Exception:  # the lease then runs out by itself
                log.warning("job lease not released; it expires by itself", exc_info=True,
                            extra={"job": job, "ttl_s": ttl.total_seconds()})

    async def _acquire(self, name: str, *, now: datetime, ttl: timedelta) -> bool:
        return await asyncio.to_thread(units.run, self.db, acquire_lease, name=name, owner=self.owner, now=now, ttl=ttl)

    async def _renew(self, job: str, ttl: timedelta) -> None:
        while True:
            await self._sleep(ttl.total_seconds() / 3)
            try:
                kept = await self._acquire(job, now=self.clock.now(), ttl=ttl)
            except Exception:
                log.warning("job lease renewal failed; trying again", exc_info=True, extra={"job": job})
                continue
            if not kept:
                log.error("job lease lost while running: another instance may run this job too", extra={"job": job})
