"""The bot is never a member (SPEC section 38): it asks the gateway for its own ids before its first member sync, so
it is in no members list, summary, rotation or assignment, and its public id is not assignable, even when that sync
runs before any event told it who it is. Webhook and scheduler in, sends and API out."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from taskcore.storage.db import Database
from tasksvc_run import keys
from tests.builders import BOT_PHONE, make_group, wa_text
from tests.chat_support import texts
from tests.fakes.gateway import FakeGateway
from tests.integration.bot_harness import running_bot
from tests.integration.web_helpers import web_env

OPS = "120363300000000010@g.us"  # the sample group: Alice (an admin), the bot and Carol, each by LID
ALICE, CAROL, BOT_LID = "15550100001", "15550100003", "211000000000001"


@pytest.fixture
async def gateway() -> AsyncIterator[FakeGateway]:
    async with FakeGateway(owner_jid=f"{BOT_PHONE}@s.whatsapp.net") as gw:
        yield gw


async def test_the_first_member_sync_before_any_event_leaves_the_bot_out_everywhere(
        sqlite_db: Database, gateway: FakeGateway) -> None:
    make_group(sqlite_db, OPS, members=(BOT_PHONE,))  # recorded before the bot knew its ids (an older version)
    env = {"GATEWAY_API_URL": gateway.url, "GATEWAY_API_INSTANCE": "taskbot", "GATEWAY_API_KEY": gateway.api_key,
           "RATE_LIMIT_PER_MIN": "1000", "SENDS_PER_PERSON_PER_MIN": "100"}
    async with running_bot(sqlite_db, env, background=True) as bot, web_env(sqlite_db) as web:
        assert await bot.app[keys.SYNC].run_job("member_sync")  # the scheduler's first run: no event yet
        _, members = await web.call("GET", f"/api/groups/{OPS}/members", user=ALICE)
        assert {person["id"] for person in members["items"]} == {web.pid(ALICE), web.pid(CAROL)}
        status, refused = await web.call("POST", "/api/tasks", user=ALICE, json={
            "description": "Regar", "group_id": OPS, "assignees": [web.pid(BOT_PHONE)]})
        assert (status, [error["field"] for error in refused["errors"]]) == (422, ["assignees"])
        await bot.send(wa_text("/t plantilla piso sí", sender=ALICE, lid="198765432100001", group=OPS))
        _, tasks = await web.call("GET", f"/api/groups/{OPS}/tasks", user=ALICE)
        assert len(tasks["items"]) == 5
        assignees = {person["id"] for task in tasks["items"] for person in task["assignees"]}
        assert assignees == {web.pid(ALICE), web.pid(CAROL)}  # the turns go round the two people, not the bot
        await bot.send(wa_text("/t resumen", sender=ALICE, lid="198765432100001", group=OPS))
        summary = texts(sqlite_db)[-1]
    assert summary.count("Miembro sin nombre") == 1  # Carol, who never wrote; never the bot
    assert BOT_PHONE not in summary
    assert BOT_LID not in summary


async def test_while_the_gateway_cannot_say_who_the_bot_is_the_member_sync_waits(
        sqlite_db: Database, gateway: FakeGateway) -> None:
    gateway.owner_jid = None  # a session not paired yet: fetchInstances names no owner
    make_group(sqlite_db, OPS, members=(ALICE,))
    env = {"GATEWAY_API_URL": gateway.url, "GATEWAY_API_INSTANCE": "taskbot", "GATEWAY_API_KEY": gateway.api_key}
    async with running_bot(sqlite_db, env, background=True) as bot, web_env(sqlite_db) as web:
        assert await bot.app[keys.SYNC].run_job("member_sync")
        _, members = await web.call("GET", f"/api/groups/{OPS}/members", user=ALICE)
        gateway.owner_jid = f"{BOT_PHONE}@s.whatsapp.net"
        assert await bot.app[keys.SYNC].run_job("member_sync")
        _, later = await web.call("GET", f"/api/groups/{OPS}/members", user=ALICE)
    assert (len(gateway.calls_to("fetchInstances")), len(gateway.calls_to("participants"))) == (2, 1)
    assert [person["id"] for person in members["items"]] == [web.pid(ALICE)]
    assert {person["id"] for person in later["items"]} == {web.pid(ALICE), web.pid(CAROL)}
