"""The outbound queue on every backend: enqueue, strict order per chat, leases, retries, failure (SPEC section 9)."""

from __future__ import annotations

import json
import threading
import time
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event, select

from taskcore.chat.result import OutgoingText
from taskcore.errors import ValidationError
from taskcore.queue_rules import JobKind, QueueJob
from taskcore.reactions import ReactionPolicy, ReactionRequest
from taskcore.services import queue
from taskcore.storage.db import Database
from taskcore.storage.schema import outbound_queue as oq
from tasksvc_run import units
from tests.builders import NOW
from tests.queries import oldest_pending_age

LEASE = timedelta(seconds=30)
CHAT_A, CHAT_B = "100@g.us", "34600000001"


def put(
    db: Database, chat_id: str = CHAT_A, *, text: str = "hola", max_attempts: int = 6, kind: str = "text",
    now: datetime = NOW,
) -> int:
    """Queue a text job with defaults; returns its id."""
    job_id = units.run(db, queue.enqueue_message, chat_id=chat_id, kind=kind, payload={"text": text},
                       max_attempts=max_attempts, now=now
    )
    assert job_id is not None
    return job_id


def put_once(db: Database, key: str, *, text: str = "hola") -> int | None:
    """Queue a job under a dedupe key; None when one was queued before."""
    return units.run(db, queue.enqueue_message, chat_id=CHAT_A, kind="text", payload={"text": text}, dedupe_key=key,
                     max_attempts=6, now=NOW)


def claim(db: Database, owner: str = "w1", *, at: datetime = NOW, limit: int = 10) -> list[QueueJob]:
    return units.run(db, queue.claim_jobs, owner=owner, now=at, lease=LEASE, limit=limit)


def row(db: Database, job_id: int) -> Any:
    with db.read() as conn:
        return conn.execute(select(oq).where(oq.c.id == job_id)).one()


def ids(jobs: list[QueueJob]) -> list[int]:
    return [job.id for job in jobs]


def send_ok(db: Database, job: QueueJob, owner: str = "w1", at: datetime = NOW) -> bool:
    return units.run(db, queue.mark_sent, job_id=job.id, owner=owner, gateway_message_id=f"3EB0{job.id}", now=at)


def retry(db: Database, job: QueueJob, *, owner: str = "w1", at: datetime = NOW, wait: float = 10) -> bool:
    return units.run(db, queue.schedule_retry, job_id=job.id, owner=owner, error="Error: Connection Closed",
                     next_attempt_at=at + timedelta(seconds=wait), now=at,
    )


# --- enqueue -------------------------------------------------------------------------------------


def test_an_enqueued_job_is_pending_due_now_with_its_payload_as_json(db: Database) -> None:
    job_id = units.run(db, queue.enqueue_message, chat_id=CHAT_A, kind="reaction",
                       payload={"key": {"id": "ABC"}, "reaction": "✅"}, label="check", max_attempts=3, now=NOW,)
    assert job_id is not None
    stored = row(db, job_id)
    assert (stored.status, stored.attempts, stored.max_attempts, stored.label) == ("pending", 0, 3, "check")
    assert stored.next_attempt_at == NOW
    assert stored.payload == '{"key":{"id":"ABC"},"reaction":"✅"}'


def test_a_second_job_with_the_same_dedupe_key_is_not_queued(db: Database) -> None:
    first = put_once(db, "discovery:100@g.us:34600000001")
    assert first is not None
    assert put_once(db, "discovery:100@g.us:34600000001", text="otra vez") is None
    assert units.look(db, queue.queue_stats)["pending"] == 1
    assert row(db, first).payload == '{"text":"hola"}'


def test_jobs_without_a_dedupe_key_are_all_queued(db: Database) -> None:
    assert put(db) != put(db)
    assert units.look(db, queue.queue_stats)["pending"] == 2


def test_enqueue_works_inside_a_callers_transaction(db: Database) -> None:
    with db.write() as conn:
        job_id = queue.enqueue(conn, chat_id=CHAT_A, kind="text", payload={"text": "x"}, max_attempts=1, now=NOW)
    assert job_id is not None
    assert row(db, job_id).status == "pending"


def test_an_unknown_kind_is_refused(db: Database) -> None:
    with pytest.raises(ValidationError) as caught:
        put(db, kind="sticker")
    assert caught.value.field == "kind"
    assert units.look(db, queue.queue_stats)["pending"] == 0


