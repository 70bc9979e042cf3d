"""The bot's `/health` (on BOT_PORT, asked by the proxy and by `tasksvc doctor`) and its write probe (SPEC section 40).

A store that opens but refuses writes is found by a real write, not by a look at permissions: at start and every
PROBE_SECONDS the bot renews a lease of its own (one row of ``job_leases``, expiring at once, so any bot may take it
next). A refusal there, or in any loop (outage.py), makes the process's ``StoreHealth`` refuse; the next write taken
ends it. The proxy answers the unit's `/health` with what this view says.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta

from aiohttp import web

from taskcore.services.leases import acquire_lease
from tasksvc_run import keys, units
from tasksvc_run.clock import SystemClock
from tasksvc_run.outage import Outage
from tasksvc_run.owner import process_owner

log = logging.getLogger(__name__)
PROBE_SECONDS = 30.0
PROBE_LEASE = "store-probe"


async def health_view(request: web.Request) -> web.Response:
    """GET /health: 200 ``{"status": "ok"}`` while the store takes writes, else 503 naming it."""
    status, body = request.app[keys.FATAL].store.answer()
    return web.json_response(body, status=status)


async def probe_once(app: web.Application, owner: str, outage: Outage) -> bool:
    """One write; whether the store took it (a refusal or another failure goes to ``outage``)."""
    db, clock, store = app[keys.DB], app.get(keys.CLOCK) or SystemClock(), app[keys.FATAL].store
    try:
        await asyncio.to_thread(units.run, db, acquire_lease, name=PROBE_LEASE, owner=owner, now=clock.now(),
                                ttl=timedelta(0))
    except Exception as exc:  # a refusal goes to the store, a schema error stops the process, a bug is logged
        outage.failed(exc, what="store probe failed")
        return False
    outage.succeeded()
    store.took_writes()
    return True


async def store_probe_ctx(app: web.Application, *, every: float = PROBE_SECONDS,
                          sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> AsyncIterator[None]:
    """Probe at start and every ``every`` seconds until cleanup."""
    outage = Outage("store probe", app[keys.FATAL])
    owner = process_owner()

    async def probing() -> None:
        while True:
            await probe_once(app, owner, outage)
            await sleep(every)

    task = asyncio.create_task(probing(), name="store-probe")
    yield
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
