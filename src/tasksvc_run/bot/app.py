"""The bot's aiohttp application: /webhook, /webhook/{event}, /metrics (SPEC sections 5, 7 and 11) and /health, the
store's health the proxy asks for (SPEC section 40; on loopback only: the proxy answers the public /health)."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from aiohttp import web

from taskcore.chat import ChatPolicy
from taskcore.ratelimit import RateLimiter
from taskcore.services.groups import seed_allowed_groups
from taskcore.settings import Settings
from taskcore.storage.db import Database
from tasksvc_run import keys, units
from tasksvc_run.banner import no_banner
from tasksvc_run.bot.deliveries import RecentDeliveries
from tasksvc_run.bot.health import health_view
from tasksvc_run.bot.metrics_view import metrics_view
from tasksvc_run.bot.runner import EventRunner, make_intake
from tasksvc_run.bot.webhook import webhook
from tasksvc_run.clock import Clock, SystemClock
from tasksvc_run.gateways import CODECS, codec_of
from tasksvc_run.metrics import Metrics
from tasksvc_run.outage import FatalStop
from tasksvc_run.proxy.limits import MAX_BODY

log = logging.getLogger(__name__)
# Seconds the inbox writer and the processor each get at shutdown to finish the transaction under way; what is not
# handled yet stays in the inbox for the next start (SPEC section 17: the unit stops within the supervisor's 10 s).
SHUTDOWN_GRACE = 2.0


def make_bot_app(settings: Settings, *, db: Database | None = None, clock: Clock | None = None,
                 fatal: FatalStop | None = None) -> web.Application:
    """The bot app; without ``db`` it opens (and at cleanup closes) the configured database, already migrated.
    ``fatal`` stops the serving process on a schema error (by default nothing is stopped: an app inside a test)."""
    # The proxy's limit (SPEC section 28): a well-formed event the proxy passes on is never refused here.
    app = web.Application(client_max_size=MAX_BODY)
    app[keys.SETTINGS] = settings
    app[keys.DB] = db if db is not None else Database.from_url(settings.sqlalchemy_url)
    app[keys.CLOCK] = clock or SystemClock()
    app[keys.METRICS] = Metrics(app[keys.DB], enabled=settings.metrics_enabled,
                                 backups=settings.backups_enabled,
                                 reachout_pause_hours=settings.gateway_reachout_pause_hours, clock=app[keys.CLOCK],
                                 gateway=settings.gateway_kind)
    app[keys.LIMITER] = RateLimiter(settings.rate_limit_per_min, settings.rate_limit_burst)
    app[keys.FATAL] = fatal or FatalStop()
    app[keys.CODEC] = codec_of(settings)
    app[keys.DELIVERIES] = RecentDeliveries()
    runner = EventRunner(app[keys.DB], ChatPolicy.from_settings(settings), settings=settings,
                         clock=app[keys.CLOCK], metrics=app[keys.METRICS], limiter=app[keys.LIMITER],
                         codecs=CODECS, sync=lambda: app.get(keys.SYNC))
    # SQLite has one writer at a time: more threads would only queue on its lock (and sleep in its busy handler).
    workers = 1 if app[keys.DB].is_sqlite else 4
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="webhook")
    app[keys.EVENT_POOL] = pool
    app[keys.INBOX], app[keys.PROCESSOR] = make_intake(app, runner, pool, parallel=workers)
    no_banner(app)
    app.router.add_post("/webhook", webhook)
    app.router.add_post("/webhook/{event}", webhook)
    app.router.add_route("*", "/metrics", metrics_view)
    app.router.add_get("/health", health_view)
    app.cleanup_ctx.append(_seeded_groups)
    app.cleanup_ctx.append(partial(_processor_ctx, runner=runner))
    if db is None:
        app.cleanup_ctx.append(_owned_database)
    return app


def tune_process(app: web.Application) -> None:
    """Settings for a process that serves this app (not for apps built inside a test run).

    Once started, the objects built so far (modules, settings, the app, compiled statements) are frozen out of the
    cyclic garbage collector's reach: a full collection then no longer walks a few hundred thousand long-lived
    objects, a 50-60 ms pause of both threads that held up every webhook acknowledgement meanwhile.
    """
    app.on_startup.append(_freeze_heap)


async def _freeze_heap(_app: web.Application) -> None:
    gc.collect()
    gc.freeze()


async def _seeded_groups(app: web.Application) -> AsyncIterator[None]:
    """ALLOWED_GROUPS inserted as allowed where they have no status yet (an admin's block survives restarts)."""
    settings, db = app[keys.SETTINGS], app[keys.DB]
    added = await asyncio.to_thread(units.run, db, seed_allowed_groups, settings.allowed_groups,
                                    now=app[keys.CLOCK].now())
    if settings.allowed_groups:
        log.info("allowed groups seeded", extra={"configured": len(settings.allowed_groups), "added": added})
    yield


async def _processor_ctx(app: web.Application, *, runner: EventRunner) -> AsyncIterator[None]:
    """Handle what the inbox holds (what an earlier process left first), then whatever the webhook stores."""
    runner.bind_loop(asyncio.get_running_loop())
    app[keys.PROCESSOR].start()
    yield
    await app[keys.INBOX].close(SHUTDOWN_GRACE)
    await app[keys.PROCESSOR].close(SHUTDOWN_GRACE)
    app[keys.EVENT_POOL].shutdown(wait=True)


async def _owned_database(app: web.Application) -> AsyncIterator[None]:
    yield
    app[keys.DB].dispose()


async def drain(app: web.Application, within: float = 5.0) -> None:
    """Wait until every acknowledged webhook event was handled (tests, benchmarks); TimeoutError past ``within``."""
    await app[keys.PROCESSOR].drain(within)
