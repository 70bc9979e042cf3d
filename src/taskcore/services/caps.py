"""Sending like a person (SPEC section 31), inside the claim's transaction: what the bot starts itself (reminders,
nags, notices, summaries, announcements; not a reply to what a person wrote in the last 5 minutes) is capped at
GATEWAY_MAX_SENDS_PER_HOUR and GATEWAY_MAX_SENDS_PER_DAY (a new number warming up: 20 the first day, doubled each
day, for GATEWAY_WARMUP_DAYS), and one text goes to at most 3 chats in an hour. A job over a cap is held (put back,
its attempt given back, until the cap frees), never dropped; the caps count every bot instance's sends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection

from taskcore.gateway.echo import text_digest
from taskcore.queue_rules import JobKind, QueueJob
from taskcore.storage import caps as q
from taskcore.storage.delivery import postpone_jobs
from taskcore.unit import Reading

STARTED_LABELS = frozenset({"digest", "nag", "notice", "summary", "chore", "held", "unreachable"})
REPLY_WINDOW = timedelta(minutes=5)
HOUR, DAY = timedelta(hours=1), timedelta(days=1)
WARMUP_FIRST_DAY = 20


@dataclass(frozen=True, slots=True)
class SendRules:
    """How the claim screens what it hands out: the reach-out pause and the caps (SPEC section 31)."""

    pause_hours: int = 24
    per_hour: int = 200
    per_day: int = 1500
    warmup_days: int = 0
    same_text_chats: int = 3


def is_started(job: QueueJob, now: datetime) -> bool:
    """Whether the bot started this text itself (or it answers something older than 5 minutes)."""
    if job.kind is not JobKind.TEXT:
        return False
    return job.label in STARTED_LABELS or (job.created_at is not None and now - job.created_at > REPLY_WINDOW)


def day_cap(rules: SendRules, first_send: datetime | None, now: datetime) -> int:
    """The daily cap at ``now``: during the warm-up, 20 on the first send's day, doubled each day after."""
    if rules.warmup_days <= 0 or first_send is None:
        return rules.per_day
    day = (now.date() - first_send.date()).days
    if day >= rules.warmup_days:
        return rules.per_day
    return min(rules.per_day, WARMUP_FIRST_DAY << max(day, 0))


def screen_caps(conn: Connection, jobs: Sequence[QueueJob], *, now: datetime, rules: SendRules) -> list[QueueJob]:
    """Of the claimed jobs, those the caps let go now (recorded as started); the rest held until a cap frees."""
    started = [job for job in jobs if is_started(job, now) and not job.in_doubt]
    if not started:
        return list(jobs)
    q.forget_started(conn, before=now - DAY - HOUR)
    first = q.first_send(conn, now) if rules.warmup_days > 0 else None
    per_day = day_cap(rules, first, now)
    hour_count, hour_oldest = q.started_since(conn, now - HOUR)
    day_count, day_oldest = q.started_since(conn, now - DAY)
    held: dict[int, tuple[str, datetime]] = {}
    for job in started:
        text = job.payload.get("text")
        digest = text_digest(text) if isinstance(text, str) else None
        chats, same_oldest = q.same_text_chats(conn, digest, now - HOUR) if digest else (set(), None)
        if hour_count >= rules.per_hour:
            held[job.id] = ("hourly cap", (hour_oldest or now) + HOUR)
        elif day_count >= per_day:
            held[job.id] = ("daily cap", (day_oldest or now) + DAY)
        elif job.chat_id not in chats and len(chats) >= rules.same_text_chats:
            held[job.id] = ("same text", (same_oldest or now) + HOUR)
        else:
            q.record_started(conn, job_id=job.id, chat_id=job.chat_id, digest=digest, now=now)
            hour_oldest, day_oldest = hour_oldest or now, day_oldest or now
            hour_count, day_count = hour_count + 1, day_count + 1
    for reason, until in set(held.values()):
        ids = [job_id for job_id, why in held.items() if why == (reason, until)]
        postpone_jobs(conn, ids, until=max(until, now + timedelta(seconds=1)), now=now)
        q.mark_held(conn, ids, reason)
    return [job for job in jobs if job.id not in held]


def oldest_waiting_seconds(uow: Reading, *, now: datetime) -> float:
    """How long the oldest message still waiting to be sent has waited (0 when none waits)."""
    conn = uow.conn
    oldest = q.oldest_waiting(conn)
    return 0.0 if oldest is None else max(0.0, (now - oldest).total_seconds())


def held_by_caps(uow: Reading) -> dict[str, tuple[int, datetime | None]]:
    """What the caps and the reach-out pause hold, by reason: how many messages, and until when at the latest."""
    conn = uow.conn
    return q.held_jobs(conn)
