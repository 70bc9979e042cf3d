"""A bot process reduced to its background work (queue worker; schedulers per NODE_ENV/FORCE_SCHEDULERS), for the
crash test: ``python -m tests.integration.outbound_runner`` with the configuration in the environment.

It prints ``ready`` once the worker runs and stops cleanly on SIGTERM (finishing the current sends).
"""

from __future__ import annotations

import asyncio
import logging
import signal

from aiohttp import web

from taskcore.settings import load_settings
from taskcore.storage import migrator
from taskcore.storage.db import Database
from tasksvc_run import keys
from tasksvc_run.bot.background import install_background
from tasksvc_run.clock import SystemClock
from tasksvc_run.logs import setup_logging
from tasksvc_run.metrics import Metrics


async def serve() -> None:
    """Run the background context until SIGTERM."""
    settings = load_settings(env_file=None)
    db = Database.from_url(settings.sqlalchemy_url)
    migrator.migrate(db)
    app = web.Application()
    app[keys.SETTINGS], app[keys.DB], app[keys.CLOCK] = settings, db, SystemClock()
    app[keys.METRICS] = Metrics(db)
    install_background(app)
    runner = web.AppRunner(app)
    await runner.setup()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", flush=True)
    await stop.wait()
    await runner.cleanup()
    db.dispose()


if __name__ == "__main__":
    setup_logging("bot", level=logging.WARNING)
    asyncio.run(serve())
