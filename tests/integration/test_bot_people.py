"""The bot and people (SPEC section 32), through the real bot app: replies a minute per person, and only its own
instance's events."""

from __future__ import annotations

from taskcore.storage.db import Database
from tasksvc_run import keys
from tests.builders import GROUP, make_group, wa_envelope, wa_photo, wa_text
from tests.chat_support import task_rows
from tests.integration.bot_harness import running_bot

ANA, BEA = "34600111111", "34600222222"
ENV = {"RATE_LIMIT_PER_MIN": "1000", "SENDS_PER_PERSON_PER_MIN": "2", "GATEWAY_API_INSTANCE": "taskbot"}


async def test_one_person_s_burst_is_done_but_answered_within_the_cap_and_others_are_answered(
        sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(ANA, BEA))
    async with running_bot(sqlite_db, ENV) as bot:
        answered = [await bot.send(wa_text(f"/t nueva tarea {n}")) for n in range(5)]
        theirs = await bot.send(wa_text("/t nueva otra", sender=BEA, push_name="Bea"))
    assert len(task_rows(sqlite_db)) == 6  # every command done
    assert [len(jobs) for jobs in answered] == [1, 1, 1, 0, 0]
    assert "Tarea #1 creada" in answered[0][0].text
    assert answered[2][0].text.startswith(f"@{ANA} Vas muy rápido: hago lo que pides")
    assert "Tarea #6 creada" in theirs[0].text


async def test_another_instance_s_events_are_ignored_and_counted(sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(ANA,))
    async with running_bot(sqlite_db, ENV | {"METRICS_ENABLED": "true"}) as bot:
        jobs = await bot.send(wa_text("/t nueva pan", instance="otra"))
        closed = await bot.send(wa_envelope("connection.update", {"instance": "otra", "state": "close"},
                                            instance="otra"))
        mine = await bot.send(wa_text("/t nueva leche"))
        text = bot.app[keys.METRICS].render().decode()
    assert (jobs, closed) == ([], [])
    assert [task.description for task in task_rows(sqlite_db)] == ["leche"]
    assert "Tarea #1 creada: leche" in mine[0].text
    assert 'webhook_events_ignored_total{reason="instance"} 2.0' in text


async def test_an_event_that_names_no_instance_is_ignored_when_the_instance_is_set(sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(ANA,))
    nameless = wa_text("/t nueva pan")
    del nameless["instance"]
    photo = wa_photo("/t nueva foto", sender=ANA)
    photo["instance"] = "otra"
    async with running_bot(sqlite_db, ENV | {"METRICS_ENABLED": "true"}) as bot:
        jobs = await bot.send(nameless)
        theirs = await bot.send(photo)
        mine = await bot.send(wa_text("/t nueva leche"))
        text = bot.app[keys.METRICS].render().decode()
    assert (jobs, theirs) == ([], [])
    assert [task.description for task in task_rows(sqlite_db)] == ["leche"]
    assert "Tarea #1 creada: leche" in mine[0].text
    assert 'webhook_events_ignored_total{reason="instance"} 2.0' in text


async def test_the_bot_names_no_server_software(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, ENV) as bot:
        response = await bot.client.post("/webhook", json=wa_text("hola"))
        await bot.settle()
    assert response.status == 200
    assert "Server" not in response.headers
