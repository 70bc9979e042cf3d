"""The ``tasksvc`` command: run, bot, web, proxy, migrate, dev (SPEC section 2), doctor, backup and references."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from taskcore.errors import SchemaError
from taskcore.settings import ConfigError, Settings, load_settings
from tasksvc_run import exits
from tasksvc_run.logs import setup_logging

log = logging.getLogger("tasksvc")


def _config_error(lines: Sequence[str]) -> None:
    for line in lines:
        print(f"tasksvc: configuration error: {line}", file=sys.stderr)


def _settings_or_exit() -> Settings:
    try:
        return load_settings()
    except ConfigError as exc:
        _config_error(exc.lines)
        raise SystemExit(exits.CONFIG) from exc


def cmd_migrate(settings: Settings) -> int:
    """Apply pending migrations and exit."""
    from taskcore.storage import migrator  # here, not at the top: the proxy process never loads SQLAlchemy
    from taskcore.storage.db import Database

    db = Database.from_url(settings.sqlalchemy_url)
    try:
        applied = migrator.migrate(db, log=None if settings.migrations_silent else log.info)
        migrator.require_schema(db)
    except SchemaError as exc:
        log.error("migration refused", extra={"reason": str(exc)})
        return exits.SCHEMA
    finally:
        db.dispose()
    log.info("migrations up to date", extra={"applied": len(applied)})
    return exits.OK


def cmd_proxy(settings: Settings) -> int:
    """Serve the proxy on HOST:PORT (R1), the unit's only public port."""
    from tasksvc_run.proxy.app import run_proxy

    return run_proxy(settings, dev_url=os.environ.get("TASKSVC_DEV_GATEWAY_URL"))


def cmd_run(settings: Settings) -> int:
    """Start bot, web and proxy as three processes (R4) and supervise them."""
    from tasksvc_run.supervisor import Supervisor, absolute_paths

    return Supervisor(settings, absolute_paths(os.environ, settings)).run()


def cmd_web(settings: Settings) -> int:
    """Serve the web interface on WEB_PORT, on loopback behind the proxy, once the bot has migrated (R4)."""
    from tasksvc_run.web.serve import run_web

    return run_web(settings)


def cmd_bot(settings: Settings) -> int:
    """Serve the bot on BOT_PORT, on loopback behind the proxy, after applying migrations (R5)."""
    from tasksvc_run.bot.serve import run_bot

    return run_bot(settings)


def cmd_dev(settings: Settings) -> int:
    """Development mode: the whole unit on embedded defaults, local gateway and chat simulator (SPEC section 12)."""
    from tasksvc_run.devmode import GATEWAY_PORT_VAR, run_dev

    return run_dev(settings, local_gateway=GATEWAY_PORT_VAR in os.environ)


def cmd_devgateway(settings: Settings) -> int:
    """The development mode's local gateway and chat simulator (started by `tasksvc dev`)."""
    from tasksvc_run.devmode import run_local_gateway

    return run_local_gateway(settings)


def cmd_config_reference(_: Settings) -> int:
    """Print the configuration reference (docs/configuration.md)."""
    from tasksvc_run.confref import reference

    sys.stdout.write(reference())
    return 0


COMMANDS: dict[str, tuple[str, Callable[[Settings], int]]] = {
    "config-reference": ("print the configuration reference (Markdown)", cmd_config_reference),
    "dev": ("development mode on embedded defaults, with a local gateway and a chat simulator", cmd_dev),
    "devgateway": ("the local gateway of development mode (started by dev)", cmd_devgateway),
    "bot": ("serve the bot (webhook, metrics) on BOT_PORT", cmd_bot),
    "migrate": ("apply database migrations and exit", cmd_migrate),
    "proxy": ("serve the proxy on PORT", cmd_proxy),
    "run": ("start bot, web and proxy and supervise them", cmd_run),
    "web": ("serve the web interface on WEB_PORT", cmd_web),
}


def cmd_doctor(*, probe: bool = False) -> int:
    """Check the configuration and the gateway; say what keeps the bot silent and how to fix it (``--probe``: and
    whether a probe's echo reaches the bot within 15 s)."""
    from tasksvc_run.doctor import run_doctor

    setup_logging("doctor")
    return run_doctor(probe=probe)


def cmd_commands_sheet() -> int:
    """Print the chat command sheet (Markdown, the README's), generated from the bot's own help text."""
    from taskcore.chat.sheet import command_sheet

    sys.stdout.write(command_sheet())
    return 0


# These read (or need) no configuration of their own: an invalid one is theirs to report.
WITHOUT_SETTINGS: dict[str, tuple[str, Callable[[], int]]] = {
    "doctor": ("check the configuration and the gateway: why the bot stays silent", cmd_doctor),
    "commands-sheet": ("print the chat command sheet (Markdown)", cmd_commands_sheet),
}


STARTS_A_BOT = frozenset({"bot", "run", "dev"})


def cmd_backup(settings: Settings, destination: str) -> int:
    """Copy the live SQLite database to ``destination`` with SQLite's online backup (consistent while running)."""
    from tasksvc_run.backup import backup_sqlite

    if settings.database_url:
        log.error("backup: DATABASE_URL is set; back up PostgreSQL with pg_dump (docs/operations.md)")
        return 2
    pages = backup_sqlite(settings.database_path, Path(destination))
    log.info("backup written", extra={"destination": destination, "pages": pages})
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subcommand per process kind."""
    parser = argparse.ArgumentParser(prog="tasksvc", description="Task tracker for WhatsApp groups.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, _) in COMMANDS.items():
        sub.add_parser(name, help=help_text)
    for name, (help_text, _) in WITHOUT_SETTINGS.items():
        sub.add_parser(name, help=help_text)
    sub.choices["doctor"].add_argument("--probe", action="store_true",
                                       help="also send a probe to the bot's own number and wait for its echo (15 s)")
    backup = sub.add_parser("backup", help="copy the live SQLite database to a file (online backup)")
    backup.add_argument("destination", help="file to write, e.g. /backup/tasks-2026-11-22.db")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    if args.command == "doctor":
        return cmd_doctor(probe=args.probe)
    if args.command in WITHOUT_SETTINGS:
        return WITHOUT_SETTINGS[args.command][1]()
    if args.command == "dev":
        from tasksvc_run.devmode import apply_dev_environment

        apply_dev_environment(os.environ)
    settings = _settings_or_exit()
    setup_logging(args.command, log_format=settings.log_format)
    if args.command == "backup":
        return cmd_backup(settings, args.destination)
    if args.command in STARTS_A_BOT and (refusals := settings.bot_refusals()):
        _config_error(refusals)  # before anything starts: a unit that cannot run safely does not run at all
        return exits.CONFIG
    return COMMANDS[args.command][1](settings)
