"""The development chat simulator (SPEC section 12) can reply to a message and react to one (SPEC section 18): its
API goes through the real /webhook, and the bot's answers come back through the local gateway with their ids."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from taskcore.storage.db import Database
from tasksvc_run import keys
from tasksvc_run.bot.photo_fetcher import PhotoFetcher
from tasksvc_run.bot.worker import QueueWorker
from tasksvc_run.devgateway.local import LocalGateway, Quoted, message_event, reaction_event
from tasksvc_run.devgateway.media import SAMPLE_PNG
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics
from tests.builders import GROUP, make_group
from tests.chat_support import assignees, task_rows
from tests.integration.bot_harness import running_bot
from tests.integration.conversation import FAST

ANA = "34600111111"


async def until(gateway: LocalGateway, found: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first transcript entry that matches, waiting (bounded) for it."""
    async with asyncio.timeout(10):
        while True:
            for entry in gateway.transcript:
                if found(entry):
                    return entry
            await asyncio.sleep(0.01)


async def test_a_person_replies_to_the_bot_and_reacts_to_its_message(sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, name="Casa", members=(ANA,))
    async with running_bot(sqlite_db, {"RATE_LIMIT_PER_MIN": "1000"}) as bot:
        gateway = LocalGateway(db=sqlite_db, webhook_url=str(bot.client.make_url("/webhook")))
        async with gateway, aiohttp.ClientSession() as session:
            client = EvolutionGateway(session, base_url=gateway.url, instance=gateway.instance,
                                   api_key=gateway.api_key, timeout_ms=2000)
            worker = QueueWorker(sqlite_db, client, clock=bot.clock, metrics=Metrics(), config=FAST)
            worker.start()
            try:
                async def post(path: str, body: dict[str, Any]) -> int:
                    async with session.post(f"{gateway.url}/dev/chat/api/{path}", json=body) as answer:
                        return answer.status

                assert await post("send", {"user": ANA, "name": "Ana", "chat": GROUP, "text": "/t nueva pan"}) == 200
                created = await until(gateway, lambda m: "Tarea #1 creada" in m.get("text", "") and m.get("id"))
                assert await post("send", {"user": ANA, "chat": GROUP, "text": "yo", "quoted": created["id"]}) == 200
                claimed = await until(gateway, lambda m: "Te quedas la tarea #1" in m.get("text", ""))
                assert await post("react", {"user": ANA, "chat": GROUP, "target": claimed["id"], "emoji": "✅"}) == 200
                await until(gateway, lambda m: "Tarea #1 completada" in m.get("text", ""))
                assert await post("react", {"user": ANA, "chat": GROUP, "target": "nope", "emoji": "✅"}) == 422
            finally:
                await worker.stop()
    assert assignees(sqlite_db, 1) == {ANA}
    assert task_rows(sqlite_db)[0].completed
    notes = [(m["direction"], m.get("reaction"), m.get("quoted")) for m in gateway.transcript if m["direction"] == "in"]
    assert notes[1:] == [("in", None, created["id"]), ("in", "✅", claimed["id"])]


def test_the_simulated_events_have_the_gateways_shapes() -> None:
    bot_message = Quoted("3EB0AA", "34600000999@s.whatsapp.net", "Tarea #1 creada")
    reply = message_event(instance="dev", chat=GROUP, user=ANA, name="Ana", text="hecho", quoted=bot_message)
    assert reply["data"]["contextInfo"] == {"stanzaId": "3EB0AA", "participant": "34600000999@s.whatsapp.net",
                                            "quotedMessage": {"conversation": "Tarea #1 creada"}}
    someones = Quoted("ABC", f"{ANA}@s.whatsapp.net")
    removed = reaction_event(instance="dev", chat=GROUP, user=ANA, name="Ana", emoji="", target=someones)
    assert removed["data"]["messageType"] == "reactionMessage"
    assert removed["data"]["message"]["reactionMessage"]["key"] == {
        "remoteJid": GROUP, "fromMe": False, "id": "ABC", "participant": f"{ANA}@s.whatsapp.net"}
    assert removed["data"]["message"]["reactionMessage"]["text"] == ""


async def test_the_simulator_sends_a_photo_that_proves_a_task(sqlite_db: Database, tmp_path: Path) -> None:
    """SPEC section 34: the simulator's photo (its built-in sample, or a file's base64) goes through /webhook as an
    imageMessage, the local gateway serves it to getBase64FromMediaMessage, and the task waits for approval."""
    bea = "34600222222"
    make_group(sqlite_db, GROUP, name="Casa", members=(ANA, bea))
    async with running_bot(sqlite_db, {"RATE_LIMIT_PER_MIN": "1000", "DATA_DIR": str(tmp_path)}) as bot:
        gateway = LocalGateway(db=sqlite_db, webhook_url=str(bot.client.make_url("/webhook")))
        async with gateway, aiohttp.ClientSession() as session:
            client = EvolutionGateway(session, base_url=gateway.url, instance=gateway.instance,
                                   api_key=gateway.api_key, timeout_ms=2000)
            worker = QueueWorker(sqlite_db, client, clock=bot.clock, metrics=Metrics(), config=FAST)
            fetcher = PhotoFetcher(sqlite_db, client, settings=bot.app[keys.SETTINGS], clock=bot.clock,
                                   poll_seconds=0.05)
            worker.start()
            fetcher.start()
            try:
                async def post(body: dict[str, Any]) -> int:
                    async with session.post(f"{gateway.url}/dev/chat/api/send", json=body) as answer:
                        return answer.status

                assert await post({"user": ANA, "name": "Ana", "chat": GROUP, "text": "/t nueva barrer !foto"}) == 200
                await until(gateway, lambda m: "#1 necesita una foto" in m.get("text", ""))
                assert await post({"user": bea, "name": "Bea", "chat": GROUP, "text": "hecho 1",
                                   "photo": "sample"}) == 200
                await until(gateway, lambda m: "Foto de #1 «barrer» recibida" in m.get("text", ""))
                assert await post({"user": bea, "chat": GROUP, "text": "", "photo": "%%%"}) == 422
                assert await post({"user": ANA, "chat": GROUP, "text": "/t aprobar 1"}) == 200
                await until(gateway, lambda m: "✅ Foto aprobada: #1" in m.get("text", ""))
            finally:
                await fetcher.stop()
                await worker.stop()
    assert task_rows(sqlite_db)[0].completed_by == bea
    [kept] = list((tmp_path / "photos").iterdir())
    assert kept.read_bytes() == SAMPLE_PNG
