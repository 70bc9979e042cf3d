"""Nothing twice, even across a crash (SPEC section 26): a job whose sender died mid-send is settled from its echo,
else from the gateway's store (findMessages), before any resend; only a job shown not to have gone out is sent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import pytest
from sqlalchemy import select

from taskcore.gateway.evolution.records import sent_message
from taskcore.gateway.outbound import OutboundText, Quote, outbound_of, reaction_payload, text_payload
from taskcore.queue_rules import IN_DOUBT
from taskcore.services import echoes, queue
from taskcore.storage import queue as q
from taskcore.storage.db import Database
from taskcore.storage.schema import outbound_queue as oq
from tasksvc_run import units
from tasksvc_run.bot.worker import QueueWorker
from tasksvc_run.clock import SystemClock
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics
from tests.fakes.gateway import FakeGateway
from tests.integration.test_queue_worker import FAST, drained

GROUP = "120363000000000001@g.us"


@pytest.fixture
async def client(gateway: FakeGateway) -> AsyncIterator[EvolutionGateway]:
    async with aiohttp.ClientSession() as session:
        yield EvolutionGateway(session, base_url=gateway.url, instance="taskbot", api_key="test-api-key",
                            timeout_ms=2000)


def in_doubt(db: Database, body: dict[str, Any], *, kind: str = "text") -> int:
    """Queue a job, claim it as a process that then dies, and take it over: in doubt."""
    job = units.run(db, queue.enqueue_message, chat_id=GROUP, kind=kind, payload=body, max_attempts=6,
                    now=datetime.now(UTC) - timedelta(seconds=5))
    assert job is not None
    units.run(db, queue.claim_jobs, owner="dead-process", now=datetime.now(UTC), lease=timedelta(seconds=30), limit=1)
    db.transact(lambda conn: q.release_owners(conn, ["dead-process"], now=datetime.now(UTC)))
    return job


def row(db: Database, job: int) -> Any:
    with db.read() as conn:
        return conn.execute(select(oq).where(oq.c.id == job)).one()


async def work(db: Database, client: EvolutionGateway, metrics: Metrics) -> None:
    worker = QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST)
    worker.start()
    try:
        await drained(db)
    finally:
        await worker.stop(1.0)


def settled(metrics: Metrics, how: str) -> float:
    return float(metrics.registry.get_sample_value("outbound_in_doubt_settled_total", {"how": how}) or 0)


async def accepted_before_the_crash(client: EvolutionGateway, body: dict[str, Any]) -> str:
    """The dead process's attempt, which the gateway accepted."""
    text = outbound_of(body)
    assert isinstance(text, OutboundText)
    message_id = await client.send_text(text)
    assert message_id is not None
    return message_id


REPLY = text_payload(chat_id=GROUP, text="Tarea 7 creada.", quote=Quote(
    chat_id=GROUP, message_id="INBOUND1", participant="34600000002@s.whatsapp.net", text="/t nueva x"))


async def test_a_job_whose_echo_was_recorded_is_marked_sent_and_not_sent_again(
    sqlite_db: Database, gateway: FakeGateway, client: EvolutionGateway
) -> None:
    job = in_doubt(sqlite_db, REPLY)
    first = await accepted_before_the_crash(client, REPLY)
    echo = sent_message(gateway.calls_to("sendText")[0].answer)
    assert echo is not None
    units.run(sqlite_db, echoes.record_echo, echo, now=datetime.now(UTC))
    metrics = Metrics()
    await work(sqlite_db, client, metrics)
    assert gateway.sent_texts() == ["Tarea 7 creada."]
    assert (row(sqlite_db, job).status, row(sqlite_db, job).gateway_message_id) == ("sent", first)
    assert settled(metrics, "echo") == 1
    assert gateway.calls_to("findMessages") == []


