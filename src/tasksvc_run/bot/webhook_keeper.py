"""The gateway's webhook configuration, kept as the bot needs it (SPEC section 26).

At start and every WEBHOOK_CHECK_INTERVAL_MS the bot asks the gateway in use to make sure it calls WEBHOOK_URL with
every event the bot handles and WEBHOOK_SECRET (``Gateway.ensure_webhook``: it reads its configuration and changes it
only when it differs); a change that repairs one is counted by ``webhook_repairs_total`` and logged once. Only with
WEBHOOK_URL (otherwise the operator manages it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from taskcore.gateway.diagnostics import shown_url
from taskcore.gateway.errors import GatewayError
from taskcore.gateway.port import Gateway, WebhookPlan
from taskcore.settings import Settings
from tasksvc_run.metrics import Metrics

__all__ = ["ensure_webhook", "keep_webhook", "plan_of", "set_webhook", "shown_url"]

log = logging.getLogger(__name__)
Sleep = Callable[[float], Awaitable[None]]


def plan_of(settings: Settings) -> WebhookPlan | None:
    """How the gateway must call the bot (WEBHOOK_URL, WEBHOOK_SECRET); None when the bot does not manage it."""
    if not settings.webhook_url:
        return None
    return WebhookPlan(settings.webhook_url, settings.webhook_secret.get_secret_value()
                       if settings.webhook_secret else None)


async def set_webhook(gateway: Gateway, settings: Settings) -> bool:
    """Set the webhook again even when it reads the same (a stale registration looks identical: SPEC section 26);
    a failure is logged."""
    plan = plan_of(settings)
    if plan is None:
        return False
    try:
        await gateway.ensure_webhook(plan, force=True)
    except GatewayError as exc:
        log.warning("webhook registration failed; the bot keeps running",
                    extra={"url": shown_url(plan.url), "status": exc.status, "error": exc.message_text})
        return False
    return True


async def ensure_webhook(gateway: Gateway, settings: Settings, metrics: Metrics, *, first: bool = False) -> bool:
    """Make sure the gateway calls the bot as it needs; whether its configuration was changed. ``first``: the check
    at start, where no configuration at all is a first registration, not a repair."""
    plan = plan_of(settings)
    if plan is None:
        return False
    try:
        done = await gateway.ensure_webhook(plan)
    except GatewayError as exc:
        log.warning("webhook registration failed; the bot keeps running",
                    extra={"url": shown_url(plan.url), "status": exc.status, "error": exc.message_text})
        return False
    if not done.changed:
        return False
    if done.differed is None or (first and done.differed == ("webhook",)):
        log.info("webhook registered", extra={"url": shown_url(plan.url), "secret": plan.secret is not None})
        return True
    metrics.webhook_repairs.inc()
    log.warning("webhook configuration repaired", extra={"url": shown_url(plan.url),
                                                         "differed": ",".join(done.differed)})
    return True


async def keep_webhook(gateway: Gateway, settings: Settings, metrics: Metrics, *,
                       sleep: Sleep = asyncio.sleep) -> None:
    """``ensure_webhook`` at start and every WEBHOOK_CHECK_INTERVAL_MS, until cancelled."""
    first = True
    while True:
        try:
            await ensure_webhook(gateway, settings, metrics, first=first)
        except Exception:
            log.exception("webhook check failed")
        first = False
        await sleep(settings.webhook_check_interval_ms / 1000)
