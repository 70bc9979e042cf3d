"""The outbound queue worker against the fake gateway: retries, permanent failures, order per chat, clean stop."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import OperationalError

from taskcore.gateway.outbound import OutboundText, reaction_payload, text_payload
from taskcore.services import queue
from taskcore.storage.db import Database
from taskcore.storage.schema import outbound_queue as oq
from tasksvc_run import units
from tasksvc_run.bot.worker import QueueWorker
from tasksvc_run.bot.worker_config import WorkerConfig
from tasksvc_run.clock import SystemClock
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics
from tasksvc_run.outage import FatalStop
from tests.fakes.clock import FrozenClock
from tests.fakes.gateway import FakeGateway, sample

ERRORS: dict[str, Any] = sample("outbound_error_responses")
FAST = WorkerConfig(concurrency=4, poll_interval=0.02, lease=timedelta(seconds=10), backoff_base_ms=10,
                    backoff_max_ms=40)


@pytest.fixture
def metrics() -> Metrics:
    return Metrics()


def put(db: Database, chat: str, text: str, *, max_attempts: int = 6) -> int:
    job = units.run(db, queue.enqueue_message, chat_id=chat, kind="text",
                    payload=text_payload(chat_id=chat, text=text), max_attempts=max_attempts, now=datetime.now(UTC))
    assert job is not None
    return job


def put_reaction(db: Database, emoji: str, label: str) -> None:
    body = reaction_payload(chat_id="1@g.us", message_id="3A5F", participant="1987@lid", emoji=emoji)
    units.run(db, queue.enqueue_message, chat_id="1@g.us", kind="reaction", payload=body, label=label, max_attempts=2,
              now=datetime.now(UTC))


def row(db: Database, job_id: int) -> Any:
    with db.read() as conn:
        return conn.execute(select(oq).where(oq.c.id == job_id)).one()


def value(metrics: Metrics, name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


async def drained(db: Database, within: float = 10.0) -> None:
    async with asyncio.timeout(within):
        while True:
            stats = await asyncio.to_thread(units.look, db, queue.queue_stats)
            if stats["pending"] + stats["sending"] == 0:
                return
            await asyncio.sleep(0.02)


async def run_until_drained(worker: QueueWorker, db: Database) -> None:
    worker.start()
    try:
        await drained(db)
    finally:
        await worker.stop()


async def test_retries_then_success_sends_exactly_once(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    gateway.fail_next(2, status=500, body=ERRORS["unhandled_error_500"], route="sendText")
    job = put(db, "34600000001", "hola")
    await run_until_drained(QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST), db)
    assert gateway.sent_texts() == ["hola"]
    stored = row(db, job)
    assert (stored.status, stored.attempts, stored.gateway_message_id[:4]) == ("sent", 3, "3EB0")
    assert value(metrics, "outbound_retries_total", kind="text") == 2
    assert value(metrics, "outbound_sent_total", kind="text") == 1


async def test_the_watchdog_hears_of_an_accepted_send_before_the_job_reads_sent(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    """The echo is due from the gateway's acceptance: anyone who sees the job "sent" (a watchdog tick, a test) finds
    the watchdog already waiting for its echo."""
    heard: list[tuple[str | None, str]] = []
    job = put(db, "34600000001", "hola")

    def on_sent(message_id: str | None) -> None:
        heard.append((message_id, row(db, job).status))

    worker = QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST, on_sent=on_sent)
    await run_until_drained(worker, db)
    assert len(heard) == 1
    message_id, status_then = heard[0]
    assert message_id == row(db, job).gateway_message_id
    assert status_then == "sending"


@pytest.mark.parametrize("name", [
    "send_failed_socket_closed_400", "send_failed_whatsapp_rate_limit_400_derived", "unhandled_error_500"])
async def test_rate_overlimit_and_connection_closed_are_retried(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics, name: str
) -> None:
    gateway.fail_next(status=ERRORS[name]["status"], body=ERRORS[name])
    put(db, "34600000001", "hola")
    await run_until_drained(QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST), db)
    assert gateway.sent_texts() == ["hola"]


async def test_a_permanent_error_fails_at_once_and_the_row_is_kept(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    gateway.fail_next(status=400, body=ERRORS["number_not_on_whatsapp_400"])
    job = put(db, "15550109999", "hola")
    await run_until_drained(QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST), db)
    stored = row(db, job)
    assert (stored.status, stored.attempts) == ("failed", 1)
    assert '"exists": false' in stored.last_error
    assert gateway.calls == []
    assert value(metrics, "outbound_failed_total", kind="text") == 1


LOGIN = "Tu enlace para entrar en la web:\nhttps://t.example/login?token=" + "B" * 43


def put_login_link(db: Database, chat: str) -> int:
    job = units.run(db, queue.enqueue_message, chat_id=chat, kind="text",
                    payload=text_payload(chat_id=chat,
                                           text=LOGIN), label="login", max_attempts=6, now=datetime.now(UTC))
    assert job is not None
    return job


async def test_a_login_link_reaches_the_gateway_and_then_leaves_the_queue_row(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    job = put_login_link(db, "34600000001@s.whatsapp.net")
    await run_until_drained(QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST), db)
    assert gateway.sent_texts() == [LOGIN]
    stored = row(db, job)
    assert (stored.status, stored.payload) == ("sent", '{"text":"[enlace de acceso retirado]"}')


async def test_a_login_link_the_gateway_refuses_leaves_no_link_in_the_failed_row(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    gateway.fail_next(status=400, body=ERRORS["number_not_on_whatsapp_400"])
    job = put_login_link(db, "15550109999@s.whatsapp.net")
    await run_until_drained(QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST), db)
    stored = row(db, job)
    assert stored.status == "failed"
    assert "token" not in stored.payload + (stored.last_error or "")


async def test_a_job_that_uses_up_its_attempts_is_kept_failed(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    gateway.fail_next(5, status=500)
    job = put(db, "34600000001", "hola", max_attempts=3)
    await run_until_drained(QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST), db)
    assert (row(db, job).status, row(db, job).attempts) == ("failed", 3)
    assert value(metrics, "outbound_retries_total", kind="text") == 2


async def test_the_retry_waits_the_backoff_with_its_jitter(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    gateway.fail_next(status=500)
    job = put(db, "34600000001", "hola")
    slow = WorkerConfig(poll_interval=0.02, backoff_base_ms=60_000, backoff_max_ms=300_000)
    clock = FrozenClock(datetime.now(UTC) + timedelta(seconds=1))
    worker = QueueWorker(db, client, clock=clock, metrics=metrics, config=slow, jitter=lambda: 0.2)
    worker.start()
    await gateway.wait_for(lambda gw: len(gw.failed) == 1)
    await worker.stop()
    stored = row(db, job)
    assert (stored.status, stored.next_attempt_at) == ("pending", clock.now() + timedelta(seconds=72))


class RecordingSender(EvolutionGateway):
    """The client, counting how many sends are in flight, per chat and overall."""

    def __init__(self, client: EvolutionGateway) -> None:
        self.__dict__.update(client.__dict__)
        self.per_chat: Counter[str] = Counter()
        self.max_per_chat = 0
        self.max_overall = 0

    async def send_text(self, text: OutboundText, *, message_id: str | None = None) -> str | None:
        self.per_chat[text.chat_id] += 1
        self.max_per_chat = max(self.max_per_chat, self.per_chat[text.chat_id])
        self.max_overall = max(self.max_overall, sum(self.per_chat.values()))
        try:
            return await super().send_text(text, message_id=message_id)
        finally:
            self.per_chat[text.chat_id] -= 1


async def test_each_chat_gets_its_messages_in_order_one_at_a_time(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    gateway.send_delay = 0.01
    chats = ["100@g.us", "200@g.us", "34600000001", "34600000002"]
    for n in range(6):
        for chat in chats:
            put(db, chat, f"{chat}#{n}")
    gateway.fail_next(2, status=500, route="sendText")  # a retry must not let a later message overtake
    sender = RecordingSender(client)
    config = WorkerConfig(concurrency=3, poll_interval=0.02, backoff_base_ms=10, backoff_max_ms=20)
    await run_until_drained(QueueWorker(db, sender, clock=SystemClock(), metrics=metrics, config=config), db)
    texts = gateway.sent_texts()
    for chat in chats:
        assert [t for t in texts if t.startswith(f"{chat}#")] == [f"{chat}#{n}" for n in range(6)]
    assert sender.max_per_chat == 1
    assert 1 < sender.max_overall <= 3


async def test_reactions_are_counted_by_emoji_class(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    put_reaction(db, "✅", "check")
    await run_until_drained(QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST), db)
    gateway.fail_next(status=400, route="sendReaction")
    put_reaction(db, "🤖", "robot")
    await run_until_drained(QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST), db)
    assert value(metrics, "reactions_sent_total", emoji="check") == 1
    assert value(metrics, "reactions_failed_total", emoji="robot") == 1
    assert value(metrics, "outbound_sent_total", kind="reaction") == 1


async def test_stop_lets_the_current_send_finish(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    gateway.send_delay = 0.3
    job = put(db, "34600000001", "hola")
    worker = QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST)
    worker.start()
    async with asyncio.timeout(5):
        while True:
            if worker.in_flight:
                break
            await asyncio.sleep(0.01)
    await worker.stop()
    assert row(db, job).status == "sent"
    assert gateway.sent_texts() == ["hola"]


async def test_notify_wakes_the_worker_before_its_next_poll(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics
) -> None:
    worker = QueueWorker(db, client, clock=SystemClock(), metrics=metrics,
                         config=WorkerConfig(poll_interval=30.0))
    worker.start()
    await asyncio.sleep(0.1)
    put(db, "34600000001", "hola")
    worker.notify()
    await gateway.wait_for(lambda gw: gw.sent_texts() == ["hola"], within=3.0)
    await worker.stop()


async def test_a_passing_outage_is_logged_once_when_it_starts_and_once_when_it_ends(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_claim, failures = queue.claim_jobs, [0]

    def claim_while_locked(*args: Any, **kwargs: Any) -> Any:
        if failures[0] < 20:
            failures[0] += 1
            raise OperationalError("UPDATE outbound_queue", {}, sqlite3.OperationalError("database is locked"))
        return real_claim(*args, **kwargs)

    monkeypatch.setattr(queue, "claim_jobs", claim_while_locked)
    put(db, "34600000001", "hola")
    await run_until_drained(QueueWorker(db, client, clock=SystemClock(), metrics=Metrics(), config=FAST), db)
    assert failures[0] == 20
    assert gateway.sent_texts() == ["hola"]
    said = [r.getMessage() for r in caplog.records if r.name == "tasksvc.database"]
    assert said == ["database unavailable; retrying quietly until it is back", "database available again"]
    assert not [r for r in caplog.records if r.exc_info]


async def test_a_missing_table_stops_the_worker_process_with_one_line(
    db: Database, client: EvolutionGateway, metrics: Metrics, caplog: pytest.LogCaptureFixture,
) -> None:
    with db.write() as conn:
        conn.execute(text("DROP TABLE outbound_queue"))
    stopped = asyncio.Event()
    worker = QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST,
                         fatal=FatalStop(stopped.set))
    worker.start()
    try:
        async with asyncio.timeout(5):
            await stopped.wait()
        await asyncio.sleep(0.1)  # more polls fail meanwhile: still one line
    finally:
        await worker.stop()
    critical = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(critical) == 1
    assert "outbound_queue" in critical[0].reason  # type: ignore[attr-defined]


async def test_a_pause_that_arrives_while_a_claim_runs_gives_the_jobs_back_unspent(
    db: Database, client: EvolutionGateway, gateway: FakeGateway, metrics: Metrics, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection.update close can come while the worker's claim is in its thread (seen on a loaded machine): what
    that claim took is given back, due, with no attempt spent, and nothing reaches the gateway until resumed."""
    worker = QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=FAST)
    claim, loop, paused = queue.claim_jobs, asyncio.get_running_loop(), asyncio.Event()

    def claim_then_pause(*args: Any, **kwargs: Any) -> list[Any]:
        jobs = claim(*args, **kwargs)
        if jobs:
            worker.pause()  # the close, heard while the claim ran
            loop.call_soon_threadsafe(paused.set)
        return jobs

    monkeypatch.setattr(queue, "claim_jobs", claim_then_pause)
    job = put(db, "34600000001", "hola")
    worker.start()
    try:
        async with asyncio.timeout(5):
            await paused.wait()
        await asyncio.sleep(0.1)  # a few of the worker's polls while paused
        stored = row(db, job)
        assert (stored.status, stored.attempts, stored.lease_owner) == ("pending", 0, None)
        assert gateway.sent_texts() == []
        monkeypatch.setattr(queue, "claim_jobs", claim)
        worker.resume()
        await drained(db)
    finally:
        await worker.stop()
    assert gateway.sent_texts() == ["hola"]
    assert (row(db, job).status, row(db, job).attempts) == ("sent", 1)
