"""`tasksvc web`: wait for the bot's migrations (R4; the web never migrates), seed in development, serve."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from aiohttp import web
from sqlalchemy.exc import OperationalError

from taskcore.config_warnings import startup_warnings
from taskcore.errors import SchemaError
from taskcore.settings import Settings
from taskcore.storage import migrator
from taskcore.storage.db import Database, is_unavailable, unavailable_reason
from tasksvc_run import exits, units
from tasksvc_run.clock import Clock, SystemClock, local_today
from tasksvc_run.outage import FatalStop, stop_this_process
from tasksvc_run.places import database_named
from tasksvc_run.web.app import make_web_app

log = logging.getLogger("tasksvc.web")
READY_TABLES = ("web_tokens", "web_sessions")
WAIT_SECONDS = 60.0
POLL_SECONDS = 0.5
DEV_FALLBACK_USER = "34600000000"
# Only the reverse proxy is public (R1-R3); the web listens on loopback behind it.
HOST = "127.0.0.1"


class SchemaNotReady(Exception):
    """The bot did not finish its migrations within the wait."""


def schema_ready(db: Database) -> bool:
    """The web tables exist and every known migration is recorded; SchemaError for a history this code refuses."""
    try:
        return migrator.tables_exist(db, READY_TABLES) and not migrator.check(db)
    except OperationalError:  # the database is not reachable yet
        return False


def wait_for_schema(db: Database, *, timeout: float = WAIT_SECONDS, interval: float = POLL_SECONDS,
                    sleep: Callable[[float], None] = time.sleep,
                    monotonic: Callable[[], float] = time.monotonic) -> None:
    """Poll until the schema is ready; SchemaNotReady after ``timeout`` seconds."""
    deadline = monotonic() + timeout
    if schema_ready(db):
        return
    log.info("waiting for the bot to migrate the database", extra={"tables": ",".join(READY_TABLES),
                                                                    "timeout_s": timeout})
    while monotonic() < deadline:
        sleep(interval)
        if schema_ready(db):
            log.info("database schema ready")
            return
    raise SchemaNotReady(f"the database schema was not ready after {timeout:g} s")


def autoseed(settings: Settings, db: Database, clock: Clock) -> None:
    """Development seed (seed section 8) when DEV_AUTOSEED_DB is true in development."""
    if settings.node_env != "development" or not settings.dev_autoseed_db:
        return
    from taskcore.services.devseed import seed_dev_data  # noqa: PLC0415 - development only: production never loads it

    user = settings.default_user or DEV_FALLBACK_USER
    seeded = units.run(db, seed_dev_data, default_user=user, now=clock.now(), today=local_today(clock, settings.zone))
    log.info("development seed", extra={"seeded": seeded, "default_user": user})


def run_web(settings: Settings, *, wait_seconds: float = WAIT_SECONDS) -> int:
    """Serve the web interface on WEB_PORT until SIGTERM/SIGINT or a schema error found while serving; non-zero
    when the schema never became ready or is incomplete."""
    for warning in startup_warnings(settings):
        log.warning(warning)
    db = Database.from_url(settings.sqlalchemy_url)
    fatal = FatalStop(stop_this_process)
    try:
        wait_for_schema(db, timeout=wait_seconds)
        migrator.require_schema(db)
        autoseed(settings, db, SystemClock())
        web.run_app(make_web_app(settings, db=db, fatal=fatal), host=HOST, port=settings.web_port, print=None,
                    access_log=None, shutdown_timeout=5)
    except (SchemaNotReady, SchemaError) as exc:
        log.error("web not started", extra={"reason": str(exc)})
        return exits.SCHEMA
    except Exception as exc:
        if not is_unavailable(exc):
            raise
        log.error("web not started: the database cannot be used",
                  extra={"database": database_named(settings), "reason": unavailable_reason(exc)})
        return exits.STORAGE
    finally:
        db.dispose()
    return exits.SCHEMA if fatal.reason is not None else exits.OK
