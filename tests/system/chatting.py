"""Talking to a running unit as a person does: a direct message to the bot through /webhook, and its answer as the
fake gateway was asked to send it."""

from __future__ import annotations

import aiohttp

from tests.fakes.gateway import FakeGateway
from tests.system.unit import Unit, chat_message


async def say(http: aiohttp.ClientSession, unit: Unit, gateway: FakeGateway, text: str, marker: str, *,
              sender: str, within: float) -> str:
    """Send ``text`` to the bot by direct message from ``sender``; the first new text the gateway was asked to send
    with ``marker`` in it (waited for at most ``within`` seconds)."""
    before = len(gateway.sent_texts())
    event = chat_message(text, sender=sender, message_id=f"M{abs(hash((text, before)))}")
    async with http.post(unit.url("/webhook"), json=event) as answer:
        assert answer.status == 200
    await gateway.wait_for(lambda gw: any(marker in t for t in gw.sent_texts()[before:]), within=within)
    return next(t for t in gateway.sent_texts()[before:] if marker in t)
