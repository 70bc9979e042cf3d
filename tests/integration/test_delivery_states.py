"""Every message arrives (SPEC section 31), through a real bot whose webhook the fake gateway calls: the statuses of
each send, a cold direct message refused with ERROR (463), the reach-out pause, and echoes as ``fromMe`` upserts."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import aiohttp
import pytest
from sqlalchemy import select

from taskcore.gateway.outbound import text_payload
from taskcore.queue_rules import DIGEST_LABEL
from taskcore.services import delivery, queue
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.watchdog import Act
from tasksvc_run import keys, units
from tests.builders import GROUP, make_group, wa_text
from tests.integration.watchdog_harness import USER, WatchedBot, watched_bot

OTHER, FRIEND = "34600000003", "34600000004"
ECHO_LATE = timedelta(seconds=121)


def dm(user: str) -> str:
    return f"{user}@s.whatsapp.net"


def statuses(db: Database) -> list[str]:
    md = schema.message_deliveries
    with db.read() as conn:
        return [row.status for row in conn.execute(select(md.c.status))]


def to(bot: WatchedBot, chat: str) -> list[str]:
    """Texts the gateway accepted for ``chat``, in order."""
    return [call.body["text"] for call in bot.gateway.calls_to("sendText") if call.body["number"] == chat]


def put(bot: WatchedBot, chat: str, text: str, *, label: str | None = None) -> int:
    """Queue a text the bot starts itself and wake the worker; the job's id."""
    job = units.run(bot.db, queue.enqueue_message, chat_id=chat, kind="text",
                    payload=text_payload(chat_id=chat, text=text), label=label, max_attempts=6, now=bot.clock.now())
    assert job is not None
    bot.app[keys.OUTBOUND].notify()
    return job


async def post(bot: WatchedBot, payload: dict[str, object]) -> int:
    """POST one event to the bot's webhook as the gateway does; the answer's status."""
    url = bot.app[keys.SETTINGS].webhook_url
    assert url is not None
    async with aiohttp.ClientSession() as session, session.post(url, json=payload) as answer:
        return answer.status


def counter(bot: WatchedBot, status: str) -> float | None:
    return bot.gauge_labels("outbound_delivery_total", status=status)


async def test_each_send_keeps_its_last_status_and_counts_it(sqlite_db: Database) -> None:
    async with watched_bot(sqlite_db) as bot:
        put(bot, dm(USER), "hola")
        await bot.until(lambda: statuses(sqlite_db) == ["DELIVERY_ACK"])
        assert (counter(bot, "SERVER_ACK"), counter(bot, "DELIVERY_ACK"), counter(bot, "ERROR")) == (1, 1, 0)
        assert units.look(sqlite_db, delivery.unreachable_people) == []


async def test_a_cold_direct_message_refused_is_not_resent_told_once_in_a_group_and_held_until_they_write(
        sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(USER, OTHER))
    async with watched_bot(sqlite_db) as bot:
        bot.gateway.effects.refuse_cold = True
        put(bot, dm(USER), "Tus tareas de hoy: comprar pan", label=DIGEST_LABEL)
        await bot.until(lambda: [p.user_id for p in units.look(sqlite_db, delivery.unreachable_people)] == [USER])
        await bot.gateway.wait_for(lambda gw: len(to(bot, GROUP)) == 1)
        assert to(bot, GROUP)[0].startswith(f"@{USER}, no puedo escribirte por privado.")
        assert bot.gateway.calls_to("sendText")[-1].body["mentioned"] == [dm(USER)]
        assert counter(bot, "ERROR") == 1
        assert bot.gauge("gateway_reachout_paused") == 1
        assert bot.gauge("unreachable_people") == 1
        put(bot, dm(USER), "¿Y la tarea #3?", label="nag")  # held for them, not sent
        await asyncio.sleep(0.3)
        assert to(bot, dm(USER)) == ["Tus tareas de hoy: comprar pan"]
        bot.gateway.effects.wrote_privately.add(USER)
        assert await post(bot, wa_text("hola", sender=USER, group=None)) == 200
        await bot.gateway.wait_for(lambda gw: len(to(bot, dm(USER))) >= 3)
        # what was held goes out (a digest after the chat's other messages, as always)
        assert to(bot, dm(USER))[1:3] == ["¿Y la tarea #3?", "Tus tareas de hoy: comprar pan"]
        assert units.look(sqlite_db, delivery.unreachable_people) == []
        assert len(to(bot, GROUP)) == 1


