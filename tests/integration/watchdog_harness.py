"""A real bot (webhook, worker, watchdog) on 127.0.0.1 whose webhook the fake gateway calls, on a frozen clock."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Protocol

from aiohttp import web
from sqlalchemy import select

from taskcore.gateway.outbound import text_payload
from taskcore.services import queue
from taskcore.settings import load_settings
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import keys, units
from tasksvc_run.bot.app import make_bot_app
from tasksvc_run.bot.background import install_background
from tasksvc_run.bot.watchdog import Watchdog
from tests.builders import NOW
from tests.fakes.clock import FrozenClock
from tests.fakes.gateway import FakeGateway

ADMIN = "34600000001"
ADMIN_CHAT = f"{ADMIN}@s.whatsapp.net"
USER = "34600000002"


def free_port() -> int:
    """A port nobody listens on right now (the bot's WEBHOOK_URL must be known before it starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class WatchedBot:
    """The bot app, its watchdog, database and clock, and the gateway it talks to."""

    app: web.Application
    db: Database
    clock: FrozenClock
    gateway: FakeGateway

    @property
    def watchdog(self) -> Watchdog:
        """The bot's watchdog."""
        return self.app[keys.WATCHDOG]

    def gauge(self, name: str) -> float | None:
        """A gauge's value from the bot's registry."""
        value = self.app[keys.METRICS].registry.get_sample_value(name)
        return None if value is None else float(value)

    def gauge_labels(self, name: str, **labels: str) -> float | None:
        """A labelled sample's value from the bot's registry."""
        value = self.app[keys.METRICS].registry.get_sample_value(name, labels)
        return None if value is None else float(value)

    def put(self, text: str, chat: str = USER) -> int:
        """Queue one text to ``chat``; its id."""
        job = units.run(self.db, queue.enqueue_message, chat_id=chat, kind="text",
                        payload=text_payload(chat_id=chat, text=text),
                        max_attempts=6, now=self.clock.now())
        assert job is not None
        self.app[keys.OUTBOUND].notify()
        return job

    def texts_to(self, chat: str) -> list[str]:
        """Texts queued to ``chat`` (any status), in order."""
        oq = schema.outbound_queue
        with self.db.read() as conn:
            rows = conn.execute(select(oq.c.payload).where(oq.c.chat_id == chat).order_by(oq.c.id)).scalars()
            return [json.loads(p).get("text", "") for p in rows]

    def job(self, job_id: int) -> tuple[str, int]:
        """(status, attempts) of one job."""
        oq = schema.outbound_queue
        with self.db.read() as conn:
            row = conn.execute(select(oq.c.status, oq.c.attempts).where(oq.c.id == job_id)).one()
        return str(row.status), int(row.attempts)

    async def until(self, predicate: Callable[[], bool], within: float = 5.0) -> None:
        """Poll ``predicate`` in a thread (it may read the database) until it holds, bounded by ``within``."""
        async with asyncio.timeout(within):
            while True:
                if await asyncio.to_thread(predicate):
                    return
                await asyncio.sleep(0.02)

    def echoes(self) -> int:
        """Rows of gateway_echoes."""
        with self.db.read() as conn:
            return len(conn.execute(select(schema.gateway_echoes.c.message_id)).all())


@asynccontextmanager
async def watched_bot(db: Database, **env: str) -> AsyncIterator[WatchedBot]:
    """The bot with WEBHOOK_URL pointing at itself, registered with a fresh fake gateway."""
    port = free_port()
    async with FakeGateway() as gateway:
        settings = load_settings({
            "NODE_ENV": "test", "METRICS_ENABLED": "true", "GATEWAY_API_URL": gateway.url,
            "GATEWAY_API_INSTANCE": "taskbot", "GATEWAY_API_KEY": "test-api-key", "GATEWAY_MAX_SENDS_PER_MIN": "60000",
            "WEBHOOK_URL": f"http://127.0.0.1:{port}/webhook", "ADMIN_USERS": ADMIN, **env})
        clock = FrozenClock(NOW)
        app = make_bot_app(settings, db=db, clock=clock)
        async with serving(app, port, gateway):
            await gateway.wait_for(lambda gw: gw.webhook is not None)
            yield WatchedBot(app, db, clock, gateway)


class Posting(Protocol):
    """A fake's webhook posts: switched off and waited for while the bot stops."""

    delivering: bool

    async def settle(self, within: float = 5.0) -> None:
        """Wait (bounded) until the posts under way are answered."""


class PostingFake(Protocol):
    """A fake gateway, as far as stopping the bot in front of it goes."""

    @property
    def deliveries(self) -> Posting:
        """Its webhook posts."""


@asynccontextmanager
async def serving(app: web.Application, port: int, fake: PostingFake) -> AsyncIterator[None]:
    """The bot app, with its background work, on 127.0.0.1:``port`` in front of ``fake``; stopped afterwards."""
    install_background(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield
    finally:
        fake.deliveries.delivering = False  # no new echo or status starts while the bot stops (its worker
        await fake.deliveries.settle()      # still sends until cleanup): what is under way is answered
        await runner.cleanup()
