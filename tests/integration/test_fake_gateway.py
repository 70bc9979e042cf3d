"""The fake gateway keeps to CONTRACT.md, so a client that passes against it speaks the real wire format."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tasksvc_run.devgateway.wire import is_single_emoji
from tests.fakes.gateway import FakeGateway, sample

HEADERS = {"apikey": "test-api-key"}


@pytest.fixture
async def gateway() -> AsyncIterator[FakeGateway]:
    async with FakeGateway() as gw:
        yield gw


async def call(gateway: FakeGateway, method: str, path: str, body: Any = None,
               headers: dict[str, str] | None = None) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session, session.request(
        method, gateway.url + path, json=body, headers=HEADERS if headers is None else headers
    ) as response:
        return response.status, await response.json()


async def test_the_sample_request_bodies_are_accepted(gateway: FakeGateway) -> None:
    status, _ = await call(gateway, "POST", "/message/sendText/taskbot",
                           sample("outbound_sendText_request_reply_mention"))
    assert status == 201
    status, _ = await call(gateway, "POST", "/message/sendReaction/taskbot", sample("outbound_sendReaction_request"))
    assert status == 201
    status, answer = await call(gateway, "POST", "/webhook/set/taskbot", sample("outbound_webhook_set_request"))
    assert status == 201
    assert set(answer) == set(sample("outbound_webhook_set_response_201"))


async def test_send_text_answers_in_the_sample_shape_with_a_fresh_id(gateway: FakeGateway) -> None:
    body = sample("outbound_sendText_request_reply_mention")
    _, first = await call(gateway, "POST", "/message/sendText/taskbot", body)
    _, second = await call(gateway, "POST", "/message/sendText/taskbot", body)
    assert set(first) == set(sample("outbound_sendText_response_201"))
    assert first["key"]["id"] != second["key"]["id"]
    assert len(first["key"]["id"]) == 22


async def test_a_v1_wrapped_send_text_body_is_a_schema_error(gateway: FakeGateway) -> None:
    status, answer = await call(gateway, "POST", "/message/sendText/taskbot",
                                {"number": "1", "textMessage": {"text": "hola"}})
    assert status == 400
    assert answer["response"]["message"] == ['instance requires property "text"']
    assert gateway.calls == []


async def test_a_reaction_of_two_emoji_is_refused(gateway: FakeGateway) -> None:
    body = {"key": {"remoteJid": "1@g.us", "fromMe": False, "id": "A"}, "reaction": "✅✅"}
    status, answer = await call(gateway, "POST", "/message/sendReaction/taskbot", body)
    assert status == 400
    assert answer["response"]["message"] == ["Reaction must be a single emoji or empty string"]


@pytest.mark.parametrize(("text", "single"), [
    ("✅", True), ("⚠️", True), ("🤖", True), ("👍🏽", True), ("👨‍👩‍👧", True), ("🇪🇸", True),
    ("ok", False), ("✅✅", False), ("", False),
])
def test_single_emoji_detection(text: str, single: bool) -> None:
    assert is_single_emoji(text) is single


async def test_a_flat_webhook_body_is_refused(gateway: FakeGateway) -> None:
    status, _ = await call(gateway, "POST", "/webhook/set/taskbot", {"enabled": True, "url": "http://x"})
    assert status == 400


async def test_a_webhook_body_without_events_is_a_server_error(gateway: FakeGateway) -> None:
    status, _ = await call(gateway, "POST", "/webhook/set/taskbot", {"webhook": {"enabled": True, "url": "http://x"}})
    assert status == 500


async def test_fetch_all_groups_requires_get_participants(gateway: FakeGateway) -> None:
    status, answer = await call(gateway, "GET", "/group/fetchAllGroups/taskbot")
    assert status == 400
    assert answer == sample("outbound_error_responses")["fetchAllGroups_missing_getParticipants_400"]


async def test_participants_of_an_unknown_group_are_a_404(gateway: FakeGateway) -> None:
    status, answer = await call(gateway, "GET", "/group/participants/taskbot?groupJid=9@g.us")
    assert status == 404
    assert answer["response"]["message"][0] == "No participants"


async def test_the_instance_is_checked_before_the_apikey(gateway: FakeGateway) -> None:
    status, _ = await call(gateway, "GET", "/instance/connectionState/other", headers={})
    assert status == 404
    status, answer = await call(gateway, "GET", "/instance/connectionState/taskbot", headers={})
    assert status == 401
    assert answer == sample("outbound_error_responses")["missing_or_wrong_apikey_401"]


async def test_a_request_off_the_contract_makes_close_fail_loudly() -> None:
    gateway = FakeGateway()
    await gateway.start()
    status, _ = await call(gateway, "POST", "/message/sendTxt/taskbot", {"number": "1", "text": "x"})
    assert status == 404
    with pytest.raises(AssertionError, match="sendTxt"):
        await gateway.close()


async def test_scripted_failures_answer_first_then_calls_are_served(gateway: FakeGateway) -> None:
    gateway.fail_next(2, status=503, route="sendText")
    statuses = [(await call(gateway, "POST", "/message/sendText/taskbot", {"number": "1", "text": "x"}))[0]
                for _ in range(3)]
    assert statuses == [503, 503, 201]
    assert len(gateway.calls) == 1
    assert gateway.failed == [("sendText", 503)] * 2


async def test_webhook_find_answers_null_until_a_webhook_is_set_then_the_stored_row(gateway: FakeGateway) -> None:
    assert await call(gateway, "GET", "/webhook/find/taskbot") == (200, None)
    _, stored = await call(gateway, "POST", "/webhook/set/taskbot", sample("outbound_webhook_set_request"))
    status, found = await call(gateway, "GET", "/webhook/find/taskbot")
    assert (status, found) == (200, stored)
    assert set(found) == set(sample("outbound_webhook_set_response_201"))


async def test_settings_find_answers_the_groups_ignore_flag_or_null_without_a_settings_row(
    gateway: FakeGateway,
) -> None:
    _, found = await call(gateway, "GET", "/settings/find/taskbot")
    assert found["groupsIgnore"] is False
    assert set(found) == {"rejectCall", "msgCall", "groupsIgnore", "alwaysOnline", "readMessages", "readStatus",
                          "syncFullHistory", "wavoipToken"}
    gateway.groups_ignore = None
    assert await call(gateway, "GET", "/settings/find/taskbot") == (200, None)


async def test_the_root_answers_the_version_without_a_key(gateway: FakeGateway) -> None:
    status, answer = await call(gateway, "GET", "/", headers={})
    assert (status, answer["status"], answer["version"]) == (200, 200, "2.3.7")


async def test_diagnostic_calls_check_the_instance_then_the_key(gateway: FakeGateway) -> None:
    for path in ("/settings/find/", "/webhook/find/"):
        assert (await call(gateway, "GET", path + "other"))[0] == 404
        assert (await call(gateway, "GET", path + "taskbot", headers={"apikey": "wrong"}))[0] == 401


async def test_a_gateway_asking_for_a_licence_answers_503_license_required(gateway: FakeGateway) -> None:
    gateway.license_required = True
    status, answer = await call(gateway, "GET", "/instance/connectionState/taskbot")
    assert (status, answer["code"]) == (503, "LICENSE_REQUIRED")


async def test_every_sample_group_lists_the_bot_itself_as_a_participant(gateway: FakeGateway) -> None:
    bot = sample("inbound_connection_update_open")["sender"]
    _, groups = await call(gateway, "GET", "/group/fetchAllGroups/taskbot?getParticipants=true")
    assert groups
    for group in groups:
        assert bot in {p.get("phoneNumber") or p["id"] for p in group["participants"]}, group["id"]


async def test_a_send_answered_late_is_carried_out_though_its_caller_gave_up(gateway: FakeGateway) -> None:
    gateway.answer_late(seconds=1.0, route="sendText")
    with pytest.raises(TimeoutError):
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=0.2)) as session, session.post(
            gateway.url + "/message/sendText/taskbot", json={"number": "34600000001", "text": "hola"},
            headers=HEADERS) as response:
            await response.read()
    assert gateway.sent_texts() == ["hola"]
    status, _ = await call(gateway, "POST", "/message/sendText/taskbot", {"number": "34600000001", "text": "otra"})
    assert status == 201  # once only
    assert gateway.sent_texts() == ["hola", "otra"]
