"""The gateway's webhook configuration, kept as the bot needs it (SPEC section 26).

At start and every WEBHOOK_CHECK_INTERVAL_MS the bot reads ``GET /webhook/find``; when the URL, ``enabled``, the events
it handles (``SEND_MESSAGE`` and ``MESSAGES_UPDATE`` among them) or the secret header differ, it sets them again with
``POST /webhook/set``: counted by ``webhook_repairs_total``, one log line. Only with WEBHOOK_URL (otherwise the
operator manages it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from taskcore.gateway.client import GatewayClient, GatewayError
from taskcore.gateway.diagnostics import webhook_checks
from taskcore.settings import Settings
from tasksvc_run.metrics import Metrics

log = logging.getLogger(__name__)
WEBHOOK_EVENTS = ("MESSAGES_UPSERT", "GROUPS_UPSERT", "GROUP_PARTICIPANTS_UPDATE", "CONNECTION_UPDATE", "SEND_MESSAGE",
                  "MESSAGES_UPDATE")
SECRET_HEADER = "X-Webhook-Secret"  # noqa: S105 - a header name, not a secret
Sleep = Callable[[float], Awaitable[None]]


def shown_url(url: str) -> str:
    """scheme://host/path: never the query, which could carry a token."""
    where = urlsplit(url)
    return f"{where.scheme}://{where.netloc.rpartition('@')[2]}{where.path}"


def _secret(settings: Settings) -> str | None:
    return settings.webhook_secret.get_secret_value() if settings.webhook_secret else None


async def set_webhook(client: GatewayClient, settings: Settings) -> bool:
    """webhook/set with the events the bot handles and, with WEBHOOK_SECRET, its header; a failure is logged."""
    if not settings.webhook_url:
        return False
    secret = _secret(settings)
    try:
        await client.set_webhook(settings.webhook_url, events=WEBHOOK_EVENTS,
                                 headers={SECRET_HEADER: secret} if secret else None)
    except GatewayError as exc:
        log.warning("webhook registration failed; the bot keeps running",
                    extra={"url": shown_url(settings.webhook_url), "status": exc.status, "error": exc.message_text})
        return False
    return True


async def differences(client: GatewayClient, settings: Settings) -> list[str] | None:
    """What of the stored webhook differs from what the bot needs (names of the checks); None when unreadable."""
    try:
        row = await client.find_webhook()
    except GatewayError as exc:
        log.warning("webhook configuration unreadable", extra={"status": exc.status, "error": exc.message_text})
        return None
    checks = webhook_checks(row, expected_url=settings.webhook_url, secret=_secret(settings), events=WEBHOOK_EVENTS)
    return [check.name for check in checks if check.blocking]


async def ensure_webhook(client: GatewayClient, settings: Settings, metrics: Metrics, *, first: bool = False) -> bool:
    """Read the webhook configuration and set it again when it differs (or cannot be read); whether it was set.
    ``first``: the check at start, where no configuration at all is a first registration, not a repair."""
    if not settings.webhook_url:
        return False
    found = await differences(client, settings)
    if found == []:
        return False
    if not await set_webhook(client, settings):
        return False
    if found is None or (first and found == ["webhook"]):
        log.info("webhook registered", extra={"url": shown_url(settings.webhook_url),
                                              "secret_header": settings.webhook_secret is not None})
        return True
    metrics.webhook_repairs.inc()
    log.warning("webhook configuration repaired", extra={"url": shown_url(settings.webhook_url),
                                                         "differed": ",".join(found)})
    return True


async def keep_webhook(client: GatewayClient, settings: Settings, metrics: Metrics, *,
                       sleep: Sleep = asyncio.sleep) -> None:
    """``ensure_webhook`` at start and every WEBHOOK_CHECK_INTERVAL_MS, until cancelled."""
    first = True
    while True:
        try:
            await ensure_webhook(client, settings, metrics, first=first)
        except Exception:
            log.exception("webhook check failed")
        first = False
        await sleep(settings.webhook_check_interval_ms / 1000)
