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
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any

from aiohttp import web

from taskcore.chat import ChatPolicy, ChatResult, MetricEvent, Moment, handle_event
from taskcore.gateway.inbound import Ignored, InboundEvent, chat_key, parse_event
from taskcore.gateway.inbound_models import canonical_event
from taskcore.ratelimit import Decision, RateLimiter
from taskcore.settings import Settings
from taskcore.storage.db import Database
from tasksvc_run import keys
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
    """Acknowledge a gateway event at once; 401 bad secret, 400 not a JSON object, 503 when the backlog is full."""
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
    if not app[keys.PROCESSOR].submit(chat_key(event), event):
        return problem(503, "too many events waiting; retry later", headers={"Retry-After": RETRY_AFTER_FULL})
    return web.json_response({"status": "accepted"})


class EventRunner:
    """Applies one event (in a worker thread) and counts what it reports; the rate limiter is shared and locked."""

    def __init__(self, db: Database, policy: ChatPolicy, *, settings: Settings, clock: Clock, metrics: Metrics,
                 limiter: RateLimiter) -> None:
        self.db, self.policy, self.clock, self.metrics, self.limiter = db, policy, clock, metrics, limiter
        self.zone = settings.zone
        self._limiter_lock = threading.Lock()
        self._counters: dict[MetricEvent, Callable[[], None]] = {
            MetricEvent.IDENTITY_ALIAS_RESOLVED: metrics.identity_alias_resolved.inc,
            MetricEvent.UNKNOWN_GROUP_DISCOVERED: metrics.unknown_groups_discovered.inc,
            MetricEvent.MESSAGE_BLOCKED_GROUP: metrics.messages_blocked_group.inc,
            MetricEvent.COMMAND_BLOCKED: metrics.commands_blocked.inc,
            MetricEvent.ADMIN_ALLOW: metrics.admin_allow.inc,
            MetricEvent.ADMIN_BLOCK: metrics.admin_block.inc,
        }

    def take_token(self, user_id: str) -> Decision:
        """One token from the user's bucket."""
        with self._limiter_lock:
            return self.limiter.check(user_id, self.clock.monotonic())

    def run(self, event: InboundEvent, request_sync: Callable[[], None] | None = None) -> ChatResult:
        """Handle the event now; count its metric events and the time it took."""
        started = time.perf_counter()
        now = self.clock.now()
        moment = Moment(now, now.astimezone(self.zone).date(), self.take_token, request_sync)
        result = handle_event(self.db, self.policy, event, moment)
        for metric in result.metrics:
            self._counters[metric]()
        self.metrics.webhook_seconds.observe(time.perf_counter() - started)
        return result


def make_handler(
    app: web.Application, runner: EventRunner, pool: Executor
) -> Callable[[InboundEvent], Awaitable[None]]:
    """The processor's coroutine: run the event in ``pool``, then wake the outbound worker if anything was queued."""

    async def handle(event: InboundEvent) -> None:
        sync = app.get(keys.SYNC)
        trigger = sync.request_sync if sync is not None else None
        result = await asyncio.get_running_loop().run_in_executor(pool, runner.run, event, trigger)
        outbound = app.get(keys.OUTBOUND)
        if outbound is not None and (result.texts or result.reactions):
            outbound.notify()

    return handle
