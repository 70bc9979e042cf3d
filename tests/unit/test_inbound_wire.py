"""Parsing the gateway's inbound webhook events: every sample, every addressing form, nothing ever raises."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from taskcore.gateway.events import (
    ConnectionChanged,
    Echo,
    GroupsUpserted,
    Identity,
    Ignored,
    InboundMessage,
    InboundReaction,
    ParticipantsChange,
    ReactedMessage,
)
from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.gateway.evolution.models import canonical_event
from taskcore.gateway.evolution.records import sent_message
from taskcore.identity import strip_device
from taskcore.services.conversation.road import chat_key
from tests.builders import wa_envelope, wa_participants, wa_text
from tests.chat_support import parse_status

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gateway"


def sample(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"inbound_{name}.json").read_text())
    return data


def message(payload: dict[str, Any]) -> InboundMessage:
    parsed = parse_event(payload)
    assert isinstance(parsed, InboundMessage), parsed
    return parsed


def with_key(payload: dict[str, Any], **fields: object) -> dict[str, Any]:
    changed = copy.deepcopy(payload)
    changed["data"]["key"] |= fields
    return changed


def test_every_inbound_sample_is_covered_by_a_test_here() -> None:
    names = {p.stem.removeprefix("inbound_") for p in FIXTURES.glob("inbound_*.json")}
    assert names == {
        "connection_update_open", "group_participants_update_add_v2.3.7", "group_participants_update_remove_v2.3.5",
        "groups_upsert", "messages_upsert_group_reply_pn_addressing", "messages_upsert_group_text_lid_mention",
        "messages_upsert_group_reaction", "messages_upsert_group_reaction_removed",
        "messages_upsert_group_reply_extended_lid", "messages_update_error_463",
        "messages_update_group_delivery_ack", "messages_upsert_fromme_echo",
    }


def reaction(payload: dict[str, Any]) -> InboundReaction:
    parsed = parse_event(payload)
    assert isinstance(parsed, InboundReaction), parsed
    return parsed


def test_a_reaction_names_the_reacted_message_the_reactor_and_the_emoji() -> None:
    event = reaction(sample("messages_upsert_group_reaction"))
    assert event.reacted == ReactedMessage("3EB0C4F1A2B3C4D5E6F7A8", from_me=True, participant=None)
    assert event.emoji == "✅"
    assert event.sender == Identity("15550100002", "198765432100002", "198765432100002@lid")
    assert (event.chat_id, event.group_id, event.message_id, event.participant) == (
        "120363300000000010@g.us", "120363300000000010@g.us", "3A5F0E9D2C7B4A1E6F80", "198765432100002@lid")
    assert (event.push_name, event.bot_id, event.sent_at) == (
        "Bob", "15550100000", datetime.fromtimestamp(1767007871, UTC))
    assert chat_key(event) == "120363300000000010@g.us"


def test_a_removed_reaction_has_an_empty_emoji() -> None:
    event = reaction(sample("messages_upsert_group_reaction_removed"))
    assert event.emoji == ""
    assert event.reacted.message_id == "3EB0C4F1A2B3C4D5E6F7A8"


def test_the_bots_own_reaction_is_ignored_whether_or_not_the_gateway_says_from_me() -> None:
    own = sample("messages_upsert_group_reaction")
    assert isinstance(parse_event(with_key(own, fromMe=True)), Echo)  # its send's echo, never a command
    from_its_phone = with_key(own, participant="15550100000@s.whatsapp.net", participantAlt=None)
    assert parse_event(from_its_phone) == Ignored("the bot's own reaction", "messages.upsert")


def test_a_reaction_without_the_reacted_key_is_ignored() -> None:
    payload = sample("messages_upsert_group_reaction")
    payload["data"]["message"]["reactionMessage"]["key"] = "3EB0"
    assert parse_event(payload) == Ignored("reaction without the reacted message", "messages.upsert")


def test_a_reaction_with_a_wrongly_typed_emoji_counts_as_removed() -> None:
    payload = sample("messages_upsert_group_reaction")
    payload["data"]["message"]["reactionMessage"]["text"] = 7
    assert reaction(payload).emoji == ""


def test_a_quoted_reply_carries_the_quoted_message_id() -> None:
    assert message(sample("messages_upsert_group_reply_pn_addressing")).quoted_id == "3EB0C4F1A2B3C4D5E6F7A8"


def test_a_quoted_reply_in_the_extended_text_shape_carries_its_text_and_quoted_id() -> None:
    msg = message(sample("messages_upsert_group_reply_extended_lid"))
    assert (msg.text, msg.quoted_id) == ("Hecho", "3EB0C4F1A2B3C4D5E6F7A8")
    assert msg.sender == Identity("15550100001", "198765432100001", "198765432100001@lid")


def test_a_message_quoting_nothing_has_no_quoted_id() -> None:
    assert message(sample("messages_upsert_group_text_lid_mention")).quoted_id is None


def test_lid_group_message_takes_the_phone_from_participant_alt() -> None:
    msg = message(sample("messages_upsert_group_text_lid_mention"))
    assert msg.sender == Identity(phone="15550100001", lid="198765432100001", jid="198765432100001@lid")
    assert (msg.group_id, msg.chat_id, msg.participant) == (
        "120363300000000010@g.us", "120363300000000010@g.us", "198765432100001@lid")


def test_lid_group_message_keeps_text_mentions_time_name_and_the_bot_number() -> None:
    msg = message(sample("messages_upsert_group_text_lid_mention"))
    assert msg.text == "@211000000000001 add task: renew the domain by Friday"
    assert (msg.mentioned, msg.mentioned_digits) == (("211000000000001@lid",), ("211000000000001",))
    assert msg.sent_at == datetime.fromtimestamp(1767003303, UTC)
    assert (msg.push_name, msg.bot_id, msg.instance, msg.message_id) == (
        "Alice", "15550100000", "taskbot", "3A5F0C2E9B41D7A8C6E1")


def test_pn_group_reply_takes_the_lid_from_participant_alt_and_accepts_old_group_ids() -> None:
    msg = message(sample("messages_upsert_group_reply_pn_addressing"))
    assert msg.sender == Identity("15550100002", "198765432100002", "15550100002@s.whatsapp.net")
    assert msg.group_id == "15550100007-1600000000@g.us"
    assert msg.text == "done"


def test_participants_update_v2_3_7_reads_objects_and_ignores_the_broken_participants_data() -> None:
    event = parse_event(sample("group_participants_update_add_v2.3.7"))
    assert event == ParticipantsChange(
        instance="taskbot", group_id="120363300000000010@g.us", action="add",
        participants=(Identity("15550100003", "198765432100003", "198765432100003@lid"),), bot_id="15550100000")


def test_participants_update_v2_3_5_ignores_a_leavers_lid_digits_given_as_phone_number() -> None:
    event = parse_event(sample("group_participants_update_remove_v2.3.5"))
    assert isinstance(event, ParticipantsChange)
    assert (event.action, event.participants) == ("remove", (Identity(None, "198765432100002", "198765432100002@lid"),))


def test_participants_data_with_a_phone_jid_completes_a_bare_string_participant() -> None:
    payload = wa_participants("add", ["198765432100004@lid"])
    payload["data"]["participantsData"] = [{"jid": "198765432100004@lid", "phoneNumber": "15550100004@s.whatsapp.net"}]
    event = parse_event(payload)
    assert isinstance(event, ParticipantsChange)
    assert event.participants == (Identity("15550100004", "198765432100004", "198765432100004@lid"),)


def test_participant_objects_of_v2_3_6_give_phone_from_phone_number_or_lid_from_lid() -> None:
    event = parse_event(wa_participants("promote", [
        {"id": "198765432100005@lid", "phoneNumber": "15550100005@s.whatsapp.net", "admin": "admin"},
        {"id": "15550100006@s.whatsapp.net", "lid": "198765432100006@lid", "admin": None},
        "15550100007:3@s.whatsapp.net",
    ]))
    assert isinstance(event, ParticipantsChange)
    assert [(p.phone, p.lid) for p in event.participants] == [
        ("15550100005", "198765432100005"), ("15550100006", "198765432100006"), ("15550100007", None)]


def test_participant_entries_that_name_nobody_are_dropped() -> None:
    event = parse_event(wa_participants("add", [42, None, {"id": "[object Object]"}, {"admin": "admin"}]))
    assert isinstance(event, ParticipantsChange)
    assert event.participants == ()


def test_groups_upsert_lists_each_group_with_name_and_admin_participants() -> None:
    event = parse_event(sample("groups_upsert"))
    assert isinstance(event, GroupsUpserted)
    (group,) = event.groups
    assert (group.group_id, group.name) == ("120363300000000011@g.us", "Release checklist")
    assert [(who.phone, who.lid, admin) for who, admin in group.participants] == [
        ("15550100001", "198765432100001", True), ("15550100000", "211000000000001", False),
        ("15550100002", "198765432100002", False)]


def test_connection_update_gives_state_and_reason() -> None:
    assert parse_event(sample("connection_update_open")) == ConnectionChanged("taskbot", "open", 200)


@pytest.mark.parametrize(("key", "phone", "lid"), [
    ({"participantPn": "34600000001@s.whatsapp.net", "participantLid": "900001@lid"}, "34600000001", "900001"),
    ({"senderPn": "34600000002@s.whatsapp.net", "senderLid": "900002@lid"}, "34600000002", "900002"),
])
def test_older_group_field_names_still_identify_a_lid_sender(key: dict[str, str], phone: str, lid: str) -> None:
    payload = with_key(wa_text("hola"), participant=f"{lid}@lid", **key)
    assert (message(payload).sender.phone, message(payload).sender.lid) == (phone, lid)


def test_direct_message_with_remote_jid_alt_has_phone_and_lid_and_a_phone_chat() -> None:
    msg = message(wa_text("/t ver", group=None, sender="34611111111", lid="900003"))
    assert (msg.group_id, msg.participant, msg.chat_id) == (None, None, "34611111111@s.whatsapp.net")
    assert (msg.sender.phone, msg.sender.lid) == ("34611111111", "900003")


def test_direct_message_with_swapped_jids_of_2_4_gives_the_same_identity_and_chat() -> None:
    payload = with_key(wa_text("/t ver", group=None), remoteJid="900004@lid", remoteJidAlt="34622222222@s.whatsapp.net")
    msg = message(payload)
    assert (msg.sender.phone, msg.sender.lid, msg.chat_id) == ("34622222222", "900004", "34622222222@s.whatsapp.net")


def test_direct_message_of_2_3_1_uses_sender_pn() -> None:
    payload = with_key(wa_text("hola", group=None), remoteJid="900005@lid", senderPn="34633333333@s.whatsapp.net")
    assert message(payload).sender.phone == "34633333333"


def test_lid_only_direct_message_is_answered_in_the_lid_chat() -> None:
    msg = message(with_key(wa_text("hola", group=None), remoteJid="900006@lid"))
    assert (msg.sender.phone, msg.sender.lid, msg.chat_id) == (None, "900006", "900006@lid")


def test_device_suffixes_are_stripped_from_senders_chats_and_mentions() -> None:
    payload = with_key(wa_text("hola", mentioned=("34644444444:7@s.whatsapp.net",)),
                       participant="34655555555:12@s.whatsapp.net")
    msg = message(payload)
    assert (msg.sender.phone, msg.mentioned) == ("34655555555", ("34644444444@s.whatsapp.net",))
    assert strip_device("34600:3@lid") == "34600@lid"


def test_text_and_mentions_are_read_from_extended_text_message_too() -> None:
    payload = wa_text("x")
    payload["data"]["message"] = {"extendedTextMessage": {
        "text": "/t nueva pan @34666666666", "contextInfo": {"mentionedJid": ["34666666666@s.whatsapp.net"]}}}
    del payload["data"]["contextInfo"]
    msg = message(payload)
    assert (msg.text, msg.mentioned_digits) == ("/t nueva pan @34666666666", ("34666666666",))


@pytest.mark.parametrize(("stamp", "expected"), [
    ("1767003303", 1767003303), ({"low": 1767003303, "high": 0, "unsigned": False}, 1767003303),
    ("soon", None), (True, None), (-5, None), (float("nan"), None),
])
def test_message_timestamps_in_any_form_or_none(stamp: object, expected: int | None) -> None:
    payload = wa_text("hola")
    payload["data"]["messageTimestamp"] = stamp
    sent_at = message(payload).sent_at
    assert sent_at == (datetime.fromtimestamp(expected, UTC) if expected else None)


@pytest.mark.parametrize(("change", "reason"), [
    (lambda p: p["data"].update(message={"imageMessage": {"url": "x"}}), "a photo naming no task"),
    (lambda p: p["data"].update(message=None), "not a text message"),
    (lambda p: p["data"]["key"].update(remoteJid="status@broadcast"), "not a person or group chat"),
    (lambda p: p["data"]["key"].update(remoteJid="1203@newsletter"), "not a person or group chat"),
    (lambda p: p["data"]["key"].update(participant=None), "sender unknown"),
    (lambda p: p["data"]["key"].update(id=None), "no message id"),
    (lambda p: p["data"]["key"].update(remoteJid="abc@g.us"), "malformed data"),
    (lambda p: p.update(data="nonsense"), "malformed data"),
    (lambda p: p["data"].update(key=[1, 2]), "malformed data"),
    (lambda p: p.update(event="presence.update"), "unknown event"),
    (lambda p: p.update(event=None), "unknown event"),
])
def test_events_the_bot_does_not_act_on_are_ignored_with_a_reason(change: Any, reason: str) -> None:
    payload = wa_text("hola")
    change(payload)
    parsed = parse_event(payload)
    assert isinstance(parsed, Ignored)
    assert parsed.reason == reason


def test_the_per_event_url_names_the_event_when_the_body_does_not() -> None:
    payload = wa_text("hola")
    del payload["event"]
    assert isinstance(parse_event(payload, path_event="messages-upsert"), InboundMessage)


@pytest.mark.parametrize("name", ["MESSAGES_UPSERT", "messages-upsert", "Messages.Upsert", "messages upsert",
                                  " messages._upsert-"])
def test_event_names_are_accepted_in_any_spelling(name: str) -> None:
    payload = wa_text("hola")
    payload["event"] = name
    assert isinstance(parse_event(payload), InboundMessage)


@pytest.mark.parametrize("name", ["messages:upsert", "messagesupserted", ""])
def test_other_event_names_are_unknown(name: str) -> None:
    assert canonical_event(name) is None


def test_a_from_me_given_as_a_string_is_still_from_me() -> None:
    echo = parse_event(with_key(wa_text("hola"), fromMe="true"))
    assert isinstance(echo, Echo)
    assert not echo.api  # a fromMe upsert may have been typed on the bot's phone: the watchdog checks its sends


def test_a_from_me_upsert_without_a_usable_key_is_ignored() -> None:
    payload = with_key(wa_text("hola"), fromMe=True, id=None)
    assert parse_event(payload) == Ignored("fromMe", "messages.upsert")


def test_chat_keys_order_messages_by_chat_and_group_events_by_group() -> None:
    assert chat_key(message(wa_text("hola"))) == "120363300000000010@g.us"
    assert chat_key(parse_event(sample("group_participants_update_add_v2.3.7"))) == "120363300000000010@g.us"
    assert chat_key(parse_event(sample("groups_upsert"))) == "120363300000000011@g.us"
    assert chat_key(parse_event(sample("connection_update_open"))) == "connection"


def test_a_groups_upsert_without_any_group_is_ignored() -> None:
    assert isinstance(parse_event(wa_envelope("groups.upsert", [{"subject": "x"}, "junk"])), Ignored)


def test_status_updates_and_a_fromme_echo_samples() -> None:
    """SPEC section 31: messages.update is the delivery's, a fromMe upsert never a chat message (an echo)."""
    (refused,) = parse_status(sample("messages_update_error_463"))
    assert (refused.message_id, refused.failed, refused.direct) == ("3EB0D2E3F4A5B6C7D8E9F0", True, True)
    (acked,) = parse_status(sample("messages_update_group_delivery_ack"))
    assert (acked.status, acked.direct) == ("DELIVERY_ACK", False)
    upsert = sample("messages_upsert_fromme_echo")
    echo = parse_event(upsert)
    assert isinstance(echo, Echo)
    assert echo.sent == sent_message(upsert["data"])
    assert echo.sent.message_id == "3EB0C4F1A2B3C4D5E6F7A8"
