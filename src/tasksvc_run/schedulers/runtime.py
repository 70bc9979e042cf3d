"""A small scheduler runtime: jobs on an interval or on every minute, one run of a job at a time, a failing run
logged and tried again at the next tick, a clean stop. The clock and the sleep are arguments (STYLE habit 1).

Several bot instances share the jobs through leases (schedulers/leases.py): a tick another instance took is skipped
quietly and this instance looks again when that instance's hold ends; a run asked for (``/admin sync``, the sync at
start) waits, bounded, while another instance is running the same job.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from taskcore.gateway.errors import GatewayError
from tasksvc_run.clock import Clock
from tasksvc_run.outage import FatalStop, Outage
from tasksvc_run.schedulers.failure import JobFailed
from tasksvc_run.schedulers.leases import JobLeases, LocalLeases, Sleep

log = logging.getLogger(__name__)
Schedule = Callable[[datetime], datetime]
SYNC_JOBS = ("group_sync", "member_sync")
# A run's lease outlives the longest expected run (it is renewed every third of it): a crashed holder blocks its job
# for this long at most.
RUN_LEASE = timedelta(minutes=2)
FOLLOW_SLACK = timedelta(seconds=1)  # the holder of a tick renews it first; the others look just after
ASKED_RETRY_SECONDS = 1.0  # an asked-for run polls this often while another instance runs the job


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
    lease_ttl: timedelta = RUN_LEASE


class SchedulerRuntime:
    """Runs each job in its own loop; ``run_job`` and ``request_sync`` run jobs now, after any run in progress."""

    def __init__(
        self, jobs: Sequence[Job], *, clock: Clock, sleep: Sleep = asyncio.sleep, sync_at_start: bool = True,
        leases: JobLeases | None = None, fatal: FatalStop | None = None,
    ) -> None:
        self.jobs = {job.name: job for job in jobs}
        fatal = fatal or FatalStop()
        self._outages = {job.name: Outage(f"scheduler:{job.name}", fatal) for job in jobs}
        self.clock = clock
        self.leases: JobLeases = leases or LocalLeases()
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
        """Run one job now, after any run of it in progress here or in another instance (waiting up to the job's
        lease TTL); False when the run failed (it is logged) or another instance kept running it all that time."""
        job = self.jobs[name]
        for attempt in range(int(job.lease_ttl.total_seconds() / ASKED_RETRY_SECONDS) + 1):
            if attempt:
                await self._sleep(ASKED_RETRY_SECONDS)
            ran = await self._run(job, trigger="asked")
            if ran is not None:
                return ran
            if self._stopped.is_set():
                break
        log.warning("job not run: another instance kept running it", extra={"job": name})
        return False

    async def _run(self, job: Job, *, trigger: str) -> bool | None:
        """One run under the job's lock and run lease; None when another instance holds the lease."""
        async with job.lock:
            try:
                async with self.leases.hold(job.name, ttl=job.lease_ttl) as held:
                    if not held:
                        return None
                    started = self.clock.now()
                    await job.run()
                    finished = self.clock.now()  # inside the lease: runs of one job never overlap in the logs
            except GatewayError as exc:  # the gateway did not answer (down, restarting): no bug, no traceback
                log.warning("scheduled job failed: the gateway did not answer; it runs again at its next tick",
                            extra={"job": job.name, "error": str(exc)})
                return False
            except JobFailed as exc:  # the job said what and why: its line, and no traceback
                log.error(f"scheduled job failed: {exc.what}; it runs again at its next tick",
                          extra={"job": job.name, **exc.fields})
                return False
            except Exception as exc:
                self._outages[job.name].failed(exc, what="scheduled job failed; it runs again at its next tick")
                return False
            self._outages[job.name].succeeded()
            log.debug("scheduled job ran", extra={"job": job.name, "trigger": trigger, "owner": self.leases.owner,
                                                 "started": started.isoformat(), "finished": finished.isoformat()})
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
            due = job.schedule(started)
            elsewhere = await self._take_tick(job, started, due)
            if elsewhere is not None:  # another instance runs this tick: look again when its hold ends
                log.debug("scheduled job skipped: another instance has this tick", extra={"job": job.name})
                due = max(elsewhere, started) + FOLLOW_SLACK
                continue
            if await self._run(job, trigger="schedule") is None:
                log.info("scheduled job skipped: another instance is running it", extra={"job": job.name})
            if due <= self.clock.now():  # the run took longer than the period: skip the missed ticks
                due = job.schedule(self.clock.now())

    async def _take_tick(self, job: Job, now: datetime, until: datetime) -> datetime | None:
        """None when this instance runs the tick (also when the database cannot say: the run lease still guards)."""
        try:
            return await self.leases.take_tick(job.name, now=now, until=until)
        except Exception as exc:
            self._outages[job.name].failed(exc, what="tick lease unavailable; trying the run")
            return None

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
