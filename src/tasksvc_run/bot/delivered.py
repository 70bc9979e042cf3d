from __future__ import annotations

import asyncio

from aiohttp import web

from taskcore.gateway.echo import text_digest
from taskcore.gateway.events import (
    DeliveryStatus,
    GatewayEvent,
    InboundMessage,
    InboundPhoto,
    InboundReaction,
    StatusUpdate,
)
from taskcore.services import delivery
from tasksvc_run import keys, units
from tasksvc_run.bot.sending import Sending
from tasksvc_run.bot.worker_config import delivery_rules

RECORD_WAIT, RECORD_POLL = 5.0, 0.1  # seconds an ERROR waits for its send's record (the answer may lag the update)
QUOTE_WAIT = 10.0  # seconds a reply or reaction waits for the record of the bot's send it quotes


def rules_of(app: web.Application) -> delivery.DeliveryRules:
    """The delivery rules of the bot's settings."""
    return delivery_rules(app[keys.SETTINGS])


async def delivered(app: web.Application, event: GatewayEvent) -> None:
    """Keep the statuses the gateway reports; note a person's direct message or reaction; let a reply to a send
    whose id is not recorded yet wait for it. A photo is the message it comes as (its caption, what it replies to)."""
    if isinstance(event, InboundPhoto):
        event = event.message
    await _quoted_recorded(app, event)
    if isinstance(event, DeliveryStatus):
        await _statuses(app, event.updates)
    elif isinstance(event, InboundMessage | InboundReaction) and event.group_id is None:
        db, now = app[keys.DB], app[keys.CLOCK].now()
        released = await asyncio.to_thread(units.run, db, delivery.heard_privately, phone=event.sender.phone,
                                           lid=event.sender.lid, now=now, jid=event.chat_id,
                                           max_attempts=app[keys.SETTINGS].rq_max_attempts)
        if released:
            _wake(app)


async def _statuses(app: web.Application, updates: tuple[StatusUpdate, ...]) -> None:
    db = app[keys.DB]
    for update in updates:
        if update.failed and update.direct:
            await _recorded(app, update.message_id)
    outcome = await asyncio.to_thread(units.run, db, delivery.record_statuses, updates, now=app[keys.CLOCK].now(),
                                      rules=rules_of(app))
    counter = app[keys.METRICS].outbound_delivery
    for status in outcome.statuses:
        counter.labels(status=status).inc()
    if outcome.notes:
        _wake(app)


async def _recorded(app: web.Application, message_id: str) -> None:
    """Wait (bounded) until the queue records the send the gateway answered with ``message_id``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + RECORD_WAIT
    while not await asyncio.to_thread(units.look, app[keys.DB], delivery.job_recorded, message_id):
        if loop.time() >= deadline:
            return
        await asyncio.sleep(RECORD_POLL)


def _wake(app: web.Application) -> None:
    outbound = app.get(keys.OUTBOUND)
    if outbound is not None:
        outbound.notify()


def _quoted_send(event: GatewayEvent) -> tuple[str, str | None, str | None] | None:
    """The id of the message a reply or reaction names when it may be one of the bot's (a reaction on a ``fromMe``
    message; a reply whose quoted author is the bot, a LID, or not given), with the quoted text's fingerprint when the
    reply carries it, and a reaction's chat (it carries no text: a send to that chat under way may be it); else
    None. A photo names what its message replies to."""
    if isinstance(event, InboundPhoto):
        event = event.message
    if isinstance(event, InboundReaction):
        return (event.reacted.message_id, None, event.chat_id) if event.reacted.from_me else None
    if not isinstance(event, InboundMessage) or not event.quoted_id:
        return None
    author = event.quoted_author
    if author and author.endswith(("@s.whatsapp.net", "@c.us")) and event.bot_id and \
            author.partition("@")[0].partition(":")[0] != event.bot_id:
        return None
    return event.quoted_id, text_digest(event.quoted_text) if event.quoted_text is not None else None, None


async def _quoted_recorded(app: web.Application, event: GatewayEvent) -> None:
    """SPEC section 31: a reply or reaction on a message this process is sending right now (the gateway answered and
    the id is not recorded yet, or a text like the quoted one is under way) waits for the record, up to QUOTE_WAIT s.
    A reply to an older message never waits."""
    quoted = _quoted_send(event)
    sending = getattr(app.get(keys.OUTBOUND), "sending", None)
    if quoted is None or not isinstance(sending, Sending):
        return
    for _ in range(round(QUOTE_WAIT / RECORD_POLL)):  # bounded: the record is written within ms of the answer
        if not sending.awaiting(*quoted):
            return
        await asyncio.sleep(RECORD_POLL)
