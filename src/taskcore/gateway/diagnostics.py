"""What ``tasksvc doctor`` reports, whichever gateway is in use: the ``Check`` value, the configuration's checks and a
failed call's (each gateway judges its own answers: ``taskcore.gateway.evolution.diagnose``, ``...waha.diagnose``).

Pure: each function takes what was configured or answered (or how a call failed) and returns one ``Check``: ok,
warn or problem, what was found, and one line on how to fix it. A problem is
something that keeps the bot silent; a warning is worth fixing but does not. No text here ever contains a secret:
the webhook secret is compared in constant time and only "equal" or "different" is said.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

_BOT_ROUTES = ("/webhook", "/metrics")
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


class Verdict(StrEnum):
    """How a check came out."""

    OK = "ok"
    WARN = "warn"
    PROBLEM = "problem"


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the report: what was checked, the verdict, what was found and how to fix it."""

    name: str
    verdict: Verdict
    detail: str
    fix: str = ""

    @property
    def blocking(self) -> bool:
        """True when this keeps the bot silent."""
        return self.verdict is Verdict.PROBLEM


def ok(name: str, detail: str) -> Check:
    """A passing check."""
    return Check(name, Verdict.OK, detail)


def warn(name: str, detail: str, fix: str) -> Check:
    """A check worth fixing that does not keep the bot silent."""
    return Check(name, Verdict.WARN, detail, fix)


def problem(name: str, detail: str, fix: str) -> Check:
    """A check that keeps the bot silent."""
    return Check(name, Verdict.PROBLEM, detail, fix)


def exit_status(checks: Collection[Check]) -> int:
    """0 when nothing keeps the bot silent, else 1."""
    return 1 if any(check.blocking for check in checks) else 0


# --- configuration -------------------------------------------------------------------------------------------------


def gateway_settings_check(url: str | None, instance: str | None, has_key: bool) -> Check:
    """GATEWAY_API_URL, GATEWAY_API_INSTANCE and GATEWAY_API_KEY are all needed to reach the gateway."""
    missing = [name for name, present in (("GATEWAY_API_URL", bool(url)), ("GATEWAY_API_INSTANCE", bool(instance)),
                                          ("GATEWAY_API_KEY", has_key)) if not present]
    if missing:
        return problem("gateway settings", f"{', '.join(missing)} not set",
                       "set them to the gateway's address, the instance name and its API key")
    parts = urlsplit(url or "")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return problem("gateway settings", "GATEWAY_API_URL is not an absolute http(s) URL",
                       "use the gateway's base address, e.g. http://evolution-api:8080")
    return ok("gateway settings", f"gateway {shown_url(url or '')}, instance {instance}")


def webhook_url_check(webhook_url: str | None, gateway_url: str | None) -> Check:
    """WEBHOOK_URL: absolute http(s), routed by the proxy to the bot (/webhook or /webhook/...)."""
    if not webhook_url:
        return warn("WEBHOOK_URL", "not set: the bot does not register its webhook",
                    "set WEBHOOK_URL to the proxy's /webhook as the gateway reaches it, e.g. http://tasksvc:3000/webhook")
    parts = urlsplit(webhook_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return problem("WEBHOOK_URL", "not an absolute http(s) URL",
                       "use a full address such as https://bot.example.org/webhook")
    path = parts.path.rstrip("/")
    if path != "/webhook" and not path.startswith("/webhook/"):
        return problem("WEBHOOK_URL", f"path {parts.path or '/'} is not routed to the bot (only /webhook is)",
                       "end WEBHOOK_URL with /webhook")
    gateway_host = urlsplit(gateway_url or "").hostname
    if parts.hostname in _LOOPBACK and gateway_host not in _LOOPBACK | {None}:
        return warn("WEBHOOK_URL", f"{shown_url(webhook_url)} is a loopback address, but the gateway runs elsewhere",
                    "use an address the gateway can reach (in compose: http://tasksvc:3000/webhook)")
    return ok("WEBHOOK_URL", f"{shown_url(webhook_url)} is routed to the bot")


def web_base_url_check(web_base_url: str | None) -> Check:
    """WEB_BASE_URL: absolute http(s) and not under a path the proxy sends to the bot."""
    if not web_base_url:
        return warn("WEB_BASE_URL", "not set: /t web cannot send sign-in links",
                    "set WEB_BASE_URL to the public address of the service, e.g. https://tareas.example.org")
    parts = urlsplit(web_base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return problem("WEB_BASE_URL", "not an absolute http(s) URL", "use a full address such as https://tareas.example.org")
    path = parts.path.rstrip("/")
    for route in _BOT_ROUTES:
        if path == route or path.startswith(route + "/"):
            return warn("WEB_BASE_URL", f"path {parts.path} is routed to the bot, so sign-in links would not open",
                        "use the service's root address (without /webhook or /metrics)")
    return ok("WEB_BASE_URL", f"{shown_url(web_base_url)}")


def gating_check(mode: str, *, admins: int, allowed_groups: int) -> Check:
    """In discover and enforce mode someone must be able to allow a group, or every group stays silent."""
    if mode == "off":
        return ok("group gating", "off: every group the bot is in is served")
    if admins == 0 and allowed_groups == 0:
        return problem("group gating", f"{mode}, but no ADMIN_USERS and no ALLOWED_GROUPS: no group can be allowed",
                       "set ADMIN_USERS (they allow groups with /admin permitir) or ALLOWED_GROUPS")
    return ok("group gating", f"{mode}: {admins} admin(s), {allowed_groups} group(s) in ALLOWED_GROUPS")


# --- gateway answers -----------------------------------------------------------------------------------------------


def failed_call_check(name: str, status: int | None, message: str, *, instance: str) -> Check:
    """A diagnostic call that failed: unreachable, unknown instance (or session), wrong key, or anything else."""
    if status is None:
        return problem(name, f"no answer from the gateway ({short(message)})",
                       "check GATEWAY_API_URL and that the gateway is running (GATEWAY_TIMEOUT_MS bounds each call)")
    if status == 404:
        return problem(name, f'the gateway has no instance "{instance}" (404)',
                       "create it (POST /instance/create) or fix GATEWAY_API_INSTANCE")
    if status in (401, 403):
        return problem(name, f"the gateway refuses the API key ({status})",
                       "set GATEWAY_API_KEY to the gateway's AUTHENTICATION_API_KEY (or the instance's token)")
    return problem(name, f"the gateway answered {status} ({short(message)})", "see the gateway's log")


def shown_url(url: str) -> str:
    """scheme://host/path only: a query or user info could carry a token."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return f"{parts.scheme}://{host}{parts.path}"


def short(text: str) -> str:
    """At most 120 characters of a gateway's message."""
    return text if len(text) <= 120 else text[:117] + "..."
