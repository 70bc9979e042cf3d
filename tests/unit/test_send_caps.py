"""Sending like a person (SPEC section 31): what the bot starts is capped by the hour and the day (a warming-up number
lower), one text goes to at most 3 chats an hour, and what a cap holds waits, never dropped; replies go on."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from taskcore.gateway.outbound import text_payload
from taskcore.queue_rules import JobKind, QueueJob
from taskcore.services import queue
from taskcore.services.caps import SendRules, day_cap, is_started
from taskcore.storage import schema
from taskcore.storage.caps import held_jobs, oldest_waiting
from taskcore.storage.db import Database
from taskcore.storage.queue import enqueue
from tasksvc_run import units
from tests.builders import NOW

LEASE = timedelta(seconds=30)


def chat(n: int) -> str:
    return f"12036330000000{n:04d}@g.us"


def put(db: Database, where: str, text: str, *, label: str | None, now: datetime = NOW) -> int:
    with db.write() as conn:
        job = enqueue(conn, chat_id=where, kind=JobKind.TEXT.value, payload=text_payload(chat_id=where, text=text),
                      label=label, max_attempts=6, now=now)
    assert job is not None
    return job


def claim(db: Database, rules: SendRules, now: datetime = NOW) -> list[int]:
    """Claim and record as sent; the ids handed out."""
    jobs = units.run(db, queue.claim_jobs, owner="w", now=now, lease=LEASE, limit=50, rules=rules)
    for job in jobs:
        units.run(db, queue.mark_sent, job_id=job.id, owner="w", gateway_message_id=f"id{job.id}", now=now)
    return [job.id for job in jobs]


def row(db: Database, job_id: int) -> tuple[str, int, datetime, str | None]:
    oq = schema.outbound_queue
    with db.read() as conn:
        found = conn.execute(select(oq).where(oq.c.id == job_id)).one()
    return found.status, found.attempts, found.next_attempt_at, found.last_error


def test_the_hourly_cap_holds_what_the_bot_starts_while_replies_go_on(db: Database) -> None:
    rules = SendRules(per_hour=3)
    nags = [put(db, chat(n), f"recordatorio {n}", label="nag") for n in range(5)]
    reply = put(db, chat(9), "respuesta", label="reply")
    assert claim(db, rules) == [*nags[:3], reply]
    assert [row(db, job) for job in nags[3:]] == [("pending", 0, NOW + timedelta(hours=1), "held: hourly cap")] * 2
    with db.read() as conn:
        assert held_jobs(conn) == {"hourly cap": (2, NOW + timedelta(hours=1))}
        assert oldest_waiting(conn) == NOW
    assert claim(db, rules, NOW + timedelta(minutes=59)) == []
    assert claim(db, rules, NOW + timedelta(hours=1, seconds=1)) == nags[3:]  # held, never dropped
    with db.read() as conn:
        assert held_jobs(conn) == {}
        assert oldest_waiting(conn) is None


def test_the_daily_cap_counts_a_whole_day(db: Database) -> None:
    rules = SendRules(per_hour=100, per_day=4)
    first = [put(db, chat(n), f"a {n}", label="digest") for n in range(3)]
    assert claim(db, rules) == first
    later = NOW + timedelta(hours=5)
    second = [put(db, chat(10 + n), f"b {n}", label="digest", now=later) for n in range(2)]
    assert claim(db, rules, later) == second[:1]
    assert row(db, second[1])[2:] == (NOW + timedelta(days=1), "held: daily cap")


def test_one_text_goes_to_at_most_three_chats_an_hour(db: Database) -> None:
    same = [put(db, chat(n), "¡Mañana hay reunión!", label="notice") for n in range(5)]
    other = put(db, chat(7), "Otra cosa", label="notice")
    assert claim(db, SendRules()) == [*same[:3], other]
    assert row(db, same[3])[3] == "held: same text"
    assert claim(db, SendRules(), NOW + timedelta(hours=1, seconds=1)) == same[3:]


def test_a_warming_number_starts_at_twenty_a_day_and_doubles() -> None:
    rules = SendRules(per_day=1500, warmup_days=5)
    days = [day_cap(rules, NOW, NOW + timedelta(days=n)) for n in range(7)]
    assert days == [20, 40, 80, 160, 320, 1500, 1500]
    assert day_cap(SendRules(per_day=30, warmup_days=5), NOW, NOW + timedelta(days=2)) == 30
    assert day_cap(SendRules(per_day=1500), NOW, NOW) == 1500


def test_the_warm_up_holds_past_twenty_on_the_first_day(db: Database) -> None:
    rules = SendRules(per_hour=1000, warmup_days=3)
    jobs = [put(db, chat(n), f"hola {n}", label="summary") for n in range(22)]
    assert claim(db, rules) == jobs[:20]
    assert row(db, jobs[20])[3] == "held: daily cap"


@pytest.mark.parametrize(("label", "age", "started"), [
    ("digest", 0, True), ("nag", 0, True), ("notice", 0, True), ("summary", 0, True), ("chore", 0, True),
    ("reply", 0, False), ("login", 60, False), (None, 299, False), ("reply", 301, True), (None, 400, True),
])
def test_what_counts_as_started_by_the_bot(label: str | None, age: int, started: bool) -> None:
    job = QueueJob(1, chat(1), JobKind.TEXT, {"text": "x"}, label, 1, 6, created_at=NOW - timedelta(seconds=age))
    assert is_started(job, NOW) is started
    assert not is_started(QueueJob(1, chat(1), JobKind.REACTION, {}, "digest", 1, 6), NOW)
