"""The bot's watchdog of the gateway (SPEC section 26): echoes, probes, the connection, and telling the admins.

The webhook hands it every ``send.message`` echo (``echo``), every other event (``inbound``) and ``connection.update``
(``connection``); the outbound worker every accepted send (``accepted``). ``tick`` judges (``taskcore.watchdog``) and
acts: probes go straight to the gateway, to the bot's own number, and never through the queue or the chat logic.
Echoes are recorded in the database, so a unit judges its sends by the echoes any unit received (several bots
behind one balancer). Without WEBHOOK_URL it only counts echoes and follows the connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Protocol

from taskcore.gateway.errors import GatewayError
from taskcore.gateway.events import SentMessage
from taskcore.gateway.outbound import OutboundText, chat_jid
from taskcore.gateway.port import Gateway
from taskcore.services import Database, alerts, echoes
from taskcore.services.queue import due_count
from taskcore.settings import Settings
from taskcore.watchdog import Act, ConnectionWatch, EchoWatch, Health, WatchTimes, tell_admins
from tasksvc_run import units
from tasksvc_run.bot.webhook_keeper import set_webhook, shown_url
from tasksvc_run.clock import Clock
from tasksvc_run.metrics import Metrics
from tasksvc_run.outage import FatalStop, Outage

log = logging.getLogger(__name__)
TICK_SECONDS = 5.0  # how often the watchdog judges
RECHECK_WHILE_DOWN = timedelta(seconds=30)  # how often the gateway is asked for its state while it seems down
ECHO_RETENTION = timedelta(days=1)
OWN_WAIT, OWN_POLL = 2.0, 0.1  # seconds a fromMe upsert waits for its send's record, and between looks


class Pausable(Protocol):
    """What the watchdog needs of the outbound worker."""

    def pause(self) -> None:
        """Stop claiming jobs."""

    def resume(self) -> None:
        """Claim again."""

    def notify(self) -> None:
        """Claim now."""


class Watchdog:
    """Echo watchdog and connection follower of one bot process."""

    def __init__(self, db: Database, client: Gateway, *, settings: Settings, metrics: Metrics,
                 clock: Clock, fatal: FatalStop | None = None) -> None:
        self.db, self.client, self.settings, self.metrics, self.clock = db, client, settings, metrics, clock
        self.outage = Outage("watchdog", fatal or FatalStop())  # a database that fails is said once, not each tick
        times = WatchTimes(echo_within=timedelta(seconds=settings.watchdog_echo_seconds),
                           idle_after=timedelta(minutes=settings.watchdog_idle_minutes),
                           reprobe_every=timedelta(milliseconds=settings.webhook_check_interval_ms))
        self.watch = EchoWatch(times, started=clock.now())
        self.link = ConnectionWatch()
        self.worker: Pausable | None = None
        self.manages = bool(settings.webhook_url)
        self._owner: str | None = None
        self._down_at: datetime | None = None
        self._asked = clock.now()  # the last time the gateway was asked for its state
        self._probes: deque[str] = deque(maxlen=64)  # the ids of the last probes (their fromMe upserts are echoes)

    def accepted(self, message_id: str | None) -> None:
        """The gateway accepted a send (its echo should follow)."""
        if message_id and self.manages:
            self.watch.accepted(message_id, self.clock.now())

    async def own_upsert(self, sent: SentMessage, *, within: float = OWN_WAIT) -> bool:
        """A ``messages.upsert`` with ``fromMe`` (SPEC section 31): the echo of a message the bot sent (a send or a
        probe; its record may lag its answer by a moment, so it is waited for up to ``within`` s), else typed on the
        bot's phone and ignored. Whether it was an echo."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            if await self._sent_by_me(sent.message_id):
                await self.echo(sent)
                return True
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(OWN_POLL)

    async def _sent_by_me(self, message_id: str) -> bool:
        if message_id in self.watch.pending or message_id in self._probes:
            return True
        try:
            named = await asyncio.to_thread(units.look, self.db, echoes.named_by_jobs, [message_id])
            return bool(named) or bool(await asyncio.to_thread(units.look, self.db, echoes.echoed_among, [message_id]))
        except Exception:  # unreadable now: not known
            return False

    def inbound(self) -> None:
        """An event other than an echo reached the webhook."""
        self.watch.inbound(self.clock.now())

    async def echo(self, sent: SentMessage) -> None:
        """An echo arrived: counted once by its key id, recorded for every unit, and it ends any doubt about
        delivery."""
        now = self.clock.now()
        try:
            new = await asyncio.to_thread(units.run, self.db, echoes.record_echo, sent, now=now)
        except Exception as exc:  # the watchdog of this unit still learns it; in-doubt sends fall back to the gateway
            log.warning("echo not recorded", extra={"error": type(exc).__name__})
            new = True
        if new:
            self.metrics.webhook_echoes.inc()
        if self.watch.echoed({sent.message_id}, now) is Act.RECOVERED:
            await self._recovered()

    async def connection(self, state: str | None) -> None:
        """connection.update: close pauses the worker, open resumes it (and tells the admins of a long outage)."""
        now = self.clock.now()
        lasted = self.link.changed(state, now)
        self.metrics.gateway_connected.set(1 if self.link.connected else 0)
        if not self.link.connected:
            log.warning("gateway disconnected: sending paused", extra={"state": state})
            if self.worker is not None:
                self.worker.pause()
            return
        if lasted is None:
            return
        late = await asyncio.to_thread(units.look, self.db, due_count, now=now)  # counted before the worker sends them
        if self.worker is not None:
            self.worker.resume()
        log.info("gateway connected again: sending resumed", extra={"seconds": int(lasted.total_seconds()),
                                                                     "late": late})
        if tell_admins(lasted):
            await self._tell(partial(alerts.connection_back, lasted, late),
                             key=f"watchdog:connection:{now.isoformat()}")

    async def start(self) -> None:
        """Read the connection state once: a gateway already closed pauses sending at once, one open again while the
        bot thought it closed resumes it."""
        try:
            state = await self.client.connection_state()
        except GatewayError:
            return
        if state == "close" or (state == "open" and not self.link.connected):
            await self.connection(state)

    async def tick(self) -> Act:
        """Judge once and act; the action taken. While disconnected, the gateway is asked for its state every
        RECHECK_WHILE_DOWN: an event that reopened the connection may have been lost, or come before the one that
        closed it (WAHA orders none of its webhook calls), and nothing else would resume sending."""
        now = self.clock.now()
        if not self.link.connected and now - self._asked >= RECHECK_WHILE_DOWN:
            self._asked = now
            await self.start()
        overdue = self.watch.overdue(now)
        seen = await asyncio.to_thread(units.look, self.db, echoes.echoed_among, overdue) if overdue else set()
        if seen and self.watch.echoed(seen, now) is Act.RECOVERED:
            await self._recovered()
        act = self.watch.tick(now, connected=self.link.connected, late=bool(set(overdue) - seen))
        if act is Act.PROBE and await self.probe() is None:
            self.watch.health = Health.OK  # no probe can go out (own number unknown): nothing to judge by
            self.watch.inbound(now)
        elif act is Act.REPAIR:
            await self._repair()
            await self.probe()
        elif act is Act.ALERT:
            await self._down()
        return act

    async def probe(self) -> str | None:
        """Send one probe to the bot's own number; its message id (None when it could not be sent)."""
        owner = await self._owner_jid()
        if owner is None:
            return None
        try:
            sent = await self.client.send_text(OutboundText(owner, alerts.PROBE_TEXT))
        except GatewayError as exc:
            log.warning("watchdog probe not sent", extra={"status": exc.status, "error": exc.message_text})
            return None
        if sent:
            self._probes.append(sent)
        return sent

    async def run(self, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        """``tick`` every TICK_SECONDS until cancelled (only when the bot manages the webhook)."""
        while True:
            await sleep(TICK_SECONDS)
            try:
                await self.tick()
                await asyncio.to_thread(units.run, self.db, echoes.forget_echoes,
                                        before=self.clock.now() - ECHO_RETENTION)
            except Exception as exc:
                self.outage.failed(exc, what="watchdog tick failed")
            else:
                self.outage.succeeded()

    async def _repair(self) -> None:
        """Set the webhook again, even when it reads the same (a stale registration looks identical): a repair,
        counted by webhook_repairs_total, one line (SPEC sections 26 and 40)."""
        if await set_webhook(self.client, self.settings):
            self.metrics.webhook_repairs.inc()
            log.warning("webhook configuration set again: sends are accepted but their echoes do not arrive",
                        extra={"url": shown_url(self.settings.webhook_url or "")})

    async def _owner_jid(self) -> str | None:
        if self._owner is None:
            try:
                phone = (await self.client.own_ids()).phone
                self._owner = chat_jid(phone) if phone else None
            except GatewayError as exc:
                log.warning("the bot's own number is unknown", extra={"status": exc.status})
        return self._owner

    async def _down(self) -> None:
        self.metrics.webhook_delivery_ok.set(0)
        log.error("webhook delivery is broken: the gateway accepts sends but their echoes do not arrive",
                  extra={"repaired": True})
        since = self.watch.down_since or self.clock.now()
        await self._tell(alerts.delivery_down, key=f"watchdog:down:{since.isoformat()}")
        self._down_at = since

    async def _recovered(self) -> None:
        self.metrics.webhook_delivery_ok.set(1)
        lasted = self.clock.now() - self._down_at if self._down_at else timedelta(0)
        self._down_at = None
        log.warning("webhook delivery works again", extra={"seconds": int(lasted.total_seconds())})
        await self._tell(partial(alerts.delivery_back, lasted), key=f"watchdog:back:{self.clock.now().isoformat()}")

    async def _tell(self, text: Callable[[], str], *, key: str) -> None:
        try:
            await asyncio.to_thread(units.run, self.db, alerts.notify_admins, self.settings.admin_users, text, key=key,
                                    max_attempts=self.settings.rq_max_attempts, now=self.clock.now(),
                                    default_language=self.settings.default_language)
        except Exception:
            log.exception("admins not told", extra={"key": key})
            return
        if self.worker is not None:
            self.worker.notify()
