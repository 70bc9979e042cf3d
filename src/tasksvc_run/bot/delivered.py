"""What the webhook hands the delivery use cases (SPEC section 31): the status updates of the bot's messages
(``messages.update``), and every direct message or reaction a person sends the bot (they can be reached in private;
what was held for them goes out). A failure propagates: the webhook answers 503 and the gateway delivers again."""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from taskcore.gateway.echo import text_digest
from taskcore.gateway.inbound import InboundEvent, InboundMessage, InboundReaction
from taskcore.gateway.status import MESSAGES_UPDATE, StatusUpdate, parse_status
from taskcore.services import delivery
from tasksvc_run import keys, units
from tasksvc_run.bot.sending import Sending

RECORD_WAIT, RECORD_POLL = 5.0, 0.1  # seconds an ERROR waits for its send's record (the answer may lag the update)
QUOTE_WAIT = 10.0  # seconds a reply or reaction waits for the record of the bot's send it quotes


def rules_of(app: web.Application) -> delivery.DeliveryRules:
    """The delivery rules of the bot's settings."""
    settings = app[keys.SETTINGS]
    return delivery.DeliveryRules(max_attempts=settings.rq_max_attempts, default_language=settings.default_language,
                                  gating_off=settings.group_gating_mode == "off",
                                  pause_hours=settings.gateway_reachout_pause_hours)


async def delivered(app: web.Application, name: str, event: InboundEvent, payload: dict[str, Any],
                    path_event: str | None) -> None:
    """Keep the statuses a ``messages.update`` reports; note a person's direct message or reaction; let a reply to
    a send whose id is not recorded yet wait for it."""
    instance = app[keys.SETTINGS].gateway_api_instance
    if instance and payload.get("instance") not in (None, instance):
        return  # another instance sharing the webhook: none of its statuses or contacts are this bot's
    await _quoted_recorded(app, event, payload)
    if name == MESSAGES_UPDATE:
        updates = parse_status(payload, path_event=path_event)
        if updates:
            await _statuses(app, updates)
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


def _quoted_send(event: InboundEvent, payload: dict[str, Any]) -> tuple[str, str | None] | None:
    """The id of the message a reply or reaction names when it may be one of the bot's (a reaction on a ``fromMe``
    message; a reply whose quoted author is the bot, a LID, or not given), with the quoted text's fingerprint when the
    reply carries it; else None."""
    if isinstance(event, InboundReaction):
        return (event.reacted.message_id, None) if event.reacted.from_me else None
    if not isinstance(event, InboundMessage) or not event.quoted_id:
        return None
    data = payload.get("data")
    context = data.get("contextInfo") if isinstance(data, dict) else None
    context = context if isinstance(context, dict) else {}
    author = context.get("participant")
    if isinstance(author, str) and author.endswith("@s.whatsapp.net") and event.bot_id and \
            author.partition("@")[0].partition(":")[0] != event.bot_id:
        return None
    quoted = context.get("quotedMessage")
    text = quoted.get("conversation") if isinstance(quoted, dict) else None
    return event.quoted_id, text_digest(text) if isinstance(text, str) else None


async def _quoted_recorded(app: web.Application, event: InboundEvent, payload: dict[str, Any]) -> None:
    """SPEC section 31: a reply or reaction on a message this process is sending right now (the gateway answered and
    the id is not recorded yet, or a text like the quoted one is under way) waits for the record, up to QUOTE_WAIT s.
    A reply to an older message never waits."""
    quoted = _quoted_send(event, payload)
    sending = getattr(app.get(keys.OUTBOUND), "sending", None)
    if quoted is None or not isinstance(sending, Sending):
        return
    for _ in range(round(QUOTE_WAIT / RECORD_POLL)):  # bounded: the record is written within ms of the answer
        if not sending.awaiting(*quoted):
            return
        await asyncio.sleep(RECORD_POLL)
