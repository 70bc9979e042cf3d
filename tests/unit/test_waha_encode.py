"""WAHA's requests and answers in the bot's words (contract sections 1, 2 and 4): chats in WAHA's forms, mentions
only in groups, serialized ids, the webhook inside the session's whole configuration and changed only when it
differs, where a photo is fetched, and answers of the wrong shape."""

from __future__ import annotations

from typing import Any

import pytest

from taskcore.gateway.errors import UnreadableAnswer
from taskcore.gateway.outbound import OutboundReaction, OutboundText, Quote
from taskcore.gateway.port import WebhookPlan
from taskcore.gateway.waha import answers, encode, errors
from taskcore.gateway.waha.decode import EVENTS
from taskcore.gateway.waha.jids import bare_id, serialized_id, waha_chat, whatsapp_jid
from tests.fakes.waha import sample

GROUP = "120363300000000010@g.us"
URL = "https://bot.example.org/webhooks/waha"
PLAN = WebhookPlan(URL, "s3cret")


@pytest.mark.parametrize(("jid", "waha"), [
    ("15550100003@s.whatsapp.net", "15550100003@c.us"), ("15550100003", "15550100003@c.us"),
    ("15550100003:12@s.whatsapp.net", "15550100003@c.us"), ("198765432100003@lid", "198765432100003@lid"),
    (GROUP, GROUP), ("15550100007-1600000000@g.us", "15550100007-1600000000@g.us"),
])
def test_chats_go_to_waha_in_its_forms(jid: str, waha: str) -> None:
    assert waha_chat(jid) == waha


@pytest.mark.parametrize(("value", "jid"), [
    ("15550100003@c.us", "15550100003@s.whatsapp.net"), ("15550100000:12@s.whatsapp.net", "15550100000@s.whatsapp.net"),
    ("1@LID", "1@lid"), ("nobody", None), ("@c.us", None), (12, None), ("", None),
])
def test_waha_jids_come_back_in_whatsapp_s_forms(value: object, jid: str | None) -> None:
    assert whatsapp_jid(value) == jid


@pytest.mark.parametrize(("serialized", "bare"), [
    (f"true_{GROUP}_3EB0C4_15550100000@c.us", "3EB0C4"), ("false_15550100003@c.us_3A5F", "3A5F"),
    ("3EB0C4", "3EB0C4"), ("a_b", None), ("a_b_c_d_e", None), ("", None), (None, None), ("x__", None),
])
def test_bare_ids(serialized: object, bare: str | None) -> None:
    assert bare_id(serialized) == bare


def test_a_direct_text_goes_to_the_phone_in_c_us_form_without_mentions() -> None:
    text = OutboundText("15550100003@s.whatsapp.net", "hola @15550100001", mentioned=("15550100001@s.whatsapp.net",))
    assert encode.send_text("taskbot", text).body == {"session": "taskbot", "chatId": "15550100003@c.us",
                                                      "text": "hola @15550100001", "linkPreview": False}


def test_a_group_text_mentions_each_person_once_in_the_form_the_bot_chose() -> None:
    text = OutboundText(GROUP, "hi", mentioned=("1@lid", "2@s.whatsapp.net", "1@lid"))
    body = encode.send_text("taskbot", text).body
    assert body is not None
    assert body["mentions"] == ["1@lid", "2@c.us"]


@pytest.mark.parametrize(("quote", "reply_to"), [
    (Quote("3A5F", GROUP, False, "198765432100001@lid"), f"false_{GROUP}_3A5F_198765432100001@lid"),
    (Quote("3EB0", GROUP, True, "15550100000@s.whatsapp.net"), f"true_{GROUP}_3EB0"),
    (Quote("3A60", "15550100003@s.whatsapp.net"), "false_15550100003@c.us_3A60"),
    (Quote("3A61", "", False, "1@s.whatsapp.net"), f"false_{GROUP}_3A61_1@c.us"),
])
def test_a_quote_is_named_by_its_serialized_id(quote: Quote, reply_to: str) -> None:
    body = encode.send_text("taskbot", OutboundText(GROUP, "ok", quote)).body
    assert body is not None
    assert body["reply_to"] == reply_to


