"""POST /webhook through a real bot app: acknowledgement, secret, malformed bodies, samples, redeliveries."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from taskcore.services.inbox import inbox_stats
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.bot import webhook as webhook_module
from tests.builders import GROUP, wa_text
from tests.chat_support import alias_of, member, queued, task_rows
from tests.integration.bot_harness import running_bot

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gateway"
SAMPLES = sorted(p.name for p in FIXTURES.glob("inbound_*.json"))


def sample(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return data


async def test_a_command_is_acknowledged_then_its_task_and_reply_appear(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        jobs = await bot.send(wa_text("/t nueva pan"))
        assert [j.text for j in jobs] == ["@34600111111 Tarea #1 creada: pan. Sin asignar"]
        assert len(task_rows(sqlite_db)) == 1


async def test_the_acknowledgement_says_accepted_or_ignored(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        assert await bot.post(wa_text("hola")) == (200, {"status": "accepted"})
        assert await bot.post(wa_text("hola", from_me=True)) == (200, {"status": "noted", "reason": "echo"})


async def test_the_accepted_answer_is_json_in_utf_8(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        response = await bot.client.post("/webhook", json=wa_text("hola"))
        assert response.headers["Content-Type"] == "application/json; charset=utf-8"
        assert await response.read() == b'{"status": "accepted"}'


@pytest.mark.parametrize("name", SAMPLES)
async def test_every_gateway_sample_is_acknowledged_and_handled(sqlite_db: Database, name: str) -> None:
    async with running_bot(sqlite_db) as bot:
        status, _ = await bot.post(sample(name))
        await bot.settle()
        assert status == 200


async def test_the_lid_group_sample_records_the_sender_the_alias_and_the_membership(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        jobs = await bot.send(sample("inbound_messages_upsert_group_text_lid_mention.json"))
        assert jobs == []  # not a command: no reply
        assert alias_of(sqlite_db, "198765432100001") == "15550100001"
        assert member(sqlite_db, "120363300000000010@g.us", "15550100001").active


async def test_the_participants_samples_add_and_remove_members(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        await bot.send(sample("inbound_group_participants_update_add_v2.3.7.json"))
        assert member(sqlite_db, "120363300000000010@g.us", "15550100003").active
        await bot.send(sample("inbound_messages_upsert_group_reply_pn_addressing.json"))
        await bot.send(sample("inbound_group_participants_update_remove_v2.3.5.json"))
        assert alias_of(sqlite_db, "198765432100002") == "15550100002"


async def test_the_groups_upsert_sample_records_the_group_and_its_members_but_not_the_bot(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        await bot.send(sample("inbound_groups_upsert.json"))
        assert member(sqlite_db, "120363300000000011@g.us", "15550100001").is_admin
        assert member(sqlite_db, "120363300000000011@g.us", "15550100000") is None


async def test_per_event_urls_are_accepted(sqlite_db: Database) -> None:
    payload = wa_text("/t nueva pan")
    del payload["event"]
    async with running_bot(sqlite_db) as bot:
        await bot.send(payload, path="/webhook/messages-upsert")
        assert len(task_rows(sqlite_db)) == 1


async def test_a_redelivered_event_creates_nothing_new(sqlite_db: Database) -> None:
    payload = wa_text("/t nueva pan", message_id="REDELIVERED")
    async with running_bot(sqlite_db) as bot:
        await bot.send(payload)
        assert await bot.send(payload) == []
        assert len(task_rows(sqlite_db)) == 1


@pytest.mark.parametrize(("body", "detail"), [
    (b"{not json", "the body is not valid JSON"),
    (b"\xff\xfe", "the body is not valid JSON"),
    (b"[1, 2]", "the body is not a JSON object"),
    (b'"text"', "the body is not a JSON object"),
    (b"[" * 100_000 + b"]" * 100_000, "the body is not valid JSON"),
])
async def test_a_body_that_is_not_a_json_object_is_a_400(sqlite_db: Database, body: bytes, detail: str) -> None:
    async with running_bot(sqlite_db) as bot:
        response = await bot.client.post("/webhook", data=body, headers={"Content-Type": "application/json"})
        assert (response.status, (await response.json(content_type=None))["detail"]) == (400, detail)


async def test_unknown_events_are_acknowledged_and_ignored(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        assert await bot.post({"event": "presence.update", "data": {}}) == (
            200, {"status": "ignored", "reason": "unknown event"})


async def test_only_post_is_accepted_on_the_webhook(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        assert (await bot.client.get("/webhook")).status == 405


async def test_with_a_secret_a_missing_or_wrong_header_is_401(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, {"WEBHOOK_SECRET": "s3cret"}) as bot:
        assert (await bot.post(wa_text("/t nueva pan")))[0] == 401
        assert (await bot.post(wa_text("/t nueva pan"), headers={"X-Webhook-Secret": "s3creT"}))[0] == 401
        await bot.send(wa_text("/t nueva pan"), headers={"X-Webhook-Secret": "s3cret"})
        assert len(task_rows(sqlite_db)) == 1


async def test_without_a_secret_no_header_is_needed(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        assert (await bot.post(wa_text("hola")))[0] == 200


async def test_events_of_one_chat_are_handled_in_the_order_they_arrived(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, {"RATE_LIMIT_PER_MIN": "1000"}) as bot:
        for i in range(30):
            assert (await bot.post(wa_text(f"/t nueva tarea {i}")))[0] == 200
        await bot.settle()
        assert [t.description for t in task_rows(sqlite_db)] == [f"tarea {i}" for i in range(30)]


async def test_the_acknowledgement_does_not_wait_for_the_processing(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        started = time.perf_counter()
        statuses = await asyncio.gather(*(bot.post(wa_text(f"/t nueva {i}", group=f"{i}@g.us")) for i in range(20)))
        elapsed = time.perf_counter() - started
        await bot.settle()
        assert {s for s, _ in statuses} == {200}
        assert elapsed < 2.0  # generous bound for a shared machine; the bench measures the real figure


async def test_a_full_backlog_answers_503_so_the_gateway_retries(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webhook_module, "MAX_BACKLOG", 0)
    async with running_bot(sqlite_db) as bot:
        answer = await bot.client.post("/webhook", json=wa_text("/t nueva pan"))
        assert (answer.status, answer.headers["Retry-After"]) == (503, "5")
        assert queued(sqlite_db) == []
        assert units.look(sqlite_db, inbox_stats)["pending"] == 0


async def test_ordinary_messages_are_not_answered(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        assert await bot.send(wa_text("buenos días")) == []
        assert member(sqlite_db, GROUP, "34600111111").active
