"""The bot's background work as one aiohttp cleanup_ctx: gateway session, queue worker, webhook registration,
schedulers (SPEC sections 9 and 10). Before anything starts, the leases of this host's dead predecessors are taken
over (SPEC section 17). On cleanup: schedulers stop, then the worker finishes its current sends (within
WORKER_STOP_GRACE), then the session closes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
from aiohttp import web

from taskcore.services import Database
from taskcore.services.takeover import take_over_dead_leases
from tasksvc_run import keys, units
from tasksvc_run.bot.photo_fetcher import PhotoFetcher
from tasksvc_run.bot.watchdog import Watchdog
from tasksvc_run.bot.webhook_keeper import keep_webhook, set_webhook
from tasksvc_run.bot.worker import QueueWorker
from tasksvc_run.bot.worker_config import WorkerConfig
from tasksvc_run.clock import Clock, SystemClock
from tasksvc_run.gateways import make_gateway
from tasksvc_run.metrics import Metrics
from tasksvc_run.outage import FatalStop
from tasksvc_run.owner import dead_owners
from tasksvc_run.schedulers import JobContext, SchedulerRuntime, build_runtime

log = logging.getLogger(__name__)
WORKER_STOP_GRACE = 3.0  # seconds the sends in flight get at shutdown (the unit stops within 10 s, SPEC section 2)
__all__ = ["background_ctx", "install_background", "register_webhook", "take_over"]
register_webhook = set_webhook  # the name doctor's tests knew it by


class _NoWorker:
    """Stands in for the worker when no gateway is configured: jobs stay queued."""

    def notify(self) -> None:
        """Nothing to wake."""


async def take_over(db: Database, clock: Clock) -> None:
    """Release the leases of this host's dead predecessors (a failure is logged: those leases then expire)."""
    try:
        taken = await asyncio.to_thread(units.run, db, take_over_dead_leases, dead=dead_owners, now=clock.now())
    except Exception as exc:
        log.warning("leases of dead predecessors not taken over; they expire by themselves",
                    extra={"error": type(exc).__name__})
        return
    if taken.owners:
        log.info("took over the leases of dead predecessors", extra={
            "owners": len(taken.owners), "jobs": taken.jobs, "job_leases": taken.job_leases})


async def background_ctx(app: web.Application) -> AsyncIterator[None]:
    """Start the worker, the webhook registration and (per settings.schedulers_enabled) the schedulers."""
    settings, db = app[keys.SETTINGS], app[keys.DB]
    clock = app.get(keys.CLOCK) or SystemClock()
    metrics = app.get(keys.METRICS) or Metrics()
    fatal = app.get(keys.FATAL) or FatalStop()
    await take_over(db, clock)
    session = aiohttp.ClientSession() if settings.gateway_api_url else None
    client = make_gateway(session, settings) if session else None
    if client is not None:
        app[keys.GATEWAY] = client
    watchdog = Watchdog(db, client, settings=settings, metrics=metrics, clock=clock, fatal=fatal) if client else None
    worker = None
    if client is not None and watchdog is not None:
        worker = QueueWorker(db, client, clock=clock, metrics=metrics, config=WorkerConfig.from_settings(settings),
                             fatal=fatal, on_sent=watchdog.accepted)
        watchdog.worker = worker
        app[keys.WATCHDOG] = watchdog
        worker.start()
    else:
        log.warning("GATEWAY_API_URL is not set: outbound messages stay queued")
    notifier = worker or _NoWorker()
    photos = PhotoFetcher(db, client, settings=settings, clock=clock, on_queued=notifier.notify) if client else None
    if photos is not None:
        app[keys.PHOTOS] = photos
        photos.start()
    runtime = build_runtime(JobContext(settings, db, clock, metrics, client, notify=notifier.notify,
                                       fatal=fatal))
    app[keys.OUTBOUND] = notifier
    app[keys.SYNC] = runtime
    registration = None
    if client and watchdog and settings.webhook_url:  # the bot manages the gateway's webhook (SPEC section 26)
        registration = asyncio.gather(keep_webhook(client, settings, metrics), watchdog.start(), watchdog.run())
    if settings.schedulers_enabled:
        runtime.start()
    try:
        yield
    finally:
        if photos is not None:
            await photos.stop()
        await _shutdown(runtime, registration=registration, worker=worker, session=session)


async def _shutdown(
    runtime: SchedulerRuntime, *, registration: asyncio.Future[Any] | None, worker: QueueWorker | None,
    session: aiohttp.ClientSession | None,
) -> None:
    await runtime.stop()
    if registration is not None:
        registration.cancel()
        await asyncio.gather(registration, return_exceptions=True)
    if worker is not None:
        await worker.stop(WORKER_STOP_GRACE)
    if session is not None:
        await session.close()


def install_background(app: web.Application) -> None:
    """Append background_ctx to the app's cleanup contexts."""
    app.cleanup_ctx.append(background_ctx)
