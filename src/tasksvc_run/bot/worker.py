"""The outbound queue worker of the bot process (SPEC section 9).

It claims jobs from the store (which hands out only the head of each chat, so messages go out in order and a chat
never has two sends in flight), sends each outside any transaction, then records the outcome with the owner it
claimed under. It wakes on ``notify()`` or polls; ``stop()`` lets the sends in flight finish, then returns.

Paced (GATEWAY_MAX_SENDS_PER_MIN, issue 20): the worker claims only as many jobs as the rate lets start now (one
every 60/N s), books each a start time (``taskcore.pacing.SendPace``) and sends it then; the store hands out due
replies before due digests, so a digest delays a reply by at most the rate's own spacing. The rate is this
process's: several bot instances each send at it.

When an outcome cannot be written (the database busy past its retries, a full disk), the worker keeps the job's
lease, extending it, and writes the outcome again until it is recorded (``_record_outcome``): a message the gateway
accepted is not sent again because its outcome write failed once (SPEC section 17). A process that dies after the
gateway accepted a send and before ``mark_sent`` is committed leaves the job in doubt: whoever claims it next settles
it from the echo or the gateway's store before sending (``in_doubt``, SPEC section 26); with a gateway that takes an
id chosen before the send (WAHA), a timed-out send is settled by that id too. A direct message WhatsApp refuses at
the send itself (WAHA's 463) fails its job and marks its person unreachable (SPEC section 36).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable
from datetime import datetime
from functools import partial

from taskcore.errors import ValidationError
from taskcore.gateway.errors import GatewayError
from taskcore.gateway.outbound import OutboundReaction, outbound_of
from taskcore.gateway.port import Gateway
from taskcore.pacing import SendPace
from taskcore.queue_rules import FailureKind, JobKind, QueueJob, gives_up, retry_delay
from taskcore.services import Database, delivery, is_unavailable, queue
from taskcore.unit import UnitOfWork
from tasksvc_run import units
from tasksvc_run.bot.in_doubt import chosen_id, settled_id
from tasksvc_run.bot.sending import Sending, gap_factor
from tasksvc_run.bot.worker_config import PACE_HORIZON, RECORD_RETRY_DELAYS, WorkerConfig, random_jitter
from tasksvc_run.clock import Clock
from tasksvc_run.metrics import Metrics
from tasksvc_run.outage import FatalStop, Outage
from tasksvc_run.owner import process_owner

log = logging.getLogger(__name__)


Outcome = Callable[[UnitOfWork, str, datetime], bool]
"""Writing a job's outcome in a unit of work, as its owner, at an instant: whether the owner still held the job."""


