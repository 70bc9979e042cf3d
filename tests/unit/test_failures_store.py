"""taskcore.services.failures on every backend: failed inbox events and sends listed together, newest first, and
queued again by id or all at once (SPEC section 33)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Connection

from taskcore.services import queue
from taskcore.services.failures import list_failures, parse_failure_id, retry_failures
from taskcore.services.inbox import inbox_stats
from taskcore.storage import inbox as inbox_store
from taskcore.storage.counters import counter_values
from taskcore.storage.db import Database
from taskcore.storage.inbox import INBOX_FAILURES, NewEvent
from tasksvc_run import units
from tests.builders import NOW


def failed_event(db: Database, chat: str = "1@g.us") -> int:
    def work(conn: Connection) -> int:
        [row_id] = inbox_store.insert_events(conn, [NewEvent(chat, "messages.upsert", None, "{}")], now=NOW)
        inbox_store.mark_failed(conn, row_id, error="KeyError: 'data'", now=NOW + timedelta(minutes=1))
        return row_id
    return db.transact(work)


def failed_send(db: Database, label: str | None = None) -> int:
    job_id = units.run(db, queue.enqueue_message, chat_id="2@g.us", kind="text", payload={"text": "x"}, label=label,
                       max_attempts=1, now=NOW)
    assert job_id is not None
    [job] = units.run(db, queue.claim_jobs, owner="w", now=NOW, lease=timedelta(minutes=1), limit=1)
    assert units.run(db, queue.mark_failed, job_id=job.id, owner="w", error="gateway 400",
                     now=NOW + timedelta(minutes=2))
    return job_id


def test_failures_of_both_kinds_newest_first_and_the_counter_counts_each(db: Database) -> None:
    event, send = failed_event(db), failed_send(db)
    rows = units.look(db, list_failures)
    assert [(r.kind, r.id, r.what, r.error) for r in rows] == [
        ("send", send, "text", "gateway 400"), ("inbox", event, "messages.upsert", "KeyError: 'data'")]
    assert rows[0].attempts == 1
    with db.read() as conn:
        assert counter_values(conn)[(INBOX_FAILURES, "")] == 1


def test_retry_by_id_and_all(db: Database) -> None:
    event, send, link = failed_event(db), failed_send(db), failed_send(db, label="login")
    first = units.run(db, retry_failures, [("inbox", event), ("inbox", 999)], now=NOW)
    assert (first.requeued, first.not_failed) == ([f"inbox:{event}"], ["inbox:999"])
    assert units.look(db, inbox_stats) == {"pending": 1, "failed": 0}
    rest = units.run(db, retry_failures, None, now=NOW)
    assert (rest.requeued, rest.login_links, rest.not_failed) == ([f"send:{send}"], [f"send:{link}"], [])
    assert [job.id for job in units.run(db, queue.claim_jobs, owner="w2", now=NOW, lease=timedelta(minutes=1),
                                        limit=5)] == [send]


@pytest.mark.parametrize(("text", "parsed"), [("inbox:12", ("inbox", 12)), (" SEND:7 ", ("send", 7))])
def test_failure_ids(text: str, parsed: tuple[str, int]) -> None:
    assert parse_failure_id(text) == parsed
    with pytest.raises(ValueError, match="not a failure id"):
        parse_failure_id("inbox:")
