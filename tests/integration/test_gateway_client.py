"""The Evolution API client (the port's Gateway) against the fake gateway on loopback: the bodies it encodes from the
bot's words, the answers it reads, and how failures are classified."""

from __future__ import annotations

import logging
import socket
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from taskcore.gateway.errors import GatewayError
from taskcore.gateway.evolution.encode import WEBHOOK_EVENTS
from taskcore.gateway.outbound import OutboundReaction, OutboundText, Quote
from taskcore.gateway.port import WebhookPlan
from tasksvc_run.gateways.evolution import EvolutionGateway
from tests.fakes.gateway import FakeGateway, sample

KEY = "k-super-secret-123"
OPS = "120363300000000010@g.us"
ERRORS: dict[str, Any] = sample("outbound_error_responses")


@pytest.fixture
async def gateway() -> AsyncIterator[FakeGateway]:
    async with FakeGateway(api_key=KEY) as gw:
        yield gw


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as s:
        yield s


def client_for(session: aiohttp.ClientSession, url: str, *, key: str = KEY, instance: str = "taskbot",
               timeout_ms: int = 2000) -> EvolutionGateway:
    return EvolutionGateway(session, base_url=url, instance=instance, api_key=key, timeout_ms=timeout_ms)


@pytest.fixture
def client(session: aiohttp.ClientSession, gateway: FakeGateway) -> EvolutionGateway:
    return client_for(session, gateway.url)


async def test_send_text_returns_the_gateway_message_id_and_sends_the_apikey_header(
    client: EvolutionGateway, gateway: FakeGateway
) -> None:
    text = OutboundText(OPS, "@1555 hecho", Quote("3A5F", OPS, participant="1987@lid", text="hola"),
                        ("198765432100001@lid",))
    message_id = await client.send_text(text)
    assert message_id is not None
    assert message_id.startswith("3EB0")
    [call] = gateway.calls_to("sendText")
    assert call.body == {"number": OPS, "text": "@1555 hecho", "linkPreview": False,
                         "quoted": {"key": {"id": "3A5F", "remoteJid": OPS, "fromMe": False, "participant": "1987@lid"},
                                    "message": {"conversation": "hola"}},
                         "mentioned": ["198765432100001@lid"]}
    assert call.headers["apikey"] == KEY


async def test_send_reaction_returns_the_reaction_message_id(client: EvolutionGateway, gateway: FakeGateway) -> None:
    reaction = OutboundReaction(OPS, "3A5F0C2E9B41D7A8C6E1", "✅", participant="198765432100001@lid")
    assert (await client.react(reaction) or "").startswith("3EB0")
    assert gateway.calls_to("sendReaction")[0].body == {
        "key": {"remoteJid": OPS, "fromMe": False, "id": "3A5F0C2E9B41D7A8C6E1", "participant": "198765432100001@lid"},
        "reaction": "✅"}


async def test_fetch_all_groups_asks_without_participants_and_parses_the_answer(
    client: EvolutionGateway, gateway: FakeGateway
) -> None:
    groups = await client.list_groups()
    assert len(groups) == 4
    assert all(not g.participants for g in groups)
    assert gateway.calls_to("fetchAllGroups")[0].query == {"getParticipants": "false"}


async def test_group_participants_are_parsed_to_phone_and_lid_digits(client: EvolutionGateway) -> None:
    people = await client.group_participants(OPS)
    assert next((p.phone, p.lid) for p in people) == ("15550100001", "198765432100001")


async def test_the_webhook_is_set_nested_with_every_event_and_the_secret_header(
    client: EvolutionGateway, gateway: FakeGateway
) -> None:
    done = await client.ensure_webhook(WebhookPlan("https://bot.example.org/webhook", "s3"), force=True)
    assert done.changed
    assert gateway.webhook == {"enabled": True, "url": "https://bot.example.org/webhook",
                               "events": list(WEBHOOK_EVENTS), "byEvents": False, "base64": False,
                               "headers": {"X-Webhook-Secret": "s3"}}


async def test_a_webhook_set_as_planned_is_left_alone(client: EvolutionGateway, gateway: FakeGateway) -> None:
    plan = WebhookPlan("https://bot.example.org/webhook", "s3")
    await client.ensure_webhook(plan, force=True)
    assert not (await client.ensure_webhook(plan)).changed
    assert len(gateway.calls_to("webhook/set")) == 1


async def test_connection_state_reads_the_state(client: EvolutionGateway, gateway: FakeGateway) -> None:
    gateway.state = "connecting"
    assert await client.connection_state() == "connecting"


@pytest.mark.parametrize(("name", "retryable"), [
    ("unknown_instance_404", False),
    ("missing_or_wrong_apikey_401", False),
    ("body_schema_violation_400", False),
    ("group_route_missing_groupJid_400", False),
    ("fetchAllGroups_missing_getParticipants_400", False),
    ("number_not_on_whatsapp_400", False),
    ("send_failed_socket_closed_400", True),
    ("send_failed_whatsapp_rate_limit_400_derived", True),
    ("send_to_group_metadata_unavailable_400", False),
    ("findGroupInfos_failed_404", False),
    ("unhandled_error_500", True),
    ("unknown_route_404", False),
])
async def test_each_sample_error_body_is_classified(
    client: EvolutionGateway, gateway: FakeGateway, name: str, retryable: bool
) -> None:
    gateway.fail_next(status=ERRORS[name]["status"], body=ERRORS[name])
    with pytest.raises(GatewayError) as caught:
        await client.send_text(OutboundText("34600000001@s.whatsapp.net", "hola"))
    assert (caught.value.status, caught.value.retryable) == (ERRORS[name]["status"], retryable)


async def test_a_wrong_apikey_is_a_permanent_401_that_never_shows_the_key(
    session: aiohttp.ClientSession, gateway: FakeGateway, caplog: pytest.LogCaptureFixture
) -> None:
    wrong = "wrong-key-never-shown-42"
    caplog.set_level(logging.DEBUG)
    with pytest.raises(GatewayError) as caught:
        await client_for(session, gateway.url, key=wrong).send_text(OutboundText("1@s.whatsapp.net", "x"))
    assert (caught.value.status, caught.value.retryable, caught.value.message_text) == (
        401, False, "message/sendText: Unauthorized")
    assert wrong not in repr(caught.value)
    assert wrong not in caplog.text
    assert KEY not in caplog.text


async def test_an_unknown_instance_is_a_permanent_404(session: aiohttp.ClientSession, gateway: FakeGateway) -> None:
    with pytest.raises(GatewayError) as caught:
        await client_for(session, gateway.url, instance="taskbot-old").connection_state()
    assert caught.value.status == 404
    assert not caught.value.retryable
    assert 'The "taskbot-old" instance does not exist' in caught.value.message_text


async def test_a_timeout_is_retryable(session: aiohttp.ClientSession, gateway: FakeGateway) -> None:
    gateway.hang_next(seconds=1.0)
    with pytest.raises(GatewayError) as caught:
        await client_for(session, gateway.url, timeout_ms=100).send_text(OutboundText("3460@s.whatsapp.net", "x"))
    assert (caught.value.status, caught.value.retryable) == (None, True)


async def test_a_refused_connection_is_retryable(session: aiohttp.ClientSession) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(GatewayError) as caught:
        await client_for(session, f"http://127.0.0.1:{port}").connection_state()
    assert (caught.value.status, caught.value.retryable) == (None, True)
