"""`tasksvc bot` (R5): report the environment, apply migrations, then serve /webhook and /metrics on BOT_PORT."""

from __future__ import annotations

import logging
from pathlib import Path

from aiohttp import web

from taskcore.config_warnings import startup_warnings
from taskcore.errors import SchemaError
from taskcore.settings import Settings, present_variables
from taskcore.storage import migrator
from taskcore.storage.db import Database, is_unavailable, unavailable_reason
from tasksvc_run import exits
from tasksvc_run.bot.app import make_bot_app, tune_process
from tasksvc_run.bot.background import install_background
from tasksvc_run.bot.health import store_probe_ctx
from tasksvc_run.outage import FatalStop, stop_this_process
from tasksvc_run.places import database_named, folder_problem
from tasksvc_run.store_health import StoreHealth

log = logging.getLogger("tasksvc.bot")
# Only the reverse proxy is public (R1-R3); the bot listens on loopback behind it.
HOST = "127.0.0.1"


def report_environment(settings: Settings) -> None:
    """Log which variables are set and which are not (names only, never values), then the start-up warnings."""
    present = present_variables(settings)
    log.info("environment", extra={
        "present": ",".join(sorted(name for name, is_set in present.items() if is_set)) or "-",
        "missing": ",".join(sorted(name for name, is_set in present.items() if not is_set)) or "-",
    })
    for warning in startup_warnings(settings):
        log.warning(warning)
    if settings.backups_enabled and (problem := folder_problem(Path(settings.backup_dir or "."))):
        log.warning("BACKUP_DIR cannot be written: no daily backup until it can", extra={"reason": problem})


def run_bot(settings: Settings) -> int:
    """Validate, migrate (up-only; a refused history or an incomplete schema stops the start), serve until
    SIGTERM/SIGINT or a schema error found while serving."""
    report_environment(settings)
    db = Database.from_url(settings.sqlalchemy_url)
    fatal = FatalStop(stop_this_process, store=StoreHealth.of(settings))
    try:
        applied = migrator.migrate(db, log=None if settings.migrations_silent else log.info)
        migrator.require_schema(db)
        log.info("migrations up to date", extra={"applied": len(applied)})
        app = make_bot_app(settings, db=db, fatal=fatal)
        app.cleanup_ctx.append(store_probe_ctx)  # before the background: its first write says what the store takes
        install_background(app)
        tune_process(app)
        web.run_app(app, host=HOST, port=settings.bot_port, print=None,
                    access_log=None, shutdown_timeout=5)
    except SchemaError as exc:
        log.error("bot not started: the database schema cannot be used", extra={"reason": str(exc)})
        return exits.SCHEMA
    except Exception as exc:
        if not is_unavailable(exc):
            raise
        log.error("bot not started: the database cannot be used",
                  extra={"database": database_named(settings), "reason": unavailable_reason(exc)})
        return exits.STORAGE
    finally:
        db.dispose()
    return exits.SCHEMA if fatal.reason is not None else exits.OK