@pytest.mark.parametrize(("wanted", "message_id"), [
    (OutboundReaction(GROUP, "3A5F", "✅", "15550100002@s.whatsapp.net"), f"false_{GROUP}_3A5F_15550100002@c.us"),
    (OutboundReaction(GROUP, "3EB0", "", None, from_me=True), f"true_{GROUP}_3EB0"),
    (OutboundReaction("198765432100003@lid", "3A62", "🤖"), "false_198765432100003@lid_3A62"),
])
def test_a_reaction_names_the_message_as_waha_reads_its_author(wanted: OutboundReaction, message_id: str) -> None:
    assert encode.reaction("s", wanted).body == {"session": "s", "messageId": message_id, "reaction": wanted.emoji}


def test_paths_escape_what_a_path_cannot_hold() -> None:
    assert encode.group_participants("my session", GROUP).path == (
        "/api/my%20session/groups/120363300000000010%40g.us/participants/v2")
    assert encode.chat_message("taskbot", "15550100003@s.whatsapp.net", "3EB0").path == (
        "/api/taskbot/chats/15550100003%40c.us/messages/3EB0")
    assert encode.lid_lookup("taskbot", "198765432100001").path == "/api/taskbot/lids/198765432100001%40lid"


def config_with(*hooks: dict[str, Any]) -> dict[str, Any]:
    return {"metadata": {"deployment": "tasksvc"}, "ignore": {"groups": False}, "webhooks": list(hooks)}


def our_hook(**changes: Any) -> dict[str, Any]:
    return {"url": URL, "events": list(encode.WEBHOOK_EVENTS), "hmac": {"key": "s3cret"}, "retries": None,
            "customHeaders": None} | changes


@pytest.mark.parametrize(("config", "differed"), [
    (config_with(our_hook()), ()),
    (config_with(our_hook(events=["*"])), ()),
    (config_with(our_hook(events=[*EVENTS, "presence.update"])), ()),
    (config_with(our_hook(), {"url": "https://crm.example.org/hook", "events": ["message"]}), ()),
    (None, ("webhook",)),
    (config_with(), ("webhook",)),
    (config_with(our_hook(url=URL + "/")), ("webhook",)),
    (config_with(our_hook(events=[e for e in EVENTS if e != "message.ack.group"])), ("events",)),
    (config_with(our_hook(hmac=None)), ("secret",)),
    (config_with(our_hook(hmac={"key": "old"}, events=["message"])), ("events", "secret")),
    (config_with(our_hook(), our_hook()), ("webhook",)),
])
def test_the_webhook_is_changed_only_when_it_differs(config: dict[str, Any] | None,
                                                      differed: tuple[str, ...]) -> None:
    assert encode.webhook_differences(config, PLAN) == differed
    assert encode.webhook_differences(encode.updated_config(config, PLAN), PLAN) == ()


def test_the_update_keeps_the_operator_s_settings_and_other_webhooks() -> None:
    crm = {"url": "https://crm.example.org/hook", "events": ["message"]}
    old = our_hook(events=["message"], hmac=None, customHeaders=[{"name": "X-Proxy", "value": "v"}],
                   retries={"policy": "constant", "delaySeconds": 1, "attempts": 3})
    config = encode.updated_config(config_with(crm, old), PLAN)
    assert config["metadata"] == {"deployment": "tasksvc"}
    assert config["ignore"] == {"groups": False}
    assert config["webhooks"] == [crm, our_hook(customHeaders=[{"name": "X-Proxy", "value": "v"}],
                                                retries={"policy": "constant", "delaySeconds": 1, "attempts": 3})]


