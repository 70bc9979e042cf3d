"""What the supervisor needs of the configuration, read by a short-lived child (`tasksvc _plan`).

The supervisor of `tasksvc run` lives as long as the unit and only starts, watches and stops processes; reading the
configuration needs pydantic (and the readiness check SQLAlchemy), some 25 MB it would keep for nothing. So a child
loads the settings exactly as bot, web and proxy do (invalid ones: one line per variable, exit status 2; a refused
production configuration likewise), prints this plan as JSON and exits; the supervisor keeps only the plan.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from taskcore.settings import Settings

PLAN_COMMAND = "_plan"
PLAN_TIMEOUT = 60.0


@dataclass(frozen=True)
class Plan:
    """Ports, database and environment of the unit, as the configuration says."""

    port: int
    bot_port: int
    web_port: int
    sqlite_path: str | None  # None when DATABASE_URL is set
    database: str  # the SQLAlchemy URL
    log_format: str
    log_level: str
    dev_default_user: str | None
    env: dict[str, str]  # the children's environment: DATA_DIR and DB_PATH made absolute (R4)
    gateway_kind: str = "evolution"  # GATEWAY_KIND, from the environment or .env


def plan_of(settings: Settings, environ: Mapping[str, str]) -> Plan:
    """The plan of ``settings``; ``environ`` completed with absolute DATA_DIR and DB_PATH."""
    env = dict(environ)
    env["DATA_DIR"] = os.path.abspath(settings.data_dir)
    if not settings.database_url:
        env["DB_PATH"] = str(settings.database_path)
    return Plan(port=settings.port, bot_port=settings.bot_port, web_port=settings.web_port,
                sqlite_path=None if settings.database_url else str(settings.database_path),
                database=settings.sqlalchemy_url, log_format=settings.log_format, log_level=settings.log_level,
                dev_default_user=settings.dev_default_user, env=env, gateway_kind=settings.gateway_kind)


def print_plan(settings: Settings) -> int:
    """`tasksvc _plan`: the plan as one JSON line on stdout."""
    sys.stdout.write(json.dumps(asdict(plan_of(settings, os.environ))) + "\n")
    return 0


def read_plan(environ: Mapping[str, str], command: list[str]) -> Plan | int:
    """Run ``command _plan`` with ``environ``; the plan, or the child's exit status (it said why on stderr)."""
    child = subprocess.run([*command, PLAN_COMMAND], env=dict(environ), stdout=subprocess.PIPE,  # noqa: S603
                           timeout=PLAN_TIMEOUT, check=False, start_new_session=True)
    if child.returncode != 0:
        return child.returncode
    return Plan(**json.loads(child.stdout))
