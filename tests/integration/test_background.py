"""The bot's background context in a minimal aiohttp app: worker, webhook auto-registration, schedulers, stop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from aiohttp import web

from taskcore.gateway.evolution.encode import WEBHOOK_EVENTS
from taskcore.gateway.outbound import text_payload
from taskcore.services import queue
from taskcore.settings import load_settings
from taskcore.storage.db import Database
from tasksvc_run import keys, units
from tasksvc_run.bot.background import install_background
from tasksvc_run.clock import SystemClock
from tasksvc_run.metrics import Metrics
from tests.fakes.gateway import FakeGateway

SECRET = "webhook-secret-never-logged"


@pytest.fixture
async def gateway() -> AsyncIterator[FakeGateway]:
    async with FakeGateway() as gw:
        yield gw


def bot_app(db: Database, **env: str) -> web.Application:
    app = web.Application()
    app[keys.SETTINGS] = load_settings({"NODE_ENV": "test", **env})
    app[keys.DB] = db
    app[keys.CLOCK] = SystemClock()
    app[keys.METRICS] = Metrics(db)
    install_background(app)
    return app


def gateway_env(gateway: FakeGateway, **extra: str) -> dict[str, str]:
    return {"GATEWAY_API_URL": gateway.url, "GATEWAY_API_INSTANCE": "taskbot", "GATEWAY_API_KEY": "test-api-key",
            "GATEWAY_MAX_SENDS_PER_MIN": "60000", **extra}


async def started(app: web.Application) -> web.AppRunner:
    runner = web.AppRunner(app)
    await runner.setup()
    return runner


def put(db: Database, text: str) -> None:
    units.run(db, queue.enqueue_message, chat_id="34600000001", kind="text",
              payload=text_payload(chat_id="34600000001", text=text), max_attempts=6,
              now=datetime.now(UTC))


async def test_the_webhook_is_registered_at_start_with_the_events_and_the_secret_header(
    sqlite_db: Database, gateway: FakeGateway
) -> None:
    env = gateway_env(gateway, WEBHOOK_URL="https://bot.example.org/webhook", WEBHOOK_SECRET=SECRET)
    runner = await started(bot_app(sqlite_db, **env))
    await gateway.wait_for(lambda gw: gw.webhook is not None)
    await runner.cleanup()
    assert gateway.webhook == {
        "enabled": True, "url": "https://bot.example.org/webhook", "events": list(WEBHOOK_EVENTS),
        "byEvents": False, "base64": False, "headers": {"X-Webhook-Secret": SECRET}}


async def test_without_a_secret_the_webhook_is_registered_without_headers(
    sqlite_db: Database, gateway: FakeGateway
) -> None:
    runner = await started(bot_app(sqlite_db, **gateway_env(gateway, WEBHOOK_URL="https://bot.example.org/webhook")))
    await gateway.wait_for(lambda gw: gw.webhook is not None)
    await runner.cleanup()
    assert gateway.webhook is not None
    assert "headers" not in gateway.webhook


async def test_a_failed_registration_is_logged_and_the_bot_keeps_sending(
    sqlite_db: Database, gateway: FakeGateway, caplog: pytest.LogCaptureFixture
) -> None:
    gateway.fail_next(status=500, route="webhook/set")
    put(sqlite_db, "hola")
    env = gateway_env(gateway, WEBHOOK_URL="https://bot.example.org/webhook?token=abc", WEBHOOK_SECRET=SECRET)
    with caplog.at_level(logging.INFO):
        runner = await started(bot_app(sqlite_db, **env))
        await gateway.wait_for(lambda gw: gw.sent_texts() == ["hola"])
        async with asyncio.timeout(5):  # the registration runs beside the sends: its answer may come after them
            while True:
                if "webhook registration failed" in caplog.text:
                    break
                await asyncio.sleep(0.01)
        await runner.cleanup()
    assert "webhook registration failed" in caplog.text
    assert SECRET not in caplog.text
    assert "token=abc" not in caplog.text
    assert "test-api-key" not in caplog.text


async def test_in_test_the_schedulers_stay_off_but_a_requested_sync_runs(
    sqlite_db: Database, gateway: FakeGateway
) -> None:
    app = bot_app(sqlite_db, **gateway_env(gateway))
    runner = await started(app)
    assert gateway.calls_to("fetchAllGroups") == []
    app[keys.SYNC].request_sync()
    await gateway.wait_for(lambda gw: len(gw.calls_to("participants")) == 2)
    await runner.cleanup()
    # the bot's own ids first (SPEC section 38), asked once: never a member of what the sync lists
    assert [call.route for call in gateway.calls] == ["fetchInstances", "fetchAllGroups", "participants",
                                                      "participants"]


async def test_force_schedulers_starts_them_with_a_sync(sqlite_db: Database, gateway: FakeGateway) -> None:
    runner = await started(bot_app(sqlite_db, **gateway_env(gateway, FORCE_SCHEDULERS="true")))
    await gateway.wait_for(lambda gw: len(gw.calls_to("participants")) == 2)
    await runner.cleanup()
    assert gateway.calls_to("fetchAllGroups")[0].query == {"getParticipants": "false"}


async def test_without_a_gateway_messages_stay_queued(
    sqlite_db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    put(sqlite_db, "hola")
    app = bot_app(sqlite_db)
    runner = await started(app)
    app[keys.OUTBOUND].notify()
    app[keys.SYNC].request_sync()
    await runner.cleanup()
    assert units.look(sqlite_db, queue.queue_stats)["pending"] == 1
    assert "GATEWAY_API_URL is not set" in caplog.text
