"""Every sample of WAHA's contract (fixtures/gateway/waha) through its decoder, encoder or reader, with the exact
values the bot gets from it (SPEC section 36)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from taskcore.gateway.echo import text_digest
from taskcore.gateway.events import (
    ConnectionChanged,
    DeliveryStatus,
    Echo,
    GroupSeen,
    GroupsUpserted,
    Identity,
    Ignored,
    InboundMessage,
    InboundPhoto,
    InboundReaction,
    ParticipantsChange,
    ReactedMessage,
    SentMessage,
    StatusUpdate,
)
from taskcore.gateway.outbound import OutboundReaction, OutboundText, Quote
from taskcore.gateway.port import GatewayGroup, GatewayParticipant, OwnIds, WebhookPlan
from taskcore.gateway.waha import answers, encode, errors, webhook
from taskcore.gateway.waha.decode import CODEC
from tests.fakes.waha import sample, sample_names

GROUP = "120363300000000010@g.us"
OLD_GROUP = "15550100007-1600000000@g.us"
BOT = "15550100000"
BOT_LID = "211000000000001"
ALICE = Identity("15550100001", "198765432100001", "198765432100001@lid")
URL = "https://bot.example.org/webhooks/waha"
KEY = "replace-with-random-secret"


def covers(name: str) -> Any:
    """A sample this module checks (each name appears in a ``covers`` or ``decoded`` call below)."""
    return sample(name)


def decoded(name: str) -> object:
    return CODEC.decode(covers(name))


def at(hour: int, minute: int, second: int = 0) -> datetime:
    return datetime(2026, 8, 6, hour, minute, second, tzinfo=UTC)


def test_a_group_text_mentioning_the_bot_by_its_lid() -> None:
    assert decoded("inbound_message_group_text_lid_mention") == InboundMessage(
        instance="taskbot", message_id="3A5F0C2E9B41D7A8C6E1", chat_id=GROUP, group_id=GROUP, sender=ALICE,
        participant="198765432100001@lid", push_name="Alice",
        text="@211000000000001 add task: renew the domain by Friday", mentioned=("211000000000001@lid",),
        sent_at=at(9, 53, 20), bot_id=BOT, quoted_id=None)


def test_a_reply_to_the_bot_in_a_phone_addressed_group() -> None:
    assert decoded("inbound_message_group_reply_pn_addressing") == InboundMessage(
        instance="taskbot", message_id="9C1E5B7D3F2A4C6E8A0B1D3F5E7A9C2B", chat_id=OLD_GROUP, group_id=OLD_GROUP,
        sender=Identity("15550100002", "198765432100002", "15550100002@s.whatsapp.net"),
        participant="15550100002@s.whatsapp.net", push_name="Bob", text="done", mentioned=(),
        sent_at=at(9, 54, 20), bot_id=BOT, quoted_id="3EB0A1B2C3D4E5F6A7B8C9",
        quoted_author="15550100000@s.whatsapp.net", quoted_text="Task #12 created: renew the domain (due Fri).")


def test_a_direct_message_from_a_lid_chat_goes_back_to_the_phone_its_sender_alt_names() -> None:
    assert decoded("inbound_message_dm_lid") == InboundMessage(
        instance="taskbot", message_id="3AD4E5F60718293A4B5C", chat_id="15550100003@s.whatsapp.net",
        group_id=None, sender=Identity("15550100003", "198765432100003", "198765432100003@lid"), participant=None,
        push_name="Carol", text="login", mentioned=(), sent_at=at(9, 56), bot_id=BOT)


def test_a_photo_replying_to_the_bot_keeps_the_url_to_fetch_it_by() -> None:
    photo = decoded("inbound_message_group_image")
    assert isinstance(photo, InboundPhoto)
    assert photo.media == "http://waha:3000/api/files/taskbot/3A6B7C8D9E0F1A2B3C4D.jpeg"
    assert photo.declared_size == 184312
    assert photo.message == InboundMessage(
        instance="taskbot", message_id="3A6B7C8D9E0F1A2B3C4D", chat_id=GROUP, group_id=GROUP,
        sender=Identity("15550100003", "198765432100003", "198765432100003@lid"),
        participant="198765432100003@lid", push_name="Carol", text="proof for #12", mentioned=(),
        sent_at=at(9, 56, 40), bot_id=BOT, quoted_id="3EB0C4F1A2B3C4D5E6F7A8",
        quoted_author="211000000000001@lid",
        quoted_text="@198765432100001 Task #12 created: renew the domain (due Fri).")


def test_the_echo_of_an_api_send_is_the_sent_message_never_a_command() -> None:
    text = "@198765432100001 Task #12 created: renew the domain (due Fri)."
    assert decoded("inbound_message_any_echo_api_send") == Echo("taskbot", SentMessage(
        "3EB0C4F1A2B3C4D5E6F7A8", GROUP, text_digest(text), "3A5F0C2E9B41D7A8C6E1", 1786010002))


def test_a_reaction_on_the_bot_s_message_names_it_by_its_bare_id() -> None:
    assert decoded("inbound_message_reaction_group") == InboundReaction(
        instance="taskbot", message_id="3A5F0E9D2C7B4A1E6F80", chat_id=GROUP, group_id=GROUP,
        sender=Identity(None, "198765432100002", "198765432100002@lid"), participant="198765432100002@lid",
        push_name=None, emoji="✅", reacted=ReactedMessage("3EB0C4F1A2B3C4D5E6F7A8", True, "211000000000001@lid"),
        sent_at=at(9, 55), bot_id=BOT)


def test_a_direct_read_receipt() -> None:
    assert decoded("inbound_message_ack_dm_read") == DeliveryStatus("taskbot", (
        StatusUpdate("3EB0F1E2D3C4B5A69788", "15550100003@s.whatsapp.net", "READ"),))


def test_a_group_read_receipt_names_its_member() -> None:
    assert decoded("inbound_message_ack_group_read") == DeliveryStatus("taskbot", (
        StatusUpdate("3EB0C4F1A2B3C4D5E6F7A8", GROUP, "READ", None, "198765432100002@lid"),))


def test_the_bot_joining_a_group_lists_its_members_and_admins() -> None:
    assert decoded("inbound_group_v2_join") == GroupsUpserted("taskbot", (GroupSeen(
        "120363300000000011@g.us", "Release checklist", (
            (ALICE, True),
            (Identity(BOT, BOT_LID, "211000000000001@lid"), False),
            (Identity("15550100002", "198765432100002", "198765432100002@lid"), False)), "lid"),), BOT)


def test_the_bot_leaving_a_group_is_its_removal() -> None:
    assert decoded("inbound_group_v2_leave") == ParticipantsChange(
        "taskbot", OLD_GROUP, "remove", (Identity(BOT, BOT_LID, "15550100000@s.whatsapp.net"),), BOT)


@pytest.mark.parametrize(("name", "action", "lid"), [
    ("inbound_group_v2_participants_join", "add", "198765432100004"),
    ("inbound_group_v2_participants_leave", "remove", "198765432100002"),
])
def test_members_joining_and_leaving_known_only_by_lid(name: str, action: str, lid: str) -> None:
    assert decoded(name) == ParticipantsChange("taskbot", GROUP, action, (Identity(None, lid, f"{lid}@lid"),), BOT)


def test_a_new_subject_is_the_group_seen_again_by_its_new_name() -> None:
    assert decoded("inbound_group_v2_update") == GroupsUpserted(
        "taskbot", (GroupSeen(GROUP, "Ops tasks (Q3)", ()),), BOT)


@pytest.mark.parametrize("name", ["inbound_session_status_working",
                                  "inbound_session_status_working_reachout_timelock"])
def test_a_working_session_is_an_open_connection(name: str) -> None:
    assert decoded(name) == ConnectionChanged("taskbot", "open", None)


def test_a_poll_vote_is_acknowledged_and_left_alone() -> None:
    assert decoded("inbound_poll_vote") == Ignored("event not read", "poll.vote")


def test_the_signed_delivery_is_verified_keyed_and_decoded() -> None:
    delivery = covers("inbound_webhook_headers_hmac")
    body, headers = delivery["raw_body"].encode(), delivery["headers"]
    assert webhook.signature_ok(body, headers, delivery["hmac_key"])
    assert not webhook.signature_ok(body, headers, "another-key")
    assert webhook.request_id(headers) == "01k20q5e80b2n4m6q8w0e2r4t6"
    payload = json.loads(body)
    assert webhook.dedupe_key(headers, payload) == "event:evt_01k20q5e7r9t1y3u5i7o9p1a3s"
    assert CODEC.decode(payload) == ConnectionChanged("taskbot", "open", None)


def test_the_send_text_request_is_encoded_from_the_bot_s_words() -> None:
    expected = covers("outbound_sendText_request_reply_mention")
    text = OutboundText(GROUP, expected["text"], Quote("3A5F0C2E9B41D7A8C6E1", GROUP, False, "198765432100001@lid"),
                        ("198765432100001@lid",))
    request = encode.send_text("taskbot", text, message_id="3EB0C4F1A2B3C4D5E6F7A8")
    assert (request.method, request.path, request.body) == ("POST", "/api/sendText", expected)


def test_the_send_text_answer_gives_the_bare_id() -> None:
    assert answers.sent_id(covers("outbound_sendText_response_201")) == "3EB0C4F1A2B3C4D5E6F7A8"


def test_the_reaction_request_names_the_message_with_its_author() -> None:
    wanted = OutboundReaction(GROUP, "3A5F0C2E9B41D7A8C6E1", "👍", "198765432100001@lid")
    request = encode.reaction("taskbot", wanted)
    assert (request.method, request.path, request.body) == ("PUT", "/api/reaction",
                                                             covers("outbound_reaction_request"))


def test_the_reaction_answer_gives_the_reaction_s_bare_id() -> None:
    assert answers.sent_id(covers("outbound_reaction_response_200")) == "3EB0D9E8F7A6B5C4D3E2F1"


def test_the_new_message_id_answer() -> None:
    assert answers.new_message_id_of(covers("outbound_new_message_id_response_200")) == "3EB0C4F1A2B3C4D5E6F7A8"


def test_the_stored_messages_answer_gives_the_bot_s_sends() -> None:
    text = "@198765432100001 Task #12 created: renew the domain (due Fri)."
    assert answers.sent_messages(covers("outbound_chat_messages_fromMe_response_200")) == [SentMessage(
        "3EB0C4F1A2B3C4D5E6F7A8", GROUP, text_digest(text), "3A5F0C2E9B41D7A8C6E1", 1786010002)]


def test_the_groups_answer_with_participants_admins_and_addressing() -> None:
    listed = answers.groups_of(covers("outbound_groups_list_response_200"))
    bot = GatewayParticipant(BOT, BOT_LID, False, form="lid")
    alice = GatewayParticipant("15550100001", "198765432100001", True, form="lid")
    assert listed == [
        GatewayGroup("120363300000000001@g.us", "Acme Volunteers", None, True, False, (alice, bot), "lid"),
        GatewayGroup(GROUP, "Ops tasks", "120363300000000001@g.us", False, False, (
            alice, bot, GatewayParticipant(None, "198765432100002", False, form="lid"),
            GatewayParticipant("15550100003", "198765432100003", False, form="lid")), "lid"),
        GatewayGroup(OLD_GROUP, "Family chores", None, False, False, (
            GatewayParticipant("15550100007", "198765432100007", True, form="pn"),
            GatewayParticipant(BOT, BOT_LID, False, form="pn"),
            GatewayParticipant("15550100002", "198765432100002", False, form="pn")), "pn"),
    ]


def test_the_participants_v2_answer() -> None:
    assert answers.participants_of(covers("outbound_group_participants_v2_response_200")) == (
        GatewayParticipant("15550100001", "198765432100001", True, form="lid"),
        GatewayParticipant(BOT, BOT_LID, False, form="lid"),
        GatewayParticipant(None, "198765432100002", False, form="lid"),
        GatewayParticipant("15550100003", "198765432100003", False, form="lid"))


def test_the_lids_answers() -> None:
    found = covers("outbound_lids_lookup_response_200")
    assert [answers.lid_pair(answer) for answer in found.values()] == [
        Identity("15550100001", "198765432100001", "198765432100001@lid"),
        Identity(None, "198765432100002", "198765432100002@lid"),
        Identity("15550100003", "198765432100003", "198765432100003@lid")]


def test_the_session_answer_gives_the_connection_me_and_a_matching_webhook() -> None:
    session = covers("outbound_session_get_response_200")
    assert answers.session_state(session) == "open"
    assert answers.own_ids_of(session) == OwnIds(BOT, BOT_LID)
    config = answers.session_config(session)
    plan = WebhookPlan(URL, KEY)
    assert encode.webhook_differences(config, plan) == ()  # it also has `message`: nothing to change, no restart
    [hook] = encode.updated_config(config, plan)["webhooks"]
    assert hook == config["webhooks"][0] | {"events": list(encode.WEBHOOK_EVENTS), "customHeaders": None}


def test_the_me_answer() -> None:
    assert answers.own_ids_of(covers("outbound_session_me_response_200")) == OwnIds(BOT, BOT_LID)


def test_the_session_update_request_is_the_whole_configuration() -> None:
    expected = covers("outbound_session_update_request")
    request = encode.session_update("taskbot", expected["config"], WebhookPlan(URL, KEY))
    [hook] = expected["config"]["webhooks"]
    ours = hook | {"events": list(encode.WEBHOOK_EVENTS), "customHeaders": hook.get("customHeaders")}
    assert "message" not in ours["events"]  # message.any carries every message: subscribed once (decisions.md)
    assert (request.method, request.path, request.body) == (
        "PUT", "/api/sessions/taskbot", {**expected, "config": {**expected["config"], "webhooks": [ours]}})


def test_the_session_create_request_s_webhook_is_what_the_bot_needs_and_more() -> None:
    config = covers("outbound_session_create_request_webhook")["config"]
    plan = WebhookPlan(URL, KEY)
    assert encode.webhook_differences(config, plan) == ()
    [hook] = encode.updated_config(config, plan)["webhooks"]
    assert hook["events"] == list(encode.WEBHOOK_EVENTS)  # the bot's own: the poll events it does not read go


ERRORS = [  # (case, its status, retryable, WhatsApp's code, the error's text)
    ("missing_or_wrong_api_key_401", 401, False, None, "sendText: unauthorized: wrong or missing X-Api-Key"),
    ("session_not_found_404", 404, True, None,
     "sendText: HTTP 404: We didn't find a session with name 'taskbot-old'. Please start it first by using POST "
     "/api/sessions/taskbot-old/start request Not Found"),
    ("session_not_working_422", 422, True, None,
     "sendText: HTTP 422: Session status is not as expected. Try again later or restart the session"),
    ("mentions_all_outside_group_422", 422, False, None,
     "sendText: HTTP 422: \"mentions\":[\"all\"] can be used only in group chats, not in '15550100003@c.us' "
     "Unprocessable Entity"),
    ("send_refused_463_reachout_timelock_500", 500, False, "463",
     "sendText: unreachable in private: WhatsApp refused the message (error 463)"),
    ("send_failed_whatsapp_400_500", 500, False, "400", "sendText: WhatsApp refused the message (error 400)"),
    ("malformed_message_id_on_reaction_500", 500, False, None,
     "sendText: HTTP 500: Message id be in format false_11111111111@c.us_AAAAAAAAAAAAAAAAAAAA[_participant]"),
    ("not_implemented_by_engine_501", 501, False, None,
     "sendText: HTTP 501: The method is not implemented by 'GOWS' engine. Check the docs and try another engine: "
     "https://waha.devlike.pro/ Not Implemented"),
    ("media_file_gone_404", 404, False, None, "sendText: HTTP 404: File not found"),
]


@pytest.mark.parametrize(("case", "status", "retryable", "code", "shown"), ERRORS, ids=[e[0] for e in ERRORS])
def test_every_error_answer_is_classified(case: str, status: int, retryable: bool, code: str | None,
                                          shown: str) -> None:
    failure = errors.classify(status, covers("outbound_error_responses")[case], action="sendText")
    assert (failure.retryable, failure.code, failure.text) == (retryable, code, shown)
    assert failure.unreachable is (code == "463")
    assert "login link" not in failure.text  # WAHA echoes the message's text in a 500: never in the error


def test_every_error_sample_is_in_the_table() -> None:
    assert sorted(covers("outbound_error_responses")) == sorted(case for case, *_ in ERRORS)


def test_every_sample_is_covered_by_a_test_here() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    assert len(sample_names()) == 31
    assert sorted(name for name in sample_names() if f'"{name}"' not in source) == []
