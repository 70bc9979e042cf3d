"""Never silent without anyone knowing (SPEC section 26): the echo watchdog and the connection, through a real bot
whose webhook the fake gateway calls. The clock is frozen and moved by the tests; ``tick`` is called directly."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from taskcore.services.alerts import PROBE_TEXT
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.watchdog import Act, Health
from tests.integration.watchdog_harness import ADMIN_CHAT, USER, WatchedBot, watched_bot

ECHO_LATE = timedelta(seconds=121)


def inbox_rows(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(schema.inbox)).scalar_one())


async def sent(bot: WatchedBot, text: str) -> int:
    job = bot.put(text)
    await bot.gateway.wait_for(lambda gw: text in gw.sent_texts())
    await bot.until(lambda: bot.job(job)[0] == "sent")
    return job


async def test_echoes_of_sends_are_recorded_and_never_reach_the_chat(sqlite_db: Database) -> None:
    async with watched_bot(sqlite_db) as bot:
        await sent(bot, "/t lista")  # an echo reading like a command is still only an echo
        await bot.until(lambda: bot.echoes() == 1)
        bot.clock.advance(ECHO_LATE)
        assert await bot.watchdog.tick() is Act.NOTHING
        assert inbox_rows(sqlite_db) == 0
        assert bot.texts_to(USER) == ["/t lista"]
        assert bot.gauge("webhook_echoes_total") == 1


async def test_stopped_delivery_is_repaired_then_told_once_per_outage_and_its_end_too(sqlite_db: Database) -> None:
    async with watched_bot(sqlite_db) as bot:
        bot.gateway.deliveries.delivering = False
        await sent(bot, "hola")
        bot.clock.advance(ECHO_LATE)
        assert await bot.watchdog.tick() is Act.REPAIR
        assert len(bot.gateway.calls_to("webhook/set")) == 2  # set again though it read the same
        probe = bot.gateway.calls_to("sendText")[-1].body
        assert (probe["number"], probe["text"]) == (bot.gateway.owner_jid, PROBE_TEXT)
        bot.clock.advance(ECHO_LATE)
        assert await bot.watchdog.tick() is Act.ALERT
        assert bot.gauge("webhook_delivery_ok") == 0
        bot.clock.advance(timedelta(minutes=2))
        assert await bot.watchdog.tick() is Act.NOTHING
        assert len(bot.texts_to(ADMIN_CHAT)) == 1  # one direct message for the whole outage
        bot.gateway.deliveries.delivering = True
        bot.clock.advance(timedelta(minutes=10))
        assert await bot.watchdog.tick() is Act.REPAIR  # probed again: this time the echo comes
        await bot.until(lambda: bot.watchdog.watch.health is Health.OK)
        assert bot.gauge("webhook_delivery_ok") == 1
        await bot.until(lambda: len(bot.texts_to(ADMIN_CHAT)) == 2)
        assert "vuelve a recibir" in bot.texts_to(ADMIN_CHAT)[1]
        assert inbox_rows(sqlite_db) == 0


async def test_a_lost_configuration_found_by_the_watchdog_is_repaired_without_an_alert(sqlite_db: Database) -> None:
    async with watched_bot(sqlite_db) as bot:
        bot.gateway.lose_webhook()
        await sent(bot, "hola")
        bot.clock.advance(ECHO_LATE)
        assert await bot.watchdog.tick() is Act.REPAIR
        await bot.until(lambda: bot.watchdog.watch.health is Health.OK)
        bot.clock.advance(ECHO_LATE)
        assert await bot.watchdog.tick() is Act.NOTHING
        assert bot.texts_to(ADMIN_CHAT) == []
        assert bot.gauge("webhook_delivery_ok") == 1


async def test_the_watchdog_s_repair_is_one_log_line_and_counted_as_a_repair(
    sqlite_db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    async with watched_bot(sqlite_db) as bot:
        bot.gateway.deliveries.delivering = False
        await sent(bot, "hola")
        bot.clock.advance(ECHO_LATE)
        before = bot.gauge("webhook_repairs_total")
        with caplog.at_level(logging.INFO, logger="tasksvc_run.bot.watchdog"):
            assert await bot.watchdog.tick() is Act.REPAIR
        assert bot.gauge("webhook_repairs_total") == before + 1
        repaired = [r for r in caplog.records if "webhook configuration set again" in r.getMessage()]
        assert len(repaired) == 1
        assert repaired[0].levelno == logging.WARNING


async def test_an_idle_hour_sends_a_probe_to_the_bots_own_number(sqlite_db: Database) -> None:
    async with watched_bot(sqlite_db, WATCHDOG_IDLE_MINUTES="60") as bot:
        bot.clock.advance(timedelta(minutes=60))
        assert await bot.watchdog.tick() is Act.PROBE
        assert bot.gateway.calls_to("fetchInstances")
        # the echo is counted as it arrives and the watchdog hears of it once it is recorded: both, in time
        await bot.until(lambda: bot.echoes() == 1 and bot.watchdog.watch.health is Health.OK)
        bot.clock.advance(ECHO_LATE)
        assert await bot.watchdog.tick() is Act.NOTHING
        assert inbox_rows(sqlite_db) == 0


async def test_a_disconnection_pauses_sending_without_spending_attempts_and_a_long_one_is_told(
    sqlite_db: Database
) -> None:
    async with watched_bot(sqlite_db) as bot:
        bot.gateway.set_connection("close", 428)
        await bot.until(lambda: bot.gauge_labels("gateway_connected", gateway="evolution") == 0)
        job = bot.put("mientras tanto")
        await asyncio.sleep(0.6)  # a few of the worker's polls: it claims nothing
        assert bot.job(job) == ("pending", 0)
        assert bot.gateway.failed == []
        bot.clock.advance(timedelta(minutes=6))
        bot.gateway.set_connection("open")
        await bot.until(lambda: bot.job(job)[0] == "sent")
        assert bot.job(job) == ("sent", 1)
        assert bot.gauge_labels("gateway_connected", gateway="evolution") == 1
        await bot.until(lambda: len(bot.texts_to(ADMIN_CHAT)) == 1)
        told = bot.texts_to(ADMIN_CHAT)[0]
        assert "6 min" in told
        assert "retraso: 1" in told


async def test_a_lost_reopening_is_found_by_asking_the_gateway_while_down(sqlite_db: Database) -> None:
    async with watched_bot(sqlite_db) as bot:
        bot.gateway.set_connection("close", 428)
        await bot.until(lambda: bot.gauge_labels("gateway_connected", gateway="evolution") == 0)
        job = bot.put("cuando vuelva")
        bot.gateway.state = "open"  # reopened, but its connection.update never came (or came before the close)
        await bot.watchdog.tick()
        assert bot.job(job)[0] == "pending"  # asked at most every 30 s
        bot.clock.advance(timedelta(seconds=31))
        await bot.watchdog.tick()
        await bot.until(lambda: bot.job(job)[0] == "sent")
        assert bot.gauge_labels("gateway_connected", gateway="evolution") == 1


async def test_a_short_disconnection_is_not_told(sqlite_db: Database) -> None:
    async with watched_bot(sqlite_db) as bot:
        bot.gateway.set_connection("close", 428)
        await bot.until(lambda: bot.gauge_labels("gateway_connected", gateway="evolution") == 0)
        bot.clock.advance(timedelta(minutes=4))
        bot.gateway.set_connection("open")
        await bot.until(lambda: bot.gauge_labels("gateway_connected", gateway="evolution") == 1)
        await sent(bot, "ya")
        assert bot.texts_to(ADMIN_CHAT) == []
