"""POST /webhook and /webhook/{event}: check the secret, parse, acknowledge, and hand the event to the processor.

The handler does no database work: the event is parsed (pure) and queued for its chat; ``EventRunner`` then
applies it in a worker thread through the one chat use case and counts what it reports.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

from aiohttp import web

from taskcore.chat import ChatPolicy, ChatResult, MetricEvent, Moment, handle_events
from taskcore.gateway.inbound import Ignored, InboundEvent, chat_key, parse_event
from taskcore.gateway.inbound_models import canonical_event
from taskcore.ratelimit import Decision, RateLimiter
from taskcore.settings import Settings
from taskcore.storage.db import Database, is_schema_error, is_unavailable
from tasksvc_run import keys
from tasksvc_run.bot.processor import ChatProcessor
from tasksvc_run.clock import Clock
from tasksvc_run.metrics import Metrics
from tasksvc_run.problems import problem

SECRET_HEADER = "X-Webhook-Secret"  # noqa: S105 - the header's name, not a secret
RETRY_AFTER_FULL = "5"


def secret_ok(request: web.Request, settings: Settings) -> bool:
    """True without WEBHOOK_SECRET; otherwise the header must equal it (constant-time comparison)."""
    if settings.webhook_secret is None:
        return True
    given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
    return hmac.compare_digest(given, settings.webhook_secret.get_secret_value().encode("utf-8"))


def _json_object(body: bytes) -> dict[str, Any] | str:
    """The body as a JSON object, or the reason it is not one."""
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        return "the body is not valid JSON"
    return payload if isinstance(payload, dict) else "the body is not a JSON object"


async def webhook(request: web.Request) -> web.Response:
    """Acknowledge a gateway event at once; 401 bad secret, 400 not a JSON object, 503 when the backlog is full or
    the database is not taking writes (the gateway delivers the event again later)."""
    app = request.app
    if not secret_ok(request, app[keys.SETTINGS]):
        return problem(401, "missing or wrong X-Webhook-Secret")
    payload = _json_object(await request.read())
    if isinstance(payload, str):
        return problem(400, payload)
    event = parse_event(payload, path_event=request.match_info.get("event"))
    name = canonical_event(str(payload.get("event") or request.match_info.get("event") or "")) or "unknown"
    app[keys.METRICS].webhook_requests.labels(event=name).inc()
    if isinstance(event, Ignored):
        return web.json_response({"status": "ignored", "reason": event.reason})
    processor = app[keys.PROCESSOR]
    if not processor.submit(chat_key(event), event):
        reason = ("the database is not taking writes; retry later" if processor.paused
                  else "too many events waiting; retry later")
        return problem(503, reason, headers={"Retry-After": RETRY_AFTER_FULL})
    return web.json_response({"status": "accepted"})


class EventRunner:
    """Applies events (in a worker thread) and counts what they report; the rate limiter is shared and locked.

    ``sync`` gives the scheduler runtime when it runs (``/admin sync``); it lives on the event loop that
    ``bind_loop`` names, so the worker thread hands the request over to it."""

    def __init__(self, db: Database, policy: ChatPolicy, *, settings: Settings, clock: Clock, metrics: Metrics,
                 limiter: RateLimiter, sync: Callable[[], keys.SyncTrigger | None] = lambda: None) -> None:
        self.db, self.policy, self.clock, self.metrics, self.limiter = db, policy, clock, metrics, limiter
        self.zone = settings.zone
        self._sync = sync
        self._loop: asyncio.AbstractEventLoop | None = None
        self._limiter_lock = threading.Lock()
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

    def take_token(self, user_id: str) -> Decision:
        """One token from the user's bucket."""
        with self._limiter_lock:
            return self.limiter.check(user_id, self.clock.monotonic())

    def run(self, event: InboundEvent) -> ChatResult:
        """Handle one event now (``run_batch`` of one); its failure is raised."""
        result = self.run_batch([event])[0]
        if isinstance(result, Exception):
            raise result
        return result

    def run_batch(self, events: Sequence[InboundEvent]) -> list[ChatResult | Exception]:
        """Handle the events now, together (handle_events); count metric events and each event's share of the time."""
        started = time.perf_counter()
        now = self.clock.now()
        today = now.astimezone(self.zone).date()
        trigger = self._sync_trigger()
        batch = [(event, Moment(now, today, self._token_once(), trigger)) for event in events]
        results = handle_events(self.db, self.policy, batch)
        for result in results:
            if not isinstance(result, Exception):
                for metric in result.metrics:
                    self._counters[metric]()
        share = (time.perf_counter() - started) / max(len(events), 1)
        for _ in events:
            self.metrics.webhook_seconds.observe(share)
        return results

    def _sync_trigger(self) -> Callable[[], None] | None:
        """``request_sync`` made safe to call from the worker thread; None when the schedulers do not run."""
        sync, loop = self._sync(), self._loop
        if sync is None or loop is None:
            return None
        request = sync.request_sync

        def from_thread() -> None:
            loop.call_soon_threadsafe(request)

        return from_thread

    def _token_once(self) -> Callable[[str], Decision]:
        """``take_token`` for one event: an event handled again (batch retry, busy database) gets the same answer."""
        decided: dict[str, Decision] = {}

        def take(user_id: str) -> Decision:
            if user_id not in decided:
                decided[user_id] = self.take_token(user_id)
            return decided[user_id]

        return take


def make_processor(
    app: web.Application, runner: EventRunner, pool: Executor, *, parallel: int = 1
) -> ChatProcessor[InboundEvent, ChatResult]:
    """The processor that runs ``runner`` over batches of events in ``pool`` and wakes the outbound worker
    whenever an event queued something."""

    def queued_something(result: ChatResult) -> None:
        outbound = app.get(keys.OUTBOUND)
        if outbound is not None and (result.texts or result.reactions):
            outbound.notify()

    def stop_process(error: Exception) -> None:
        app[keys.FATAL](error, where="webhook")

    return ChatProcessor(runner.run_batch, pool, parallel=parallel, on_result=queued_something,
                         retryable=is_unavailable, fatal=is_schema_error, on_fatal=stop_process)
