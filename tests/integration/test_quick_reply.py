"""A reply to what was just sent (SPEC section 31): a reply quoting the bot's message that arrives before the bot
recorded that send's id is handled once the record exists, not ignored."""

from __future__ import annotations

import time
from typing import Any

import aiohttp
import pytest

from taskcore.services import queue
from taskcore.storage.db import Database
from tasksvc_run import keys
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import task_rows
from tests.integration.watchdog_harness import WatchedBot, watched_bot

ANA, BEA = "34600111111", "34600222222"


async def post(bot: WatchedBot, payload: dict[str, object]) -> int:
    url = bot.app[keys.SETTINGS].webhook_url
    assert url is not None
    async with aiohttp.ClientSession() as session, session.post(url, json=payload) as answer:
        return answer.status


async def test_a_reply_sent_at_once_completes_the_task(sqlite_db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    make_group(sqlite_db, GROUP, name="Casa", members=(ANA, BEA))
    recorded = queue.mark_sent

    def slow_record(db: Database, **values: Any) -> bool:  # the send's id is written a second after its answer
        time.sleep(1.0)
        return recorded(db, **values)

    monkeypatch.setattr(queue, "mark_sent", slow_record)
    async with watched_bot(sqlite_db) as bot:
        assert await post(bot, wa_text("/t nueva pan", sender=ANA, message_id="NEW1")) == 200
        await bot.gateway.wait_for(lambda gw: any("Tarea #1 creada" in text for text in gw.sent_texts()))
        created = next(call for call in bot.gateway.calls_to("sendText") if "Tarea #1 creada" in call.body["text"])
        reply = wa_text("hecho", sender=BEA, push_name="Bea", message_id="R1", quoted=created.answer["key"]["id"])
        assert await post(bot, reply) == 200
        await bot.until(lambda: bool(task_rows(sqlite_db)[0].completed), within=10.0)
        assert task_rows(sqlite_db)[0].completed_by == BEA
        await bot.gateway.wait_for(lambda gw: any("Tarea #1 completada" in text for text in gw.sent_texts()),
                                   within=10.0)
