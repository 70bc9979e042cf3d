"""``tasksvc doctor``: why the bot stays silent, and what to change (one line per check).

It reads the configuration (an invalid one is reported as at start, one line per variable), then asks the gateway
with the configured key, each call bounded by GATEWAY_TIMEOUT_MS: its version (``GET /``), the instance's
connection state, its settings (``groupsIgnore``) and its stored webhook. The judging is pure and lives in
``taskcore.gateway.diagnostics``; this module only makes the calls and prints. Secrets are never printed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any, TextIO

import aiohttp

from taskcore.config_warnings import bot_refusals, startup_warnings
from taskcore.gateway import diagnostics as dx
from taskcore.gateway.port import Gateway, WebhookPlan
from taskcore.settings import ConfigError, Settings, dotenv_variables, load_settings
from tasksvc_run import exits
from tasksvc_run.bot.webhook_keeper import shown_url
from tasksvc_run.doctor_reach import WRITES, reach_checks, write_check
from tasksvc_run.gateways import make_gateway
from tasksvc_run.places import database_fix, database_problem, folder_problem
from tasksvc_run.probe import run_probe
from tasksvc_run.store_health import PROBLEM

BOT_ASKED_WITHIN = 2.0  # seconds the running bot gets to say whether its database takes writes


def configuration_checks(settings: Settings) -> list[dx.Check]:
    """What the configuration alone says: gateway variables, WEBHOOK_URL, WEB_BASE_URL, start-time warnings."""
    checks = [
        dx.gateway_settings_check(settings.gateway_api_url, settings.gateway_api_instance,
                                  settings.gateway_api_key is not None),
        dx.webhook_url_check(settings.webhook_url, settings.gateway_api_url),
        dx.web_base_url_check(settings.web_base_url),
        dx.gating_check(settings.group_gating_mode, admins=len(settings.admin_users),
                        allowed_groups=len(settings.allowed_groups)),
    ]
    checks += [dx.problem("configuration", line, "set the variable it names (docs/operations.md, What production "
                          "requires)") for line in bot_refusals(settings)]
    checks += [dx.warn("configuration", line, "see docs/configuration.md") for line in startup_warnings(settings)]
    return checks + place_checks(settings)


def place_checks(settings: Settings) -> list[dx.Check]:
    """The database file and BACKUP_DIR: can this user open, create and write them (SPEC section 33)?"""
    checks = []
    if problem := database_problem(settings.database_url, settings.database_path, create=False):
        checks.append(dx.problem("database", problem, database_fix(settings.database_path)))
    if settings.backups_enabled and (problem := folder_problem(Path(settings.backup_dir or "."), create=False)):
        checks.append(dx.warn("backups", f"BACKUP_DIR cannot be written: {problem}", "make BACKUP_DIR writable by "
                              "the service's user (chown), or point BACKUP_DIR elsewhere (docs/operations.md)"))
    elif settings.backups_enabled:
        checks.append(dx.ok("backups", f"BACKUP_DIR {settings.backup_dir} can be written"))
    return checks


async def gateway_checks(gateway: Gateway, settings: Settings) -> list[dx.Check]:
    """The gateway in use, as it answers with the configured key: which it is, then its own checks (version,
    connection, settings, the webhook judged against WEBHOOK_URL and WEBHOOK_SECRET)."""
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    named = dx.ok("gateway kind", f"{gateway.name} (GATEWAY_KIND) at {shown_url(settings.gateway_api_url or '')}")
    return [named, *await gateway.checks(WebhookPlan(settings.webhook_url or "", secret))]


async def store_check(session: aiohttp.ClientSession, settings: Settings) -> dx.Check | None:
    """Does the database take writes? The running bot's word (its /health on BOT_PORT: what the service's own user
    meets), else one write of this command's own (SPEC section 40)."""
    try:
        async with session.get(f"http://127.0.0.1:{settings.bot_port}/health",
                               timeout=aiohttp.ClientTimeout(total=BOT_ASKED_WITHIN)) as answer:
            said: Any = await answer.json(content_type=None) if answer.status in (200, 503) else None
    except (aiohttp.ClientError, TimeoutError, ValueError):
        said = None
    if isinstance(said, dict) and said.get("problem") == PROBLEM:
        return dx.problem(WRITES, f"{PROBLEM} (the bot says, since {said.get('since')}): {said.get('database')}: "
                          f"{said.get('reason')}", str(said.get("fix")))
    if isinstance(said, dict) and said.get("status") == "ok":
        return dx.ok(WRITES, "the running bot's writes are taken")
    return await asyncio.to_thread(write_check, settings)


async def diagnose(settings: Settings, *, probe: bool = False) -> list[dx.Check]:
    """Every check, configuration first; the gateway is asked only when it is configured; with ``probe``, one probe
    whose echo must come back (``tasksvc_run.probe``)."""
    checks = configuration_checks(settings)
    if checks[0].blocking:
        return checks
    async with aiohttp.ClientSession() as session:
        checks += [check] if (check := await store_check(session, settings)) is not None else []
        gateway = make_gateway(session, settings)
        checks += await gateway_checks(gateway, settings)
        checks += await asyncio.to_thread(reach_checks, settings)
        return [*checks, await run_probe(gateway, settings)] if probe else checks


def render(checks: list[dx.Check]) -> str:
    """One line per check (``ok``, ``warn`` or ``problem``), each problem followed by its fix, then a summary."""
    width = max(len(check.name) for check in checks)
    lines = []
    for check in checks:
        lines.append(f"{check.verdict.value:<8} {check.name:<{width}}  {check.detail}")
        if check.verdict is not dx.Verdict.OK and check.fix:
            lines.append(f"{'':<8} {'':<{width}}  how to fix: {check.fix}")
    blocking = sum(check.blocking for check in checks)
    lines.append(f"{blocking} problem(s) keep the bot silent." if blocking else
                 "Nothing keeps the bot silent.")
    return "\n".join(lines) + "\n"


def run_doctor(out: TextIO = sys.stdout, *, probe: bool = False) -> int:
    """Load the configuration, run every check, print the report; 0 when nothing keeps the bot silent (``probe``:
    and whether a probe's echo reaches the bot within 15 s).

    Beside `tasksvc dev` (no GATEWAY_API_URL, its local gateway answering) it checks the development unit, with the
    configuration `tasksvc dev` gives it; never with NODE_ENV=production (or test) in the environment or .env: that
    is another unit's configuration, and a `tasksvc dev` on this machine is not its gateway."""
    from tasksvc_run.devmode import apply_dev_environment, dev_gateway_running  # noqa: PLC0415

    node_env = os.environ.get("NODE_ENV") or dotenv_variables().get("NODE_ENV")
    if (port := dev_gateway_running(os.environ, node_env=node_env)) is not None:
        apply_dev_environment(os.environ)
        out.write(f"Checking the unit of `tasksvc dev` (its local gateway answers on 127.0.0.1:{port}).\n")
    try:
        settings = load_settings()
    except ConfigError as exc:
        checks = [dx.problem("configuration", line, "fix the variable (docs/configuration.md)") for line in exc.lines]
        out.write(render(checks))
        return exits.CONFIG
    # The report says what failed; the client's own warning lines would repeat it on stderr.
    logging.getLogger("tasksvc_run.gateways.http").setLevel(logging.ERROR)
    checks = asyncio.run(diagnose(settings, probe=probe))
    out.write(render(checks))
    return dx.exit_status(checks)
