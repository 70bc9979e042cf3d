"""The configuration reference, generated from `Settings` so it cannot drift (docs/configuration.md)."""

from __future__ import annotations

from typing import Any

from pydantic_core import PydanticUndefined

from taskcore.reactions import CHECK, ROBOT, WARN
from taskcore.settings import Settings
from taskcore.words import LANGUAGES
from taskcore.words.registry import SHARED


def _codes() -> str:
    """The registry's languages as the reference names them: `es`, `pt` or `en`."""
    quoted = [f"`{code}`" for code in LANGUAGES]
    return f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def _reaction(name: str) -> str:
    """A reaction's emoji as the reference names them: the first, its variants in brackets (✅ (✔️, ☑️))."""
    first, *others = SHARED[f"reaction.{name}"]
    return f"{first} ({', '.join(others)})" if others else first


MEANINGS: dict[str, str] = {
    "gateway_kind": "Which gateway the bot speaks: evolution (Evolution API v2) or waha (WAHA with its GOWS engine).",
    "gateway_api_url": "Base URL of the messaging gateway. Unset: nothing is sent; messages wait.",
    "gateway_api_instance": "Gateway instance name or id (Evolution API), or session name (WAHA).",
    "gateway_api_key": "API key for outbound gateway calls (`apikey` header). Secret.",
    "webhook_url": "Public webhook URL; when set, the bot registers it with the gateway at start, keeps it set "
                   "(WEBHOOK_CHECK_INTERVAL_MS) and runs the echo watchdog.",
    "messaging_community_id": "Community whose groups are synchronised (`<digits>@g.us`); unset: every group.",
    "port": "Public port of the proxy (R1).",
    "host": "Address the proxy listens on: every interface; `tasksvc dev` uses 127.0.0.1 unless HOST is set.",
    "bot_port": "Loopback port of the bot (webhook, metrics).",
    "web_port": "Loopback port of the web interface.",
    "node_env": "development, test or production.",
    "metrics_enabled": "Serve /metrics; unset: on except in test.",
    "rate_limit_per_min": "Chat commands and API writes per minute per user (token refill).",
    "rate_limit_burst": "Bucket capacity; unset: RATE_LIMIT_PER_MIN.",
    "group_sync_interval_ms": "Group sync interval (at least 10 s outside test).",
    "group_members_sync_interval_ms": "Member sync interval (at least 10 s outside test).",
    "group_members_inactive_retention_days": "Days before inactive memberships are deleted.",
    "tz": "Default time zone (IANA name) of users who chose none (`/t zona`) and whose country has not exactly one.",
    "default_language": f"Language ({_codes()}) of people who chose none (`/t idioma`) and whose phone "
                        "number's country speaks none of them, and of the messages the bot starts in a group "
                        "that set none. Another value stops the start.",
    "reminders_grace_minutes": "Minutes after the chosen time during which a late reminder is still sent.",
    "group_gating_mode": "off (every group served), discover (new groups wait for an admin), enforce.",
    "reactions_enabled": f"React to commands ({ROBOT}/{WARN}) and to completed tasks' messages ({CHECK}).",
    "reactions_scope": "groups, or all (direct messages too).",
    "reactions_ttl_days": "Days during which a completion still reacts to the task's message, and during which "
                          "replies and reactions to a completed task's messages still find it.",
    "reaction_commands_enabled": f"People's reactions act: {_reaction('complete')} on a task's message completes "
                                 f"it, {_reaction('claim')} claims it.",
    "rq_reactions_max_attempts": "Attempts for reaction jobs; unset: RQ_MAX_ATTEMPTS.",
    "admin_users": "Comma-separated administrator numbers or JIDs (normalised to digits).",
    "allowed_groups": "Comma-separated group ids inserted as allowed at every start when absent.",
    "notify_admins_on_discovery": "In discover mode, DM each admin once about a new group.",
    "data_dir": "Directory of tasks.db when DB_PATH is unset.",
    "db_path": "Path of the SQLite file; takes precedence over DATA_DIR.",
    "database_url": "Any SQLAlchemy URL (postgresql+psycopg://...); takes precedence over both paths. Secret.",
    "backup_dir": "Directory of the bot's daily online backups of the SQLite file (`tasks-<UTC time>.db`, each "
                  "checked with `PRAGMA integrity_check`); unset: no scheduled backup. Ignored with DATABASE_URL.",
    "backup_keep": "How many backups BACKUP_DIR keeps; older ones are deleted after each new one.",
    "migrations_log_level": "silent, error, warn, info or debug (silent in test).",
    "web_base_url": "Public base URL of the web interface, for `/t web` login links.",
    "dev_autoseed_db": "Seed an empty database with example data (development only).",
    "dev_default_user": "Development only: the user signed in without a link (digits).",
    "force_schedulers": "Start the schedulers in test too.",
    "webhook_secret": ("/webhook requires the header X-Webhook-Secret with this value; required in "
                       "production unless WEBHOOK_AUTH=none. Secret."),
    "webhook_auth": "secret (production refuses to start without WEBHOOK_SECRET) or none (no webhook "
                    "authentication, a warning at every start).",
    "metrics_token": "When set, /metrics requires `Authorization: Bearer <token>`. Secret.",
    "rq_max_attempts": "Attempts for an outbound message before it is kept as failed.",
    "rq_backoff_base_ms": "First retry delay; doubles each retry, ±20% jitter.",
    "rq_backoff_max_ms": "Longest retry delay.",
    "gateway_timeout_ms": "Timeout of every gateway call.",
    "gateway_max_sends_per_min": "Most messages this bot process sends a minute, one every 60/N s (replies before "
                                 "reminder digests); above 60 a start-up warning. Per process: with several bot "
                                 "instances, divide the number's budget among them.",
    "gateway_reachout_pause_hours": "After WhatsApp refuses a direct message to someone who never wrote to the bot in "
                                    "private (error 463), hours without direct messages to anyone who never did "
                                    "(0: no pause).",
    "gateway_max_sends_per_hour": "Most messages the bot starts itself (reminders, nags, notices, summaries) in any "
                                  "hour, all bot instances together; replies to what a person wrote in the last 5 "
                                  "minutes are not counted. Over it they wait, never dropped.",
    "gateway_max_sends_per_day": "Most messages the bot starts itself in any 24 hours (as the hourly cap).",
    "gateway_warmup_days": "A new number warms up: for this many days from the first send, the daily cap starts at "
                           "20 and doubles each day (0: off).",
    "sends_per_person_per_min": "Replies a minute to one person's commands after a burst of 10 (or this many, if "
                                "more); beyond it their commands are still done, a change is still confirmed, a "
                                "list or link is left out with one short notice, so no member can use up the "
                                "number's send pace.",
    "photo_max_mb": "Largest photo kept as a task's proof (SPEC section 34), in MB (1 to 64): a larger one is refused "
                    "with a reply, and a larger answer of the gateway is not read whole.",
    "photo_retention_days": "Days a task's photo is kept after its approval (photos live in DATA_DIR/photos and are "
                            "not in the backups: docs/operations.md).",
    "proxy_upstream_timeout_ms": "The proxy answers 504 when bot or web is slower than this.",
    "webhook_check_interval_ms": "How often the bot reads the gateway's webhook configuration and sets it again "
                                 "when it differs (only with WEBHOOK_URL).",
    "watchdog_echo_seconds": "Seconds within which the echo (send.message) of an accepted send must arrive; past "
                             "it the watchdog repairs the webhook and probes.",
    "watchdog_idle_minutes": "Minutes without any inbound event (while connected) after which the watchdog probes "
                             "the bot's own number.",
    "webhook_store_timeout_ms": "Longest wait to store a webhook event in the inbox (the database's write lock); "
                                "past it /webhook answers 503 with Retry-After and the gateway delivers it again.",
    "log_format": "kv (key=value lines) or json.",
    "log_level": "debug, info, warning (or warn) or error: the least severe line logged. Routine lines (each "
                 "scheduled job's run) are debug.",
}


