"""An outcome the database refuses to record keeps the job's lease and is written again: the message the gateway
accepted is sent once, even when the refusals outlast the lease (SPEC section 17)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
from sqlalchemy.exc import OperationalError

from taskcore.services import queue
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.bot.worker import QueueWorker
from tasksvc_run.bot.worker_config import WorkerConfig
from tasksvc_run.clock import SystemClock
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics
from tests.fakes.gateway import FakeGateway
from tests.integration.test_queue_worker import drained, put, row

SHORT_LEASE = WorkerConfig(concurrency=4, poll_interval=0.02, lease=timedelta(milliseconds=300),
                           backoff_base_ms=10, backoff_max_ms=40)
# Long enough that a busy machine's pauses (a loaded CI runner stalls a loop for a few hundred ms) do not end a lease
# the worker keeps renewing; the refusals below still outlast two of them.
RENEWED_LEASE = WorkerConfig(concurrency=4, poll_interval=0.02, lease=timedelta(milliseconds=1500),
                             backoff_base_ms=10, backoff_max_ms=40)


@pytest.fixture
async def client() -> AsyncIterator[tuple[EvolutionGateway, FakeGateway]]:
    async with FakeGateway() as gateway, aiohttp.ClientSession() as session:
        yield EvolutionGateway(session, base_url=gateway.url, instance="taskbot", api_key="test-api-key",
                            timeout_ms=2000), gateway


def refuse(monkeypatch: pytest.MonkeyPatch, times: int) -> list[str]:
    """``mark_sent`` fails ``times`` times as a full disk does, then works; the calls it got."""
    calls: list[str] = []
    real = queue.mark_sent

    def flaky(db: Database, **kwargs: Any) -> bool:
        calls.append(kwargs["owner"])
        if len(calls) <= times:
            raise OperationalError("UPDATE", {}, sqlite3.OperationalError("database or disk is full"))
        return real(db, **kwargs)

    monkeypatch.setattr(queue, "mark_sent", flaky)
    return calls


async def test_an_outcome_refused_past_the_lease_is_written_again_and_the_message_is_not_sent_twice(
    db: Database, client: tuple[EvolutionGateway, FakeGateway], monkeypatch: pytest.MonkeyPatch,
) -> None:
    gateway_client, gateway = client
    calls = refuse(monkeypatch, 9)  # ~3.4 s of refusals: more than two 1.5 s leases
    job = put(db, "34600000001", "hola")
    first = QueueWorker(db, gateway_client, clock=SystemClock(), metrics=Metrics(), config=RENEWED_LEASE, owner="one")
    other = QueueWorker(db, gateway_client, clock=SystemClock(), metrics=Metrics(), config=RENEWED_LEASE, owner="two")
    first.start()
    await gateway.wait_for(lambda gw: len(gw.sent_texts()) == 1)
    other.start()  # another instance, claiming whatever lease runs out
    try:
        await drained(db)
        await asyncio.sleep(0.5)  # a second send, were it claimed, would show now
    finally:
        await first.stop()
        await other.stop()
    assert gateway.sent_texts() == ["hola"]
    assert (row(db, job).status, row(db, job).lease_owner, row(db, job).attempts) == ("sent", "one", 1)
    assert calls == ["one"] * 10


async def test_a_worker_stopped_while_its_outcome_is_refused_leaves_within_its_bound(
    db: Database, client: tuple[EvolutionGateway, FakeGateway], monkeypatch: pytest.MonkeyPatch,
) -> None:
    gateway_client, gateway = client
    refuse(monkeypatch, 10_000)
    put(db, "34600000001", "hola")
    worker = QueueWorker(db, gateway_client, clock=SystemClock(), metrics=Metrics(), config=SHORT_LEASE, owner="one")
    worker.start()
    await gateway.wait_for(lambda gw: len(gw.sent_texts()) == 1)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await worker.stop(0.5)
    assert loop.time() - started < 3.0
    assert units.look(db,
                      queue.queue_stats)["sending"] == 1  # still held: the next start takes it over from a dead owner
