"""Runs the chat over the inbox, in a worker thread: one batch of stored events per call, counted in the metrics.

``sync`` gives the scheduler runtime when it runs (``/admin sync``); it lives on the event loop that ``bind_loop``
names, so the worker thread hands the request over to it. ``run_arrived`` stores the events the webhook received
together and handles at once those it can (``handle_arrived``); those it stored pending are remembered as parsed,
with their moment, so a batch parses only what an earlier process left behind and an event handled later keeps its
instant and rate-limit decision.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC, datetime

from aiohttp import web

from taskcore.chat import ChatPolicy, ChatResult, MetricEvent, Moment
from taskcore.chat.send_cap import SENDS_BURST
from taskcore.gateway.events import InboundEvent, InboundPhoto
from taskcore.gateway.port import Codec
from taskcore.ratelimit import Allowance, RateLimiter
from taskcore.services import Database
from taskcore.services.conversation.road import Arrived, Handled, handle_arrived, handle_inbox, stored_event
from taskcore.services.inbox import InboxRow, NewEvent
from taskcore.settings import Settings
from tasksvc_run import keys
from tasksvc_run.bot.inbox_writer import InboxWriter
from tasksvc_run.bot.processor import InboxProcessor
from tasksvc_run.clock import Clock
from tasksvc_run.metrics import Metrics

# Events per transaction at most: bounds how long a batch holds SQLite's write lock (~10 ms) from the web process.
BATCH_SIZE = 32
# How long a batch waits for SQLite's write lock before it gives up and tries again later: short, so that a lock
# held elsewhere (a backup) never keeps the worker thread from storing the webhook's next events.
BATCH_WAIT_MS = 200
REMEMBERED_AT_MOST = 10_000


class EventRunner:
    """Applies stored events (in a worker thread) and counts what they report; the rate limiter is shared, locked."""

    def __init__(self, db: Database, policy: ChatPolicy, *, settings: Settings, clock: Clock, metrics: Metrics,
                 limiter: RateLimiter, codecs: Mapping[str, Codec],
                 sync: Callable[[], keys.SyncTrigger | None] = lambda: None,
                 batch_size: int = BATCH_SIZE, wait_ms: int | None = BATCH_WAIT_MS) -> None:
        self.db, self.policy, self.clock, self.metrics, self.limiter = db, policy, clock, metrics, limiter
        self.codecs = codecs
        self.batch_size, self.wait_ms = batch_size, wait_ms
        self._sync = sync
        self._loop: asyncio.AbstractEventLoop | None = None
        self._limiter_lock = threading.Lock()
        per_person = settings.sends_per_person_per_min  # replies a minute to one person's commands (SPEC 32, 38)
        self.sends = RateLimiter(per_person, max(SENDS_BURST, per_person))
        self._parsed: dict[int, InboundEvent] = {}
        self._moments: dict[int, Moment] = {}
        self._counters: dict[MetricEvent, Callable[[], None]] = {
            MetricEvent.IDENTITY_ALIAS_RESOLVED: metrics.identity_alias_resolved.inc,
            MetricEvent.UNKNOWN_GROUP_DISCOVERED: metrics.unknown_groups_discovered.inc,
            MetricEvent.MESSAGE_BLOCKED_GROUP: metrics.messages_blocked_group.inc,
            MetricEvent.COMMAND_BLOCKED: metrics.commands_blocked.inc,
            MetricEvent.ADMIN_ALLOW: metrics.admin_allow.inc,
            MetricEvent.ADMIN_BLOCK: metrics.admin_block.inc,
        }

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the scheduler runtime runs on."""
        self._loop = loop

    def remember(self, ids: Sequence[int], events: Sequence[InboundEvent], moments: Sequence[Moment] = ()) -> None:
        """The parsed events of stored rows, and their moments when given (bounded: past the bound it starts over,
        and rows are parsed again and get a new moment)."""
        if len(self._parsed) >= REMEMBERED_AT_MOST:
            self._parsed.clear()
            self._moments.clear()
        self._parsed.update(zip(ids, events, strict=True))
        self._moments.update(zip(ids, moments, strict=False))

    def run_arrived(self, events: Sequence[tuple[NewEvent, InboundEvent]], wait_ms: int | None) -> Arrived:
        """Store the events received together, handling at once those whose chat has nothing pending (in a worker
        thread; ``wait_ms`` bounds the wait for the database); counted like a batch."""
        started = time.perf_counter()
        moment = self._moment_factory()
        items = [(new, event, moment(None)) for new, event in events]
        arrived = handle_arrived(self.db, self.policy, items, wait_ms=wait_ms)
        if arrived.pending:
            done = {item.row.id for item in arrived.handled}
            left = [(row_id, event, at) for row_id, (_, event, at) in zip(arrived.ids, items, strict=True)
                    if row_id not in done]
            self.remember([row_id for row_id, _, _ in left], [event for _, event, _ in left], [at for _, _, at in left])
        self._counted(arrived.handled, started)
        return arrived

    def run_inbox(self) -> list[Handled]:
        """Claim, handle and finish one batch of the inbox; count metric events and each event's share of the time."""
        started = time.perf_counter()
        moment = self._moment_factory()
        handled = handle_inbox(self.db, self.policy, moment, limit=self.batch_size, codecs=self.codecs,
                               parsed=self._parsed,
                               wait_ms=self.wait_ms)
        for item in handled:
            self._parsed.pop(item.row.id, None)
            self._moments.pop(item.row.id, None)
        self._counted(handled, started)
        return handled

    def _counted(self, handled: Sequence[Handled], started: float) -> None:
        """Count the metric events of ``handled`` and each one's share of the time since ``started``."""
        for item in handled:
            if not isinstance(item.result, Exception):
                self._count(item.result)
        share = (time.perf_counter() - started) / max(len(handled), 1)
        for _ in handled:
            self.metrics.webhook_seconds.observe(share)

    def _count(self, result: ChatResult) -> None:
        for metric in result.metrics:
            self._counters[metric]()
        if MetricEvent.ADMIN_ALLOW in result.metrics and (trigger := self._sync_trigger()) is not None:
            trigger()  # committed: the group just allowed gets its members and admins now, not at the next sync

    def _moment_factory(self) -> Callable[[InboxRow | None], Moment]:
        """One instant for the batch; each event its own draw on the buckets (handled again alone, it gets the same
        answers); an event stored pending by this process keeps the moment it was given then."""
        now, at = self.clock.now(), self.clock.monotonic()  # the buckets' instant too: read once for the batch
        trigger = self._sync_trigger()

        def moment(row: InboxRow | None) -> Moment:
            kept = None if row is None else self._moments.get(row.id)
            return kept or Moment(now, Allowance(self.limiter, at, self._limiter_lock), trigger,
                                  Allowance(self.sends, at, self._limiter_lock))

        return moment

    def _sync_trigger(self) -> Callable[[], None] | None:
        """``request_sync`` made safe to call from the worker thread; None when the schedulers do not run."""
        sync, loop = self._sync(), self._loop
        if sync is None or loop is None:
            return None
        request = sync.request_sync

        def from_thread() -> None:
            loop.call_soon_threadsafe(request)

        return from_thread


