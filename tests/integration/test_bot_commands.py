"""Every chat command, in a group and in private, through the real bot app: database and queued messages."""

from __future__ import annotations

import pytest

from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, make_task, wa_text
from tests.chat_support import assignees, group_status, task_rows, texts
from tests.integration.bot_harness import running_bot

ANA, BEA, LID_BEA, ADMIN = "34600111111", "34600222222", "900222", "34699000001"
ENV = {"REACTIONS_ENABLED": "true", "ADMIN_USERS": f"+{ADMIN}", "RATE_LIMIT_PER_MIN": "1000"}

# (command, reply in the group without the leading mention, reply in private); task #1 "pan" exists, open.
COMMANDS = [
    ("/t", "Órdenes (/t o /tarea):", "Órdenes (/t o /tarea):"),
    ("/t nueva leche mañana", "Tarea #2 creada: leche (vence 23/11). Sin asignar",
     "Tarea #2 creada: leche (vence 23/11)"),
    ("/t ver", "Tareas abiertas (1):\n#1 pan · sin asignar", "No tienes tareas abiertas."),  # #1 is not hers
    ("/t x 1", "Tarea #1 completada: pan", "Tarea #1 completada: pan"),
    ("/t tomar 1", "Te quedas la tarea #1: pan", "Te quedas la tarea #1: pan"),
    ("/t soltar 1", "Sueltas la tarea #1: pan", "Sueltas la tarea #1: pan"),
    ("/t fecha 1 26-01-15", "La tarea #1 vence el 15/01.", "La tarea #1 vence el 15/01."),
    ("/t editar 1 pan de centeno", "Tarea #1 cambiada: pan de centeno", "Tarea #1 cambiada: pan de centeno"),
    ("/t recordatorios semanal 9:00", "Recordatorios los lunes a las 09:00 (hora de Europe/Madrid).",
     "Recordatorios los lunes a las 09:00 (hora de Europe/Madrid)."),
    ("/t web", "Te lo envío por privado.", "Tu enlace para entrar en la web (vale 15 minutos, un solo uso):"),
    ("/t fecha 1 12/25/2025", "Fecha no válida: «12/25/2025».", "Fecha no válida: «12/25/2025»."),
]


@pytest.fixture
def seeded(sqlite_db: Database) -> Database:
    make_group(sqlite_db, GROUP, name="Casa", members=(ANA,))
    task = make_task(sqlite_db, creator=BEA, group_id=GROUP, description="pan")
    assert task.id == 1
    return sqlite_db


# With reactions on, /t web in a group is acknowledged by the 🤖 mark alone (SPEC section 32): below.
@pytest.mark.parametrize(("command", "reply", "_private"), [c for c in COMMANDS if c[0] != "/t web"])
async def test_each_command_in_a_group_replies_quoting_and_mentioning_the_sender(
    seeded: Database, command: str, reply: str, _private: str
) -> None:
    async with running_bot(seeded, ENV) as bot:
        jobs = await bot.send(wa_text(command, message_id="CMD"))
    text_job = jobs[0]
    assert text_job.text.startswith(f"@{ANA} {reply}")
    assert (text_job.chat_id, text_job.kind, text_job.payload["chat"]) == (GROUP, "text", GROUP)
    assert text_job.payload["quote"] == {"id": "CMD", "chat": GROUP, "from_me": False,
                                         "participant": f"{ANA}@s.whatsapp.net", "text": command}
    assert text_job.payload["mentioned"][0] == f"{ANA}@s.whatsapp.net"
    assert jobs[-1].kind == "reaction"
    assert jobs[-1].payload | {"emoji": "✓"} == {"chat": GROUP, "message_id": "CMD", "emoji": "✓",
                                                 "participant": f"{ANA}@s.whatsapp.net", "from_me": False}


@pytest.mark.parametrize(("command", "_group", "reply"), COMMANDS)
async def test_each_command_in_private_replies_quoting_without_mentions(
    seeded: Database, command: str, _group: str, reply: str
) -> None:
    async with running_bot(seeded, ENV) as bot:
        jobs = await bot.send(wa_text(command, group=None, message_id="DM"))
    (text_job,) = jobs  # reactions stay in groups with the default REACTIONS_SCOPE
    chat = f"{ANA}@s.whatsapp.net"
    assert text_job.text.startswith(reply)
    assert (text_job.chat_id, text_job.payload["chat"]) == (chat, chat)
    assert "mentioned" not in text_job.payload
    assert text_job.payload["quote"] == {"id": "DM", "chat": chat, "from_me": False, "participant": None,
                                         "text": command}


