"""Nobody learns a number they were not shown (SPEC section 38), webhook in, sends and API out: a group's addressing
is its record's, a mention of anyone who is not a member is answered as unknown without repeating it, and only
WhatsApp's participants or a person's own message make a member."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from taskcore.storage.db import Database
from tests.builders import make_group, wa_envelope, wa_participants, wa_text
from tests.chat_support import Queued, queued, task_rows
from tests.integration.bot_harness import Bot, running_bot
from tests.integration.web_helpers import WebEnv, web_env

GROUP, OTHER = "120363300000000010@g.us", "120363300000000099@g.us"
ANA, ANA_LID = "34600111111", "198765432100011"
BEA, BEA_LID = "34600222222", "198765432100022"
LIA = "198765432100033"  # known only by a LID: WhatsApp never showed her number
CARL = "34624283906"  # a member of another group: the number a LID-only member guessed
UNKNOWN = "Nada hecho; elige a la persona en la lista de @ de WhatsApp."
ENV = {"RATE_LIMIT_PER_MIN": "1000", "SENDS_PER_PERSON_PER_MIN": "100"}


def lid_text(text: str, *, lid: str, phone: str | None = None, mentioned: tuple[str, ...] = (),
             push_name: str = "Lía") -> dict[str, Any]:
    """A message in a LID group as today's clients send it: the sender named by LID (phone as participantAlt)."""
    payload = wa_text(text, sender=phone or lid, mentioned=mentioned, push_name=push_name)
    key = payload["data"]["key"]
    key |= {"participant": f"{lid}@lid", "addressingMode": "lid"}
    if phone:
        key["participantAlt"] = f"{phone}@s.whatsapp.net"
    return payload


def group_record(group_id: str, mode: str, people: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": group_id, "subject": "Piso", "addressingMode": mode, "participants": people}


@dataclass
class Both:
    bot: Bot
    web: WebEnv

    async def said(self, payload: dict[str, Any]) -> list[Queued]:
        return [job for job in await self.bot.send(payload) if job.kind == "text"]


@pytest.fixture
async def both(sqlite_db: Database) -> AsyncIterator[Both]:
    make_group(sqlite_db, GROUP)
    make_group(sqlite_db, OTHER)
    async with running_bot(sqlite_db, ENV) as bot, web_env(sqlite_db) as web:
        await bot.send(wa_envelope("groups.upsert", [
            group_record(GROUP, "lid", [
                {"id": f"{ANA_LID}@lid", "phoneNumber": f"{ANA}@s.whatsapp.net", "admin": "admin"},
                {"id": f"{BEA_LID}@lid", "phoneNumber": f"{BEA}@s.whatsapp.net", "admin": None},
                {"id": f"{LIA}@lid", "admin": None}]),
            group_record(OTHER, "pn", [{"id": f"{CARL}@s.whatsapp.net", "admin": None}])]))
        await bot.send(lid_text("hola", lid=ANA_LID, phone=ANA, push_name="Ana"))
        await bot.send(wa_text("hola", sender=CARL, group=OTHER, push_name="Carl"))
        yield Both(bot, web)


def shown_digits(job: Queued) -> list[str]:
    """The phone numbers a sent text shows or mentions."""
    said = job.text + " ".join(job.payload.get("mentioned", []))
    return [number for number in (ANA, BEA, CARL) if number in said]


async def test_one_member_s_message_in_phone_form_does_not_switch_a_lid_group(both: Both) -> None:
    await both.bot.send(wa_text("hola", sender=BEA, lid=BEA_LID, push_name="Bea"))  # an old client: key in pn form
    status, task = await both.web.call("POST", "/api/tasks", json={
        "description": "Regar", "group_id": GROUP, "assignees": [both.web.pid(BEA), both.web.pid(ANA)]}, user=ANA)
    assert status == 201, task
    (announcement,) = [job for job in queued(both.bot.db) if job.label == "notice"]
    assert f"@{BEA_LID}" in announcement.text
    assert set(announcement.payload["mentioned"]) == {f"{BEA_LID}@lid", f"{ANA_LID}@lid"}
    assert shown_digits(announcement) == []


@pytest.mark.parametrize("mention", [
    pytest.param({"text": f"/t nueva regar @{CARL}", "mentioned": (f"{CARL}@s.whatsapp.net",)}, id="phone form"),
    pytest.param({"text": "/t nueva regar @198765432100099", "mentioned": ("198765432100099@lid",)}, id="a LID"),
    pytest.param({"text": f"/t nueva regar @{CARL}", "mentioned": ()}, id="typed digits"),
])
async def test_a_mention_of_someone_not_in_the_group_is_unknown_and_assigns_nothing(
        both: Both, mention: dict[str, Any]) -> None:
    (reply,) = await both.said(lid_text(mention["text"], lid=LIA, mentioned=mention["mentioned"]))
    assert reply.text == f"@{LIA} No encuentro a esa persona en el grupo. {UNKNOWN}"
    assert "198765432100099" not in reply.text
    assert shown_digits(reply) == []
    assert task_rows(both.bot.db) == []
    status, tasks = await both.web.call("GET", f"/api/groups/{GROUP}/tasks", user=ANA)
    assert (status, tasks["items"]) == (200, [])


async def test_a_member_mentioned_in_phone_form_in_a_lid_group_is_shown_by_their_lid(both: Both) -> None:
    (reply,) = await both.said(lid_text(f"/t nueva regar @{BEA}", lid=LIA, mentioned=(f"{BEA}@s.whatsapp.net",)))
    assert reply.text == f"@{LIA} Tarea #1 creada: regar. Para @{BEA_LID}"
    assert reply.payload["mentioned"] == [f"{LIA}@lid", f"{BEA_LID}@lid"]
    status, tasks = await both.web.call("GET", f"/api/groups/{GROUP}/tasks", user=ANA)
    assert [person["id"] for person in tasks["items"][0]["assignees"]] == [both.web.pid(BEA)]
    assert status == 200


async def test_a_mention_makes_no_member_only_whatsapp_s_participants_and_a_person_s_own_message_do(
        both: Both) -> None:
    await both.said(lid_text(f"/t nueva regar @{CARL}", lid=LIA, mentioned=(f"{CARL}@s.whatsapp.net",)))
    status, groups = await both.web.call("GET", "/api/me/groups", user=CARL)
    assert status == 200
    assert [group["id"] for group in groups["items"]] == [OTHER]
    assert (await both.web.call("GET", f"/api/groups/{GROUP}/tasks", user=CARL))[0] in (403, 404)
    await both.bot.send(wa_participants("add", [{"id": "34600444444@s.whatsapp.net", "admin": None}], group=GROUP))
    await both.bot.send(lid_text("buenas", lid="198765432100055", push_name="Eva"))
    _, members = await both.web.call("GET", f"/api/groups/{GROUP}/members", user=ANA)
    assert {person["id"] for person in members["items"]} == {
        both.web.pid(person) for person in (ANA, BEA, LIA, "34600444444", "198765432100055")}
