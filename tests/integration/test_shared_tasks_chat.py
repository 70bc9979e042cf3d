"""Shared tasks done by each (SPEC section 19) through /webhook, the worker and the fake gateway: ``!todos``, parts,
``/t modo``, progress in ``/t ver``, and three assignees of whom one lets go."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_reaction, wa_text
from tests.chat_support import Queued, assignees, task_rows
from tests.integration.conversation import Conversation, conversation

ANA, BEA, CARO, DANI = "34600111111", "34600222222", "34600333333", "34600444444"
NAMES = {ANA: "Ana", BEA: "Bea", CARO: "Caro", DANI: "Dani"}


def jid(user: str) -> str:
    return f"{user}@s.whatsapp.net"


@pytest.fixture
async def chat(sqlite_db: Database) -> AsyncIterator[Conversation]:
    make_group(sqlite_db, GROUP, name="Casa", members=(ANA,))
    async with conversation(sqlite_db) as running:
        for user in (BEA, CARO, DANI):  # each writes once, so the bot knows their names
            await running.send(wa_text("hola", sender=user, push_name=NAMES[user]))
        yield running


async def say(chat: Conversation, text: str, user: str = ANA, **kw: object) -> Queued:
    jobs = await chat.send(wa_text(text, sender=user, push_name=NAMES[user], **kw))  # type: ignore[arg-type]
    (reply,) = [job for job in jobs if job.kind == "text"]
    return reply


async def shared_task(chat: Conversation) -> Queued:
    """Ana asks Bea, Caro and Dani each to send their sheet: task #1."""
    mentioned = tuple(jid(u) for u in (BEA, CARO, DANI))
    reply = await say(chat, f"/t nueva enviar la hoja !todos @{BEA} @{CARO} @{DANI}", mentioned=mentioned,
                      message_id="NEW1")
    assert reply.text == (f"@{ANA} Tarea #1 creada: enviar la hoja. Para @{BEA}, @{CARO}, @{DANI} "
                          "(cada uno su parte)")
    return reply


async def test_each_assignee_completes_their_part_and_the_last_one_completes_the_task(chat: Conversation) -> None:
    await shared_task(chat)
    assert (await say(chat, "/t x 1", BEA)).text == f"@{BEA} Bea ha terminado su parte de la tarea #1 (1/3)."
    assert (await say(chat, "/t x 1", BEA)).text == f"@{BEA} Ya habías terminado tu parte de la tarea #1 (1/3)."
    assert (await say(chat, "/t x 1", CARO)).text == f"@{CARO} Caro ha terminado su parte de la tarea #1 (2/3)."
    assert task_rows(chat.bot.db)[0].completed is False
    last = await chat.send(wa_text("/t x 1", sender=DANI, push_name="Dani"))
    assert last[0].text == f"@{DANI} Dani ha terminado la última parte (3/3). Tarea #1 completada: enviar la hoja"
    assert [j.emoji for j in last if j.kind == "reaction" and j.payload["message_id"] == "NEW1"] == ["✅"]
    row = task_rows(chat.bot.db)[0]
    assert (row.completed, row.completed_by) == (True, DANI)
    assert (await say(chat, "/t x 1", ANA)).text == f"@{ANA} La tarea #1 ya está completada."


async def test_a_member_who_is_not_an_assignee_cannot_complete_a_shared_task(chat: Conversation) -> None:
    await shared_task(chat)
    assert (await say(chat, "/t x 1", ANA)).text == f"@{ANA} Solo quien tiene asignada la tarea #1 puede completarla."


async def test_the_list_shows_who_has_done_their_part(chat: Conversation) -> None:
    await shared_task(chat)
    await say(chat, "/t x 1", CARO)
    listing = await say(chat, "/t ver")
    assert listing.text == f"@{ANA} Tareas abiertas (1):\n#1 enviar la hoja · Bea, Caro ✓, Dani · 1/3 partes"


async def test_three_assignees_where_one_lets_go_after_the_others_finished(chat: Conversation) -> None:
    await shared_task(chat)
    await say(chat, "/t x 1", BEA)
    await say(chat, "/t x 1", CARO)
    jobs = await chat.send(wa_text("/t soltar 1", sender=DANI, push_name="Dani"))
    assert jobs[0].text == (f"@{DANI} Sueltas la tarea #1: enviar la hoja\n"
                            "Las partes que quedan ya estaban hechas: tarea #1 completada.")
    assert [j.emoji for j in jobs if j.kind == "reaction" and j.payload["message_id"] == "NEW1"] == ["✅"]
    row = task_rows(chat.bot.db)[0]
    assert (row.completed, row.completed_by) == (True, CARO)
    assert assignees(chat.bot.db, 1) == {BEA, CARO}


async def test_letting_go_with_parts_left_keeps_it_open_and_claiming_adds_a_pending_part(chat: Conversation) -> None:
    await shared_task(chat)
    await say(chat, "/t x 1", BEA)
    assert (await say(chat, "/t soltar 1", DANI)).text == f"@{DANI} Sueltas la tarea #1: enviar la hoja"
    assert (await say(chat, "/t tomar 1", ANA)).text == f"@{ANA} Te quedas la tarea #1: enviar la hoja"
    listing = await say(chat, "/t ver")
    assert listing.text.endswith("#1 enviar la hoja · Ana, Bea ✓, Caro · 1/3 partes")  # same instant: by id


async def test_a_check_reaction_on_the_bots_reply_marks_the_reactors_part(chat: Conversation) -> None:
    created = await shared_task(chat)
    jobs = await chat.send(wa_reaction("✅", chat.message_id(created), sender=CARO, push_name="Caro"))
    assert jobs[0].text == f"@{CARO} Caro ha terminado su parte de la tarea #1 (1/3)."
    done = await say(chat, "hecho", BEA, quoted=chat.message_id(jobs[0]))  # the part's reply is linked too
    assert done.text == f"@{BEA} Bea ha terminado su parte de la tarea #1 (2/3)."


async def test_modo_switches_an_open_task_between_uno_and_todos(chat: Conversation) -> None:
    await shared_task(chat)
    await say(chat, "/t x 1", BEA)
    assert (await say(chat, "/t modo 1 uno")).text == f"@{ANA} Tarea #1: ahora basta con que una persona la complete."
    assert (await say(chat, "/t modo 1 todos")).text == (
        f"@{ANA} Tarea #1: ahora cada responsable completa su parte (0/3).")
    created = await say(chat, "/t nueva barrer", message_id="NEW2")
    switched = await say(chat, "/t modo todos", quoted=chat.message_id(created))
    assert switched.text == f"@{ANA} Tarea #2: ahora cada responsable completa su parte (0/0)."


async def test_todos_and_modo_are_for_group_tasks_only(chat: Conversation) -> None:
    jobs = await chat.send(wa_text("/t nueva leer !todos", group=None))
    assert jobs[0].text == "!todos solo vale en un grupo: en privado la tarea es solo tuya."
    assert task_rows(chat.bot.db) == []
    await chat.send(wa_text("/t nueva leer", group=None))
    jobs = await chat.send(wa_text("/t modo 1 todos", group=None))
    assert jobs[0].text == "El modo (todos|uno) solo se aplica a tareas de grupo."


async def test_a_bad_mode_gets_the_accepted_form(chat: Conversation) -> None:
    reply = await say(chat, "/t modo 1 algunos")
    assert reply.text == f"@{ANA} Modo no válido: «algunos».\nUso: /t modo <id> todos|uno"
