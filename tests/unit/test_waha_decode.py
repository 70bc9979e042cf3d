"""WAHA's decoder on odd input: wrong types, lone surrogates, unknown events, a message seen twice, people known
only by their LID, the bot's own messages and reactions, group receipts. Nothing ever raises."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskcore.gateway.events import (
    ConnectionChanged,
    DeliveryStatus,
    Echo,
    GatewayEvent,
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
from taskcore.gateway.waha.decode import CODEC, decode
from tests.fakes.waha import sample, sample_names

GROUP = "120363300000000010@g.us"
INBOUND = sorted(name for name in sample_names() if name.startswith("inbound_") and "headers" not in name)


def text_event(**payload: Any) -> dict[str, Any]:
    event = sample("inbound_message_group_text_lid_mention")
    event["payload"] |= payload
    return event


def info(event: dict[str, Any], **fields: Any) -> dict[str, Any]:
    event["payload"]["_data"]["Info"] |= fields
    return event


def message(event: dict[str, Any]) -> InboundMessage:
    found = decode(event)
    assert isinstance(found, InboundMessage), found
    return found


def reaction_event(**reaction: Any) -> dict[str, Any]:
    event = sample("inbound_message_reaction_group")
    event["payload"]["reaction"] |= reaction
    return event


def test_a_message_seen_as_message_and_as_message_any_is_one_message_by_its_bare_id() -> None:
    first = sample("inbound_message_group_text_lid_mention")
    again = sample("inbound_message_group_text_lid_mention") | {"event": "message.any", "id": "evt_other"}
    assert decode(again) == decode(first)
    assert message(again).message_id == "3A5F0C2E9B41D7A8C6E1"


def test_a_group_member_known_only_by_lid() -> None:
    event = info(sample("inbound_message_group_text_lid_mention"), SenderAlt="")
    found = message(event)
    assert found.sender == Identity(None, "198765432100001", "198765432100001@lid")
    assert found.participant == "198765432100001@lid"


def test_a_direct_message_from_a_lid_only_person_is_answered_at_the_lid() -> None:
    event = info(sample("inbound_message_dm_lid"), SenderAlt="")
    found = message(event)
    assert (found.chat_id, found.sender) == ("198765432100003@lid",
                                             Identity(None, "198765432100003", "198765432100003@lid"))


def test_a_reply_is_read_from_reply_to_when_the_raw_data_is_missing() -> None:
    event = sample("inbound_message_group_reply_pn_addressing")
    del event["payload"]["_data"]
    found = message(event)
    assert (found.quoted_id, found.quoted_author, found.text) == (
        "3EB0A1B2C3D4E5F6A7B8C9", "15550100000@s.whatsapp.net", "done")
    assert found.push_name is None


def test_mentions_lose_device_suffixes_keep_order_and_drop_what_names_no_person() -> None:
    event = sample("inbound_message_group_text_lid_mention")
    context = event["payload"]["_data"]["Message"]["extendedTextMessage"]["contextInfo"]
    context["mentionedJID"] = ["15550100000:3@s.whatsapp.net", "211000000000001@lid", 7, "status@broadcast",
                               "15550100000@s.whatsapp.net"]
    assert message(event).mentioned == ("15550100000@s.whatsapp.net", "211000000000001@lid")


@pytest.mark.parametrize(("field", "value"), [
    ("from", 12), ("participant", ["x"]), ("body", {"a": 1}), ("timestamp", "soon"), ("replyTo", "3EB0"),
    ("_data", None), ("hasMedia", "yes"),
])
def test_a_field_of_the_wrong_type_counts_as_absent(field: str, value: object) -> None:
    found = decode(text_event(**{field: value}))
    assert isinstance(found, InboundMessage | Ignored)
    if isinstance(found, InboundMessage):
        assert found.message_id == "3A5F0C2E9B41D7A8C6E1"


@pytest.mark.parametrize("body", [[], "text", 7, None, {"event": "message"}, {"event": "message", "payload": []},
                                  {"payload": {}}, {"event": 5, "payload": {}}])
def test_a_malformed_envelope_is_ignored(body: Any) -> None:
    assert isinstance(decode(body), Ignored)


def test_an_event_named_only_by_the_path_is_read() -> None:
    event = sample("inbound_session_status_working")
    del event["event"]
    assert decode(event) == Ignored("malformed envelope")
    assert CODEC.decode(event, path_event="session.status") == ConnectionChanged("taskbot", "open", None)


@pytest.mark.parametrize(("name", "reason"), [("presence.update", "event not read"),
                                              ("label.upsert", "event not read"), ("call.unknown", "unknown event")])
def test_other_events_are_acknowledged_and_ignored(name: str, reason: str) -> None:
    event = sample("inbound_session_status_working") | {"event": name}
    assert decode(event) == Ignored(reason, name)


def test_a_lone_surrogate_anywhere_becomes_the_replacement_character() -> None:
    raw = json.dumps(text_event(body="hecho \ud83d 12")).replace("Alice", "Al\\udce9")
    found = message(json.loads(raw))
    assert found.text == "hecho \ufffd 12"
    assert found.push_name == "Al\ufffd"
    found.text.encode("utf-8")


def test_a_sticker_is_not_read() -> None:
    event = sample("inbound_message_dm_lid")
    event["payload"]["_data"]["Message"] = {"stickerMessage": {"mimetype": "image/webp"}}
    event["payload"] |= {"body": "", "hasMedia": True, "media": {"url": "http://waha/x.webp", "mimetype": "x/y"}}
    assert decode(event) == Ignored("not a text message", "message")


def test_a_status_broadcast_is_no_chat_of_the_bot() -> None:
    event = text_event(**{"from": "status@broadcast"})
    event["payload"]["_data"]["Info"]["Chat"] = "status@broadcast"
    assert decode(event) == Ignored("not a person or group chat", "message")


def test_a_photo_naming_no_task_and_a_photo_waha_did_not_download() -> None:
    event = sample("inbound_message_group_image")
    event["payload"] |= {"body": "", "replyTo": None}
    image = event["payload"]["_data"]["Message"]["imageMessage"]
    image["caption"] = ""
    del image["contextInfo"]
    assert decode(event) == Ignored("a photo naming no task", "message")
    undownloaded = sample("inbound_message_group_image")
    undownloaded["payload"]["media"] = None
    photo = decode(undownloaded)
    assert isinstance(photo, InboundPhoto)
    assert photo.media == ""
    failed = sample("inbound_message_group_image")
    failed["payload"]["media"]["error"] = {"message": "download failed"}
    assert isinstance(photo := decode(failed), InboundPhoto)
    assert photo.media == ""


def test_the_bot_s_message_typed_on_its_phone_is_no_echo_and_no_command() -> None:
    event = sample("inbound_message_any_echo_api_send")
    event["payload"]["source"] = "app"
    event["payload"]["_data"]["Info"]["Sender"] = "15550100000:0@s.whatsapp.net"
    assert decode(event) == Ignored("typed on the bot's phone", "message.any")


def test_an_echo_without_source_is_told_by_the_session_s_device() -> None:
    event = sample("inbound_message_any_echo_api_send")
    del event["payload"]["source"]
    assert isinstance(decode(event), Echo)
    event["payload"]["_data"]["Info"]["Sender"] = "15550100000:0@s.whatsapp.net"
    assert decode(event) == Ignored("typed on the bot's phone", "message.any")


def test_the_bot_s_own_reaction_is_the_echo_of_its_send_or_ignored_from_its_phone() -> None:
    event = reaction_event()
    event["payload"] |= {"fromMe": True, "source": "api", "id": f"true_{GROUP}_3EB0D9E8F7A6B5C4D3E2F1_15550100000@c.us"}
    assert decode(event) == Echo("taskbot", SentMessage("3EB0D9E8F7A6B5C4D3E2F1", GROUP, None, None, 1786010100))
    event["payload"]["source"] = "app"
    assert decode(event) == Ignored("typed on the bot's phone", "message.reaction")


def test_a_reaction_by_the_bot_s_own_account_without_from_me_is_ignored() -> None:
    event = reaction_event()
    event["payload"] |= {"participant": "211000000000001@lid", "to": "211000000000001@lid"}
    assert decode(event) == Ignored("the bot's own reaction", "message.reaction")


def test_a_removed_reaction_has_no_emoji() -> None:
    found = decode(reaction_event(text=""))
    assert isinstance(found, InboundReaction)
    assert found.emoji == ""


@pytest.mark.parametrize(("message_id", "reacted"), [
    (f"true_{GROUP}_3A11_198765432100002@lid", ReactedMessage("3A11", False, "198765432100002@lid")),
    (f"false_{GROUP}_3A12_198765432100001@lid", ReactedMessage("3A12", False, "198765432100001@lid")),
    (f"false_{GROUP}_3EB0_15550100000@c.us", ReactedMessage("3EB0", True, "15550100000@s.whatsapp.net")),
    ("3EB1", ReactedMessage("3EB1", False, None)),
])
def test_the_reacted_message_is_read_from_the_reactor_s_side(message_id: str, reacted: ReactedMessage) -> None:
    found = decode(reaction_event(messageId=message_id))
    assert isinstance(found, InboundReaction)
    assert found.reacted == reacted


def test_a_direct_reaction_on_the_bot_s_message_names_the_bot_as_the_chat() -> None:
    event = reaction_event(messageId="false_15550100000@c.us_3EB0AA")
    event["payload"] |= {"from": "15550100003@c.us", "participant": None, "to": None}
    found = decode(event)
    assert isinstance(found, InboundReaction)
    assert (found.chat_id, found.group_id, found.reacted) == ("15550100003@s.whatsapp.net", None,
                                                              ReactedMessage("3EB0AA", True, None))


def test_each_member_s_group_receipt_is_one_status() -> None:
    event = sample("inbound_message_ack_group_read")
    event["payload"] |= {"ack": 2, "ackName": "DEVICE", "participant": "15550100003@c.us"}
    assert decode(event) == DeliveryStatus("taskbot", (StatusUpdate(
        "3EB0C4F1A2B3C4D5E6F7A8", GROUP, "DELIVERY_ACK", None, "15550100003@s.whatsapp.net"),))


@pytest.mark.parametrize(("ack", "name", "status"), [
    (-1, "ERROR", "ERROR"), (1, "SERVER", "SERVER_ACK"), (2, "DEVICE", "DELIVERY_ACK"), (4, "PLAYED", "PLAYED"),
    (None, "DEVICE", "DELIVERY_ACK"), ("3", "READ", "READ"),
])
def test_acks_become_the_port_s_status_names(ack: object, name: str, status: str) -> None:
    event = sample("inbound_message_ack_dm_read")
    event["payload"] |= {"ack": ack, "ackName": name}
    found = decode(event)
    assert isinstance(found, DeliveryStatus)
    assert found.updates[0].status == status


def test_receipts_the_bot_sent_and_unknown_acks_are_ignored() -> None:
    event = sample("inbound_message_ack_dm_read")
    event["payload"]["fromMe"] = False
    assert decode(event) == Ignored("not the bot's message", "message.ack")
    event["payload"] |= {"fromMe": True, "ack": 9, "ackName": "WEIRD"}
    assert decode(event) == Ignored("unreadable receipt", "message.ack")


@pytest.mark.parametrize(("status", "state"), [("STARTING", "connecting"), ("SCAN_QR_CODE", "connecting"),
                                               ("FAILED", "close"), ("STOPPED", "close"), ("working", "open")])
def test_session_statuses_are_connection_states(status: str, state: str) -> None:
    event = sample("inbound_session_status_working")
    event["payload"]["status"] = status
    assert decode(event) == ConnectionChanged("taskbot", state, None)


def test_an_unknown_session_status_is_ignored() -> None:
    event = sample("inbound_session_status_working")
    event["payload"]["status"] = "SLEEPING"
    assert decode(event) == Ignored("unknown session status", "session.status")


@pytest.mark.parametrize(("kind", "action"), [("promote", "promote"), ("demote", "demote")])
def test_promotions_and_demotions(kind: str, action: str) -> None:
    event = sample("inbound_group_v2_participants_join")
    event["payload"] |= {"type": kind, "participants": [{"id": "15550100003@c.us", "pn": "15550100003@c.us",
                                                         "role": "admin"}]}
    assert decode(event) == ParticipantsChange("taskbot", GROUP, action, (
        Identity("15550100003", None, "15550100003@s.whatsapp.net"),), "15550100000")


def test_a_participants_event_of_another_type_or_naming_nobody_is_ignored() -> None:
    event = sample("inbound_group_v2_participants_join")
    event["payload"]["type"] = "modify"
    assert isinstance(decode(event), Ignored)
    event["payload"] |= {"type": "join", "participants": [{"id": None}, "nonsense"]}
    assert decode(event) == Ignored("participants event naming nobody", "group.v2.participants")


def test_the_bot_leaving_by_its_lid_is_named_with_its_phone_too() -> None:
    event = sample("inbound_group_v2_participants_leave")
    event["payload"]["participants"] = [{"id": "211000000000001@lid", "pn": None, "role": "left"}]
    found = decode(event)
    assert isinstance(found, ParticipantsChange)
    assert found.participants == (Identity("15550100000", "211000000000001", "211000000000001@lid"),)


def test_a_leave_before_the_session_knows_the_bot_and_an_update_without_subject_are_ignored() -> None:
    leave = sample("inbound_group_v2_leave") | {"me": None}
    assert decode(leave) == Ignored("the bot is not known yet", "group.v2.leave")
    update = sample("inbound_group_v2_update")
    update["payload"]["group"] = {"id": GROUP, "description": "new topic"}
    assert decode(update) == Ignored("group change the bot does not keep", "group.v2.update")


def test_before_pairing_the_bot_is_unknown() -> None:
    assert message(sample("inbound_message_group_text_lid_mention") | {"me": None}).bot_id is None


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
                    | st.sampled_from(["\ud83d", "1@lid", "2@c.us", "3@g.us", "true_1@c.us_X", "WORKING"]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                 max_size=3), max_leaves=6)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, (*prefix, index))
    return found


def replaced(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node[path[0]] = replaced(node[path[0]], path[1:], value)
    return node


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(name=st.sampled_from(INBOUND), data=st.data())
def test_no_sample_with_any_part_replaced_by_any_json_makes_the_decoder_raise(name: str, data: st.DataObject) -> None:
    event = sample(name)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths(event)))
        event = replaced(event, path, data.draw(JSON))
    found: GatewayEvent = CODEC.decode(event)
    assert isinstance(found, GatewayEvent)
    for text in strings(found):
        text.encode("utf-8")


def strings(value: Any) -> list[str]:
    """Every string inside an event (its fields, nested values and tuples)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple | list):
        return [text for item in value for text in strings(item)]
    if hasattr(value, "__dataclass_fields__"):
        return [text for name in value.__dataclass_fields__ for text in strings(getattr(value, name))]
    return []
