"""The bot's background work as one aiohttp cleanup_ctx: gateway session, queue worker, webhook registration,
schedulers (SPEC sections 9 and 10). On cleanup: schedulers stop, then the worker finishes its current sends, then
the session closes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web

from taskcore.gateway.client import GatewayClient, GatewayError
from taskcore.settings import Settings
from tasksvc_run import keys
from tasksvc_run.bot.worker import QueueWorker, WorkerConfig
from tasksvc_run.clock import SystemClock
from tasksvc_run.metrics import Metrics
from tasksvc_run.outage import FatalStop
from tasksvc_run.schedulers import JobContext, SchedulerRuntime, build_runtime

log = logging.getLogger(__name__)
WEBHOOK_EVENTS = ("MESSAGES_UPSERT", "GROUPS_UPSERT", "GROUP_PARTICIPANTS_UPDATE", "CONNECTION_UPDATE")
SECRET_HEADER = "X-Webhook-Secret"  # noqa: S105 - a header name, not a secret


class _NoWorker:
    """Stands in for the worker when no gateway is configured: jobs stay queued."""

    def notify(self) -> None:
        """Nothing to wake."""


async def register_webhook(client: GatewayClient, settings: Settings) -> bool:
    """webhook/set with the events the bot handles and, with WEBHOOK_SECRET, its header; a failure is logged."""
    if not settings.webhook_url:
        return False
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    where = urlsplit(settings.webhook_url)
    shown = f"{where.scheme}://{where.netloc}{where.path}"  # never the query, which could carry a token
    try:
        await client.set_webhook(settings.webhook_url, events=WEBHOOK_EVENTS,
                                 headers={SECRET_HEADER: secret} if secret else None)
    except GatewayError as exc:
        log.warning("webhook registration failed; the bot keeps running",
                    extra={"url": shown, "status": exc.status, "error": exc.message_text})
        return False
    log.info("webhook registered", extra={"url": shown, "secret_header": secret is not None})
    return True


async def background_ctx(app: web.Application) -> AsyncIterator[None]:
    """Start the worker, the webhook registration and (per settings.schedulers_enabled) the schedulers."""
    settings, db = app[keys.SETTINGS], app[keys.DB]
    clock = app.get(keys.CLOCK) or SystemClock()
    metrics = app.get(keys.METRICS) or Metrics()
    fatal = app.get(keys.FATAL) or FatalStop()
    session = aiohttp.ClientSession() if settings.gateway_api_url else None
    client = GatewayClient.from_settings(session, settings) if session else None
    worker = None
    if client is not None:
        worker = QueueWorker(db, client, clock=clock, metrics=metrics, config=WorkerConfig.from_settings(settings),
                             fatal=fatal)
        worker.start()
    else:
        log.warning("GATEWAY_API_URL is not set: outbound messages stay queued")
    notifier = worker or _NoWorker()
    runtime = build_runtime(JobContext(settings, db, clock, metrics, client, notify=notifier.notify,
                                       fatal=fatal))
    app[keys.OUTBOUND] = notifier
    app[keys.SYNC] = runtime
    registration = asyncio.create_task(register_webhook(client, settings)) if client and settings.webhook_url else None
    if settings.schedulers_enabled:
        runtime.start()
    try:
        yield
    finally:
        await _shutdown(runtime, registration=registration, worker=worker, session=session)


async def _shutdown(
    runtime: SchedulerRuntime, *, registration: asyncio.Task[bool] | None, worker: QueueWorker | None,
    session: aiohttp.ClientSession | None,
) -> None:
    await runtime.stop()
    if registration is not None:
        registration.cancel()
        await asyncio.gather(registration, return_exceptions=True)
    if worker is not None:
        await worker.stop()
    if session is not None:
        await session.close()


def install_background(app: web.Application) -> None:
    """Append background_ctx to the app's cleanup contexts."""
    app.cleanup_ctx.append(background_ctx)
