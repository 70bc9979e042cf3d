"""Messages the bot starts for a person on its own (SPEC section 25): reminders, nags, notices, as opposed to
replies to what the person sent (which are never held). One door for all of them, so quiet hours (held and merged)
apply to each the same way."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import Connection

from taskcore.chores.quiet import held_until
from taskcore.gateway.outbound import text_payload
from taskcore.queue_rules import JobKind
from taskcore.services.quiet import window_of
from taskcore.storage.queue import enqueue
from taskcore.storage.quiet import hold_many, load_settings
from taskcore.zones import effective_zone

_UTC = ZoneInfo("UTC")
HELD = 0
"""What ``start_message`` returns for a message held until the person's quiet hours end."""


def start_message(conn: Connection, *, user_id: str, chat_id: str, text: str, label: str, max_attempts: int,
                  now: datetime, dedupe_key: str | None = None, task_id: int | None = None,
                  fallback: ZoneInfo = _UTC) -> int | None:
    """Queue a message the bot starts for ``user_id`` in their direct chat ``chat_id``; the queued job's id (None:
    ``dedupe_key`` was queued before; ``HELD``: inside the person's quiet hours, held in ``held_messages`` until
    they end). ``fallback`` is TZ, the zone of people with neither a chosen zone nor a country's."""
    release = quiet_release(conn, user_id, now, fallback)
    if release is not None:
        hold_many(conn, [{"user_id": user_id, "chat_id": chat_id, "text": text, "label": label,
                          "dedupe_key": dedupe_key, "held_at": now, "release_at": release}])
        return HELD
    return enqueue(conn, chat_id=chat_id, kind=JobKind.TEXT, payload=text_payload(chat_id=chat_id, text=text),
                   label=label, dedupe_key=dedupe_key, max_attempts=max_attempts, now=now, task_id=task_id)


def quiet_release(conn: Connection, user_id: str, now: datetime, fallback: ZoneInfo) -> datetime | None:
    """When the person's quiet hours end if they are inside them at ``now`` (in their zone), else None."""
    saved = load_settings(conn, user_id)
    window = window_of(saved.quiet_from, saved.quiet_to)
    if window is None:
        return None
    zone = effective_zone(saved.tz, user_id, fallback).zone
    return held_until(window, now.astimezone(UTC), zone)
