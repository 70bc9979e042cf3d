"""Judging the gateway's diagnostic answers for ``tasksvc doctor`` (CONTRACT.md sections 4, 5 and 8).

Pure: each function takes what the gateway answered (or how the call failed) and what the configuration expects,
and returns one ``Check``: ok, warn or problem, what was found, and one line on how to fix it. A problem is
something that keeps the bot silent; a warning is worth fixing but does not. No text here ever contains a secret:
the webhook secret is compared in constant time and only "equal" or "different" is said.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

SECRET_HEADER = "X-Webhook-Secret"  # noqa: S105 - a header name, not a secret
PINNED_VERSION = "2.3.7"
_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?")
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
    return ok("gateway settings", f"gateway {_shown_url(url or '')}, instance {instance}")


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
        return warn("WEBHOOK_URL", f"{_shown_url(webhook_url)} is a loopback address, but the gateway runs elsewhere",
                    "use an address the gateway can reach (in compose: http://tasksvc:3000/webhook)")
    return ok("WEBHOOK_URL", f"{_shown_url(webhook_url)} is routed to the bot")


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
    return ok("WEB_BASE_URL", f"{_shown_url(web_base_url)}")


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
    """A diagnostic call that failed: unreachable, unknown instance, wrong key, licence, or anything else."""
    if status is None:
        return problem(name, f"no answer from the gateway ({_short(message)})",
                       "check GATEWAY_API_URL and that the gateway is running (GATEWAY_TIMEOUT_MS bounds each call)")
    if status == 503 and "LICENSE_REQUIRED" in message:
        return problem(name, "the gateway answers 503 LICENSE_REQUIRED: version 2.4 needs a licence activation",
                       f"run evoapicloud/evolution-api:v{PINNED_VERSION}, or activate the licence")
    if status == 404:
        return problem(name, f'the gateway has no instance "{instance}" (404)',
                       "create it (POST /instance/create) or fix GATEWAY_API_INSTANCE")
    if status in (401, 403):
        return problem(name, f"the gateway refuses the API key ({status})",
                       "set GATEWAY_API_KEY to the gateway's AUTHENTICATION_API_KEY (or the instance's token)")
    return problem(name, f"the gateway answered {status} ({_short(message)})", "see the gateway's log")


def version_check(answer: object) -> Check:
    """GET /: the version the gateway reports; 2.4 needs a licence, versions before 2.3 are untested."""
    version = answer.get("version") if isinstance(answer, Mapping) else None
    if not isinstance(version, str) or not (match := _VERSION.match(version.strip())):
        return warn("gateway version", "the gateway does not report a version",
                    f"run Evolution API {PINNED_VERSION}, the version this release is tested with")
    major, minor = int(match[1]), int(match[2])
    if (major, minor) >= (2, 4):
        return problem("gateway version", f"{version}: 2.4 and later need a licence activation and change DM ids",
                       f"pin evoapicloud/evolution-api:v{PINNED_VERSION}")
    if (major, minor) < (2, 3):
        return warn("gateway version", f"{version} is older than the tested {PINNED_VERSION}",
                    f"upgrade to evoapicloud/evolution-api:v{PINNED_VERSION}")
    return ok("gateway version", version)


def connection_check(state: str | None) -> Check:
    """GET /instance/connectionState's ``state``: only ``open`` receives and sends messages."""
    if state == "open":
        return ok("connection", "instance connected to WhatsApp (open)")
    if state == "connecting":
        return problem("connection", "instance not connected yet (connecting)",
                       "scan the QR code: GET /instance/connect/<instance> or the gateway's /manager page")
    if state is None:
        return problem("connection", "connection state unreadable", "check the gateway's version and log")
    return problem("connection", f"instance not connected ({state})",
                   "reconnect: GET /instance/connect/<instance> and scan the QR code with the bot's phone")


