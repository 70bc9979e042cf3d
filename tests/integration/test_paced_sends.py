"""The paced worker against the fake gateway (issue 20): a reply queued behind a morning's digests overtakes them,
and the worker starts no send before the rate allows (a fake monotonic clock, so nothing depends on speed)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from taskcore.gateway.outbound import text_payload
from taskcore.queue_rules import DIGEST_LABEL
from taskcore.services import preferences, queue
from taskcore.settings import load_settings
from taskcore.storage.db import Database
from taskcore.storage.queue import enqueue_many
from tasksvc_run import units
from tasksvc_run.bot.worker import QueueWorker
from tasksvc_run.bot.worker_config import WorkerConfig
from tasksvc_run.clock import SystemClock
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics
from tasksvc_run.schedulers.jobs import JobContext, build_runtime
from tests.builders import make_task
from tests.fakes.clock import FrozenClock
from tests.fakes.gateway import FakeGateway

DIGESTS = 50
REPLY = "Hecho: #7 Pagar la luz"
SLOT = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)  # 08:30 in Europe/Madrid, the default TZ


def paced(per_min: int) -> WorkerConfig:
    return WorkerConfig(concurrency=4, poll_interval=0.02, lease=timedelta(seconds=10), max_sends_per_min=per_min)


def queue_digests(db: Database, count: int) -> None:
    now = datetime.now(UTC) - timedelta(seconds=1)
    chats = [f"3461{n:07d}" for n in range(count)]
    db.transact(lambda conn: enqueue_many(conn, [
        {"chat_id": chat, "kind": "text", "label": DIGEST_LABEL,
         "payload": text_payload(chat_id=f"{chat}@s.whatsapp.net", text=f"Recordatorio {n}")}
        for n, chat in enumerate(chats)], max_attempts=6, now=now))


def queue_reply(db: Database, text: str, chat: str = "120363000000000001@g.us") -> None:
    units.run(db, queue.enqueue_message, chat_id=chat, kind="text", payload=text_payload(chat_id=chat, text=text),
              label="reply", max_attempts=6, now=datetime.now(UTC))


async def test_a_reply_queued_after_fifty_digests_reaches_the_gateway_before_most_of_them(
    db: Database, client: EvolutionGateway, gateway: FakeGateway
) -> None:
    queue_digests(db, DIGESTS)
    worker = QueueWorker(db, client, clock=SystemClock(), metrics=Metrics(), config=paced(600))  # one per 0.1 s
    worker.start()
    try:
        await gateway.wait_for(lambda gw: len(gw.sent_texts()) >= 2, within=10.0)
        await asyncio.to_thread(queue_reply, db, REPLY)
        worker.notify()
        await gateway.wait_for(lambda gw: REPLY in gw.sent_texts(), within=10.0)
    finally:
        await worker.stop()
    sent = gateway.sent_texts()
    assert sent.index(REPLY) < DIGESTS // 2
    assert sent[: sent.index(REPLY)] == [f"Recordatorio {n}" for n in range(sent.index(REPLY))]  # in queue order


class Monotonic:
    """A monotonic clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def sends_settle(gateway: FakeGateway, worker: QueueWorker, count: int) -> None:
    """Wait (bounded) for ``count`` sends to reach the gateway and for the worker to have none in flight."""
    await gateway.wait_for(lambda gw: len(gw.sent_texts()) >= count, within=5.0)
    async with asyncio.timeout(5.0):
        while True:
            if not worker.in_flight:
                return
            await asyncio.sleep(0.01)


async def test_the_worker_starts_no_send_before_the_rate_allows(
    db: Database, client: EvolutionGateway, gateway: FakeGateway
) -> None:
    for n in range(3):
        queue_reply(db, f"respuesta {n}", chat=f"12036300000000000{n}@g.us")
    clock, metrics = Monotonic(), Metrics()
    worker = QueueWorker(db, client, clock=SystemClock(), metrics=metrics, config=paced(60), monotonic=clock)
    worker.start()
    try:
        await sends_settle(gateway, worker, 1)
        for _ in range(5):  # woken again and again within the same second: still one send
            worker.notify()
            await asyncio.sleep(0.02)
        assert gateway.sent_texts() == ["respuesta 0"]
        clock.now += 1.0
        worker.notify()
        await sends_settle(gateway, worker, 2)
        assert gateway.sent_texts() == ["respuesta 0", "respuesta 1"]
    finally:
        await worker.stop()
    assert metrics.registry.get_sample_value("outbound_max_sends_per_min") == 60


async def test_the_reminder_job_counts_and_logs_the_digests_beyond_the_grace_window(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    for user in ("34600000001", "34600000002", "34600000003"):
        units.run(db, preferences.set_preference, user_id=user, freq="daily", time="08:30",
                  now=SLOT - timedelta(days=1))
        make_task(db, creator=user, group_id=None, due="2026-11-23")
    settings = load_settings({"NODE_ENV": "test", "GATEWAY_MAX_SENDS_PER_MIN": "1", "REMINDERS_GRACE_MINUTES": "1"})
    clock = FrozenClock(SLOT)
    metrics = Metrics(db, clock=clock)
    assert await build_runtime(JobContext(settings, db, clock, metrics, None)).run_job("reminders")
    # one a minute within a minute's window: the first now, the second at the window's end, the third beyond it
    assert metrics.registry.get_sample_value("reminder_digests_beyond_window_total") == 1
    assert metrics.registry.get_sample_value("outbound_queue_due") == 1
    [line] = [r for r in caplog.records if r.name == "tasksvc_run.schedulers.jobs" and r.levelname == "WARNING"]
    assert (line.queued, line.beyond_window, line.max_sends_per_min) == (3, 1, 1)  # type: ignore[attr-defined]