async def test_during_the_pause_no_cold_direct_message_goes_out_while_groups_and_warm_contacts_do(
        sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(USER, OTHER, FRIEND))
    async with watched_bot(sqlite_db) as bot:
        bot.gateway.effects.refuse_cold = True
        bot.gateway.effects.wrote_privately.add(FRIEND)
        assert await post(bot, wa_text("hola", sender=FRIEND, group=None)) == 200
        put(bot, dm(USER), "primero")
        await bot.until(lambda: bot.gauge("gateway_reachout_paused") == 1)
        cold = put(bot, dm(OTHER), "para Other")
        put(bot, dm(FRIEND), "para Friend")
        put(bot, GROUP, "para el grupo")
        await bot.gateway.wait_for(lambda gw: "para Friend" in gw.sent_texts() and "para el grupo" in gw.sent_texts())
        await asyncio.sleep(0.3)
        assert to(bot, dm(OTHER)) == []
        assert bot.job(cold) == ("pending", 0)
        bot.clock.advance(timedelta(hours=24, minutes=1))
        bot.gateway.effects.refuse_cold = False
        bot.app[keys.OUTBOUND].notify()
        await bot.gateway.wait_for(lambda gw: to(bot, dm(OTHER)) == ["para Other"])
        assert bot.gauge("gateway_reachout_paused") == 0


async def test_echoes_as_fromme_upserts_keep_delivery_ok_and_are_counted_once(sqlite_db: Database) -> None:
    async with watched_bot(sqlite_db) as bot:
        bot.gateway.effects.echo_as_upsert = True
        put(bot, dm(USER), "/t lista")  # an echo reading like a command is only an echo
        await bot.until(lambda: bot.echoes() == 1)
        sent = bot.gateway.calls_to("sendText")[-1].answer
        echo = {"event": "send.message", "instance": "taskbot", "data": sent, "sender": bot.gateway.owner_jid}
        assert await post(bot, echo) == 200  # the same send's echo in the other form: counted once
        bot.clock.advance(ECHO_LATE)
        assert await bot.watchdog.tick() is Act.NOTHING
        assert bot.gauge("webhook_delivery_ok") == 1
        assert bot.gauge("webhook_echoes_total") == 1
        with sqlite_db.read() as conn:
            assert conn.execute(select(schema.inbox)).all() == []


async def test_a_fromme_upsert_typed_on_the_bots_phone_is_neither_an_echo_nor_a_command(sqlite_db: Database) -> None:
    async with watched_bot(sqlite_db) as bot:
        typed = wa_text("/t lista", sender="34600000999", group=GROUP, from_me=True)
        assert await post(bot, typed) == 200
        assert bot.echoes() == 0
        assert bot.gauge("webhook_echoes_total") == 0
        with sqlite_db.read() as conn:
            assert conn.execute(select(schema.inbox)).all() == []
        assert bot.gateway.calls_to("sendText") == []


async def test_caps_hold_what_the_bot_starts_while_replies_go_on_and_the_oldest_wait_shows(
        sqlite_db: Database) -> None:
    async with watched_bot(sqlite_db, GATEWAY_MAX_SENDS_PER_HOUR="2") as bot:
        nags = [put(bot, f"34600001{n:03d}@s.whatsapp.net", f"recordatorio {n}", label="nag") for n in range(4)]
        await bot.gateway.wait_for(lambda gw: len(gw.sent_texts()) == 2)
        put(bot, dm(USER), "respuesta", label="reply")
        await bot.gateway.wait_for(lambda gw: "respuesta" in gw.sent_texts())
        await asyncio.sleep(0.3)
        assert [bot.job(job)[0] for job in nags].count("pending") == 2
        assert bot.gauge("outbound_oldest_waiting_seconds") == 0  # the frozen clock: queued this instant
        bot.clock.advance(timedelta(minutes=30))
        assert bot.gauge("outbound_oldest_waiting_seconds") == 1800
        bot.clock.advance(timedelta(minutes=31))
        bot.app[keys.OUTBOUND].notify()
        await bot.gateway.wait_for(lambda gw: len(gw.sent_texts()) == 5)  # held, never dropped
        await bot.until(lambda: bot.gauge("outbound_oldest_waiting_seconds") == 0)


async def test_a_status_that_cannot_be_recorded_is_refused_so_the_gateway_sends_it_again(
        sqlite_db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object, **_kwargs: object) -> delivery.StatusOutcome:
        raise OSError("disk full")

    async with watched_bot(sqlite_db) as bot:
        monkeypatch.setattr(delivery, "record_statuses", broken)
        update = {"event": "messages.update", "instance": "taskbot", "sender": bot.gateway.owner_jid,
                  "data": {"keyId": "3EB0X", "remoteJid": dm(USER), "fromMe": True, "status": "READ"}}
        assert await post(bot, update) == 503
        monkeypatch.undo()
        assert await post(bot, update) == 200
        assert statuses(sqlite_db) == ["READ"]


async def test_another_instances_statuses_are_not_this_bots(sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(USER,))
    async with watched_bot(sqlite_db) as bot:
        update = {"event": "messages.update", "instance": "someone-else", "sender": "34699999999@s.whatsapp.net",
                  "data": {"keyId": "3EB0Y", "remoteJid": dm(USER), "fromMe": True, "status": "ERROR"}}
        assert await post(bot, update) == 200
        assert statuses(sqlite_db) == []
        assert units.look(sqlite_db, delivery.unreachable_people) == []
