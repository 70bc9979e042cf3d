"""The ``tasksvc`` command: run, bot, web, proxy, migrate, dev (SPEC section 2), doctor, backup and references.

`run` and `dev` supervise: they import only what supervising needs and read the configuration through a child
(plan.py), so this module imports neither pydantic nor SQLAlchemy at the top."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tasksvc_run import cli_grammar, exits
from tasksvc_run.logs import setup_logging

if TYPE_CHECKING:
    from taskcore.settings import Settings
    from tasksvc_run.plan import Plan

log = logging.getLogger("tasksvc")


def _config_error(lines: Sequence[str]) -> None:
    for line in lines:
        print(f"tasksvc: configuration error: {line}", file=sys.stderr)


def _settings_or_exit() -> Settings:
    from taskcore.settings import ConfigError, load_settings

    try:
        return load_settings()
    except ConfigError as exc:
        _config_error(exc.lines)
        raise SystemExit(exits.CONFIG) from exc


def cmd_migrate(settings: Settings) -> int:
    """Apply pending migrations and exit."""
    from taskcore.errors import SchemaError
    from taskcore.storage import migrator  # here, not at the top: the proxy process never loads SQLAlchemy
    from taskcore.storage.db import Database, is_unavailable, unavailable_reason
    from tasksvc_run.places import database_named

    db = Database.from_url(settings.sqlalchemy_url)
    try:
        applied = migrator.migrate(db, log=None if settings.migrations_silent else log.info)
        migrator.require_schema(db)
    except SchemaError as exc:
        log.error("migration refused", extra={"reason": str(exc)})
        return exits.SCHEMA
    except Exception as exc:
        if not is_unavailable(exc):
            raise
        log.error("migration not run: the database cannot be used",
                  extra={"database": database_named(settings), "reason": unavailable_reason(exc)})
        return exits.STORAGE
    finally:
        db.dispose()
    log.info("migrations up to date", extra={"applied": len(applied)})
    return exits.OK


def cmd_proxy(settings: Settings) -> int:
    """Serve the proxy on HOST:PORT (R1), the unit's only public port."""
    from tasksvc_run.proxy.app import run_proxy

    return run_proxy(settings, dev_url=os.environ.get("TASKSVC_DEV_GATEWAY_URL"))


def cmd_run(plan: Plan) -> int:
    """Start bot, web and proxy as three processes (R4) and supervise them."""
    from tasksvc_run.supervisor import Supervisor

    return Supervisor(plan).run()


def cmd_web(settings: Settings) -> int:
    """Serve the web interface on WEB_PORT, on loopback behind the proxy, once the bot has migrated (R4)."""
    from tasksvc_run.web.serve import run_web

    return run_web(settings)


def cmd_bot(settings: Settings) -> int:
    """Serve the bot on BOT_PORT, on loopback behind the proxy, after applying migrations (R5)."""
    from tasksvc_run.bot.serve import run_bot

    return run_bot(settings)


def cmd_dev(plan: Plan) -> int:
    """Development mode: the whole unit on embedded defaults, local gateway and chat simulator (SPEC section 12)."""
    from tasksvc_run.devmode import GATEWAY_PORT_VAR, run_dev

    return run_dev(plan, local_gateway=GATEWAY_PORT_VAR in plan.env)


def cmd_devgateway(settings: Settings) -> int:
    """The development mode's local gateway and chat simulator (started by `tasksvc dev`)."""
    from tasksvc_run.devgateway.serve import run_local_gateway

    return run_local_gateway(settings)


def cmd_plan(settings: Settings) -> int:
    """What a supervisor needs of the configuration, as JSON (started by `run` and `dev`)."""
    from tasksvc_run.plan import print_plan

    return print_plan(settings)


def cmd_config_reference(_: Settings) -> int:
    """Print the configuration reference (docs/configuration.md)."""
    from tasksvc_run.confref import reference

    sys.stdout.write(reference())
    return 0


SUPERVISING: dict[str, tuple[str, Callable[[Plan], int]]] = {
    "run": ("start bot, web and proxy and supervise them (the container's command)", cmd_run),
    "dev": ("development mode on embedded defaults, with a local gateway and a chat simulator", cmd_dev),
}
COMMANDS: dict[str, tuple[str, Callable[[Settings], int]]] = {
    "migrate": ("apply database migrations and exit", cmd_migrate),
    "bot": ("serve the bot (webhook, metrics) on BOT_PORT", cmd_bot),
    "web": ("serve the web interface on WEB_PORT", cmd_web),
    "proxy": ("serve the proxy on PORT", cmd_proxy),
    "config-reference": ("print the configuration reference (Markdown)", cmd_config_reference),
}
HIDDEN: dict[str, Callable[[Settings], int]] = {"devgateway": cmd_devgateway, "_plan": cmd_plan}
STARTS_A_BOT = frozenset({"bot", "_plan"})
USES_THE_DATABASE = frozenset({"bot", "web", "migrate", "_plan"})  # `_plan`: so `run` and `dev` stop before any child


