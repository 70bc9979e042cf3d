"""The development chat simulator (SPEC section 12) over each local gateway (`tasksvc dev`, `tasksvc dev --gateway
waha`, SPEC section 36): a person creates a task and sees the reply in the transcript, replies to the bot's message
and reacts to it (SPEC section 18), proves a task with a photo (SPEC section 34). Its API goes through the real
/webhook in the gateway's own wire, and the bot's answers come back through the local gateway with their ids."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from taskcore.storage.db import Database
from tasksvc_run.devgateway.acts import Quoted, Reacted, Written
from tasksvc_run.devgateway.local import LocalGateway
from tasksvc_run.devgateway.local_waha import LocalWaha
from tasksvc_run.devgateway.media import SAMPLE_PNG
from tasksvc_run.devgateway.upserts import message_data, reaction_data
from tests.builders import GROUP, make_group
from tests.chat_support import assignees, task_rows
from tests.integration.household import GATEWAYS, household

ANA, BEA = "34600111111", "34600222222"


@dataclass
class Page:
    """The simulator's page over a local gateway, as its script calls it."""

    local: LocalGateway | LocalWaha
    session: aiohttp.ClientSession

    async def post(self, action: str, **body: str) -> int:
        """One action of the page (``send``, ``react``); the status of its answer."""
        async with self.session.post(f"{self.local.url}/dev/chat/api/{action}", json=body) as answer:
            return answer.status

    async def until(self, found: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first transcript entry that matches, waiting (bounded) for it."""
        async with asyncio.timeout(10):
            while True:
                for entry in self.local.transcript:
                    if found(entry):
                        return entry
                await asyncio.sleep(0.01)


@pytest.fixture(params=GATEWAYS)
async def page(request: pytest.FixtureRequest, sqlite_db: Database, tmp_path: Path) -> AsyncIterator[Page]:
    """The bot over the local gateway of each kind, Ana and Bea in the group Casa."""
    make_group(sqlite_db, GROUP, name="Casa", members=(ANA, BEA))
    async with household(sqlite_db, request.param, tmp_path, groups=(), simulator=True) as house, \
            aiohttp.ClientSession() as session:
        assert isinstance(house.fake, LocalGateway | LocalWaha)
        yield Page(house.fake, session)


async def test_a_person_creates_a_task_replies_to_the_bot_and_reacts_to_its_message(page: Page) -> None:
    assert await page.post("send", user=ANA, name="Ana", chat=GROUP, text="/t nueva pan") == 200
    created = await page.until(lambda m: "Tarea #1 creada" in m.get("text", "") and m.get("id"))
    assert (created["direction"], created["chat"]) == ("out", GROUP)
    assert await page.post("send", user=ANA, chat=GROUP, text="yo", quoted=created["id"]) == 200
    claimed = await page.until(lambda m: "Te quedas la tarea #1" in m.get("text", ""))
    assert await page.post("react", user=ANA, chat=GROUP, target=claimed["id"], emoji="✅") == 200
    await page.until(lambda m: "Tarea #1 completada" in m.get("text", ""))
    assert await page.post("react", user=ANA, chat=GROUP, target="nope", emoji="✅") == 422
    db = page.local.db
    assert db is not None
    assert assignees(db, 1) == {ANA}
    assert task_rows(db)[0].completed
    notes = [(m["direction"], m.get("reaction"), m.get("quoted")) for m in page.local.transcript
             if m["direction"] == "in"]
    assert notes[1:] == [("in", None, created["id"]), ("in", "✅", claimed["id"])]


async def test_the_simulator_sends_a_photo_that_proves_a_task(page: Page, tmp_path: Path) -> None:
    """SPEC section 34: the simulator's photo (its built-in sample, or a file's base64) goes through /webhook as the
    gateway sends a photo (Evolution API: an imageMessage whose bytes getBase64FromMediaMessage gives; WAHA: a
    message whose media URL the local WAHA serves), and the task waits for approval."""
    assert await page.post("send", user=ANA, name="Ana", chat=GROUP, text="/t nueva barrer !foto") == 200
    await page.until(lambda m: "#1 necesita una foto" in m.get("text", ""))
    assert await page.post("send", user=BEA, name="Bea", chat=GROUP, text="hecho 1", photo="sample") == 200
    await page.until(lambda m: "Foto de #1 «barrer» recibida" in m.get("text", ""))
    assert await page.post("send", user=BEA, chat=GROUP, text="", photo="%%%") == 422
    assert await page.post("send", user=ANA, chat=GROUP, text="/t aprobar 1") == 200
    await page.until(lambda m: "✅ Foto aprobada: #1" in m.get("text", ""))
    db = page.local.db
    assert db is not None
    assert task_rows(db)[0].completed_by == BEA
    [kept] = list((tmp_path / "photos").iterdir())
    assert kept.read_bytes() == SAMPLE_PNG


def test_the_simulated_events_have_the_gateways_shapes() -> None:
    bot_message = Quoted("3EB0AA", "34600000999@s.whatsapp.net", "Tarea #1 creada")
    reply = message_data(Written(GROUP, f"{ANA}@s.whatsapp.net", "hecho", "3A01", "Ana", quoted=bot_message))
    assert reply["contextInfo"] == {"stanzaId": "3EB0AA", "participant": "34600000999@s.whatsapp.net",
                                    "quotedMessage": {"conversation": "Tarea #1 creada"}}
    assert reply["key"] == {"remoteJid": GROUP, "fromMe": False, "id": "3A01",
                            "participant": f"{ANA}@s.whatsapp.net", "addressingMode": "pn"}
    someones = Quoted("ABC", f"{ANA}@s.whatsapp.net")
    removed = reaction_data(Reacted(GROUP, f"{ANA}@s.whatsapp.net", "", someones, "3A02", "Ana"))
    assert removed["messageType"] == "reactionMessage"
    assert removed["message"]["reactionMessage"]["key"] == {
        "remoteJid": GROUP, "fromMe": False, "id": "ABC", "participant": f"{ANA}@s.whatsapp.net"}
    assert removed["message"]["reactionMessage"]["text"] == ""
