"""``messages.update`` (CONTRACT.md section 3, SPEC section 31): what became of the bot's messages, read tolerantly."""

from __future__ import annotations

from typing import Any

import pytest

from taskcore.gateway.events import DeliveryStatus, Ignored, StatusUpdate
from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.gateway.evolution.models import canonical_event
from taskcore.gateway.evolution.records import status_update
from tests.chat_support import parse_status


def update(status: object, *, jid: str = "34600111111@s.whatsapp.net", from_me: object = True,
           **extra: Any) -> dict[str, Any]:
    """A messages.update body as 2.3.7 posts it."""
    return {"event": "messages.update", "instance": "taskbot", "sender": "34600000999@s.whatsapp.net",
            "data": {"keyId": "3EB0AAAA", "remoteJid": jid, "fromMe": from_me, "participant": None,
                     "status": status, "instanceId": "i-1", "messageId": "cm1", **extra}}


@pytest.mark.parametrize("status", ["SERVER_ACK", "DELIVERY_ACK", "READ", "PLAYED", "PENDING", "ERROR"])
def test_each_status_name_is_read(status: str) -> None:
    assert parse_status(update(status)) == (StatusUpdate("3EB0AAAA", "34600111111@s.whatsapp.net", status),)


@pytest.mark.parametrize(("number", "name"), [(0, "ERROR"), (2, "SERVER_ACK"), (3, "DELIVERY_ACK"), ("4", "READ")])
def test_baileys_numbers_are_read_as_their_names(number: object, name: str) -> None:
    assert parse_status(update(number))[0].status == name


def test_an_error_keeps_whatsapps_code_when_given() -> None:
    (found,) = parse_status(update("ERROR", messageStubParameters=["463"]))
    assert (found.failed, found.error_code, found.direct) == (True, "463", True)


def test_device_suffix_is_stripped_and_a_group_is_not_direct() -> None:
    assert parse_status(update("READ", jid="34600111111:12@s.whatsapp.net"))[0].chat_id == "34600111111@s.whatsapp.net"
    assert not parse_status(update("READ", jid="120363300000000010@g.us"))[0].direct
    assert parse_status(update("ERROR", jid="123456789012345@lid"))[0].direct


@pytest.mark.parametrize("data", [
    None, [], "x", {"keyId": "", "remoteJid": "1@s.whatsapp.net", "fromMe": True, "status": "READ"},
    {"keyId": "a", "remoteJid": "1@s.whatsapp.net", "fromMe": True, "status": "DELIVERED"},
    {"keyId": "a", "remoteJid": "1@s.whatsapp.net", "fromMe": True, "status": True},
    {"keyId": "a", "remoteJid": "1@s.whatsapp.net", "fromMe": True, "status": 9},
    {"keyId": "a", "remoteJid": None, "fromMe": True, "status": "READ"},
])
def test_unreadable_updates_are_skipped(data: object) -> None:
    assert status_update(data) is None


def test_updates_of_messages_others_sent_are_not_the_bots() -> None:
    assert parse_status(update("READ", from_me=False)) == ()
    assert parse_status(update("READ", from_me="true")) == ()


def test_a_list_of_updates_and_the_key_form_are_read() -> None:
    body = update("READ")
    body["data"] = [body["data"], {"key": {"id": "3EB0BBBB", "remoteJid": "1@s.whatsapp.net", "fromMe": True},
                                   "status": 3}]
    assert [u.message_id for u in parse_status(body)] == ["3EB0AAAA", "3EB0BBBB"]


def test_only_the_status_event_is_read_in_any_spelling() -> None:
    body = update("READ")
    assert parse_status({**body, "event": "messages.upsert"}) == ()
    assert parse_status({**body, "event": None}, path_event="messages-update")
    spellings = ("messages.update", "MESSAGES_UPDATE", "messages-update")
    assert {canonical_event(name) for name in spellings} == {"messages.update"}
    assert canonical_event("MESSAGES_UPDATE") == "messages.update"


def test_a_status_update_is_the_delivery_s_event_never_a_chat_message() -> None:
    assert isinstance(parse_event(update("READ")), DeliveryStatus)
    assert isinstance(parse_event(update("READ", from_me=False)), Ignored)  # none of the bot's messages