def settings_check(answer: object) -> Check:
    """GET /settings/find: ``groupsIgnore`` must be false (null, no settings row, means not ignored)."""
    if answer is None:
        return ok("groupsIgnore", "no settings stored: group messages are delivered")
    if not isinstance(answer, Mapping):
        return warn("groupsIgnore", "settings unreadable", "check the gateway's version")
    if answer.get("groupsIgnore") is True:
        return problem("groupsIgnore", "true: the gateway drops every group message",
                       "POST /settings/set/<instance> with groupsIgnore false (and the other five booleans)")
    return ok("groupsIgnore", "false: group messages are delivered")


def webhook_checks(
    answer: object, *, expected_url: str | None, secret: str | None, events: Collection[str]
) -> list[Check]:
    """GET /webhook/find: present, enabled, our URL, our events, our secret header."""
    if not isinstance(answer, Mapping) or not answer.get("url"):
        fix = "restart the bot (it registers WEBHOOK_URL at start)" if expected_url else "set WEBHOOK_URL and restart"
        return [problem("webhook", "no webhook set on the instance: no message reaches the bot", fix)]
    return [_webhook_url_check(answer, expected_url), _enabled_check(answer), _events_check(answer, events),
            _secret_check(answer, secret)]


def _webhook_url_check(row: Mapping[str, Any], expected_url: str | None) -> Check:
    url = str(row.get("url"))
    if expected_url is None:
        path = urlsplit(url).path.rstrip("/")
        if path == "/webhook" or path.startswith("/webhook/"):
            return ok("webhook URL", f"{_shown_url(url)} (WEBHOOK_URL not set to compare)")
        return warn("webhook URL", f"{_shown_url(url)} does not end with /webhook", "set WEBHOOK_URL and restart")
    if url.rstrip("/") != expected_url.rstrip("/"):
        return problem("webhook URL", f"points at {_shown_url(url)}, not WEBHOOK_URL {_shown_url(expected_url)}",
                       "restart the bot to register WEBHOOK_URL, or fix WEBHOOK_URL")
    return ok("webhook URL", f"{_shown_url(url)} equals WEBHOOK_URL")


def _enabled_check(row: Mapping[str, Any]) -> Check:
    if row.get("enabled") is not True:
        return problem("webhook enabled", "the webhook is disabled",
                       "restart the bot (it registers an enabled webhook)")
    return ok("webhook enabled", "enabled")


def _events_check(row: Mapping[str, Any], events: Collection[str]) -> Check:
    stored = row.get("events")
    if isinstance(stored, list) and not stored:
        return ok("webhook events", "every event (empty list)")
    have = {str(event).upper() for event in stored} if isinstance(stored, list) else set()
    missing = [event for event in events if event not in have]
    if missing:
        return problem("webhook events", f"missing {', '.join(missing)}",
                       "restart the bot (it registers the events it handles)")
    return ok("webhook events", ", ".join(events))


def _secret_check(row: Mapping[str, Any], secret: str | None) -> Check:
    headers = row.get("headers") if isinstance(row.get("headers"), Mapping) else {}
    sent = next((str(value) for name, value in (headers or {}).items() if str(name).lower() == SECRET_HEADER.lower()),
                None)
    if secret is None:
        return ok("webhook secret", "WEBHOOK_SECRET not set: the bot accepts webhook calls without it")
    if sent is None:
        return problem("webhook secret", f"the gateway sends no {SECRET_HEADER}: the bot answers 401 to every event",
                       "restart the bot (it registers the header with WEBHOOK_SECRET)")
    if not hmac.compare_digest(sent.encode(), secret.encode()):
        return problem("webhook secret",
                       f"the gateway's {SECRET_HEADER} differs from WEBHOOK_SECRET: every event gets 401",
                       "restart the bot to register the current secret")
    return ok("webhook secret", f"{SECRET_HEADER} equals WEBHOOK_SECRET")


def _shown_url(url: str) -> str:
    """scheme://host/path only: a query or user info could carry a token."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return f"{parts.scheme}://{host}{parts.path}"


def _short(text: str) -> str:
    return text if len(text) <= 120 else text[:117] + "..."