async def test_nueva_with_mentions_assigns_them_and_mentions_them_by_the_jid_they_were_written_with(
    seeded: Database,
) -> None:
    async with running_bot(seeded, ENV) as bot:
        await bot.send(wa_text("hola", sender=BEA, lid=LID_BEA))
        jobs = await bot.send(wa_text(f"/t nueva barrer @{LID_BEA}", mentioned=(f"{LID_BEA}@lid",)))
    assert jobs[0].text == f"@{ANA} Tarea #2 creada: barrer. Para @{LID_BEA}"
    assert jobs[0].payload["mentioned"] == [f"{ANA}@s.whatsapp.net", f"{LID_BEA}@lid"]
    assert assignees(seeded, 2) == {BEA}


async def test_completing_a_task_made_by_chat_reacts_on_its_origin_message(seeded: Database) -> None:
    async with running_bot(seeded, ENV) as bot:
        await bot.send(wa_text("/t nueva regar", message_id="ORIGIN"))
        jobs = await bot.send(wa_text("/t x 2", message_id="DONE"))
    assert [(j.kind, j.payload.get("emoji"), j.payload.get("message_id")) for j in jobs] == [
        ("text", None, None), ("reaction", "✅", "ORIGIN"), ("reaction", "🤖", "DONE")]


async def test_a_rejected_command_gets_the_warn_reaction(seeded: Database) -> None:
    async with running_bot(seeded, ENV) as bot:
        jobs = await bot.send(wa_text("/t tomar 99"))
    assert [j.payload.get("emoji") for j in jobs] == [None, "⚠️"]
    assert jobs[0].text == f"@{ANA} No encuentro la tarea #99."


async def test_the_web_link_goes_to_the_senders_private_chat_only(seeded: Database) -> None:
    async with running_bot(seeded, ENV) as bot:
        jobs = await bot.send(wa_text("/t web"))
    link, mark = jobs
    assert (link.chat_id, link.label) == (f"{ANA}@s.whatsapp.net", "login")
    assert "https://tareas.example/login?token=" in link.text
    assert (mark.chat_id, mark.kind) == (GROUP, "reaction")  # the group hears no text: the 🤖 says it


@pytest.mark.parametrize(("command", "reply", "status"), [
    ("/admin permitir aquí", f"Grupo «Casa» ({GROUP}) permitido.", "allowed"),
    ("/admin bloquear aquí", f"Grupo «Casa» ({GROUP}) bloqueado.", "blocked"),
    ("/admin grupos", f"Grupos (1):\n• Casa — {GROUP} — permitido", "allowed"),
    ("/admin sync", "Los procesos programados no están en marcha: no puedo sincronizar ahora.", "allowed"),
    ("/admin", "Órdenes de administración:", "allowed"),
])
async def test_admin_commands_in_a_group(seeded: Database, command: str, reply: str, status: str) -> None:
    async with running_bot(seeded, ENV | {"GROUP_GATING_MODE": "enforce"}) as bot:
        jobs = await bot.send(wa_text(command, sender=ADMIN))
    assert jobs[0].text.startswith(f"@{ADMIN} {reply}")
    assert group_status(seeded, GROUP) == status


async def test_admin_commands_in_private(seeded: Database) -> None:
    async with running_bot(seeded, ENV) as bot:
        await bot.send(wa_text(f"/admin bloquear {GROUP}", sender=ADMIN, group=None))
    assert texts(seeded) == [f"Grupo «Casa» ({GROUP}) bloqueado."]


async def test_an_admin_command_from_someone_else_gets_no_reply_at_all(seeded: Database) -> None:
    async with running_bot(seeded, ENV) as bot:
        assert await bot.send(wa_text("/admin bloquear aquí")) == []
    assert group_status(seeded, GROUP) == "allowed"


async def test_the_throttle_notice_is_sent_once_per_empty_spell(seeded: Database) -> None:
    async with running_bot(seeded, {"RATE_LIMIT_PER_MIN": "2"}) as bot:
        replies = [await bot.send(wa_text(f"/t nueva t{i}")) for i in range(5)]
    assert [len(r) for r in replies] == [1, 1, 1, 0, 0]
    assert replies[2][0].text == f"@{ANA} Demasiadas órdenes, espera 30 s."
    assert len(task_rows(seeded)) == 3  # task #1 and two new ones