def test_a_job_needs_at_least_one_attempt(db: Database) -> None:
    with pytest.raises(ValidationError):
        put(db, max_attempts=0)


# --- claim ---------------------------------------------------------------------------------------


def test_a_claim_leases_the_job_and_counts_the_attempt(db: Database) -> None:
    job_id = put(db, text="uno")
    (job,) = claim(db, "w1")
    assert (job.id, job.chat_id, job.kind, job.payload) == (job_id, CHAT_A, JobKind.TEXT, {"text": "uno"})
    assert job.attempts == 1
    stored = row(db, job.id)
    assert (stored.status, stored.lease_owner, stored.lease_until, stored.attempts) == ("sending", "w1", NOW + LEASE, 1)


def test_only_the_oldest_job_of_a_chat_is_claimed(db: Database) -> None:
    first, second = put(db, text="1"), put(db, text="2")
    assert ids(claim(db)) == [first]
    assert row(db, second).status == "pending"


def test_the_next_job_of_a_chat_comes_after_the_previous_one_was_sent(db: Database) -> None:
    put(db, text="1")
    second = put(db, text="2")
    (job,) = claim(db)
    assert send_ok(db, job)
    assert ids(claim(db)) == [second]


def test_a_chat_with_a_send_in_flight_gives_nothing_while_other_chats_do(db: Database) -> None:
    put(db, CHAT_A)
    put(db, CHAT_A)
    other = put(db, CHAT_B)
    claim(db, "w1", limit=1)
    assert ids(claim(db, "w2")) == [other]
    assert claim(db, "w3") == []


def test_heads_of_several_chats_are_claimed_together_up_to_the_limit(db: Database) -> None:
    heads = [put(db, f"{n}@g.us") for n in range(5)]
    assert ids(claim(db, limit=3)) == heads[:3]
    assert ids(claim(db, limit=3)) == heads[3:]


def test_a_limit_below_one_claims_nothing(db: Database) -> None:
    put(db)
    assert claim(db, limit=0) == []


def test_an_empty_queue_gives_nothing(db: Database) -> None:
    assert claim(db) == []


# --- retries and backoff -------------------------------------------------------------------------


def test_a_retried_job_waits_for_its_backoff_and_keeps_its_chat_waiting(db: Database) -> None:
    put(db)
    put(db)
    (job,) = claim(db)
    assert retry(db, job, wait=10)
    assert claim(db, at=NOW + timedelta(seconds=9)) == []
    (again,) = claim(db, at=NOW + timedelta(seconds=10))
    assert (again.id, again.attempts) == (job.id, 2)


def test_a_retry_records_the_error_and_releases_the_lease(db: Database) -> None:
    put(db)
    (job,) = claim(db)
    retry(db, job)
    stored = row(db, job.id)
    assert (stored.status, stored.last_error, stored.lease_until) == ("pending", "Error: Connection Closed", None)


def test_a_retryable_failure_on_the_last_attempt_fails_the_job_and_keeps_it(db: Database) -> None:
    job_id = put(db, max_attempts=2)
    (job,) = claim(db)
    retry(db, job, wait=1)
    (job,) = claim(db, at=NOW + timedelta(seconds=1))
    assert job.attempts == 2
    assert retry(db, job, at=NOW + timedelta(seconds=1))
    stored = row(db, job_id)
    assert (stored.status, stored.attempts, stored.last_error) == ("failed", 2, "Error: Connection Closed")
    assert claim(db, at=NOW + timedelta(days=1)) == []


def test_a_failed_job_does_not_block_the_rest_of_its_chat(db: Database) -> None:
    put(db)
    later = put(db)
    (job,) = claim(db)
    assert units.run(db, queue.mark_failed, job_id=job.id, owner="w1", error="400 not on WhatsApp", now=NOW)
    assert row(db, job.id).status == "failed"
    assert ids(claim(db)) == [later]


def test_stored_errors_are_cut_to_500_characters(db: Database) -> None:
    put(db)
    (job,) = claim(db)
    units.run(db, queue.mark_failed, job_id=job.id, owner="w1", error="e" * 2000, now=NOW)
    assert row(db, job.id).last_error == "e" * 500


