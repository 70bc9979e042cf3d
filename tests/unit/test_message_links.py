"""Links between messages and tasks (SPEC section 18): origin messages, and bot messages once the gateway names them."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from taskcore.gateway.outbound import text_payload
from taskcore.model import Origin
from taskcore.services import queue
from taskcore.storage.db import Database
from taskcore.storage.links import task_of_message
from taskcore.storage.schema import task_messages
from tasksvc_run import units
from tests.builders import NOW, create_and_read, make_group, make_task

GROUP = "100@g.us"


def sent(db: Database, *, task_id: int | None, gateway_id: str | None, owner: str = "w") -> int:
    """Queue a text about ``task_id``, claim it and record it sent under ``gateway_id``; the job's id."""
    with db.write() as conn:
        job = queue.enqueue(conn, chat_id=GROUP, kind="text", payload=text_payload(chat_id=GROUP, text="hola"),
                            max_attempts=3, now=NOW, task_id=task_id)
    assert job is not None
    assert [j.id for j in units.run(db, queue.claim_jobs, owner=owner, now=NOW, lease=timedelta(seconds=30),
                                    limit=5)] == [job]
    assert units.run(db, queue.mark_sent, job_id=job, owner=owner, gateway_message_id=gateway_id, now=NOW)
    return job


def test_a_sent_message_about_one_task_leads_to_it(db: Database) -> None:
    make_group(db, GROUP, members=("111",))
    task = make_task(db, creator="111", group_id=GROUP)
    sent(db, task_id=task.id, gateway_id="3EB0AAA")
    assert task_for_message(db, "3EB0AAA") == task.id
    with db.read() as conn:
        row = conn.execute(select(task_messages)).one()
    assert (row.task_id, row.chat_id, row.created_at) == (task.id, GROUP, NOW)


def test_a_message_about_no_task_or_without_an_id_links_nothing(db: Database) -> None:
    sent(db, task_id=None, gateway_id="3EB0BBB")
    make_group(db, GROUP, members=("111",))
    sent(db, task_id=make_task(db, creator="111", group_id=GROUP).id, gateway_id=None)
    with db.read() as conn:
        assert conn.execute(select(task_messages)).all() == []
    assert task_for_message(db, "3EB0BBB") is None


def test_the_message_that_created_a_task_leads_to_it(db: Database) -> None:
    make_group(db, GROUP, members=("111",))
    task = create_and_read(db, creator="111", description="pan", group_id=GROUP, now=NOW,
                           origin=Origin(GROUP, "ORIGIN1", "111@s.whatsapp.net", NOW))
    assert task_for_message(db, "ORIGIN1") == task.id
    assert task_for_message(db, "UNKNOWN") is None


def test_a_link_is_written_once_whatever_repeats(db: Database) -> None:
    make_group(db, GROUP, members=("111",))
    first = make_task(db, creator="111", group_id=GROUP)
    second = make_task(db, creator="111", group_id=GROUP)
    sent(db, task_id=first.id, gateway_id="3EB0CCC")
    sent(db, task_id=second.id, gateway_id="3EB0CCC")  # a gateway id seen twice keeps its first task
    assert task_for_message(db, "3EB0CCC") == first.id


def task_for_message(db: Database, message_id: str) -> int | None:
    """The task the message leads to, read in its own transaction."""
    with db.read() as conn:
        return task_of_message(conn, message_id)
