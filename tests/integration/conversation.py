"""A real bot app, its outbound worker and the fake gateway: what the bot sends gets the gateway's message ids, so
a test can reply to the bot's messages and react to them (SPEC sections 18 and 19)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta

import aiohttp
from sqlalchemy import select

from taskcore.storage.db import Database
from taskcore.storage.schema import outbound_queue as oq
from tasksvc_run.bot.worker import QueueWorker
from tasksvc_run.bot.worker_config import WorkerConfig
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics
from tests.chat_support import Queued
from tests.fakes.gateway import FakeGateway
from tests.integration.bot_harness import Bot, running_bot

FAST = WorkerConfig(concurrency=4, poll_interval=0.02, lease=timedelta(seconds=10), backoff_base_ms=10,
                    backoff_max_ms=40)
SENT_WITHIN = 10.0


@dataclass
class Conversation:
    """Send webhook events; every job they queue is delivered to the fake gateway before ``send`` returns."""

    bot: Bot
    gateway: FakeGateway
    worker: QueueWorker

    async def send(self, payload: object) -> list[Queued]:
        """POST the event, wait for its handling and for the gateway to accept everything it queued."""
        jobs = await self.bot.send(payload)
        await self.delivered([job.id for job in jobs])
        return jobs

    async def delivered(self, job_ids: list[int]) -> None:
        """Wait (bounded) until each job is recorded as sent."""
        self.worker.notify()
        async with asyncio.timeout(SENT_WITHIN):
            while True:  # the worker records outcomes in its own thread: polled, bounded by the timeout
                if self._all_sent(job_ids):
                    return
                await asyncio.sleep(0.01)

    def _all_sent(self, job_ids: list[int]) -> bool:
        with self.bot.db.read() as conn:
            statuses = conn.execute(select(oq.c.status).where(oq.c.id.in_(job_ids))).scalars().all()
        return all(status == "sent" for status in statuses)

    def message_id(self, job: Queued) -> str:
        """The id the gateway gave the job's message."""
        with self.bot.db.read() as conn:
            found = conn.execute(select(oq.c.gateway_message_id).where(oq.c.id == job.id)).scalar_one()
        assert isinstance(found, str), job
        return found


@asynccontextmanager
async def conversation(db: Database, env: Mapping[str, str] | None = None) -> AsyncIterator[Conversation]:
    """The bot (reactions on, a generous rate limit unless ``env`` says otherwise), its worker and the gateway."""
    settings = {"REACTIONS_ENABLED": "true", "RATE_LIMIT_PER_MIN": "1000", **(env or {})}
    async with FakeGateway() as gateway, running_bot(db, settings) as bot, aiohttp.ClientSession() as session:
        client = EvolutionGateway(session, base_url=gateway.url, instance="taskbot", api_key=gateway.api_key,
                               timeout_ms=2000)
        worker = QueueWorker(bot.db, client, clock=bot.clock, metrics=Metrics(), config=FAST)
        worker.start()
        try:
            yield Conversation(bot, gateway, worker)
        finally:
            await worker.stop()
