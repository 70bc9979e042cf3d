"""The fake WAHA keeps to its contract: what it pushes to the bot's webhook is signed as WAHA signs it and decodes
with the bot's own decoder into the events a real WAHA would give (the fake and the decoder cannot drift apart)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from taskcore.gateway.echo import text_digest
from taskcore.gateway.errors import GatewayError
from taskcore.gateway.events import DeliveryStatus, Echo, InboundMessage, InboundPhoto, StatusUpdate
from taskcore.gateway.outbound import OutboundReaction, OutboundText, Quote
from taskcore.gateway.port import WebhookPlan
from taskcore.gateway.waha import webhook
from taskcore.gateway.waha.decode import CODEC
from tasksvc_run.devgateway.waha_records import Quoted, Said
from tasksvc_run.gateways.waha import WahaGateway
from tests.fakes.waha import Receiver, SampleWaha

GROUP = "120363300000000010@g.us"
KEY = "s3cret"
FAST = {"policy": "constant", "delaySeconds": 0, "attempts": 2}


@pytest.fixture
async def bot() -> AsyncIterator[Receiver]:
    async with Receiver() as receiver:
        yield receiver


@pytest.fixture
async def waha(bot: Receiver) -> AsyncIterator[SampleWaha]:
    async with SampleWaha() as fake:
        fake.store_webhook(bot.url, hmac_key=KEY, retries=FAST)
        yield fake


@pytest.fixture
async def gw(waha: SampleWaha) -> AsyncIterator[WahaGateway]:
    async with aiohttp.ClientSession() as http:
        yield WahaGateway(http, base_url=waha.url, session="taskbot", api_key="test-api-key", timeout_ms=2000)


async def delivered(waha: SampleWaha, bot: Receiver) -> list[Any]:
    await waha.deliveries.settle()
    assert all(webhook.signature_ok(d.body, d.headers, KEY) for d in bot.got)
    return [CODEC.decode(delivery.payload) for delivery in bot.got]


async def test_a_group_send_is_echoed_then_acknowledged_by_each_member(waha: SampleWaha, bot: Receiver,
                                                                      gw: WahaGateway) -> None:
    sent = await gw.send_text(OutboundText(GROUP, "Task #12 created"))
    assert sent is not None
    echo, *acks = await delivered(waha, bot)
    assert echo == Echo("taskbot", echo.sent)
    assert (echo.sent.message_id, echo.sent.chat_id, echo.sent.digest) == (sent, GROUP, text_digest("Task #12 created"))
    assert bot.events() == ["message.any", *["message.ack.group"] * 3]
    assert acks == [DeliveryStatus("taskbot", (StatusUpdate(sent, GROUP, "DELIVERY_ACK", None, member),))
                    for member in ("198765432100001@lid", "198765432100002@lid", "198765432100003@lid")]


async def test_a_direct_send_is_echoed_then_delivered_then_read(waha: SampleWaha, bot: Receiver,
                                                                 gw: WahaGateway) -> None:
    waha.effects.ack_levels = (2, 3)
    sent = await gw.send_text(OutboundText("15550100003@s.whatsapp.net", "hola"))
    events = await delivered(waha, bot)
    assert bot.events() == ["message.any", "message.ack", "message.ack"]
    assert [e.updates[0].status for e in events[1:]] == ["DELIVERY_ACK", "READ"]
    assert {e.updates[0].message_id for e in events[1:]} == {sent}
    assert (await gw.find_sent("15550100003@s.whatsapp.net"))[0].message_id == sent


async def test_a_reply_quotes_what_the_store_holds(waha: SampleWaha, bot: Receiver, gw: WahaGateway) -> None:
    asked = waha.say(Said(GROUP, "198765432100001@lid", "add task: renew the domain", "Alice"))
    await gw.send_text(OutboundText(GROUP, "Task #12 created", Quote(asked, GROUP, False, "198765432100001@lid")))
    await gw.send_text(OutboundText(GROUP, "unquoted", Quote("3AGONE", GROUP, False, "198765432100001@lid")))
    echoes = [e for e in await delivered(waha, bot) if isinstance(e, Echo)]
    assert [e.sent.quoted_id for e in echoes] == [asked, None]  # GOWS sends unquoted what it does not store


async def test_what_someone_writes_comes_as_message_and_message_any_one_message_by_id(
        waha: SampleWaha, bot: Receiver) -> None:
    waha.say(Said(GROUP, "198765432100002@lid", "hecho 12", quoted=Quoted("3EB0AA", "211000000000001@lid", "T")))
    first, again = await delivered(waha, bot)
    assert bot.events() == ["message", "message.any"]
    assert first == again
    assert isinstance(first, InboundMessage)
    assert (first.quoted_id, first.sender.phone, first.participant) == ("3EB0AA", None, "198765432100002@lid")
    assert len({d.payload["id"] for d in bot.got}) == 2  # two events, each its own envelope id


async def test_a_photo_is_pushed_with_a_url_the_client_fetches(waha: SampleWaha, bot: Receiver,
                                                              gw: WahaGateway) -> None:
    waha.media.give("3A6B.jpeg", b"\xff\xd8photo")
    media = {"url": "http://localhost:3000/api/files/taskbot/3A6B.jpeg", "mimetype": "image/jpeg", "size": 7}
    waha.say(Said(GROUP, "198765432100003@lid", "hecho 12", media=media))
    photo = (await delivered(waha, bot))[0]
    assert isinstance(photo, InboundPhoto)
    assert (photo.media, photo.declared_size) == (media["url"], 7)
    assert await gw.fetch_media(photo.media, max_bytes=100) == b"\xff\xd8photo"


async def test_the_bot_s_reaction_is_echoed_as_a_reaction(waha: SampleWaha, bot: Receiver, gw: WahaGateway) -> None:
    sent = await gw.react(OutboundReaction(GROUP, "3A5F", "✅", "198765432100001@lid"))
    [echo] = await delivered(waha, bot)
    assert echo == Echo("taskbot", echo.sent)
    assert (echo.sent.message_id, echo.sent.digest) == (sent, None)


async def test_a_refused_send_pushes_nothing(waha: SampleWaha, bot: Receiver, gw: WahaGateway) -> None:
    waha.effects.refuse_cold = True
    with pytest.raises(GatewayError, match="463"):
        await gw.send_text(OutboundText("15550100009@s.whatsapp.net", "hola"))
    assert await delivered(waha, bot) == []
    assert waha.failed == [("sendText", 500)]


async def test_a_failed_delivery_is_retried_with_the_same_request_id(waha: SampleWaha, bot: Receiver) -> None:
    bot.status = [500, 200]
    waha.set_connection("STARTING")
    await waha.deliveries.settle()
    first, retry = bot.got
    assert first.headers["X-Webhook-Request-Id"] == retry.headers["X-Webhook-Request-Id"]
    assert first.body == retry.body
    assert webhook.dedupe_key(first.headers, first.payload) == webhook.dedupe_key(retry.headers, retry.payload)


async def test_without_an_hmac_key_nothing_is_signed(waha: SampleWaha, bot: Receiver) -> None:
    waha.store_webhook(bot.url, retries=FAST)
    waha.set_connection("close")
    await waha.deliveries.settle()
    [status] = bot.got
    assert "X-Webhook-Hmac" not in status.headers
    assert status.payload["payload"]["status"] == "STOPPED"


async def test_a_webhook_off_this_machine_is_never_called(waha: SampleWaha) -> None:
    waha.store_webhook("https://bot.example.org/webhooks/waha", retries=FAST)
    waha.set_connection("WORKING")
    await waha.deliveries.settle()
    assert [post.status for post in waha.deliveries.posted] == [None, None, None]


async def test_only_the_events_a_webhook_subscribes_to_are_posted(waha: SampleWaha, bot: Receiver,
                                                                  gw: WahaGateway) -> None:
    waha.store_webhook(bot.url, events=["message.any"], hmac_key=KEY, retries=FAST)
    await gw.send_text(OutboundText(GROUP, "hola"))
    await delivered(waha, bot)
    assert bot.events() == ["message.any"]


@pytest.mark.parametrize(("body", "status"), [
    ({"session": "taskbot", "chatId": "15550100003@s.whatsapp.net", "text": "hola"}, 400),
    ({"session": "taskbot", "chatId": "15550100003@c.us", "text": "hola", "replyTo": "x"}, 400),
    ({"session": "taskbot", "chatId": "15550100003@c.us", "text": "hola", "mentions": ["all"]}, 422),
    ({"session": "taskbot", "chatId": "15550100003@c.us"}, 400),
    ({"chatId": "15550100003@c.us", "text": "hola"}, 404),
])
async def test_a_body_off_the_contract_is_refused(waha: SampleWaha, body: dict[str, Any], status: int) -> None:
    async with aiohttp.ClientSession() as http, http.post(waha.url + "/api/sendText", json=body,
                                                          headers={"X-Api-Key": "test-api-key"}) as answer:
        assert answer.status == status
    assert waha.calls == []


async def test_a_session_update_with_unknown_events_is_refused(waha: SampleWaha, gw: WahaGateway) -> None:
    async with aiohttp.ClientSession() as http, http.put(
            waha.url + "/api/sessions/taskbot", headers={"X-Api-Key": "test-api-key"},
            json={"config": {"webhooks": [{"url": "http://127.0.0.1:9/", "events": ["MESSAGES_UPSERT"]}]}}) as answer:
        assert answer.status == 400
    waha.store_webhook("http://127.0.0.1:9/", events=["message"], retries=FAST)
    assert (await gw.ensure_webhook(WebhookPlan("http://127.0.0.1:9/"))).changed


async def test_a_route_off_the_contract_makes_close_raise() -> None:
    fake = SampleWaha()
    await fake.start()
    async with aiohttp.ClientSession() as http, http.post(fake.url + "/message/sendText/taskbot",
                                                          headers={"X-Api-Key": "test-api-key"}) as answer:
        assert answer.status == 404
    with pytest.raises(AssertionError, match="off the contract"):
        await fake.close()
