"""The webhook configuration repairs itself (SPEC section 26): read webhook/find, set again what differs."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import aiohttp
import pytest

from taskcore.gateway.evolution.encode import WEBHOOK_EVENTS
from taskcore.settings import Settings, load_settings
from taskcore.storage.db import Database
from tasksvc_run.bot.webhook_keeper import ensure_webhook
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics
from tests.fakes.gateway import FakeGateway
from tests.integration.test_background import bot_app, gateway_env, started

HOOK = "https://bot.example.org/webhook"
SECRET = "keeper-secret-never-logged"
GOOD = {"events": list(WEBHOOK_EVENTS), "headers": {"X-Webhook-Secret": SECRET}}


def settings(**env: str) -> Settings:
    return load_settings({"NODE_ENV": "test", "WEBHOOK_URL": HOOK, "WEBHOOK_SECRET": SECRET, **env})


def repairs(metrics: Metrics) -> float:
    return float(metrics.registry.get_sample_value("webhook_repairs_total") or 0)


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as s:
        yield s


def client_of(session: aiohttp.ClientSession, url: str) -> EvolutionGateway:
    return EvolutionGateway(session, base_url=url, instance="taskbot", api_key="test-api-key", timeout_ms=500)


async def test_an_identical_configuration_is_left_alone(
    gateway: FakeGateway, session: aiohttp.ClientSession
) -> None:
    gateway.store_webhook(HOOK, **GOOD)  # type: ignore[arg-type]
    metrics = Metrics()
    assert not await ensure_webhook(client_of(session, gateway.url), settings(), metrics)
    assert gateway.calls_to("webhook/set") == []
    assert repairs(metrics) == 0


@pytest.mark.parametrize("drift", [
    {"url": "https://old.example.org/webhook"},
    {"enabled": False},
    {"events": ["MESSAGES_UPSERT", "GROUPS_UPSERT", "GROUP_PARTICIPANTS_UPDATE", "CONNECTION_UPDATE"]},
    {"headers": {"X-Webhook-Secret": "an-old-secret"}},
    {"headers": {}},
], ids=["url", "disabled", "no SEND_MESSAGE", "other secret", "no secret"])
async def test_a_configuration_that_differs_is_set_again_counted_and_logged_once(
    gateway: FakeGateway, session: aiohttp.ClientSession, caplog: pytest.LogCaptureFixture, drift: dict[str, object]
) -> None:
    gateway.store_webhook(**({"url": HOOK} | GOOD | drift))  # type: ignore[arg-type]
    metrics = Metrics()
    with caplog.at_level(logging.INFO, logger="tasksvc_run.bot.webhook_keeper"):
        assert await ensure_webhook(client_of(session, gateway.url), settings(), metrics)
    assert gateway.webhook is not None
    assert (gateway.webhook["url"], gateway.webhook["enabled"]) == (HOOK, True)
    assert gateway.webhook["events"] == list(WEBHOOK_EVENTS)
    assert gateway.webhook["headers"] == {"X-Webhook-Secret": SECRET}
    assert repairs(metrics) == 1
    lines = [r for r in caplog.records if r.name == "tasksvc_run.bot.webhook_keeper"]
    assert [r.getMessage() for r in lines] == ["webhook configuration repaired"]
    assert SECRET not in caplog.text


async def test_without_webhook_url_the_configuration_is_the_operators(
    gateway: FakeGateway, session: aiohttp.ClientSession
) -> None:
    bare = load_settings({"NODE_ENV": "test"})
    assert not await ensure_webhook(client_of(session, gateway.url), bare, Metrics())
    assert gateway.calls == []


async def test_an_unreadable_configuration_is_set_and_not_counted_as_a_repair(
    gateway: FakeGateway, session: aiohttp.ClientSession
) -> None:
    gateway.hang_next(seconds=1.0, route="webhook/find")  # past the client's 0.5 s timeout
    metrics = Metrics()
    assert await ensure_webhook(client_of(session, gateway.url), settings(), metrics)
    assert len(gateway.calls_to("webhook/set")) == 1
    assert repairs(metrics) == 0


async def test_a_malformed_answer_counts_as_different(gateway: FakeGateway, session: aiohttp.ClientSession) -> None:
    gateway.store_webhook(HOOK, **GOOD)  # type: ignore[arg-type]
    gateway.fail_next(status=200, body="<html>gateway</html>", route="webhook/find")
    metrics = Metrics()
    assert await ensure_webhook(client_of(session, gateway.url), settings(), metrics)
    assert repairs(metrics) == 1


async def test_a_lost_configuration_is_restored_by_the_bot_within_one_check_interval(
    sqlite_db: Database, gateway: FakeGateway
) -> None:
    env = gateway_env(gateway, WEBHOOK_URL=HOOK, WEBHOOK_SECRET=SECRET, WEBHOOK_CHECK_INTERVAL_MS="200")
    runner = await started(bot_app(sqlite_db, **env))
    try:
        await gateway.wait_for(lambda gw: gw.webhook is not None, within=3)
        gateway.lose_webhook()
        await gateway.wait_for(lambda gw: gw.webhook is not None, within=1.5)
    finally:
        await runner.cleanup()
    assert gateway.webhook is not None
    assert gateway.webhook["events"] == list(WEBHOOK_EVENTS)
    assert len(gateway.calls_to("webhook/set")) == 2


async def test_at_start_a_missing_configuration_is_a_registration_not_a_repair(
    gateway: FakeGateway, session: aiohttp.ClientSession
) -> None:
    metrics = Metrics()
    assert await ensure_webhook(client_of(session, gateway.url), settings(), metrics, first=True)
    assert gateway.webhook is not None
    assert repairs(metrics) == 0
    gateway.lose_webhook()
    assert await ensure_webhook(client_of(session, gateway.url), settings(), metrics)
    assert repairs(metrics) == 1
