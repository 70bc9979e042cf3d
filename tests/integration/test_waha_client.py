"""WAHA's client against the fake WAHA on loopback: every call of the port's Gateway, a wrong key, the session's
failures, 463 refused for good, the webhook written only when it differs, a photo fetched and bounded."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from taskcore.gateway.echo import text_digest
from taskcore.gateway.errors import GatewayError, MediaRefused
from taskcore.gateway.events import Identity
from taskcore.gateway.outbound import OutboundReaction, OutboundText, Quote
from taskcore.gateway.port import GatewayParticipant, OwnIds, WebhookOutcome, WebhookPlan
from taskcore.gateway.waha import answers
from tasksvc_run.gateways.waha import WahaGateway
from tests.fakes.waha import Receiver, SampleWaha, sample

GROUP = "120363300000000010@g.us"
CAROL = "15550100003@s.whatsapp.net"


@pytest.fixture
async def waha() -> AsyncIterator[SampleWaha]:
    async with SampleWaha() as fake:
        yield fake


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def client_of(waha: SampleWaha, http: aiohttp.ClientSession, *, key: str = "test-api-key",
              session: str = "taskbot", timeout_ms: int = 2000) -> WahaGateway:
    return WahaGateway(http, base_url=waha.url, session=session, api_key=key, timeout_ms=timeout_ms)


@pytest.fixture
def gw(waha: SampleWaha, http: aiohttp.ClientSession) -> WahaGateway:
    return client_of(waha, http)


async def test_a_text_is_sent_in_waha_s_words_and_its_bare_id_returned(waha: SampleWaha, gw: WahaGateway) -> None:
    sent = await gw.send_text(OutboundText(CAROL, "hola"))
    [call] = waha.calls_to("sendText")
    assert call.body == {"session": "taskbot", "chatId": "15550100003@c.us", "text": "hola", "linkPreview": False}
    assert sent == call.answer["id"].split("_")[2]
    assert sent is not None
    assert sent.startswith("3EB0")


async def test_a_send_with_an_id_chosen_before_is_found_by_it(gw: WahaGateway) -> None:
    chosen = await gw.new_message_id()
    assert chosen is not None
    quote = Quote("3A5F0C2E9B41D7A8C6E1", GROUP, False, "198765432100001@lid")
    assert await gw.send_text(OutboundText(GROUP, "listo", quote), message_id=chosen) == chosen
    [found] = await gw.find_sent(GROUP, message_id=chosen)
    assert (found.message_id, found.chat_id, found.digest) == (chosen, GROUP, text_digest("listo"))
    assert [m.message_id for m in await gw.find_sent(GROUP)] == [chosen]
    assert await gw.find_sent(GROUP, message_id="3EB0NEVERSENT") == []
    assert await gw.find_sent(CAROL) == []


async def test_a_wrong_key_is_refused_for_good(waha: SampleWaha, http: aiohttp.ClientSession) -> None:
    with pytest.raises(GatewayError) as refused:
        await client_of(waha, http, key="k-7f3a9c").send_text(OutboundText(CAROL, "hola"))
    assert (refused.value.status, refused.value.retryable) == (401, False)
    assert "k-7f3a9c" not in refused.value.message_text
    assert waha.calls == []


async def test_an_unknown_session_may_be_restarting_and_is_tried_again(waha: SampleWaha,
                                                                        http: aiohttp.ClientSession) -> None:
    with pytest.raises(GatewayError) as missing:
        await client_of(waha, http, session="other").connection_state()
    assert (missing.value.status, missing.value.retryable) == (404, True)


async def test_a_direct_message_to_someone_who_never_wrote_is_refused_for_good(waha: SampleWaha,
                                                                               gw: WahaGateway) -> None:
    waha.effects.refuse_cold = True
    with pytest.raises(GatewayError) as refused:
        await gw.send_text(OutboundText(CAROL, "Your login link: https://bot.example.org/l/xyz"))
    assert (refused.value.status, refused.value.retryable) == (500, False)
    assert "unreachable in private" in refused.value.message_text
    assert "463" in refused.value.message_text
    assert "login link" not in refused.value.message_text
    waha.effects.wrote_privately.add("15550100003")
    assert await gw.send_text(OutboundText(CAROL, "hola")) is not None
    assert await gw.send_text(OutboundText(GROUP, "hola")) is not None


async def test_a_session_that_is_not_working_is_tried_again(waha: SampleWaha, gw: WahaGateway) -> None:
    waha.set_connection("STARTING")
    with pytest.raises(GatewayError) as starting:
        await gw.send_text(OutboundText(GROUP, "hola"))
    assert (starting.value.status, starting.value.retryable) == (422, True)
    assert await gw.connection_state() == "connecting"
    waha.set_connection("FAILED")
    assert await gw.connection_state() == "close"
    waha.set_connection("WORKING")
    assert await gw.connection_state() == "open"


async def test_an_engine_that_is_unavailable_is_tried_again(waha: SampleWaha, gw: WahaGateway) -> None:
    waha.fail_next(route="sendText")
    with pytest.raises(GatewayError) as failed:
        await gw.send_text(OutboundText(GROUP, "hola"))
    assert (failed.value.status, failed.value.retryable) == (500, True)
    assert await gw.send_text(OutboundText(GROUP, "hola")) is not None


async def test_a_send_that_times_out_is_retryable_and_never_carried_out(waha: SampleWaha,
                                                                        http: aiohttp.ClientSession) -> None:
    waha.hang_next(seconds=0.5, route="sendText")
    with pytest.raises(GatewayError) as slow:
        await client_of(waha, http, timeout_ms=100).send_text(OutboundText(GROUP, "hola"))
    assert (slow.value.status, slow.value.retryable) == (None, True)
    await waha.wait_for(lambda fake: len(fake.dropped) == 1)
    assert waha.sent_texts() == []


async def test_a_reaction_names_the_message_with_its_author(waha: SampleWaha, gw: WahaGateway) -> None:
    sent = await gw.react(OutboundReaction(GROUP, "3A5F0C2E9B41D7A8C6E1", "✅", "15550100002@s.whatsapp.net"))
    [call] = waha.calls_to("reaction")
    assert call.body == {"session": "taskbot", "reaction": "✅",
                         "messageId": f"false_{GROUP}_3A5F0C2E9B41D7A8C6E1_15550100002@c.us"}
    assert sent == call.answer["id"].split("_")[2]


async def test_the_webhook_is_written_only_when_it_differs(waha: SampleWaha, gw: WahaGateway) -> None:
    crm = {"url": "http://127.0.0.1:9/crm", "events": ["message"]}
    waha.config = {"metadata": {"deployment": "tasksvc"}, "ignore": {"groups": False}, "webhooks": [crm]}
    async with Receiver() as bot:
        plan = WebhookPlan(bot.url, "s3cret")
        assert await gw.ensure_webhook(plan) == WebhookOutcome(changed=True, differed=("webhook",))
        assert await gw.ensure_webhook(plan) == WebhookOutcome(changed=False, differed=())
        assert waha.restarts == 1
        assert waha.config["metadata"] == {"deployment": "tasksvc"}
        assert [hook["url"] for hook in waha.config["webhooks"]] == [crm["url"], bot.url]
        assert (await gw.ensure_webhook(plan, force=True)).changed
        waha.lose_webhook()
        assert (await gw.ensure_webhook(plan)).changed
        assert waha.restarts == 3
        assert await gw.ensure_webhook(WebhookPlan(bot.url, "rotated")) == WebhookOutcome(True, ("secret",))
        assert waha.config["webhooks"][-1]["hmac"] == {"key": "rotated"}
        await waha.deliveries.settle()
    assert bot.events() == ["session.status", "session.status"] * 4  # each restart: STARTING, then WORKING


async def test_groups_with_participants_admins_and_addressing(gw: WahaGateway) -> None:
    assert await gw.list_groups(participants=True) == answers.groups_of(sample("outbound_groups_list_response_200"))
    assert {group.participants for group in await gw.list_groups()} == {()}
    assert await gw.group_participants(GROUP) == (  # named by LID: the group's addressing
        GatewayParticipant("15550100001", "198765432100001", True, form="lid"),
        GatewayParticipant("15550100000", "211000000000001", False, form="lid"),
        GatewayParticipant(None, "198765432100002", False, form="lid"),
        GatewayParticipant("15550100003", "198765432100003", False, form="lid"))


async def test_the_bot_s_own_ids_and_none_before_pairing(waha: SampleWaha, gw: WahaGateway) -> None:
    assert await gw.own_ids() == OwnIds("15550100000", "211000000000001")
    waha.owner_jid = None
    assert await gw.own_ids() == OwnIds(None, None)


async def test_a_lid_s_phone_when_waha_knows_it(gw: WahaGateway) -> None:
    assert await gw.lookup_lid("198765432100001") == Identity("15550100001", "198765432100001",
                                                              "198765432100001@lid")
    assert await gw.lookup_lid("198765432100004@lid") == Identity(None, "198765432100004", "198765432100004@lid")


async def test_a_waha_without_chosen_ids_gives_none(waha: SampleWaha, gw: WahaGateway) -> None:
    waha.fail_next(status=404, body={"message": "Cannot GET", "statusCode": 404}, route="new-message-id")
    assert await gw.new_message_id() is None


async def test_a_photo_is_fetched_from_the_gateway_with_the_key_and_bounded(waha: SampleWaha,
                                                                           gw: WahaGateway) -> None:
    waha.media.give("3A6B.jpeg", b"\xff\xd8" + b"x" * 1000)
    assert await gw.fetch_media("http://localhost:3000/api/files/taskbot/3A6B.jpeg", max_bytes=2000) == (
        b"\xff\xd8" + b"x" * 1000)
    [call] = waha.calls_to("files")
    assert call.headers["X-Api-Key"] == "test-api-key"
    with pytest.raises(MediaRefused, match="too_big"):
        await gw.fetch_media("/api/files/taskbot/3A6B.jpeg", max_bytes=500)
    waha.media.forget("3A6B.jpeg")
    with pytest.raises(GatewayError) as gone:
        await gw.fetch_media("/api/files/taskbot/3A6B.jpeg", max_bytes=2000)
    assert (gone.value.status, gone.value.retryable) == (404, False)
    with pytest.raises(MediaRefused, match="unreadable"):
        await gw.fetch_media("", max_bytes=2000)


async def test_the_key_never_goes_to_the_host_a_media_url_names(waha: SampleWaha, gw: WahaGateway) -> None:
    waha.media.give("a.jpeg", b"\xff\xd8ok")
    async with Receiver() as elsewhere:
        foreign = elsewhere.url.replace("/webhooks/waha", "/api/files/taskbot/a.jpeg")
        assert await gw.fetch_media(foreign, max_bytes=100) == b"\xff\xd8ok"
    assert elsewhere.got == []


async def test_an_answer_of_the_wrong_shape_is_a_permanent_error(waha: SampleWaha, gw: WahaGateway) -> None:
    waha.groups = {"JID": GROUP}  # type: ignore[assignment]
    with pytest.raises(GatewayError) as wrong:
        await gw.list_groups(participants=True)
    assert (wrong.value.status, wrong.value.retryable) == (None, False)
