"""GET /metrics on the bot (SPEC sections 7 and 11): method, switch, token, and the seed's exact names."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_text
from tests.integration.bot_harness import Bot, running_bot

SEED_NAMES = {
    "sync_runs_total", "identity_alias_resolved_total", "allowed_groups_total_pending",
    "allowed_groups_total_allowed", "allowed_groups_total_blocked", "unknown_groups_discovered_total",
    "messages_blocked_group_total", "commands_blocked_total", "sync_skipped_group_total",
    "admin_actions_total_allow", "admin_actions_total_block", "reactions_enqueued_total", "reactions_sent_total",
    "reactions_failed_total",
}
ON = {"METRICS_ENABLED": "true"}
ADMIN = "34699000001"


async def scrape(bot: Bot) -> dict[str, float]:
    """Every sample as name{labels} -> value, read with prometheus_client's own parser."""
    response = await bot.client.get("/metrics")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(await response.text()):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            samples[f"{s.name}{{{labels}}}" if labels else s.name] = s.value
    return samples


async def test_every_seed_metric_name_is_exposed_exactly(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, ON) as bot:
        names = {key.partition("{")[0] for key in await scrape(bot)}
    assert names >= SEED_NAMES


async def test_webhook_requests_and_processing_time_are_counted(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, ON) as bot:
        await bot.send(wa_text("/t nueva pan"))
        samples = await scrape(bot)
    assert samples["webhook_requests_total{event=message}"] == 1
    assert samples["webhook_processing_seconds_count"] == 1


async def test_gauges_follow_the_group_table_and_admin_actions_are_counted(sqlite_db: Database) -> None:
    make_group(sqlite_db, "200@g.us", status="pending")
    env = ON | {"ADMIN_USERS": ADMIN, "GROUP_GATING_MODE": "enforce", "ALLOWED_GROUPS": GROUP}
    async with running_bot(sqlite_db, env) as bot:
        await bot.send(wa_text("/admin bloquear aquí", sender=ADMIN))
        await bot.send(wa_text("/admin permitir 200@g.us", sender=ADMIN))
        await bot.send(wa_text("/t ver"))
        samples = await scrape(bot)
    assert (samples["allowed_groups_total_allowed"], samples["allowed_groups_total_blocked"],
            samples["allowed_groups_total_pending"]) == (1, 1, 0)
    assert (samples["admin_actions_total_block"], samples["admin_actions_total_allow"]) == (1, 1)
    assert (samples["messages_blocked_group_total"], samples["commands_blocked_total"]) == (1, 1)


async def test_discovered_groups_are_counted_once_each(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, ON | {"GROUP_GATING_MODE": "discover"}) as bot:
        for group in (GROUP, GROUP, "300@g.us"):
            await bot.send(wa_text("hola", group=group))
        samples = await scrape(bot)
    assert samples["unknown_groups_discovered_total"] == 2
    assert samples["messages_blocked_group_total"] == 3


async def test_senders_resolved_through_an_alias_are_counted(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, ON) as bot:
        await bot.send(wa_text("hola", lid="900111"))
        lid_only = wa_text("hola")
        lid_only["data"]["key"]["participant"] = "900111@lid"
        await bot.send(lid_only)
        samples = await scrape(bot)
    assert samples["identity_alias_resolved_total"] == 1


async def test_queued_reactions_are_counted_by_emoji(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, ON | {"REACTIONS_ENABLED": "true"}) as bot:
        await bot.send(wa_text("/t nueva pan"))
        await bot.send(wa_text("/t x 5"))
        samples = await scrape(bot)
    assert (samples["reactions_enqueued_total{emoji=robot}"], samples["reactions_enqueued_total{emoji=warn}"]) == (1, 1)


async def test_metrics_are_404_when_disabled(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, {"METRICS_ENABLED": "false"}) as bot:
        assert (await bot.client.get("/metrics")).status == 404


async def test_metrics_are_off_by_default_in_test(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as bot:
        assert (await bot.client.get("/metrics")).status == 404


@pytest.mark.parametrize("enabled", ["true", "false"])
@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "HEAD"])
async def test_any_method_but_get_is_405_even_when_disabled(sqlite_db: Database, method: str, enabled: str) -> None:
    async with running_bot(sqlite_db, {"METRICS_ENABLED": enabled}) as bot:
        response = await bot.client.request(method, "/metrics")
        assert (response.status, response.headers["Allow"]) == (405, "GET")


@pytest.mark.parametrize("header", [None, "Bearer wrong", "Basic c2VjcmV0", "secret", "Bearer  "])
async def test_with_a_metrics_token_anything_but_the_bearer_token_is_401(
    sqlite_db: Database, header: str | None
) -> None:
    async with running_bot(sqlite_db, ON | {"METRICS_TOKEN": "secret"}) as bot:
        response = await bot.client.get("/metrics", headers={"Authorization": header} if header else None)
        assert response.status == 401


async def test_with_a_metrics_token_the_bearer_token_opens_the_metrics(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, ON | {"METRICS_TOKEN": "secret"}) as bot:
        response = await bot.client.get("/metrics", headers={"Authorization": "Bearer secret"})
        assert response.status == 200