processor_log = logging.getLogger("tasksvc_run.bot.processor")  # where failed events are reported


@dataclass(frozen=True, slots=True)
class ArrivedEvent(NewEvent):
    """An event as stored, with what the webhook parsed from it (so the processor need not parse it again)."""

    parsed: InboundEvent | None = None


def _parsed(event: NewEvent, codecs: Mapping[str, Codec]) -> InboundEvent:
    """What the webhook decoded ``event`` to (decoded again from its body if it came without)."""
    if isinstance(event, ArrivedEvent) and event.parsed is not None:
        return event.parsed
    return stored_event(InboxRow(0, event.chat_key, event.path_event, event.payload, datetime.now(UTC),
                                 event.gateway), codecs)


def make_intake(
    app: web.Application, runner: EventRunner, pool: Executor, *, parallel: int = 1,
) -> tuple[InboxWriter, InboxProcessor[Handled]]:
    """The inbox writer the webhook stores through, and the processor that handles what it stored and wakes the
    outbound worker whenever an event queued something."""
    settings = app[keys.SETTINGS]

    def store(events: Sequence[NewEvent], wait_ms: int) -> Arrived:
        return runner.run_arrived([(event, _parsed(event, runner.codecs)) for event in events], wait_ms)

    def queued_something(item: Handled) -> None:
        outbound = app.get(keys.OUTBOUND)
        if isinstance(item.result, Exception):
            processor_log.error("webhook event failed; kept in the inbox as failed", exc_info=item.result,
                                extra={"event_type": type(item.event).__name__, "inbox_id": item.row.id})
        elif outbound is not None and (item.result.texts or item.result.reactions):
            outbound.notify()
        if isinstance(item.event, InboundPhoto) and (photos := app.get(keys.PHOTOS)) is not None:
            photos.notify()  # a photo recorded to fetch (SPEC section 34)

    processor: InboxProcessor[Handled] = InboxProcessor(runner.run_inbox, pool, parallel=parallel,
                                                        batch_size=runner.batch_size, on_handled=queued_something,
                                                        fatal=app[keys.FATAL])
    writer = InboxWriter(store, pool, bound=settings.webhook_store_timeout_ms / 1000, on_stored=processor.notify,
                         on_handled=queued_something, fatal=app[keys.FATAL])
    return writer, processor

