"""Odd input at the real webhook (SPEC section 28): text UTF-8 cannot encode gets its normal answer, and a big
well-formed event up to the proxy's 10 MiB is acknowledged; past it, 413 as problem details."""

from __future__ import annotations

import io
import json

from sqlalchemy import select

from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.services.conversation.road import chat_key
from taskcore.services.inbox import NewEvent, inbox_stats
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, wa_text
from tests.chat_support import store_events, task_rows, texts
from tests.integration.bot_harness import running_bot
from tests.integration.proxy_helpers import ProxyClient, proxy_at

CUT_EMOJI = "\ud83d"  # the first half of 😀 (U+1F600), alone
MAX_BODY = 10 * 1024 * 1024


def display_name(db: Database, user_id: str) -> str | None:
    with db.read() as conn:
        name: str | None = conn.execute(select(schema.users.c.display_name)
                                        .where(schema.users.c.id == user_id)).scalar_one()
    return name


async def test_a_cut_emoji_in_the_name_and_in_the_command_gets_the_normal_answer(sqlite_db: Database) -> None:
    event = wa_text(f"/t nueva pan {CUT_EMOJI}", push_name=f"Ana {CUT_EMOJI}")
    async with running_bot(sqlite_db) as bot:
        response = await bot.client.post("/webhook", data=json.dumps(event),  # "\ud83d" escaped, as on the wire
                                         headers={"Content-Type": "application/json"})
        assert (response.status, await response.json()) == (200, {"status": "accepted"})
        await bot.settle()
    assert [t.description for t in task_rows(sqlite_db)] == ["pan \ufffd"]
    assert texts(sqlite_db) == ["@34600111111 Tarea #1 creada: pan \ufffd. Sin asignar"]
    assert display_name(sqlite_db, "34600111111") == "Ana \ufffd"
    assert units.look(sqlite_db, inbox_stats) == {"pending": 0, "failed": 0}


async def test_a_surrogate_encoded_raw_in_the_body_is_repaired_in_the_stored_event_too(sqlite_db: Database) -> None:
    event = json.dumps(wa_text("/t nueva leche", push_name="Ana X"), ensure_ascii=False)
    body = event.replace("Ana X", f"Ana {CUT_EMOJI}").encode("utf-8", "surrogatepass")  # not valid UTF-8
    async with running_bot(sqlite_db) as bot:
        response = await bot.client.post("/webhook", data=body, headers={"Content-Type": "application/json"})
        assert response.status == 200
        await bot.settle()
    assert len(texts(sqlite_db)) == 1
    assert display_name(sqlite_db, "34600111111") == "Ana \ufffd"
    assert units.look(sqlite_db, inbox_stats) == {"pending": 0, "failed": 0}


async def test_a_stored_event_holding_an_escaped_surrogate_is_handled_when_read_back(sqlite_db: Database) -> None:
    payload = wa_text(f"/t nueva fruta {CUT_EMOJI}", push_name=CUT_EMOJI, message_id="LEFT1")
    store_events(sqlite_db, [NewEvent(chat_key(parse_event(payload)), "messages.upsert", None,
                                      json.dumps(payload))], now=NOW)
    async with running_bot(sqlite_db) as bot:
        await bot.settle()
        await bot.settle()
    assert [t.description for t in task_rows(sqlite_db)] == ["fruta \ufffd"]
    assert units.look(sqlite_db, inbox_stats) == {"pending": 0, "failed": 0}


def padded(size: int) -> bytes:
    """A well-formed command event of exactly ``size`` bytes (an extra key the bot ignores makes up the size)."""
    event = wa_text("/t nueva pan")
    bare = len(json.dumps({**event, "padding": ""}).encode())
    return json.dumps({**event, "padding": "x" * (size - bare)}).encode()


async def test_a_2_mib_event_is_acknowledged_through_the_proxy_and_handled(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        bot_url = str(bot.client.make_url("")).rstrip("/")
        async with proxy_at(bot_url, bot_url) as proxy:
            client = ProxyClient(proxy.port)  # type: ignore[attr-defined]
            try:
                response = await client.post("/webhook", data=io.BytesIO(padded(2 * 1024 * 1024)),
                                             headers={"Content-Type": "application/json"})
                assert (response.status, await response.json()) == (200, {"status": "accepted"})
            finally:
                await client.close()
        await bot.settle()
    assert [t.description for t in task_rows(sqlite_db)] == ["pan"]


async def test_the_bot_takes_an_event_of_exactly_10_mib_and_refuses_one_byte_more_as_problem_details(
        sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        response = await bot.client.post("/webhook", data=io.BytesIO(padded(MAX_BODY)),
                                         headers={"Content-Type": "application/json"})
        assert response.status == 200
        over = await bot.client.post("/webhook", data=io.BytesIO(padded(MAX_BODY + 1)),
                                     headers={"Content-Type": "application/json"})
        problem = await over.json(content_type="application/problem+json")
        assert (over.status, problem["status"]) == (413, 413)
        assert "10 MiB" in problem["detail"]
        await bot.settle()
