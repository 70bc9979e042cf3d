"""The fake gateway's new contract parts: send.message echoes to the registered webhook, fetchInstances,
findMessages, webhook/find, and the switches that play a gateway losing its webhook, going quiet or disconnecting."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from tasksvc_run.devgateway.local import LocalGateway
from tests.fakes.gateway import FakeGateway

HEADERS = {"apikey": "test-api-key"}
TEXT = {"number": "120363000000000001@g.us", "text": "hola"}


@dataclass
class Receiver:
    """A webhook on loopback that records what it is posted."""

    url: str = ""
    got: list[tuple[str, dict[str, Any], dict[str, str]]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle(self, request: web.Request) -> web.Response:
        """Record one post."""
        self.got.append((request.path, await request.json(), dict(request.headers)))
        self.arrived.set()
        return web.json_response({"status": "accepted"})

    async def wait(self, count: int, within: float = 3.0) -> None:
        """Until ``count`` posts arrived."""
        async with asyncio.timeout(within):
            while len(self.got) < count:
                self.arrived.clear()
                await self.arrived.wait()


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


async def call(gateway: FakeGateway, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session, session.request(
        method, gateway.url + path, json=body, headers=HEADERS
    ) as response:
        return response.status, await response.json()


async def test_a_send_is_echoed_as_send_message_with_the_answers_key_and_the_webhooks_headers(
    gateway: FakeGateway, receiver: Receiver
) -> None:
    gateway.store_webhook(receiver.url, events=["MESSAGES_UPSERT", "SEND_MESSAGE"], headers={"X-Webhook-Secret": "s"})
    status, answer = await call(gateway, "POST", "/message/sendText/taskbot", TEXT)
    assert status == 201
    await receiver.wait(1)
    path, body, headers = receiver.got[0]
    assert path == "/webhook"
    assert body["event"] == "send.message"
    assert body["data"]["key"] == answer["key"]
    assert body["data"]["key"]["fromMe"] is True
    assert body["sender"] == gateway.owner_jid
    assert headers["X-Webhook-Secret"] == "s"


async def test_no_echo_goes_to_a_webhook_not_subscribed_to_send_message(
    gateway: FakeGateway, receiver: Receiver
) -> None:
    gateway.store_webhook(receiver.url, events=["MESSAGES_UPSERT"])
    await call(gateway, "POST", "/message/sendText/taskbot", TEXT)
    await gateway.deliveries.settle()
    assert receiver.got == []


async def test_an_empty_events_list_takes_every_event_and_by_events_suffixes_the_url(
    gateway: FakeGateway, receiver: Receiver
) -> None:
    gateway.store_webhook(receiver.url, events=[])
    assert gateway.webhook_row is not None
    gateway.webhook_row["webhookByEvents"] = True
    await call(gateway, "POST", "/message/sendText/taskbot", TEXT)
    await receiver.wait(1)
    assert receiver.got[0][0] == "/webhook/send-message"


async def test_a_lost_configuration_or_stopped_delivery_posts_nothing(
    gateway: FakeGateway, receiver: Receiver
) -> None:
    gateway.store_webhook(receiver.url, events=["SEND_MESSAGE"])
    gateway.deliveries.delivering = False
    await call(gateway, "POST", "/message/sendText/taskbot", TEXT)
    gateway.deliveries.delivering = True
    gateway.lose_webhook()
    await call(gateway, "POST", "/message/sendText/taskbot", TEXT)
    await gateway.deliveries.settle()
    assert receiver.got == []
    assert await call(gateway, "GET", "/webhook/find/taskbot") == (200, None)


async def test_a_dropped_connection_is_told_and_fails_sends_until_it_opens_again(
    gateway: FakeGateway, receiver: Receiver
) -> None:
    gateway.store_webhook(receiver.url, events=["CONNECTION_UPDATE"])
    gateway.set_connection("close", 428)
    status, answer = await call(gateway, "POST", "/message/sendText/taskbot", TEXT)
    assert (status, answer["response"]["message"]) == (400, ["Error: Connection Closed"])
    gateway.set_connection("open")
    assert (await call(gateway, "POST", "/message/sendText/taskbot", TEXT))[0] == 201
    await receiver.wait(2)
    states = [(b["event"], b["data"]["state"], b["data"]["statusReason"]) for _, b, _ in receiver.got]
    assert states == [("connection.update", "close", 428), ("connection.update", "open", 200)]
    assert receiver.got[1][1]["data"]["wuid"] == gateway.owner_jid


async def test_fetch_instances_lists_the_instance_with_its_owner_jid(gateway: FakeGateway) -> None:
    status, rows = await call(gateway, "GET", "/instance/fetchInstances?instanceName=taskbot")
    assert status == 200
    assert rows[0]["name"] == "taskbot"
    assert rows[0]["ownerJid"] == "34600000999@s.whatsapp.net"
    assert rows[0]["connectionStatus"] == "open"
    assert (await call(gateway, "GET", "/instance/fetchInstances?instanceName=other"))[0] == 404


async def test_find_messages_finds_what_was_sent_newest_first_and_by_id(gateway: FakeGateway) -> None:
    _, first = await call(gateway, "POST", "/message/sendText/taskbot", TEXT)
    _, second = await call(gateway, "POST", "/message/sendText/taskbot", TEXT | {"text": "adiós"})
    where = {"key": {"remoteJid": TEXT["number"], "fromMe": True}}
    status, found = await call(gateway, "POST", "/chat/findMessages/taskbot", {"where": where})
    assert status == 200
    records = found["messages"]["records"]
    assert [r["key"]["id"] for r in records] == [second["key"]["id"], first["key"]["id"]]
    assert records[1]["message"] == {"conversation": "hola"}
    by_id = {"key": where["key"] | {"id": first["key"]["id"]}}
    _, found = await call(gateway, "POST", "/chat/findMessages/taskbot", {"where": by_id})
    assert found["messages"]["total"] == 1


async def test_find_messages_without_where_is_refused(gateway: FakeGateway) -> None:
    assert (await call(gateway, "POST", "/chat/findMessages/taskbot", {}))[0] == 400


async def test_the_dev_gateway_of_tasksvc_dev_echoes_to_the_registered_webhook_too(receiver: Receiver) -> None:
    async with LocalGateway() as local:
        local.store_webhook(receiver.url, events=["SEND_MESSAGE"])
        status, answer = await call(local, "POST", "/message/sendText/taskbot", TEXT)
        assert status == 201
        await receiver.wait(1)
    assert receiver.got[0][1]["data"]["key"]["id"] == answer["key"]["id"]
