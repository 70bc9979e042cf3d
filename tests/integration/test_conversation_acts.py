"""Acting from the conversation (SPEC section 18) through /webhook, the outbound worker and the fake gateway:
replies to a task's messages and reactions on them complete or claim it; everything else stays chat."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from taskcore.model import Origin
from taskcore.storage.db import Database
from tests.builders import BOT_PHONE, GROUP, NOW, create_and_read, make_group, wa_reaction, wa_text
from tests.chat_support import Queued, assignees, last_id, task_rows, texts
from tests.integration.conversation import Conversation, conversation

ANA, BEA = "34600111111", "34600222222"
ANA_JID, BEA_JID, BOT_JID = (f"{n}@s.whatsapp.net" for n in (ANA, BEA, BOT_PHONE))


@pytest.fixture
async def chat(sqlite_db: Database) -> AsyncIterator[Conversation]:
    make_group(sqlite_db, GROUP, name="Casa", members=(ANA, BEA))
    async with conversation(sqlite_db) as running:
        yield running


async def new_task(chat: Conversation, text: str = "/t nueva pan") -> str:
    """Ana creates task #1 from message NEW1; the id of the bot's reply about it."""
    jobs = await chat.send(wa_text(text, message_id="NEW1"))
    assert jobs[0].text == f"@{ANA} Tarea #1 creada: pan. Sin asignar"
    return chat.message_id(jobs[0])


def only_text(jobs: list[Queued]) -> Queued:
    (job,) = [j for j in jobs if j.kind == "text"]
    return job


def emoji_on(jobs: list[Queued], message_id: str) -> list[str]:
    return [j.emoji for j in jobs if j.kind == "reaction" and j.payload["message_id"] == message_id]


@pytest.mark.parametrize("word", ["x", "hecho", "Listo", " ✅ "])
async def test_replying_a_done_word_to_the_bots_message_completes_the_task(chat: Conversation, word: str) -> None:
    about = await new_task(chat)
    jobs = await chat.send(wa_text(word, sender=BEA, push_name="Bea", message_id="R1", quoted=about))
    reply = only_text(jobs)
    assert reply.text == f"@{BEA} Tarea #1 completada: pan"
    assert reply.payload["quote"] == {"id": "R1", "chat": GROUP, "from_me": False, "participant": BEA_JID,
                                      "text": word}
    assert emoji_on(jobs, "R1") == ["🤖"]  # the reply is a command: marked like one
    assert emoji_on(jobs, "NEW1") == ["✅"]  # and the task's origin gets its check
    assert (task_rows(chat.bot.db)[0].completed, task_rows(chat.bot.db)[0].completed_by) == (True, BEA)


@pytest.mark.parametrize("word", ["yo", "TOMO", "✋"])
async def test_replying_a_claim_word_claims_the_task(chat: Conversation, word: str) -> None:
    about = await new_task(chat)
    jobs = await chat.send(wa_text(word, sender=BEA, push_name="Bea", quoted=about))
    assert only_text(jobs).text == f"@{BEA} Te quedas la tarea #1: pan"
    assert assignees(chat.bot.db, 1) == {BEA}


async def test_replying_to_the_message_that_created_the_task_acts_on_it_too(chat: Conversation) -> None:
    await new_task(chat)
    jobs = await chat.send(wa_text("listo", sender=BEA, push_name="Bea", quoted="NEW1"))
    assert only_text(jobs).text == f"@{BEA} Tarea #1 completada: pan"


@pytest.mark.parametrize(("command", "reply"), [
    ("/t x", "Tarea #1 completada: pan"),
    ("/t tomar", "Te quedas la tarea #1: pan"),
    ("/t soltar", "Sueltas la tarea #1: pan"),
    ("/t fecha 26-12-01", "La tarea #1 vence el 01/12."),
    ("/t fecha sin", "La tarea #1 ya no tiene fecha."),
    ("/t editar pan de centeno", "Tarea #1 cambiada: pan de centeno"),
])
async def test_commands_in_a_reply_take_the_quoted_task_without_an_id(
    chat: Conversation, command: str, reply: str
) -> None:
    about = await new_task(chat)
    jobs = await chat.send(wa_text(command, sender=BEA, push_name="Bea", quoted=about))
    assert only_text(jobs).text.split("\n🕒")[0] == f"@{BEA} {reply}"  # a first dated reply also names the zone


