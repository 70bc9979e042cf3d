"""What the webhook tells the watchdog (SPEC sections 26 and 31): echoes in either form (``send.message``, or a
``messages.upsert`` with ``fromMe`` naming a message the bot sent), every other event, connection changes."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from taskcore.gateway.echo import parse_echo, sent_message
from taskcore.gateway.inbound import ConnectionChanged, Ignored, InboundEvent
from tasksvc_run import keys


async def watched(app: web.Application, event: InboundEvent, payload: dict[str, Any], path_event: str | None) -> None:
    """Hand the watchdog (when the bot has one) an echo, or else the sign of life any other authenticated event is;
    ``connection.update`` also pauses or resumes sending."""
    watchdog = app.get(keys.WATCHDOG)
    if watchdog is None:
        return
    if isinstance(event, Ignored) and event.reason == "echo":
        sent = parse_echo(payload, path_event=path_event)
        if sent is not None:
            await watchdog.echo(sent)
        return
    watchdog.inbound()
    if isinstance(event, Ignored) and event.reason == "fromMe":
        sent = sent_message(payload.get("data"))
        if sent is not None:
            await watchdog.own_upsert(sent)
        return
    if isinstance(event, ConnectionChanged):
        await watchdog.connection(event.state)