def _database_problem(settings: Settings) -> str | None:
    from tasksvc_run.places import database_problem

    return database_problem(settings.database_url, settings.database_path)


def cmd_doctor(*, probe: bool = False) -> int:
    """Check the configuration and the gateway; say what keeps the bot silent and how to fix it (``--probe``: and
    whether a probe's echo reaches the bot within 15 s)."""
    from tasksvc_run.doctor import run_doctor

    setup_logging("doctor")
    return run_doctor(probe=probe)


def cmd_commands_sheet(lang: str = "es") -> int:
    """Print the chat command sheet in ``lang`` (Markdown, the README's), generated from the bot's own help text."""
    from taskcore.services.conversation.registry import command_sheet

    sys.stdout.write(command_sheet(lang))
    return 0


# These read (or need) no configuration of their own: an invalid one is theirs to report.
WITHOUT_SETTINGS: dict[str, tuple[str, Callable[..., int]]] = {
    "doctor": ("check the configuration and the gateway: why the bot stays silent", cmd_doctor),
    "commands-sheet": ("print the chat command sheet (Markdown) in a language (--lang)", cmd_commands_sheet),
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command this module runs (``cli_grammar``)."""
    helps = {name: spec[0] for table in (SUPERVISING, COMMANDS, WITHOUT_SETTINGS) for name, spec in table.items()}
    return cli_grammar.parser(helps, hidden=HIDDEN)


def _supervise(command: str, *, gateway: str | None = None) -> int:
    """`run` and `dev`: read the plan through a child, then supervise; a Ctrl-C at any point ends quietly.
    ``gateway``: `dev --gateway`, the GATEWAY_KIND of the whole unit."""
    from tasksvc_run.plan import read_plan

    try:
        if command == "dev":
            from tasksvc_run.devmode import apply_dev_environment, claim_gateway_port

            if refused := claim_gateway_port(os.environ):
                print(refused, file=sys.stderr)
                return exits.CONFIG
            if gateway:
                os.environ["GATEWAY_KIND"] = gateway
            apply_dev_environment(os.environ)
        setup_logging(command, log_format="json" if os.environ.get("LOG_FORMAT") == "json" else "kv",
                      level=os.environ.get("LOG_LEVEL", "info"))
        plan = read_plan(os.environ, [sys.executable, "-m", "tasksvc_run"])
        if isinstance(plan, int):
            return plan
        setup_logging(command, log_format=plan.log_format, level=plan.log_level)
        return SUPERVISING[command][1](plan)
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; without the service's dependencies, one line saying how to get them."""
    from taskcore.i18n import SOURCE, speak_by_default

    speak_by_default(SOURCE)  # the service's texts outside a reader's language are Spanish; the library's English
    args = build_parser().parse_args(argv)
    try:
        return _template(args) if args.command == cli_grammar.TEMPLATE else _command(args)
    except ModuleNotFoundError as exc:
        if exc.name not in SERVICE_PACKAGES:
            raise
        print(f"tasksvc: {exc.name} is missing: the service needs its extra, pip install 'tasksvc[service]'",
              file=sys.stderr)
        return exits.FAILED


# The top-level modules of the `service` extra's packages (pyproject.toml): a library install lacks them.
SERVICE_PACKAGES = frozenset({"prometheus_client", "jinja2", "orjson", "httptools", "uvloop"})


def _template(args: argparse.Namespace) -> int:
    """The template process of `run` (template.py): forks bot, web and proxy, each running its command from here."""
    from tasksvc_run.template import serve

    commands, answers = args.pipes
    return serve(commands, answers, lambda name: main([name]))


def _command(args: argparse.Namespace) -> int:
    """Run the parsed command."""
    if args.command in SUPERVISING:
        return _supervise(args.command, gateway=getattr(args, "gateway", None))
    if args.command in WITHOUT_SETTINGS:
        return cmd_doctor(probe=args.probe) if args.command == "doctor" else cmd_commands_sheet(args.lang)
    settings = _settings_or_exit()
    setup_logging(args.command, log_format=settings.log_format, level=settings.log_level)
    if args.command in cli_grammar.MAINTENANCE_HELPS:
        from tasksvc_run.maintain import maintain

        return maintain(args, settings)
    from taskcore.config_warnings import bot_refusals

    if args.command in STARTS_A_BOT and (refusals := bot_refusals(settings)):
        _config_error(refusals)  # before anything starts: a unit that cannot run safely does not run at all
        return exits.CONFIG
    if args.command in USES_THE_DATABASE and (problem := _database_problem(settings)):
        log.error("not started: the database cannot be opened or created", extra={"reason": problem})
        return exits.STORAGE
    return COMMANDS[args.command][1](settings) if args.command in COMMANDS else HIDDEN[args.command](settings)