async def test_without_an_echo_the_gateways_store_settles_it(
    sqlite_db: Database, gateway: FakeGateway, client: EvolutionGateway
) -> None:
    job = in_doubt(sqlite_db, REPLY)
    first = await accepted_before_the_crash(client, REPLY)
    metrics = Metrics()
    await work(sqlite_db, client, metrics)
    assert gateway.sent_texts() == ["Tarea 7 creada."]
    assert row(sqlite_db, job).gateway_message_id == first
    assert settled(metrics, "gateway") == 1


async def test_a_job_shown_not_to_have_gone_out_is_sent_once(
    sqlite_db: Database, gateway: FakeGateway, client: EvolutionGateway
) -> None:
    job = in_doubt(sqlite_db, REPLY)
    metrics = Metrics()
    await work(sqlite_db, client, metrics)
    assert gateway.sent_texts() == ["Tarea 7 creada."]
    assert row(sqlite_db, job).status == "sent"
    assert settled(metrics, "not_sent") == 1


async def test_a_copy_another_job_already_names_does_not_settle_this_one(
    sqlite_db: Database, gateway: FakeGateway, client: EvolutionGateway
) -> None:
    earlier = units.run(sqlite_db, queue.enqueue_message, chat_id=GROUP, kind="text", payload=REPLY, max_attempts=6,
                        now=datetime.now(UTC) - timedelta(seconds=10))
    assert earlier is not None
    await work(sqlite_db, client, Metrics())  # the earlier identical reply went out and is recorded
    job = in_doubt(sqlite_db, REPLY)
    await work(sqlite_db, client, Metrics())
    assert gateway.sent_texts() == ["Tarea 7 creada.", "Tarea 7 creada."]
    assert row(sqlite_db, job).gateway_message_id != row(sqlite_db, earlier).gateway_message_id


async def test_when_the_gateway_cannot_tell_the_job_waits_in_doubt_and_is_settled_later(
    sqlite_db: Database, gateway: FakeGateway, client: EvolutionGateway
) -> None:
    job = in_doubt(sqlite_db, REPLY)
    first = await accepted_before_the_crash(client, REPLY)
    gateway.fail_next(2, status=500, route="findMessages")
    metrics = Metrics()
    await work(sqlite_db, client, metrics)
    assert gateway.sent_texts() == ["Tarea 7 creada."]
    assert row(sqlite_db, job).gateway_message_id == first
    assert row(sqlite_db, job).attempts == 4  # the dead one, two the gateway could not answer, the settling one


async def test_a_reaction_in_doubt_is_sent_again_without_a_lookup(
    sqlite_db: Database, gateway: FakeGateway, client: EvolutionGateway
) -> None:
    body = reaction_payload(chat_id=GROUP, message_id="INBOUND1", participant="34600000002@s.whatsapp.net",
                              emoji="✅")
    in_doubt(sqlite_db, body, kind="reaction")
    metrics = Metrics()
    await work(sqlite_db, client, metrics)
    assert len(gateway.calls_to("sendReaction")) == 1
    assert gateway.calls_to("findMessages") == []


def test_a_take_over_and_an_orphaned_claim_mark_the_job_in_doubt(sqlite_db: Database) -> None:
    job = in_doubt(sqlite_db, REPLY)
    assert IN_DOUBT in str(row(sqlite_db, job).last_error)
    [claimed] = units.run(sqlite_db, queue.claim_jobs, owner="me", now=datetime.now(UTC), lease=timedelta(seconds=1),
                          limit=1)
    assert claimed.in_doubt
    later = datetime.now(UTC) + timedelta(seconds=5)  # my lease ran out mid-send: the next claim is in doubt too
    [again] = units.run(sqlite_db, queue.claim_jobs, owner="other", now=later, lease=timedelta(seconds=30), limit=1)
    assert again.in_doubt
    fresh = units.run(sqlite_db, queue.enqueue_message, chat_id="34600000009", kind="text", max_attempts=6, now=later,
                      payload=text_payload(chat_id="34600000009", text="x"))
    [plain] = units.run(sqlite_db, queue.claim_jobs, owner="me", now=later, lease=timedelta(seconds=30), limit=1)
    assert (plain.id, plain.in_doubt) == (fresh, False)
