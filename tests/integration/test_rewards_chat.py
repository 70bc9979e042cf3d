"""Rewards through /webhook, the outbound worker and the fake gateway (SPEC section 34): an admin puts a reward on
offer, a member who earned points asks for it, the group is told the exact approving command, the admin approves
(``approve_request``, through a stand-in of the photo branch's ``/t aprobar canje`` row) and the balance drops."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import update

from taskcore.storage import schema
from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import Queued
from tests.integration.conversation import Conversation, conversation

ANA, LUIS = "34600111111", "34600222222"  # Ana is the group's WhatsApp admin
NAMES = {ANA: "Ana", LUIS: "Luis"}


@pytest.fixture
async def chat(sqlite_db: Database) -> AsyncIterator[Conversation]:
    make_group(sqlite_db, GROUP, name="Casa", members=(ANA, LUIS))
    with sqlite_db.write() as conn:
        conn.execute(update(schema.group_members).where(schema.group_members.c.user_id == ANA).values(is_admin=True))
    async with conversation(sqlite_db) as running:
        yield running


async def say(chat: Conversation, text: str, user: str = ANA, **kw: object) -> list[Queued]:
    jobs = await chat.send(wa_text(text, sender=user, push_name=NAMES[user], **kw))  # type: ignore[arg-type]
    return [job for job in jobs if job.kind == "text"]


async def test_offer_earn_redeem_and_approve_through_the_gateway(chat: Conversation) -> None:
    [made] = await say(chat, "/t premio nuevo ir al cine 5")
    assert made.text == f"@{ANA} 🎁 Premio #1 creado: «ir al cine», por 5 puntos. Para pedirlo: /t canjear 1"
    [short] = await say(chat, "/t canjear 1", LUIS)
    assert short.text == f"@{LUIS} No te llega: «ir al cine» cuesta 5 puntos y tienes 0 puntos."
    await say(chat, f"/t nueva fregar !7 @{LUIS}")  # Ana's task for Luis: his points count at once (SPEC 38)
    await say(chat, "/t x 1", LUIS)
    [listed] = await say(chat, "/t premios", LUIS)
    assert listed.text.endswith("• #1 ir al cine · 5 puntos\nTienes 7 puntos.\nPara pedir uno: /t canjear <n>")
    [asked] = await say(chat, "/t canjear 1", LUIS)
    assert asked.text.endswith("Un administrador del grupo lo aprueba con: /t aprobar canje 1")
    assert asked.chat_id == GROUP
    [waiting] = await say(chat, "/t pendientes")
    assert "/t aprobar canje 1" in waiting.text
    [approved] = await say(chat, "/t aprobar canje 1")
    assert approved.text == f"@{ANA} ✅ Canje #1 aprobado: «ir al cine» para @{LUIS}. Le quedan 2 puntos."
    assert f"{LUIS}@s.whatsapp.net" in approved.payload["mentioned"]
    [balance] = await say(chat, "/t puntos", LUIS)
    assert balance.text.startswith(f"@{LUIS} Tienes 2 puntos en este grupo.")
    sent = [call.body for call in chat.gateway.calls_to("sendText") if "Canje #1 aprobado" in call.body["text"]]
    assert [body["number"] for body in sent] == [GROUP]  # the gateway was asked to send the approval to the group
