"""Replies ahead of digests (issue 20) on every backend: the claim hands out due interactive jobs before due
digests; a digest never holds up an interactive job of its chat, and a chat still has one send in flight."""

from __future__ import annotations

from datetime import datetime, timedelta

from taskcore.queue_rules import DIGEST_LABEL, QueueJob
from taskcore.services import queue
from taskcore.storage.db import Database
from taskcore.storage.queue import enqueue_many
from tasksvc_run import units
from tests.builders import NOW

LEASE = timedelta(seconds=30)
GROUP, ANA, BEA = "100@g.us", "34600000001", "34600000002"


def reply(db: Database, chat: str, text: str, *, label: str | None = None) -> int:
    job = units.run(db, queue.enqueue_message, chat_id=chat, kind="text", payload={"text": text}, label=label,
                    max_attempts=6,
                    now=NOW)
    assert job is not None
    return job


def digests(db: Database, *chats: str, due: datetime = NOW) -> None:
    db.transact(lambda conn: enqueue_many(conn, [
        {"chat_id": chat, "kind": "text", "payload": {"text": f"digest {chat}"}, "label": DIGEST_LABEL, "due": due}
        for chat in chats], max_attempts=6, now=NOW))


def claim(db: Database, *, limit: int = 10, at: datetime = NOW) -> list[QueueJob]:
    return units.run(db, queue.claim_jobs, owner="w1", now=at, lease=LEASE, limit=limit)


def texts(jobs: list[QueueJob]) -> list[str]:
    return [job.payload["text"] for job in jobs]


def done(db: Database, jobs: list[QueueJob]) -> None:
    for job in jobs:
        assert units.run(db, queue.mark_sent, job_id=job.id, owner="w1", gateway_message_id=None, now=NOW)


def test_a_reply_queued_after_due_digests_is_claimed_first(db: Database) -> None:
    digests(db, ANA, BEA)
    reply(db, GROUP, "respuesta")
    assert texts(claim(db, limit=1)) == ["respuesta"]


def test_the_claim_takes_the_due_replies_then_the_digests_each_oldest_first(db: Database) -> None:
    digests(db, ANA)
    reply(db, GROUP, "uno")
    digests(db, BEA)
    reply(db, "200@g.us", "dos")
    assert texts(claim(db)) == ["uno", "dos", f"digest {ANA}", f"digest {BEA}"]


def test_a_notice_and_a_reaction_count_as_interactive(db: Database) -> None:
    digests(db, ANA)
    reply(db, BEA, "aviso", label="notice")
    reply(db, GROUP, "✅", label="check")
    assert texts(claim(db, limit=2)) == ["aviso", "✅"]


def test_a_digest_not_due_yet_does_not_hold_up_a_reply_in_its_chat(db: Database) -> None:
    digests(db, ANA, due=NOW + timedelta(minutes=20))
    reply(db, ANA, "respuesta")
    assert texts(claim(db)) == ["respuesta"]


def test_a_due_digest_waits_behind_a_later_reply_in_its_chat(db: Database) -> None:
    digests(db, ANA)
    reply(db, ANA, "respuesta")
    first = claim(db)
    assert texts(first) == ["respuesta"]
    assert claim(db) == []  # the reply is in flight: one send per chat
    done(db, first)
    assert texts(claim(db)) == [f"digest {ANA}"]


def test_replies_of_one_chat_keep_their_order_around_a_digest(db: Database) -> None:
    reply(db, ANA, "uno")
    digests(db, ANA)
    reply(db, ANA, "dos")
    sent = []
    for _ in range(3):
        jobs = claim(db)
        assert len(jobs) == 1
        sent += texts(jobs)
        done(db, jobs)
    assert sent == ["uno", "dos", f"digest {ANA}"]


def test_a_reply_waits_while_a_digest_of_its_chat_is_in_flight(db: Database) -> None:
    digests(db, ANA)
    in_flight = claim(db)
    reply(db, ANA, "respuesta")
    assert claim(db) == []
    done(db, in_flight)
    assert texts(claim(db)) == ["respuesta"]


def test_digests_of_one_chat_go_out_in_order_one_at_a_time(db: Database) -> None:
    digests(db, ANA)
    db.transact(lambda conn: enqueue_many(conn, [
        {"chat_id": ANA, "kind": "text", "payload": {"text": "segundo"}, "label": DIGEST_LABEL}],
        max_attempts=6, now=NOW))
    first = claim(db)
    assert texts(first) == [f"digest {ANA}"]
    done(db, first)
    assert texts(claim(db)) == ["segundo"]


def test_a_digest_is_claimed_once_its_due_time_comes(db: Database) -> None:
    later = NOW + timedelta(seconds=90)
    digests(db, ANA, due=later)
    assert claim(db, at=later - timedelta(seconds=1)) == []
    assert texts(claim(db, at=later)) == [f"digest {ANA}"]
