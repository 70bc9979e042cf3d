"""A login link is a credential for 15 minutes: its outbound queue row keeps it only while it waits to be sent
(SPEC section 16). Once the gateway has accepted it, or the job has failed for good, the row holds a placeholder."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select

from taskcore.services import queue
from taskcore.storage.db import Database
from taskcore.storage.schema import outbound_queue as oq
from tasksvc_run import units
from tests.builders import GROUP, wa_text
from tests.chat_support import queued, run

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
LEASE = timedelta(seconds=30)
CHAT = "34600111111@s.whatsapp.net"
LINK = "Tu enlace para entrar en la web (vale 15 minutos, un solo uso):\nhttps://t.example/login?token=" + "A" * 43
PLACEHOLDER = {"text": "[enlace de acceso retirado]"}


def put(db: Database, *, label: str = "login", max_attempts: int = 6) -> int:
    job = units.run(db, queue.enqueue_message, chat_id=CHAT, kind="text",
                    payload={"number": "34600111111", "text": LINK}, label=label, max_attempts=max_attempts, now=NOW)
    assert job is not None
    return job


def claimed(db: Database) -> int:
    (job,) = units.run(db, queue.claim_jobs, owner="w1", now=NOW, lease=LEASE, limit=1)
    return job.id


def stored(db: Database, job_id: int) -> Any:
    with db.read() as conn:
        return conn.execute(select(oq.c.status, oq.c.payload).where(oq.c.id == job_id)).one()


def test_a_sent_login_link_leaves_only_a_placeholder_in_its_row(db: Database) -> None:
    job_id = put(db)
    units.run(db, queue.mark_sent, job_id=claimed(db), owner="w1", gateway_message_id="3EB0", now=NOW)
    status, payload = stored(db, job_id)
    assert (status, json.loads(payload)) == ("sent", PLACEHOLDER)
    assert "token" not in payload


def test_a_login_link_that_failed_for_good_leaves_only_a_placeholder(db: Database) -> None:
    job_id = put(db)
    units.run(db, queue.mark_failed, job_id=claimed(db), owner="w1", error="400: not on WhatsApp", now=NOW)
    assert stored(db, job_id) == ("failed", json.dumps(PLACEHOLDER, ensure_ascii=False, separators=(",", ":")))


def test_a_login_link_whose_last_retry_fails_leaves_only_a_placeholder(db: Database) -> None:
    job_id = put(db, max_attempts=1)
    units.run(db, queue.schedule_retry, job_id=claimed(db), owner="w1", error="Connection Closed",
              next_attempt_at=NOW + timedelta(seconds=5), now=NOW)
    status, payload = stored(db, job_id)
    assert (status, json.loads(payload)) == ("failed", PLACEHOLDER)


def test_a_login_link_waiting_for_a_retry_keeps_its_text_to_send_it(db: Database) -> None:
    job_id = put(db)
    units.run(db, queue.schedule_retry, job_id=claimed(db), owner="w1", error="Connection Closed",
              next_attempt_at=NOW + timedelta(seconds=5), now=NOW)
    status, payload = stored(db, job_id)
    assert (status, json.loads(payload)["text"]) == ("pending", LINK)


def test_other_messages_keep_their_text_once_sent(db: Database) -> None:
    job_id = put(db, label="reply")
    units.run(db, queue.mark_sent, job_id=claimed(db), owner="w1", gateway_message_id="3EB0", now=NOW)
    assert json.loads(stored(db, job_id)[1])["text"] == LINK


def test_the_web_command_queues_its_link_as_a_login_link_in_private_and_from_a_group(db: Database) -> None:
    run(db, wa_text("/t web", group=None))
    run(db, wa_text("/t web", group=GROUP))
    links = [(job.chat_id, job.label) for job in queued(db) if "token=" in job.payload.get("text", "")]
    assert links == [(CHAT, "login"), (CHAT, "login")]