async def test_every_bot_message_about_one_task_is_linked_so_a_reply_to_a_reply_still_acts(
    chat: Conversation,
) -> None:
    about = await new_task(chat)
    claimed = only_text(await chat.send(wa_text("yo", sender=BEA, push_name="Bea", quoted=about)))
    jobs = await chat.send(wa_text("hecho", sender=BEA, push_name="Bea", quoted=chat.message_id(claimed)))
    assert only_text(jobs).text == f"@{BEA} Tarea #1 completada: pan"


async def test_a_reply_quoting_a_message_linked_to_no_task_is_ordinary_chat(chat: Conversation) -> None:
    await new_task(chat)
    before = last_id(chat.bot.db)
    assert await chat.send(wa_text("hecho", sender=BEA, quoted="3EB0SOMEOTHERMESSAGE")) == []
    listing = await chat.send(wa_text("/t ver", sender=BEA))  # a bot message about several tasks links none
    assert await chat.send(wa_text("hecho", sender=BEA, quoted=chat.message_id(listing[0]))) == []
    assert texts(chat.bot.db, after=before) == [f"@{BEA} Tareas abiertas (1):\n#1 pan · sin asignar"]
    assert task_rows(chat.bot.db)[0].completed is False


@pytest.mark.parametrize("text", ["hecho ya", "vale, gracias", "yo no puedo", "👍"])
async def test_any_other_reply_to_a_tasks_message_is_ordinary_chat(chat: Conversation, text: str) -> None:
    about = await new_task(chat)
    assert await chat.send(wa_text(text, sender=BEA, quoted=about)) == []
    assert task_rows(chat.bot.db)[0].completed is False


@pytest.mark.parametrize("emoji", ["✅", "✔️", "☑️"])
async def test_a_check_reaction_on_the_bots_reply_completes_it_as_the_reacting_user(
    chat: Conversation, emoji: str
) -> None:
    about = await new_task(chat)
    jobs = await chat.send(wa_reaction(emoji, about, sender=BEA, message_id="REACT1"))
    reply = only_text(jobs)
    assert reply.text == f"@{BEA} Tarea #1 completada: pan"
    assert reply.payload["quote"] == {"id": about, "chat": GROUP, "from_me": True, "participant": BOT_JID,
                                      "text": None}
    assert reply.payload["mentioned"] == [BEA_JID]
    assert emoji_on(jobs, "REACT1") == []  # a reaction gets no 🤖 of its own
    assert emoji_on(jobs, "NEW1") == ["✅"]
    assert task_rows(chat.bot.db)[0].completed_by == BEA


@pytest.mark.parametrize("emoji", ["✋", "🙋", "🙋🏽‍♀️"])
async def test_a_raised_hand_on_the_origin_message_claims_it_quoting_that_message(
    chat: Conversation, emoji: str
) -> None:
    await new_task(chat)
    jobs = await chat.send(wa_reaction(emoji, "NEW1", sender=BEA, target_from_me=False, target_author=ANA_JID))
    reply = only_text(jobs)
    assert reply.text == f"@{BEA} Te quedas la tarea #1: pan"
    assert reply.payload["quote"] == {"id": "NEW1", "chat": GROUP, "from_me": False, "participant": ANA_JID,
                                      "text": None}
    assert assignees(chat.bot.db, 1) == {BEA}


async def test_a_reaction_on_a_completed_task_says_so(chat: Conversation) -> None:
    about = await new_task(chat)
    await chat.send(wa_reaction("✅", about, sender=BEA))
    jobs = await chat.send(wa_reaction("✅", about, sender=ANA))
    assert only_text(jobs).text == f"@{ANA} La tarea #1 ya está completada."


