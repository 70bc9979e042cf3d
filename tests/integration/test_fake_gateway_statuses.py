"""The fake and dev gateways' part of SPEC section 31: each send's statuses (SERVER_ACK, then DELIVERY_ACK; in a group
SERVER_ACK only: Evolution API posts no member's receipt) after its echo, ERROR for a cold direct message when
switched on, echoes as ``fromMe`` upserts, and participants known only by their LID."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from tasksvc_run.devgateway.local import LocalGateway
from tests.fakes.gateway import FakeGateway
from tests.integration.test_fake_gateway_echo import Receiver, call

GROUP_TEXT = {"number": "120363000000000001@g.us", "text": "hola"}
DIRECT_TEXT = {"number": "34600000013@s.whatsapp.net", "text": "hola"}
COLD, WARM = "34600000011", "34600000012"
ALL = ["SEND_MESSAGE", "MESSAGES_UPDATE", "MESSAGES_UPSERT"]


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    got = Receiver()
    app = web.Application()
    app.router.add_post("/{tail:.*}", got.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    got.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/webhook"  # type: ignore[union-attr]
    yield got
    await runner.cleanup()


def events(receiver: Receiver) -> list[tuple[str, Any]]:
    return [(body["event"], body["data"].get("status")) for _path, body, _headers in receiver.got]


async def test_each_send_is_echoed_then_acknowledged_by_the_server_then_delivered(
        gateway: FakeGateway, receiver: Receiver) -> None:
    gateway.store_webhook(receiver.url, events=ALL)
    _, answer = await call(gateway, "POST", "/message/sendText/taskbot", DIRECT_TEXT)
    await receiver.wait(3)
    assert events(receiver) == [("send.message", "PENDING"), ("messages.update", "SERVER_ACK"),
                                ("messages.update", "DELIVERY_ACK")]
    update = receiver.got[1][1]["data"]
    assert (update["keyId"], update["remoteJid"], update["fromMe"]) == (answer["key"]["id"], DIRECT_TEXT["number"],
                                                                       True)


async def test_a_cold_direct_message_ends_in_error_when_switched_on(gateway: FakeGateway, receiver: Receiver) -> None:
    gateway.store_webhook(receiver.url, events=["MESSAGES_UPDATE"])
    gateway.effects.refuse_cold = True
    gateway.effects.wrote_privately.add(WARM)
    for number in (f"{COLD}@s.whatsapp.net", WARM, GROUP_TEXT["number"]):
        status, _ = await call(gateway, "POST", "/message/sendText/taskbot", {"number": number, "text": "hola"})
        assert status == 201  # the send is accepted all the same
    await receiver.wait(4)
    by_chat = {}
    for _path, body, _headers in receiver.got:
        by_chat.setdefault(body["data"]["remoteJid"], []).append(body["data"]["status"])
    assert by_chat == {f"{COLD}@s.whatsapp.net": ["ERROR"], f"{WARM}@s.whatsapp.net": ["SERVER_ACK", "DELIVERY_ACK"],
                       GROUP_TEXT["number"]: ["SERVER_ACK"]}


async def test_echoes_come_as_fromme_upserts_when_configured(gateway: FakeGateway, receiver: Receiver) -> None:
    gateway.store_webhook(receiver.url, events=ALL)
    gateway.effects.echo_as_upsert = True
    gateway.effects.statuses = False
    _, answer = await call(gateway, "POST", "/message/sendText/taskbot", GROUP_TEXT)
    await receiver.wait(1)
    await gateway.deliveries.settle()
    [(_path, body, _headers)] = receiver.got
    assert (body["event"], body["data"]["key"]["fromMe"], body["data"]["key"]["id"]) == (
        "messages.upsert", True, answer["key"]["id"])


async def test_participants_known_only_by_their_lid_are_served_as_given(gateway: FakeGateway) -> None:
    only_lid = {"id": "198765432100009@lid", "admin": None}
    gateway.participants[GROUP_TEXT["number"]] = [only_lid]
    status, answer = await call(gateway, "GET", f"/group/participants/taskbot?groupJid={GROUP_TEXT['number']}")
    assert (status, answer["participants"]) == (200, [only_lid])


async def test_the_dev_gateway_switches_and_learns_who_wrote_in_private(receiver: Receiver) -> None:
    async with LocalGateway(webhook_url=receiver.url) as local:
        local.store_webhook(receiver.url, events=["MESSAGES_UPDATE"])
        async with aiohttp.ClientSession() as session:
            async with session.post(f"{local.url}/dev/chat/api/switches", json={"refuse_cold": True}) as answer:
                assert (await answer.json())["refuse_cold"] is True
            async with session.post(f"{local.url}/dev/chat/api/send", json={"user": WARM, "text": "hola"}) as answer:
                assert answer.status == 200
        assert WARM in local.effects.wrote_privately
        await call(local, "POST", "/message/sendText/taskbot", {"number": COLD, "text": "hola"})
        await receiver.wait(2)  # the simulator's message, then the refusal
    assert receiver.got[-1][1]["data"]["status"] == "ERROR"