class QueueWorker:
    """Sends queued jobs through the gateway, at most ``concurrency`` at a time, one per chat."""

    def __init__(
        self, db: Database, gateway: Gateway, *, clock: Clock, metrics: Metrics, config: WorkerConfig | None = None,
        jitter: Callable[[], float] = random_jitter, owner: str | None = None, fatal: FatalStop | None = None,
        monotonic: Callable[[], float] = time.monotonic, on_sent: Callable[[str | None], None] | None = None,
    ) -> None:
        """``monotonic``: the seconds the send rate is kept in, real ones like the waits (a frozen test clock
        would stop a paced worker); ``on_sent``: told the gateway's id of every accepted send (the watchdog)."""
        self.db, self.gateway, self.clock, self.metrics = db, gateway, clock, metrics
        self._outage = Outage("outbound", fatal or FatalStop())
        self.config = config or WorkerConfig()
        self.owner = owner or process_owner()
        self._jitter, self._monotonic = jitter, monotonic
        per_min = self.config.max_sends_per_min
        self._pace = None if per_min is None else SendPace(per_min, gap_factor if self.config.jittered else None)
        metrics.outbound_max_sends_per_min.set(0 if per_min is None else per_min)
        self._in_flight: dict[int, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        self._stopping = False
        self._paused = False
        self._on_sent = on_sent
        self.sending = Sending()  # what is being sent right now (a reply quoting it waits for its record)
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start the loop on the running event loop."""
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._run(), name="outbound-worker")

    def notify(self) -> None:
        """Something was queued: claim now rather than at the next poll (safe from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._wake.set()
        else:
            loop.call_soon_threadsafe(self._wake.set)

    async def stop(self, within: float = 3.0) -> None:
        """Stop claiming, let the sends in flight finish (cancelled after ``within`` s), then return."""
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            await self._task
        pending = list(self._in_flight.values())
        if pending:
            _, late = await asyncio.wait(pending, timeout=within)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    def pause(self) -> None:
        """Claim nothing until ``resume()`` (the gateway is disconnected: jobs wait, no attempt is spent)."""
        self._paused = True

    def resume(self) -> None:
        """Claim again, now."""
        self._paused = False
        self.notify()

    @property
    def paused(self) -> bool:
        """Whether claiming is paused."""
        return self._paused

    @property
    def in_flight(self) -> int:
        """How many sends are under way."""
        return len(self._in_flight)

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            await self._claim_more()
            try:
                async with asyncio.timeout(self._idle()):
                    await self._wake.wait()
            except TimeoutError:
                pass

    def _idle(self) -> float:
        """How long to wait for a wake-up: the poll interval, or until the rate lets the next send start."""
        if self._pace is None:
            return self.config.poll_interval
        now = self._monotonic()
        ahead = self._pace.next_at(now) - now
        return ahead if ahead > 0 else self.config.poll_interval

    async def _claim_more(self) -> None:
        free = 0 if self._paused else self.config.concurrency - len(self._in_flight)
        now = self._monotonic()
        if self._pace is not None and free > 0:
            free = self._pace.allowance(now, horizon=PACE_HORIZON, most=free)
        if free <= 0:
            return
        try:
            jobs = await asyncio.to_thread(
                units.run, self.db, queue.claim_jobs, owner=self.owner, now=self.clock.now(), lease=self.config.lease,
                limit=free,
                rules=self.config.send_rules)
        except Exception as exc:
            self._outage.failed(exc, what="outbound: claiming jobs failed")
            return
        self._outage.succeeded()
        if self._paused and jobs:  # a connection.update close arrived while the claim ran: none of them goes out
            await self._give_back(jobs)
            return
        starts = self._pace.take(now, len(jobs)) if self._pace is not None else [now] * len(jobs)
        for job, start in zip(jobs, starts, strict=True):
            if job.id not in self._in_flight:  # our own lease ran out while the send was still going
                task = asyncio.create_task(self._deliver(job, start), name=f"outbound-{job.id}")
                self._in_flight[job.id] = task
                self.sending.started(job)
                task.add_done_callback(partial(self._finished, job.id))

    async def _give_back(self, jobs: list[QueueJob]) -> None:
        try:
            await asyncio.to_thread(units.run, self.db, queue.give_back, [job.id for job in jobs], now=self.clock.now())
        except Exception as exc:  # their leases run out and they are claimed again, in doubt (never sent twice)
            self._outage.failed(exc, what="outbound: giving back jobs claimed while paused failed")

    def _finished(self, job_id: int, _task: asyncio.Task[None]) -> None:
        self._in_flight.pop(job_id, None)
        self.sending.done(job_id)
        self._wake.set()

    async def _deliver(self, job: QueueJob, start: float) -> None:
        wait = start - self._monotonic()
        if wait > 0:  # the start the rate booked for it, at most PACE_HORIZON away
            await asyncio.sleep(wait)
        try:
            settled = await settled_id(self.db, job, self.gateway, self.metrics) if job.in_doubt or job.chosen_id \
                else None
            message_id = settled or await self._send(job)
        except GatewayError as exc:
            if exc.unreachable:
                await self._refused_at_once(job, str(exc))
            else:
                await self._record_failure(job, exc.kind, str(exc))
        except Exception as exc:
            log.exception("outbound: unexpected error while sending", extra={"job": job.id})
            await self._record_failure(job, FailureKind.RETRY, f"{type(exc).__name__}: {exc}")
        else:
            self.sending.answered(job.id, message_id)
            if self._on_sent is not None and settled is None:  # told before the job reads "sent": the echo is due
                self._on_sent(message_id)  # from the acceptance (a tick in between judged a send it had not heard of)
            await self._record_outcome(job, lambda uow, owner, now: queue.mark_sent(
                uow, job_id=job.id, owner=owner, gateway_message_id=message_id, now=now))
            self.metrics.outbound_sent.labels(kind=job.kind.value).inc()
            if job.kind is JobKind.REACTION:
                self.metrics.reactions_sent.labels(emoji=job.label or "other").inc()

    async def _send(self, job: QueueJob) -> str | None:
        """Send the job's message through the gateway in use (which encodes it)."""
        try:
            message = outbound_of(job.payload)
        except ValidationError as exc:
            raise GatewayError(None, f"unreadable queued message: {exc}", False) from exc
        if isinstance(message, OutboundReaction):
            return await self.gateway.react(message)
        chosen = job.chosen_id or await chosen_id(self.db, self.gateway, job, self.owner)
        return await self.gateway.send_text(message, message_id=chosen)

    async def _refused_at_once(self, job: QueueJob, error: str) -> None:
        """WhatsApp refused a direct message at the send itself (error 463 through WAHA): failed, its person marked
        unreachable as an ERROR status would (``delivery.refused_at_once``)."""
        log.warning("outbound: refused, the person is unreachable in private", extra={"job": job.id})
        await self._record_outcome(job, lambda uow, owner, now: delivery.refused_at_once(
            uow, job, owner=owner, error=error, now=now, rules=self.config.delivery_rules).statuses != ())
        self.metrics.outbound_failed.labels(kind=job.kind.value).inc()

    async def _record_failure(self, job: QueueJob, kind: FailureKind, error: str) -> None:
        final = gives_up(kind, attempts=job.attempts, max_attempts=job.max_attempts)
        log.warning("outbound: send failed", extra={
            "job": job.id, "kind": job.kind.value, "attempt": job.attempts, "retry": not final, "error": error[:200]})
        if final:
            await self._record_outcome(job, lambda uow, owner, now: queue.mark_failed(
                uow, job_id=job.id, owner=owner, error=error, now=now))
            self.metrics.outbound_failed.labels(kind=job.kind.value).inc()
            if job.kind is JobKind.REACTION:
                self.metrics.reactions_failed.labels(emoji=job.label or "other").inc()
            return
        delay = retry_delay(job.attempts, base_ms=self.config.backoff_base_ms, max_ms=self.config.backoff_max_ms,
                            jitter=self._jitter())
        now = self.clock.now()
        await self._record_outcome(job, lambda uow, owner, at: queue.schedule_retry(
            uow, job_id=job.id, owner=owner, error=error, next_attempt_at=now + delay, now=at))
        self.metrics.outbound_retries.labels(kind=job.kind.value).inc()

    async def _record_outcome(self, job: QueueJob, outcome: Outcome) -> None:
        """Write the outcome of ``job`` (the one step every send ends with). While the database refuses the write,
        keep the job's lease (extended) and write it again, so that the job is neither claimed again nor sent twice;
        a lost lease or a bug is logged and ends it."""
        for attempt in itertools.count():
            try:
                held = await asyncio.to_thread(units.run, self.db, outcome, self.owner, self.clock.now())
            except Exception as exc:
                self._outage.failed(exc, what=f"outbound: recording the outcome of job {job.id} failed")
                if not is_unavailable(exc):
                    return
                await self._keep_lease(job)
                delay = RECORD_RETRY_DELAYS[min(attempt, len(RECORD_RETRY_DELAYS) - 1)]
                await asyncio.sleep(min(delay, self.config.lease.total_seconds() / 3))  # renewed well before it ends
                continue
            self._outage.succeeded()
            if not held:
                log.warning("outbound: the job's lease was lost before its outcome was recorded", extra={"job": job.id})
            return

    async def _keep_lease(self, job: QueueJob) -> None:
        """Extend the hold on ``job`` by a whole lease (a failure is left to the next try)."""
        try:
            await asyncio.to_thread(units.run, self.db, queue.keep_lease, job_id=job.id, owner=self.owner,
                                    until=self.clock.now() + self.config.lease)
        except Exception:  # the database refuses writes: the outcome's next write tries again
            return
