"""The bot and people (SPEC section 32), through the real bot app: replies a minute per person, and only its own
instance's events."""

from __future__ import annotations

from taskcore.storage.db import Database
from tasksvc_run import keys
from tests.builders import GROUP, make_group, wa_envelope, wa_photo, wa_text
from tests.chat_support import task_rows
from tests.integration.bot_harness import running_bot
from tests.integration.web_helpers import web_env

ANA, BEA = "34600111111", "34600222222"
ENV = {"RATE_LIMIT_PER_MIN": "1000", "SENDS_PER_PERSON_PER_MIN": "2", "GATEWAY_API_INSTANCE": "taskbot"}


async def test_one_person_s_burst_is_done_but_answered_within_the_cap_and_others_are_answered(
        sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(ANA, BEA))
    async with running_bot(sqlite_db, ENV) as bot:
        answered = [await bot.send(wa_text("/t ver")) for _ in range(12)]
        theirs = await bot.send(wa_text("/t nueva otra", sender=BEA, push_name="Bea"))
    assert [len(jobs) for jobs in answered] == [1] * 10 + [1, 0]  # a burst of 10, then the spell's one notice
    assert answered[10][0].text.startswith(f"@{ANA} Vas muy rápido: hago lo que pides")
    assert "Tarea #1 creada" in theirs[0].text


BROWSING = ("/t plantilla", "/t plantilla piso", "/t plantilla familia", "/t plantilla piso sí", "/t ver", "/t ayuda",
            "/t idioma grupo pt", "/t ver", "/t resumen", "/t idioma grupo es")


async def test_everyday_use_never_meets_the_cap_and_a_change_is_always_confirmed(sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(ANA, BEA))
    async with running_bot(sqlite_db, ENV | {"SENDS_PER_PERSON_PER_MIN": "6"}) as bot:
        browsed = [await bot.send(wa_text(text)) for text in BROWSING]  # ten commands in a minute
        changed = await bot.send(wa_text("/t idioma grupo en"))  # the eleventh: over the burst, and a change
        shown = await bot.send(wa_text("/t ver"))  # over it and only a list: no reply in the spell
        created = await bot.send(wa_text("/t nueva pan"))
    assert all(len(jobs) == 1 and "Vas muy rápido" not in jobs[0].text for jobs in browsed)
    assert "5 tareas creadas" in browsed[3][0].text
    assert "Neste grupo agora eu escrevo em português." in browsed[6][0].text
    (confirmed,) = changed
    assert confirmed.text.startswith(f"@{ANA} In this group I now write in English.\nVas muy rápido")
    assert shown == []
    assert [job.text for job in created] == [f"@{ANA} Task #6 created: pan. Unassigned"]


async def test_a_throttled_web_burst_delivers_a_live_link_and_its_marks_count_toward_the_cap(
        sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(ANA,))
    async with running_bot(sqlite_db, ENV | {"SENDS_PER_PERSON_PER_MIN": "6", "REACTIONS_ENABLED": "true"}) as bot, \
            web_env(sqlite_db) as web:
        burst = [job for _ in range(20) for job in await bot.send(wa_text("/t web"))]
        links = [job.text for job in burst if job.label == "login"]
        async with web.client.get("/login", params={"token": links[-1].split("token=")[1].split()[0]},
                                  allow_redirects=False) as opened:
            status = opened.status
    assert [job.emoji for job in burst if job.kind == "reaction"] == ["🤖"] * 10  # each mark is one of the ten
    assert len(links) == 10
    assert [job.text for job in burst if job.kind == "text" and job.label != "login"] == [
        f"@{ANA} Vas muy rápido: hago lo que pides, pero durante 10 s no respondo a cada orden."]
    assert status == 303  # the last link delivered opens a session: no later command made it stale


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
