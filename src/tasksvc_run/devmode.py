"""`tasksvc dev` (SPEC section 12): the whole unit on embedded defaults, with a local gateway and a chat simulator."""

from __future__ import annotations

import os
import socket
from collections.abc import MutableMapping

from tasksvc_run.plan import Plan
from tasksvc_run.supervisor import Supervisor, port_open

DEV_USER = "34600000100"
DEV_GATEWAY_PORT = "3009"
DEV_GATEWAY_KEY = "dev-local-gateway-key"
LOCAL_SENDS_PER_MIN = "6000"
DEV_INSTANCE = "dev"
GATEWAY_PORT_VAR = "TASKSVC_DEV_GATEWAY_PORT"
GATEWAY_URL_VAR = "TASKSVC_DEV_GATEWAY_URL"
WIRES = {"evolution": "Evolution API", "waha": "WAHA"}  # GATEWAY_KIND's gateways, as the banner names them


def apply_dev_environment(environ: MutableMapping[str, str]) -> bool:
    """Fill in development defaults the operator did not set; True when the local gateway is to be started."""
    port = environ.setdefault("PORT", "3000")
    defaults = {
        "HOST": "127.0.0.1",  # the development user is signed in without a link: never reachable from elsewhere
        "NODE_ENV": "development", "DEV_AUTOSEED_DB": "true", "DEV_DEFAULT_USER": DEV_USER,
        "ADMIN_USERS": environ.get("DEV_DEFAULT_USER", DEV_USER), "GROUP_GATING_MODE": "discover",
        "WEB_BASE_URL": f"http://127.0.0.1:{port}", "REACTIONS_ENABLED": "true",
    }
    for name, value in defaults.items():
        environ.setdefault(name, value)
    if not environ.get("DB_PATH") and not environ.get("DATABASE_URL"):
        environ["DB_PATH"] = os.path.abspath("tmp/tasks.db")
    local = not environ.get("GATEWAY_API_URL")
    if local:
        gateway_port = environ.setdefault(GATEWAY_PORT_VAR, DEV_GATEWAY_PORT)
        environ.update({"GATEWAY_API_URL": f"http://127.0.0.1:{gateway_port}", "GATEWAY_API_KEY": DEV_GATEWAY_KEY,
                        "GATEWAY_API_INSTANCE": DEV_INSTANCE, GATEWAY_URL_VAR: f"http://127.0.0.1:{gateway_port}"})
        # The bot registers its webhook with the local gateway as with a real one, so `tasksvc doctor` passes.
        environ.setdefault("WEBHOOK_URL", f"http://127.0.0.1:{port}/webhook")
        # The local gateway is no WhatsApp number: the simulator's replies and reactions need no pacing.
        environ.setdefault("GATEWAY_MAX_SENDS_PER_MIN", LOCAL_SENDS_PER_MIN)
    return local


def dev_gateway_running(environ: MutableMapping[str, str], *, node_env: str | None = None) -> int | None:
    """The port of a running `tasksvc dev`'s local gateway when no GATEWAY_API_URL is set and NODE_ENV (``node_env``:
    as the environment or .env sets it) is not production or test; None otherwise."""
    if environ.get("GATEWAY_API_URL") or (node_env or "").strip().lower() in ("production", "test"):
        return None
    port = int(environ.get(GATEWAY_PORT_VAR, DEV_GATEWAY_PORT))
    return port if port_open(port) else None


def free_port() -> int:
    """A port nothing listens on now (the system's choice on loopback)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def claim_gateway_port(environ: MutableMapping[str, str]) -> str | None:
    """Before `tasksvc dev` starts its local gateway: 3009 when free, else a free port (set as
    TASKSVC_DEV_GATEWAY_PORT for the whole unit); a port the operator chose that is taken or no port at all is one
    line saying which variable to set (returned; None when the gateway has its port)."""
    if environ.get("GATEWAY_API_URL"):
        return None
    chosen = environ.get(GATEWAY_PORT_VAR, "")
    if not chosen:
        if port_open(int(DEV_GATEWAY_PORT)):  # another `tasksvc dev` (another user's, perhaps) has it
            environ[GATEWAY_PORT_VAR] = str(free_port())
        return None
    if not chosen.isdigit() or not 0 < int(chosen) < 65536:
        return f"tasksvc dev: {GATEWAY_PORT_VAR}={chosen!r} is not a port number: set it to a free port (1-65535)"
    if port_open(int(chosen)):
        return (f"tasksvc dev: port {chosen} ({GATEWAY_PORT_VAR}) is taken, perhaps by another `tasksvc dev`: set "
                f"{GATEWAY_PORT_VAR} to a free port, or unset it to let tasksvc dev choose one")
    return None


def run_dev(plan: Plan, *, local_gateway: bool) -> int:
    """Supervise the unit (plus the local gateway) and print where to look."""
    first = ((("devgateway", int(plan.env[GATEWAY_PORT_VAR])),) if local_gateway else ())
    supervisor = Supervisor(plan, first=first)
    base = f"http://127.0.0.1:{plan.port}"
    gateway = plan.env.get(GATEWAY_PORT_VAR, DEV_GATEWAY_PORT)
    moved = (f"\n  local gateway: 127.0.0.1:{gateway} (3009 was taken); check this unit with "
             f"`{GATEWAY_PORT_VAR}={gateway} tasksvc doctor`") if local_gateway and gateway != DEV_GATEWAY_PORT else ""
    speaks = f" (a local {WIRES.get(plan.gateway_kind, plan.gateway_kind)})" if local_gateway else ""
    print(f"\n  tasksvc dev: open {base}/ (signed in as {plan.dev_default_user})"
          f"\n  chat simulator: {base}/dev/chat{speaks}\n  database: {plan.database}{moved}\n", flush=True)
    return supervisor.run()