def test_a_sent_job_records_the_gateway_message_id_and_time(db: Database) -> None:
    put(db)
    (job,) = claim(db)
    assert send_ok(db, job, at=NOW + timedelta(seconds=2))
    stored = row(db, job.id)
    assert (stored.status, stored.gateway_message_id) == ("sent", f"3EB0{job.id}")
    assert stored.sent_at == NOW + timedelta(seconds=2)


# --- leases --------------------------------------------------------------------------------------


def test_a_crashed_workers_job_is_claimed_again_once_its_lease_runs_out(db: Database) -> None:
    put(db)
    (job,) = claim(db, "crashed")
    assert claim(db, "w2", at=NOW + LEASE - timedelta(seconds=1)) == []
    (again,) = claim(db, "w2", at=NOW + LEASE)
    assert (again.id, again.attempts) == (job.id, 2)
    assert row(db, job.id).lease_owner == "w2"


def test_a_worker_that_lost_its_lease_cannot_record_any_outcome(db: Database) -> None:
    put(db)
    (job,) = claim(db, "slow")
    claim(db, "w2", at=NOW + LEASE)
    later = NOW + LEASE + timedelta(seconds=1)
    assert not send_ok(db, job, owner="slow", at=later)
    assert not retry(db, job, owner="slow", at=later)
    assert not units.run(db, queue.mark_failed, job_id=job.id, owner="slow", error="x", now=later)
    stored = row(db, job.id)
    assert (stored.status, stored.lease_owner, stored.gateway_message_id) == ("sending", "w2", None)


def test_a_finished_job_cannot_be_marked_again(db: Database) -> None:
    put(db)
    (job,) = claim(db)
    assert send_ok(db, job)
    assert not units.run(db, queue.mark_failed, job_id=job.id, owner="w1", error="late", now=NOW)
    assert row(db, job.id).status == "sent"


def test_a_worker_whose_lease_expired_unclaimed_may_still_record_the_send(db: Database) -> None:
    put(db)
    (job,) = claim(db)
    assert send_ok(db, job, at=NOW + LEASE * 2)


