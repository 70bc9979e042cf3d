"""WAHA's webhook at the bot (SPEC section 36): a call is checked by its HMAC-SHA512 signature, and a retried
delivery (the same event id, else the same request id) is one event."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select

from taskcore.gateway.waha.webhook import HMAC_HEADER, REQUEST_ID_HEADER, signature
from taskcore.storage import schema
from taskcore.storage.db import Database
from tests.builders import make_group
from tests.fakes.waha import sample
from tests.integration.bot_harness import running_bot

SECRET = "waha-hook-secret"
ENV = {"GATEWAY_KIND": "waha", "WEBHOOK_SECRET": SECRET, "GATEWAY_API_INSTANCE": "taskbot"}


def inbox_rows(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(schema.inbox)).scalar_one())


def signed(payload: dict[str, Any], request_id: str = "req-1") -> tuple[bytes, dict[str, str]]:
    body = json.dumps(payload).encode()
    return body, {HMAC_HEADER: signature(body, SECRET), REQUEST_ID_HEADER: request_id,
                  "Content-Type": "application/json"}


async def test_a_retried_delivery_is_one_event_and_an_unsigned_one_is_refused(sqlite_db: Database) -> None:
    message = sample("inbound_message_group_text_lid_mention")
    make_group(sqlite_db, message["payload"]["from"].replace("@c.us", "@g.us"))
    async with running_bot(sqlite_db, ENV) as bot:
        body, headers = signed(message)
        first = await bot.client.post("/webhook", data=body, headers=headers)
        again = await bot.client.post("/webhook", data=body, headers=headers)
        forged = await bot.client.post("/webhook", data=body, headers={**headers, HMAC_HEADER: "0" * 128})
        await bot.settle()
        assert (first.status, again.status, forged.status) == (200, 200, 401)
        assert (await again.json())["reason"] == "retry"
        assert inbox_rows(sqlite_db) == 1


async def test_without_an_event_id_the_request_id_names_the_delivery(sqlite_db: Database) -> None:
    message = {key: value for key, value in sample("inbound_message_group_text_lid_mention").items() if key != "id"}
    async with running_bot(sqlite_db, ENV) as bot:
        body, headers = signed(message, request_id="req-7")
        answers = [await bot.client.post("/webhook", data=body, headers=headers) for _ in range(2)]
        other = await bot.client.post("/webhook", data=body, headers={**headers, REQUEST_ID_HEADER: "req-8"})
        await bot.settle()
        assert [(await a.json()).get("reason") for a in answers] == [None, "retry"]
        assert other.status == 200
        assert (await other.json()).get("reason") != "retry"  # another delivery (the inbox knows the message by id)
