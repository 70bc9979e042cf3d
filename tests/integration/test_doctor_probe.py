"""`tasksvc doctor --probe` (SPEC section 26): one probe to the bot's own number; does its echo reach the bot?"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from taskcore.gateway.diagnostics import Verdict
from taskcore.storage.db import Database
from tasksvc_run import keys
from tasksvc_run.cli import build_parser
from tasksvc_run.doctor import diagnose, render
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.probe import probe_check
from tests.integration.watchdog_harness import WatchedBot, watched_bot


@pytest.fixture
async def bot(sqlite_db: Database) -> AsyncIterator[WatchedBot]:
    async with watched_bot(sqlite_db) as running:
        yield running


@pytest.fixture
async def client(bot: WatchedBot) -> AsyncIterator[EvolutionGateway]:
    async with aiohttp.ClientSession() as session:
        yield EvolutionGateway.from_settings(session, bot.app[keys.SETTINGS])


async def test_a_probe_whose_echo_the_bot_records_passes(bot: WatchedBot, client: EvolutionGateway) -> None:
    check = await probe_check(client, bot.app[keys.SETTINGS], bot.db, within=5)
    assert check.verdict is Verdict.OK, check
    assert check.detail.startswith("the echo came back in ")
    probe = bot.gateway.calls_to("sendText")[-1].body
    assert probe["number"] == bot.gateway.owner_jid


async def test_a_probe_without_echo_is_a_problem(bot: WatchedBot, client: EvolutionGateway) -> None:
    bot.gateway.deliveries.delivering = False
    check = await probe_check(client, bot.app[keys.SETTINGS], bot.db, within=0.5)
    assert check.verdict is Verdict.PROBLEM
    assert check.detail == "no echo within 0.5 s: the gateway does not reach the bot's webhook"


async def test_an_instance_never_paired_cannot_be_probed(bot: WatchedBot, client: EvolutionGateway) -> None:
    bot.gateway.owner_jid = None
    check = await probe_check(client, bot.app[keys.SETTINGS], bot.db, within=0.5)
    assert check.verdict is Verdict.PROBLEM
    assert "never paired" in check.detail
    assert bot.gateway.calls_to("sendText") == []


async def test_a_failed_send_is_reported_as_the_gateways(bot: WatchedBot, client: EvolutionGateway) -> None:
    bot.gateway.set_connection("close", 428)
    check = await probe_check(client, bot.app[keys.SETTINGS], bot.db, within=0.5)
    assert check.verdict is Verdict.PROBLEM
    assert check.name == "probe"


def test_doctor_takes_probe() -> None:
    assert build_parser().parse_args(["doctor", "--probe"]).probe is True
    assert build_parser().parse_args(["doctor"]).probe is False


async def test_doctor_with_probe_reports_the_round_trip_last(bot: WatchedBot, tmp_path: Path) -> None:
    settings = bot.app[keys.SETTINGS].model_copy(update={"db_path": str(tmp_path / "tasks.db")})
    checks = await diagnose(settings, probe=True)
    assert checks[-1].name == "probe"
    assert checks[-1].verdict is Verdict.OK, render(checks)
