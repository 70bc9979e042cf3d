"""A household on either gateway (SPEC section 36): the real bot (webhook, outbound worker, watchdog, photo fetcher,
webhook keeper) on 127.0.0.1 over a real SQLite file, and ONE fake gateway (``gateway``: Evolution API's or WAHA's)
whose webhook the bot set at its start, signed with WEBHOOK_SECRET as that gateway signs.

Tests speak the port's words only: a person says a text in a group or in private (replying to the bot, mentioning
someone, as a LID-only person, with a photo), reacts, the bot joins a group; what the bot sent is read back from the
fake's calls (``BotSent``: chat, text, quote, mentions, emoji). The group's form of a person (phone or LID) is the
group's ``addressing``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web
from sqlalchemy import select

from taskcore.gateway.outbound import text_payload
from taskcore.services import queue
from taskcore.settings import load_settings
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import keys, units
from tasksvc_run.bot.app import drain, make_bot_app
from tasksvc_run.devgateway.acts import BotSent, Group, Member, Quoted, Reacted, Written
from tasksvc_run.devgateway.fake import FakeGateway
from tasksvc_run.devgateway.local import LocalGateway
from tasksvc_run.devgateway.local_waha import LocalWaha
from tasksvc_run.devgateway.waha_fake import FakeWaha
from tests.fakes.clock import MovingClock
from tests.integration.bot_harness import Failures
from tests.integration.watchdog_harness import free_port, serving

GATEWAYS = ("evolution", "waha")
SECRET = "household-webhook-secret"
TIMEOUT_MS = 1000  # GATEWAY_TIMEOUT_MS: a send answered later than this is in doubt
WITHIN = 10.0  # seconds any wait of the household takes at most
Fake = FakeGateway | FakeWaha


@dataclass(frozen=True)
class Person:
    """Someone of the household: their phone and LID digits (a LID-only person has no phone WhatsApp shows)."""

    name: str
    phone: str | None
    lid: str | None

    @property
    def user_id(self) -> str:
        """The id the bot keys them by: the phone, else the LID."""
        return self.phone or self.lid or ""

    @property
    def phone_jid(self) -> str | None:
        """Their phone JID, when WhatsApp shows it."""
        return f"{self.phone}@s.whatsapp.net" if self.phone else None

    def jid(self, addressing: str = "pn") -> str:
        """How a chat of that addressing names them (a LID-only person: by LID everywhere)."""
        if (addressing == "lid" or not self.phone) and self.lid:
            return f"{self.lid}@lid"
        return f"{self.phone}@s.whatsapp.net"

    def member(self, addressing: str, *, admin: bool = False) -> Member:
        """Them as a member of a group of that addressing."""
        return Member(self.jid(addressing), self.phone_jid, admin)


BOT = Person("Bot", "34600000999", "211000000000999")
ANA = Person("Ana", "34600111111", "198700000000001")
BEA = Person("Bea", "34600222222", "198700000000002")
CARLA = Person("Carla", None, "198700000000003")  # LID-only: nobody sees her number
CASA = Group("120363300000000010@g.us", "Casa", tuple(p.member("pn") for p in (BOT, ANA, BEA)), "pn")
PISO = Group("120363300000000020@g.us", "Piso", tuple(p.member("lid") for p in (BOT, ANA, CARLA)), "lid")


@dataclass
class Household:
    """The running bot and its fake gateway."""

    gateway: str
    fake: Fake
    app: web.Application
    db: Database
    clock: MovingClock
    failures: Failures

    async def says(self, who: Person, text: str, *, group: Group | None = CASA, replying_to: BotSent | None = None,
                   mentioning: tuple[Person, ...] = (), photo: bytes | None = None) -> Written:
        """``who`` writes ``text`` in ``group`` (None: in private); the bot has handled it when this returns."""
        addressing = group.addressing if group else "pn"
        sender = who.jid(addressing)
        quoted = None if replying_to is None else Quoted(str(replying_to.message_id), BOT.jid(addressing),
                                                         replying_to.text or "")
        written = Written(group.id if group else sender, sender, text, self.fake.new_id(), who.name, quoted,
                          tuple(p.jid(addressing) for p in mentioning), photo,
                          who.phone_jid if sender != who.phone_jid else None)
        assert await self.fake.write(written) == 200
        await self.settle()
        return written

    async def reacts(self, who: Person, emoji: str, to: BotSent, *, group: Group = CASA) -> None:
        """``who`` reacts with ``emoji`` to the bot's message ``to``."""
        target = Quoted(str(to.message_id), BOT.jid(group.addressing), to.text or "")
        reacted = Reacted(group.id, who.jid(group.addressing), emoji, target, self.fake.new_id(), who.name)
        assert await self.fake.react(reacted) == 200
        await self.settle()

    async def joins(self, group: Group) -> None:
        """The bot is added to ``group``."""
        assert await self.fake.join(group) == 200
        await self.settle()

    async def settle(self) -> None:
        """Wait (bounded) until every event the webhook took is handled, and check that none failed."""
        await drain(self.app, WITHIN)
        assert not self.failures.records, [r.getMessage() for r in self.failures.records]

    def sent(self, chat: str | None = None) -> list[BotSent]:
        """The texts the bot sent (to ``chat``), in order."""
        return [s for s in self.fake.bot_sent() if s.text is not None and chat in (None, s.chat)]

    def reactions(self) -> list[BotSent]:
        """The reactions the bot sent, in order."""
        return [s for s in self.fake.bot_sent() if s.emoji is not None]

    async def bot_says(self, needle: str, *, chat: str | None = None) -> BotSent:
        """The first text the bot sent (to ``chat``) that holds ``needle``, waited for (bounded)."""
        return await self._first(lambda s: s.text is not None and needle in s.text and chat in (None, s.chat))

    async def bot_reacts(self, emoji: str, *, on: str) -> BotSent:
        """The bot's reaction ``emoji`` on the message ``on``, waited for (bounded)."""
        return await self._first(lambda s: s.emoji == emoji and s.quoted == on)

    async def _first(self, wanted: Callable[[BotSent], bool]) -> BotSent:
        def found() -> BotSent | None:
            return next((s for s in self.fake.bot_sent() if wanted(s)), None)

        await self.fake.wait_for(lambda _fake: found() is not None, WITHIN)
        said = found()
        assert said is not None
        return said

    def queue(self, chat: str, text: str, *, label: str | None = None) -> int:
        """The bot starts a message itself (a digest, a nag) and wakes its worker; the job's id."""
        job = units.run(self.db, queue.enqueue_message, chat_id=chat, kind="text", label=label,
                        payload=text_payload(chat_id=chat, text=text), max_attempts=6, now=self.clock.now())
        assert job is not None
        self.app[keys.OUTBOUND].notify()
        return job

    def job_status(self, job_id: int) -> str:
        """The status of one queued job."""
        oq = schema.outbound_queue
        with self.db.read() as conn:
            return str(conn.execute(select(oq.c.status).where(oq.c.id == job_id)).scalar_one())

    def deliveries(self) -> dict[str, str]:
        """The last status of each message the bot sent, by its id (``message_deliveries``)."""
        md = schema.message_deliveries
        with self.db.read() as conn:
            return {row.message_id: row.status for row in conn.execute(select(md.c.message_id, md.c.status))}

    def metric(self, name: str, **labels: str) -> float:
        """A sample of the bot's registry (0 when it has none)."""
        return float(self.app[keys.METRICS].registry.get_sample_value(name, labels) or 0)

    async def until(self, predicate: Callable[[], bool]) -> None:
        """Poll ``predicate`` in a thread (it may read the database) until it holds, bounded."""
        async with asyncio.timeout(WITHIN):
            while True:  # the worker and the webhook write in their own threads: polled, bounded
                if await asyncio.to_thread(predicate):
                    return
                await asyncio.sleep(0.02)


