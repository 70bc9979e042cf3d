"""Evolution API's diagnostic answers judged for ``tasksvc doctor`` (CONTRACT.md sections 4, 5 and 8): its version,
the instance's connection, ``groupsIgnore`` and the webhook. Pure; the secret is compared in constant time and only
"equal" or "different" is said."""

from __future__ import annotations

import hmac
import re
from collections.abc import Collection, Mapping
from typing import Any
from urllib.parse import urlsplit

from taskcore.gateway import diagnostics
from taskcore.gateway.diagnostics import Check, ok, problem, shown_url, warn
from taskcore.gateway.evolution.encode import SECRET_HEADER

__all__ = ["PINNED_VERSION", "connection_check", "failed_call_check", "settings_check", "version_check",
           "webhook_checks"]

PINNED_VERSION = "2.3.7"
_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?")


def failed_call_check(name: str, status: int | None, message: str, *, instance: str) -> Check:
    """A diagnostic call that failed (``diagnostics.failed_call_check``), or 2.4's licence demand."""
    if status == 503 and "LICENSE_REQUIRED" in message:
        return problem(name, "the gateway answers 503 LICENSE_REQUIRED: version 2.4 needs a licence activation",
                       f"run evoapicloud/evolution-api:v{PINNED_VERSION}, or activate the licence")
    return diagnostics.failed_call_check(name, status, message, instance=instance)


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
            return ok("webhook URL", f"{shown_url(url)} (WEBHOOK_URL not set to compare)")
        return warn("webhook URL", f"{shown_url(url)} does not end with /webhook", "set WEBHOOK_URL and restart")
    if url.rstrip("/") != expected_url.rstrip("/"):
        return problem("webhook URL", f"points at {shown_url(url)}, not WEBHOOK_URL {shown_url(expected_url)}",
                       "restart the bot to register WEBHOOK_URL, or fix WEBHOOK_URL")
    return ok("webhook URL", f"{shown_url(url)} equals WEBHOOK_URL")


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
