"""What a configuration is told at start (SPEC sections 2, 16 and 31): the warnings every process logs (never a
secret's value), and the lines that stop the bot in production. ``tasksvc doctor`` reports both."""

from __future__ import annotations

from taskcore.pacing import DEFAULT_MAX_SENDS_PER_MIN, WARN_ABOVE_PER_MIN
from taskcore.settings import Settings

__all__ = ["bot_refusals", "startup_warnings"]

_WEBHOOK_UNAUTHENTICATED = (
    "WEBHOOK_SECRET: required in production, or anyone who can reach /webhook can post chat events as any number "
    "(admins included); set it (Evolution API sends it as X-Webhook-Secret, WAHA signs each call with it), or set "
    "WEBHOOK_AUTH=none to run without webhook authentication"
)
_NO_WEBHOOK_AUTH = (
    "WEBHOOK_AUTH=none: /webhook accepts calls without a secret; anyone who can reach it can post chat events as any "
    "number, admins included"
)
_NONE_IGNORED = "WEBHOOK_AUTH=none has no effect while WEBHOOK_SECRET is set: /webhook still requires the secret"
_OPEN_METRICS = (
    "METRICS_TOKEN is not set in production: /metrics is open to anyone who can reach the public port; set "
    "METRICS_TOKEN, or METRICS_ENABLED=false"
)
_FAST_SENDS = (
    "GATEWAY_MAX_SENDS_PER_MIN={} is above " + str(WARN_ABOVE_PER_MIN) + " a minute: a WhatsApp number that sends "
    "this fast risks being flagged as spam and banned (default " + str(DEFAULT_MAX_SENDS_PER_MIN) + ")"
)


def startup_warnings(settings: Settings) -> list[str]:
    """Every warning to log at start; never contains a secret value."""
    warnings = list(settings.interval_warnings)
    if settings.dev_default_user is not None and settings.node_env != "development":
        warnings.append(f"DEV_DEFAULT_USER is ignored outside development (NODE_ENV={settings.node_env})")
    if settings.webhook_auth == "none":
        warnings.append(_NO_WEBHOOK_AUTH if settings.webhook_secret is None else _NONE_IGNORED)
    if settings.node_env == "production" and settings.metrics_enabled and settings.metrics_token is None:
        warnings.append(_OPEN_METRICS)
    if settings.backup_dir is not None and settings.database_url is not None:
        warnings.append("BACKUP_DIR is ignored with DATABASE_URL: back up PostgreSQL with pg_dump "
                        "(docs/operations.md)")
    if settings.node_env == "production" and settings.gateway_max_sends_per_min > WARN_ABOVE_PER_MIN:
        warnings.append(_FAST_SENDS.format(settings.gateway_max_sends_per_min))
    return warnings


def bot_refusals(settings: Settings) -> list[str]:
    """Configuration lines that stop the bot (and so the unit) at start: what production needs (SPEC 16)."""
    if settings.node_env == "production" and settings.webhook_auth == "secret" and settings.webhook_secret is None:
        return [_WEBHOOK_UNAUTHENTICATED]
    return []
