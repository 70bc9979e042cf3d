"""A small scheduler runtime: jobs on an interval or on every minute, one run of a job at a time, a failing run
logged and tried again at the next tick, a clean stop. The clock and the sleep are arguments (STYLE habit 1).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from tasksvc_run.clock import Clock

log = logging.getLogger(__name__)
Schedule = Callable[[datetime], datetime]
Sleep = Callable[[float], Awaitable[None]]
SYNC_JOBS = ("group_sync", "member_sync")


def every(interval: timedelta) -> Schedule:
    """Run again ``interval`` after the last run started."""
    return lambda last: last + interval


def every_minute(last: datetime) -> datetime:
    """Run at the start of the next minute."""
    return last.replace(second=0, microsecond=0) + timedelta(minutes=1)


@dataclass
class Job:
    """A named coroutine function and when to run it; ``at_start`` runs it as soon as the runtime starts."""

    name: str
    run: Callable[[], Awaitable[object]]
    schedule: Schedule
    at_start: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class SchedulerRuntime:
    """Runs each job in its own loop; ``run_job`` and ``request_sync`` run jobs now, after any run in progress."""

    def __init__(
        self, jobs: Sequence[Job], *, clock: Clock, sleep: Sleep = asyncio.sleep, sync_at_start: bool = True
    ) -> None:
        self.jobs = {job.name: job for job in jobs}
        self.clock = clock
        self._sleep = sleep
        self._sync_at_start = sync_at_start
        self._stopped = asyncio.Event()
        self._tasks: set[asyncio.Task[object]] = set()

    def start(self) -> None:
        """Start every job's loop; group then member sync run once now (SPEC section 10)."""
        for job in self.jobs.values():
            self._spawn(self._loop(job), f"scheduler-{job.name}")
        if self._sync_at_start:
            self.request_sync()

    def request_sync(self) -> None:
        """Run group sync, then member sync, now (``/admin sync``); a run in progress finishes first."""
        if not any(name in self.jobs for name in SYNC_JOBS):
            log.warning("sync requested but no gateway is configured")
            return
        self._spawn(self._sync_now(), "scheduler-sync-now")

    async def run_job(self, name: str) -> bool:
        """Run one job now, after any run of it in progress; False when the run failed (it is logged)."""
        job = self.jobs[name]
        async with job.lock:
            try:
                await job.run()
            except Exception:
                log.exception("scheduled job failed; it runs again at its next tick", extra={"job": name})
                return False
            return True

    async def stop(self, within: float = 10.0) -> None:
        """Stop the loops: runs in progress may finish within ``within`` seconds, then they are cancelled."""
        self._stopped.set()
        tasks = list(self._tasks)
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=within)
            for task in late:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    def _spawn(self, work: Awaitable[object], name: str) -> None:
        if self._stopped.is_set():
            return
        task: asyncio.Task[object] = asyncio.ensure_future(work)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _sync_now(self) -> None:
        for name in SYNC_JOBS:
            if name in self.jobs and not self._stopped.is_set():
                await self.run_job(name)

    async def _loop(self, job: Job) -> None:
        now = self.clock.now()
        due = now if job.at_start else job.schedule(now)
        while await self._pause_until(due):
            started = self.clock.now()
            await self.run_job(job.name)
            due = job.schedule(started)
            if due <= self.clock.now():  # the run took longer than the period: skip the missed ticks
                due = job.schedule(self.clock.now())

    async def _pause_until(self, due: datetime) -> bool:
        """Sleep until the clock reads ``due`` (never early); False when the runtime stopped meanwhile."""
        while not self._stopped.is_set():
            left = (due - self.clock.now()).total_seconds()
            if left <= 0:
                return True
            sleeper = asyncio.ensure_future(self._sleep(left))
            stopper = asyncio.ensure_future(self._stopped.wait())
            await asyncio.wait({sleeper, stopper}, return_when=asyncio.FIRST_COMPLETED)
            for waiter in (sleeper, stopper):
                waiter.cancel()
        return False