def _fake(gateway: str, simulator: Database | None) -> Fake:
    """The fake of ``gateway``; with ``simulator``, the local one of ``tasksvc dev`` over that database."""
    if gateway == "waha":
        return LocalWaha(owner_jid=BOT.jid("pn"), owner_lid=BOT.jid("lid"), db=simulator) if simulator else FakeWaha(
            owner_jid=BOT.jid("pn"), owner_lid=BOT.jid("lid"))
    return LocalGateway(owner_jid=BOT.jid("pn"), db=simulator) if simulator else FakeGateway(owner_jid=BOT.jid("pn"))


def _listening(fake: Fake) -> bool:
    """Whether the bot set its webhook (WAHA: in the session's configuration, the session restarted)."""
    if isinstance(fake, FakeWaha):
        return bool(fake.hooks()) and fake.state == "WORKING"
    return fake.webhook_row is not None


@asynccontextmanager
async def household(db: Database, gateway: str, data_dir: Path, *, groups: tuple[Group, ...] = (CASA, PISO),
                    simulator: bool = False, **env: str) -> AsyncIterator[Household]:
    """The bot over the fake of ``gateway``, its webhook set, already in ``groups`` (its admin Ana); with
    ``simulator``, over the local gateway of ``tasksvc dev`` (the database's groups, the chat simulator)."""
    port = free_port()
    async with _fake(gateway, db if simulator else None) as fake:
        settings = load_settings({
            "NODE_ENV": "test", "GATEWAY_KIND": gateway, "GATEWAY_API_URL": fake.url,
            "GATEWAY_API_INSTANCE": fake.instance, "GATEWAY_API_KEY": fake.api_key,
            "WEBHOOK_URL": f"http://127.0.0.1:{port}/webhook", "WEBHOOK_SECRET": SECRET, "METRICS_ENABLED": "true",
            "REACTIONS_ENABLED": "true", "RATE_LIMIT_PER_MIN": "1000", "GATEWAY_MAX_SENDS_PER_MIN": "60000",
            "GATEWAY_TIMEOUT_MS": str(TIMEOUT_MS), "RQ_BACKOFF_BASE_MS": "10", "RQ_BACKOFF_MAX_MS": "50",
            "ADMIN_USERS": str(ANA.phone), "DATA_DIR": str(data_dir), "WEB_BASE_URL": "https://tareas.example",
            **env})
        failures = Failures()
        processor_log = logging.getLogger("tasksvc_run.bot.processor")
        processor_log.addHandler(failures)
        clock = MovingClock()
        app = make_bot_app(settings, db=db, clock=clock)
        try:
            async with serving(app, port, fake):
                await fake.wait_for(_listening, WITHIN)
                house = Household(gateway, fake, app, db, clock, failures)
                for group in groups:
                    await house.joins(group)
                yield house
        finally:
            processor_log.removeHandler(failures)

