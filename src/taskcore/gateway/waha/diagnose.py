"""WAHA's diagnostic answers judged for ``tasksvc doctor`` (../shared/gateway/waha/CONTRACT.md sections 1, 2, 4 and
6): its version and engine, the session's status, ``ignore.groups`` and the bot's webhook in the session's
configuration. Pure; the HMAC key is compared in constant time and only "equal" or "different" is said."""

from __future__ import annotations

import hmac
import re
from collections.abc import Mapping
from typing import Any

from taskcore.gateway import diagnostics
from taskcore.gateway.diagnostics import Check, ok, problem, shown_url, warn
from taskcore.gateway.port import WebhookPlan
from taskcore.gateway.waha import read
from taskcore.gateway.waha.encode import WEBHOOK_EVENTS

__all__ = ["PINNED_VERSION", "failed_call_check", "ignore_check", "session_check", "version_check", "webhook_checks"]

PINNED_VERSION = "2026.7.1"
FREE_SINCE = (2026, 6, 1)  # webhook HMAC and API keys are in the free image from this release on
REGRESSED = ((2026, 8, 1), (2026, 8, 2))  # fromMe routing regression (#2241): echoes may not come back
_VERSION = re.compile(r"v?(\d{4})\.(\d{1,2})\.(\d{1,3})")
_PIN = f"pin devlikeapro/waha:gows-{PINNED_VERSION}"
_SESSION_FIXES = {
    "SCAN_QR_CODE": "pair it: scan the QR code in WAHA's dashboard (/dashboard) with the bot's phone",
    "STARTING": "wait a minute and run doctor again; if it stays, see WAHA's log",
    "FAILED": "restart it (POST /api/sessions/<session>/restart) and pair it again",
    "STOPPED": "start it (POST /api/sessions/<session>/start)",
}


def failed_call_check(name: str, status: int | None, message: str, *, session: str) -> Check:
    """A diagnostic call that failed, in WAHA's words: an unknown session (404) or a refused key (401, 403);
    anything else as ``diagnostics.failed_call_check`` says it."""
    if status == 404:
        return problem(name, f'WAHA has no session "{session}" (404)',
                       "create it in WAHA's dashboard (the compose profile starts it: WHATSAPP_START_SESSION is "
                       "GATEWAY_API_INSTANCE), or fix GATEWAY_API_INSTANCE")
    if status in (401, 403):
        return problem(name, f"WAHA refuses the API key ({status})",
                       "set GATEWAY_API_KEY to WAHA's WAHA_API_KEY (the compose profile gives both the "
                       "gateway_api_key secret)")
    return diagnostics.failed_call_check(name, status, message, instance=session)


def version_check(answer: object) -> Check:
    """``GET /api/server/version``: the release and its engine (this release is written against GOWS)."""
    version, engine = read.string(answer, "version"), read.string(answer, "engine")
    found = _VERSION.match(version.strip()) if version else None
    if found is None:
        return warn("gateway version", "WAHA does not report a version", _PIN)
    release = (int(found[1]), int(found[2]), int(found[3]))
    shown = f"WAHA {version} ({engine or 'engine not said'})"
    if engine is not None and engine.upper() != "GOWS":
        return warn("gateway version", f"{shown}: the bot is tested with the GOWS engine", _PIN)
    if release < FREE_SINCE:
        return warn("gateway version", f"{shown}: before 2026.6.1 the free image signs no webhook (HMAC)",
                    f"upgrade: {_PIN}")
    if release in REGRESSED:
        return warn("gateway version", f"{shown}: its own messages may not come back as echoes (#2241)", _PIN)
    return ok("gateway version", shown)


def session_check(answer: object) -> Check:
    """``GET /api/sessions/{session}``'s ``status``: only ``WORKING`` receives and sends messages."""
    status = read.string(answer, "status")
    if status == "WORKING":
        return ok("connection", "session connected to WhatsApp (WORKING)")
    if status is None:
        return problem("connection", "session status unreadable", "check WAHA's version and log")
    return problem("connection", f"session not connected ({status})",
                   _SESSION_FIXES.get(status, "see WAHA's dashboard and log"))


def ignore_check(config: Mapping[str, Any] | None) -> Check:
    """The session's ``ignore.groups`` must not be true: WAHA would drop every group message."""
    if read.at(config, "ignore", "groups") is True:
        return problem("ignore.groups", "true: WAHA drops every group message",
                       "set the session's config.ignore.groups to false (PUT /api/sessions/<session>), or "
                       "WAHA_SESSION_CONFIG_IGNORE_GROUPS=false")
    return ok("ignore.groups", "false: group messages are delivered")


def webhook_checks(config: Mapping[str, Any] | None, plan: WebhookPlan) -> list[Check]:
    """The session's webhook to the bot: to WEBHOOK_URL (``plan.url``; "" when the bot does not manage it, then the
    one whose path is the bot's /webhook), with every event the bot reads, signed with WEBHOOK_SECRET."""
    hooks = [hook for hook in read.items(config, "webhooks") if isinstance(hook, Mapping)]
    if plan.url:
        ours = [hook for hook in hooks if hook.get("url") == plan.url]
        fix = "restart the bot (it sets the session's webhook at start)"
    else:
        ours = [hook for hook in hooks if _bots_path(hook.get("url"))]
        fix = "set WEBHOOK_URL and restart the bot, or add the webhook in WAHA's dashboard"
    if not ours:
        return [problem("webhook", "the session has no webhook to the bot: no message reaches it", fix)]
    hook = ours[0]
    return [ok("webhook URL", f"{shown_url(str(hook.get('url')))}{'' if plan.url else ' (WEBHOOK_URL not set)'}"),
            _events_check(hook, fix), _secret_check(hook, plan.secret, fix)]


def _bots_path(url: object) -> bool:
    path = re.sub(r"^[a-z]+://[^/]*", "", url).rstrip("/") if isinstance(url, str) else ""
    return path == "/webhook" or path.startswith("/webhook/")


def _events_check(hook: Mapping[str, Any], fix: str) -> Check:
    events = {name for name in read.items(hook, "events") if isinstance(name, str)}
    if "*" in events:
        return ok("webhook events", "every event (*)")
    missing = [name for name in WEBHOOK_EVENTS if name not in events]
    if missing:
        return problem("webhook events", f"missing {', '.join(missing)}", fix)
    return ok("webhook events", ", ".join(WEBHOOK_EVENTS))


def _secret_check(hook: Mapping[str, Any], secret: str | None, fix: str) -> Check:
    key = read.string(hook, "hmac", "key")
    if secret is None:
        return ok("webhook secret", "WEBHOOK_SECRET not set: the bot accepts webhook calls unsigned")
    if key is None:
        return problem("webhook secret", "the session signs no webhook (no hmac.key): the bot answers 401 to every "
                       "event", fix)
    if not hmac.compare_digest(key.encode("utf-8", "surrogateescape"), secret.encode("utf-8", "surrogateescape")):
        return problem("webhook secret", "the session's HMAC key differs from WEBHOOK_SECRET: every event gets 401",
                       fix)
    return ok("webhook secret", "the session signs with WEBHOOK_SECRET (HMAC-SHA512)")