def test_a_new_webhook_gets_the_default_retries_and_an_operator_s_are_kept() -> None:
    assert encode.updated_config({}, PLAN)["webhooks"] == [our_hook(retries=dict(encode.DEFAULT_RETRIES))]
    linear = {"policy": "linear", "delaySeconds": 3, "attempts": 4}
    [hook] = encode.updated_config(config_with(our_hook(retries=linear, hmac=None)), WebhookPlan(URL))["webhooks"]
    assert (hook["retries"], hook["hmac"]) == (linear, None)


@pytest.mark.parametrize(("media", "fetched"), [
    ("http://waha:3000/api/files/taskbot/a.jpeg", "http://waha:3000/api/files/taskbot/a.jpeg"),
    ("http://localhost:3000/api/files/taskbot/a.jpeg?x=1", "http://waha:3000/api/files/taskbot/a.jpeg?x=1"),
    ("https://evil.example/api/files/a.jpeg", "http://waha:3000/api/files/a.jpeg"),
    ("/api/files/taskbot/a.jpeg", "http://waha:3000/api/files/taskbot/a.jpeg"),
    ("file:///etc/passwd", None), ("a.jpeg", None), ("", None),
])
def test_a_photo_is_fetched_only_from_the_gateway_s_own_address(media: str, fetched: str | None) -> None:
    assert encode.media_url("http://waha:3000", media) == fetched


def test_a_base_url_with_a_path_prefix_keeps_it_once() -> None:
    assert encode.media_url("https://gw.example/waha/", "http://localhost:3000/api/files/a.jpeg") == (
        "https://gw.example/waha/api/files/a.jpeg")
    assert encode.media_url("https://gw.example/waha", "https://other/waha/api/files/a.jpeg") == (
        "https://gw.example/waha/api/files/a.jpeg")


@pytest.mark.parametrize(("reader", "answer"), [
    (answers.groups_of, {"JID": GROUP}), (answers.participants_of, {"id": "1@lid"}),
    (answers.sent_messages, "3EB0"),
])
def test_an_answer_of_the_wrong_shape_is_an_error(reader: Any, answer: object) -> None:
    with pytest.raises(UnreadableAnswer, match="answer"):
        reader(answer)


def test_one_message_looked_up_by_id_is_a_list_of_one_and_another_s_message_none() -> None:
    stored = sample("outbound_chat_messages_fromMe_response_200")[0]
    assert [found.message_id for found in answers.sent_messages(stored)] == ["3EB0C4F1A2B3C4D5E6F7A8"]
    assert answers.sent_messages(stored | {"fromMe": False}) == []


def test_a_session_before_pairing_has_no_own_ids() -> None:
    assert answers.own_ids_of(None) == answers.own_ids_of({"me": None}) == answers.own_ids_of({})
    assert answers.own_ids_of(None).phone is None


@pytest.mark.parametrize(("status", "body", "retryable"), [
    (500, {"statusCode": 500, "exception": {"message": "14 UNAVAILABLE: No connection established", "code": 14}}, True),
    (500, {"statusCode": 500, "exception": {"message": "4 DEADLINE_EXCEEDED: Deadline exceeded"}}, True),
    (500, {"statusCode": 500, "exception": {"message": "2 UNKNOWN: websocket not connected", "code": 2}}, True),
    (500, {"statusCode": 500, "exception": {"message": "3 INVALID_ARGUMENT: bad jid", "code": 3}}, False),
    (500, {"exception": {"message": "2 UNKNOWN: server returned error 429", "code": 2}}, True),
    (502, "<html>Bad Gateway</html>", True), (400, {"message": ["chatId must be a string"]}, False),
])
def test_transport_errors_are_retried_and_bad_requests_are_not(status: int, body: object, retryable: bool) -> None:
    assert errors.classify(status, body, action="sendText").retryable is retryable


def test_serialized_ids_for_a_group_need_the_author() -> None:
    assert serialized_id(GROUP, "X", from_me=False, participant=None) == f"false_{GROUP}_X"