def test_two_concurrent_claimers_never_take_the_same_job_or_two_of_one_chat(db: Database) -> None:
    chats = [f"{n}@g.us" for n in range(8)]
    expected = [put(db, chat) for _ in range(4) for chat in chats]
    claimed: list[tuple[str, int]] = []
    in_flight: set[str] = set()
    lock = threading.Lock()
    errors: list[str] = []

    def worker(owner: str) -> None:
        deadline = time.monotonic() + 30
        while units.look(db, queue.queue_stats)["sent"] < len(expected) and time.monotonic() < deadline:
            for job in units.run(db, queue.claim_jobs, owner=owner, now=NOW, lease=timedelta(hours=1), limit=3):
                with lock:
                    if job.chat_id in in_flight:
                        errors.append(f"two in flight in {job.chat_id}")
                    in_flight.add(job.chat_id)
                    claimed.append((job.chat_id, job.id))
                with lock:
                    in_flight.discard(job.chat_id)
                if not send_ok(db, job, owner=owner):
                    errors.append(f"{owner} lost job {job.id}")

    threads = [threading.Thread(target=worker, args=(f"w{n}",), daemon=True) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert sorted(job_id for _, job_id in claimed) == sorted(expected)
    for chat in chats:
        order = [job_id for chat_id, job_id in claimed if chat_id == chat]
        assert order == sorted(order)


# --- stats ---------------------------------------------------------------------------------------


def test_stats_count_every_status_even_when_empty(db: Database) -> None:
    assert units.look(db, queue.queue_stats) == {"pending": 0, "sending": 0, "sent": 0, "failed": 0}
    assert oldest_pending_age(db, NOW) is None


def test_stats_count_jobs_per_status(db: Database) -> None:
    for chat in ("1@g.us", "2@g.us", "3@g.us", "4@g.us"):
        put(db, chat)
    sent, failed, _sending = claim(db, limit=3)
    send_ok(db, sent)
    units.run(db, queue.mark_failed, job_id=failed.id, owner="w1", error="x", now=NOW)
    assert units.look(db, queue.queue_stats) == {"pending": 1, "sending": 1, "sent": 1, "failed": 1}


def test_the_oldest_waiting_job_gives_the_age_in_seconds(db: Database) -> None:
    put(db, now=NOW - timedelta(minutes=2))
    put(db, CHAT_B, now=NOW - timedelta(seconds=5))
    assert oldest_pending_age(db, NOW) == 120.0


def test_sent_and_failed_jobs_do_not_count_as_waiting(db: Database) -> None:
    put(db, now=NOW - timedelta(hours=1))
    (job,) = claim(db)
    send_ok(db, job)
    assert oldest_pending_age(db, NOW) is None


def test_claiming_searches_indexes_and_never_scans_the_table(sqlite_db: Database) -> None:
    with sqlite_db.write() as conn:  # a table mostly made of sent rows, with planner statistics
        conn.execute(oq.insert(), [
            {"chat_id": f"{n % 50}@g.us", "kind": "text", "payload": "{}", "status": "sent" if n < 1900 else "pending",
             "attempts": 0, "max_attempts": 1, "next_attempt_at": NOW, "created_at": NOW, "updated_at": NOW}
            for n in range(2000)
        ])
        conn.exec_driver_sql("ANALYZE")
    statements: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        if "outbound_queue" in statement and not statement.startswith("EXPLAIN"):
            statements.append((statement, parameters))

    event.listen(sqlite_db.engine, "before_cursor_execute", capture)
    try:
        claim(sqlite_db)
    finally:
        event.remove(sqlite_db.engine, "before_cursor_execute", capture)
    with sqlite_db.read() as conn:
        plans = [
            row.detail for statement, parameters in statements
            for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
        ]
    assert len(statements) == 2
    assert not [detail for detail in plans if detail.startswith("SCAN")], plans


def test_the_replies_of_several_events_are_queued_in_their_order_as_one_event_at_a_time_would(db: Database) -> None:
    policy = ReactionPolicy(enabled=True, scope="all", ttl_days=14, max_attempts=3)
    mark = ReactionRequest(CHAT_A, "M1", None, "🤖", dedupe_key="command:M1")
    later = NOW + timedelta(seconds=1)
    sends: list[queue.Sends] = [
        ([OutgoingText(CHAT_A, {"text": "a1"}), OutgoingText(CHAT_B, {"text": "a2"}, "dm", task_id=7)], [mark], NOW),
        ([OutgoingText(CHAT_A, {"text": "b"})], [], NOW),
        ([], [], NOW),
        ([OutgoingText(CHAT_B, {"text": "c"}, dedupe_key="once")], [], later),
        ([OutgoingText(CHAT_B, {"text": "d"}, dedupe_key="once"), OutgoingText(CHAT_A, {"text": "e"})], [], later),
    ]
    units.run(db, queue.queue_all_replies, sends, reaction_policy=policy, max_attempts=6)
    with db.read() as conn:
        rows = conn.execute(select(oq).order_by(oq.c.id)).all()
    assert [(r.chat_id, r.kind, json.loads(r.payload).get("text"), r.label, r.task_id, r.created_at, r.max_attempts)
            for r in rows] == [
        (CHAT_A, "text", "a1", "reply", None, NOW, 6), (CHAT_B, "text", "a2", "dm", 7, NOW, 6),
        (CHAT_A, "reaction", None, "robot", None, NOW, 3), (CHAT_A, "text", "b", "reply", None, NOW, 6),
        (CHAT_B, "text", "c", "reply", None, later, 6), (CHAT_A, "text", "e", "reply", None, later, 6)]


def test_events_that_send_nothing_queue_nothing(db: Database) -> None:
    units.run(db, queue.queue_all_replies, [([], [], NOW)], reaction_policy=ReactionPolicy(), max_attempts=6)
    assert claim(db) == []


def test_reactions_the_policy_keeps_out_queue_nothing_between_the_texts(db: Database) -> None:
    mark = ReactionRequest(CHAT_A, "M1", None, "🤖")
    sends: list[queue.Sends] = [([OutgoingText(CHAT_A, {"text": "a"})], [mark], NOW),
                                ([OutgoingText(CHAT_A, {"text": "b"})], [mark], NOW)]
    units.run(db, queue.queue_all_replies, sends, reaction_policy=ReactionPolicy(), max_attempts=6)
    with db.read() as conn:
        rows = conn.execute(select(oq.c.kind, oq.c.payload).order_by(oq.c.id)).all()
    assert [(kind, json.loads(payload)["text"]) for kind, payload in rows] == [("text", "a"), ("text", "b")]