def _default(name: str) -> str:
    info = Settings.model_fields[name]
    value: Any = info.default
    if value is PydanticUndefined or value is None:
        return "—"
    if isinstance(value, frozenset):
        return ", ".join(sorted(value)) or "—"
    if isinstance(value, bool):
        return str(value).lower()
    return f"`{value}`"


def reference() -> str:
    """Markdown: one row per variable, with its default and meaning."""
    lines = [
        "# Configuration reference",
        "",
        "Generated from `taskcore.settings.Settings` by `tasksvc config-reference`; a test keeps this file equal to",
        "the output. Every variable comes from the environment or a `.env` file; an invalid value stops the start",
        "with one line naming the variable and what it accepts.",
        "",
        "The secrets `GATEWAY_API_KEY`, `WEBHOOK_SECRET`, `METRICS_TOKEN` and `DATABASE_URL` may instead be given as",
        "`<NAME>_FILE`, the path of a file holding the value (Docker secrets, systemd credentials); surrounding",
        "whitespace is removed. Setting both `<NAME>` and `<NAME>_FILE`, or naming a file that cannot be read or is",
        "empty, stops the start with one line (exit status 2).",
        "",
        "| Variable | Default | Meaning |",
        "|---|---|---|",
    ]
    for name in Settings.model_fields:
        lines.append(f"| `{name.upper()}` | {_default(name)} | {MEANINGS[name]} |")
    return "\n".join(lines) + "\n"