@pytest.mark.parametrize("emoji", ["", "👍", "❤️"])
async def test_a_removed_reaction_or_another_emoji_does_nothing(chat: Conversation, emoji: str) -> None:
    about = await new_task(chat)
    assert await chat.send(wa_reaction(emoji, about, sender=BEA)) == []
    assert task_rows(chat.bot.db)[0].completed is False


async def test_the_bots_own_reaction_does_nothing(chat: Conversation) -> None:
    about = await new_task(chat)
    status, body = await chat.bot.post(wa_reaction("✅", about, sender=BOT_PHONE, from_me=True))
    assert (status, body) == (200, {"status": "noted", "reason": "echo"})
    status, body = await chat.bot.post(wa_reaction("✅", about, sender=BOT_PHONE))
    assert (status, body) == (200, {"status": "ignored", "reason": "the bot's own reaction"})
    assert task_rows(chat.bot.db)[0].completed is False


async def test_a_reaction_on_a_message_of_no_task_does_nothing(chat: Conversation) -> None:
    await new_task(chat)
    assert await chat.send(wa_reaction("✅", "3EB0NOTHINGHERE", sender=BEA)) == []


async def test_a_redelivered_reaction_acts_once(chat: Conversation) -> None:
    about = await new_task(chat)
    await chat.send(wa_reaction("✋", about, sender=BEA, message_id="SAME"))
    assert await chat.send(wa_reaction("✋", about, sender=BEA, message_id="SAME")) == []


async def test_reaction_commands_can_be_turned_off(sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(ANA, BEA))
    async with conversation(sqlite_db, {"REACTION_COMMANDS_ENABLED": "false"}) as chat:
        about = await new_task(chat)
        assert await chat.send(wa_reaction("✅", about, sender=BEA)) == []
        replied = await chat.send(wa_text("hecho", sender=BEA, quoted=about))  # replies still act
    assert only_text(replied).text.endswith("Tarea #1 completada: pan")


async def test_reactions_take_a_token_and_an_empty_bucket_gets_one_notice_quoting_the_reacted_message(
    sqlite_db: Database,
) -> None:
    make_group(sqlite_db, GROUP, members=(ANA, BEA))
    async with conversation(sqlite_db, {"RATE_LIMIT_PER_MIN": "1"}) as chat:
        about = await new_task(chat)
        await chat.send(wa_reaction("✋", about, sender=BEA))  # Bea's one token
        throttled = await chat.send(wa_reaction("✅", about, sender=BEA))
        again = await chat.send(wa_reaction("✅", about, sender=BEA))
    assert only_text(throttled).text.startswith(f"@{BEA} Demasiadas órdenes, espera ")
    assert only_text(throttled).payload["quote"]["id"] == about
    assert again == []
    assert task_rows(sqlite_db)[0].completed is False


async def test_a_reaction_in_a_group_that_is_not_served_is_ignored(sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(ANA, BEA), status="blocked")
    create_and_read(sqlite_db, creator=ANA, description="pan", group_id=GROUP, now=NOW,
                    origin=Origin(GROUP, "NEW1", ANA_JID, NOW))
    async with conversation(sqlite_db, {"GROUP_GATING_MODE": "enforce"}) as chat:
        assert await chat.send(wa_reaction("✅", "NEW1", sender=BEA, target_from_me=False)) == []
        assert await chat.send(wa_text("hecho", sender=BEA, quoted="NEW1")) == []
    assert task_rows(sqlite_db)[0].completed is False


async def test_in_private_a_reaction_on_the_bots_reply_about_a_personal_task_completes_it(
    chat: Conversation,
) -> None:
    jobs = await chat.send(wa_text("/t nueva llamar al banco", group=None))
    reacted = chat.message_id(jobs[0])
    jobs = await chat.send(wa_reaction("✅", reacted, sender=ANA, group=None))
    reply = only_text(jobs)
    assert reply.text == "Tarea #1 completada: llamar al banco"
    assert reply.payload["quote"] == {"id": reacted, "chat": ANA_JID, "from_me": True, "participant": None,
                                      "text": None}
