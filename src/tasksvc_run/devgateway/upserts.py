"""The Evolution API fake's wire for what happens in a chat (``devgateway.acts``), as v2.3.7 sends it (the samples of
../shared/gateway/CONTRACT.md): a person's text, reply, mentions or photo as ``messages.upsert``, a reaction as a
``reactionMessage`` upsert, a group the bot is in as ``fetchAllGroups`` lists it and as ``groups.upsert`` announces
it; and the bot's sendText and sendReaction calls read back into the port's words. Stdlib only.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from tasksvc_run.devgateway.acts import BOT_JID, BotSent, Group, Member, Reacted, Written, phone_jid, user_of
from tasksvc_run.devgateway.wire import INSTANCE_ID

__all__ = ["group_row", "groups_upsert_data", "message_data", "reaction_data", "read_send"]


def _key(chat: str, sender: str, ident: str, phone: str | None) -> dict[str, Any]:
    key: dict[str, Any] = {"remoteJid": chat, "fromMe": False, "id": ident}
    lid = sender.endswith("@lid")
    if chat.endswith("@g.us"):
        key |= {"participant": sender, "addressingMode": "lid" if lid else "pn"}
        if lid and phone:
            key["participantAlt"] = phone
    elif lid and phone:
        key["remoteJidAlt"] = phone
    return key


def _upserted(key: dict[str, Any], name: str, message: dict[str, Any], kind: str) -> dict[str, Any]:
    return {"key": key, "pushName": name, "status": "DELIVERY_ACK", "message": message, "messageType": kind,
            "messageTimestamp": int(time.time()), "instanceId": INSTANCE_ID, "source": "web"}


def message_data(written: Written) -> dict[str, Any]:
    """The ``data`` of the ``messages.upsert`` of a person's text (a reply carries the quoted id as
    ``contextInfo.stanzaId``; mentions as ``mentionedJid``); of an ``imageMessage`` with the text as its caption when
    it is a photo."""
    key = _key(written.chat, written.sender, written.id, written.phone)
    data = _upserted(key, written.name or user_of(written.sender), {"conversation": written.text}, "conversation")
    context: dict[str, Any] = {}
    if written.mentions:
        context["mentionedJid"] = list(written.mentions)
    if written.quoted is not None:
        context |= {"stanzaId": written.quoted.id, "participant": written.quoted.author,
                    "quotedMessage": {"conversation": written.quoted.text}}
    if context:
        data["contextInfo"] = context
    return data if written.photo is None else _as_photo(data, written)


def _as_photo(data: dict[str, Any], written: Written) -> dict[str, Any]:
    """A text's data as the imageMessage of a photo: the caption and a reply's contextInfo inside imageMessage (and
    at the top level), no text."""
    image: dict[str, Any] = {"url": "https://mmg.whatsapp.net/dev", "mimetype": written.mimetype,
                             "fileLength": str(len(written.photo or b"")), "mediaKey": "ZGV2", "directPath": "/dev"}
    if written.text:
        image["caption"] = written.text
    if "contextInfo" in data:
        image["contextInfo"] = data["contextInfo"]
    return data | {"message": {"imageMessage": image}, "messageType": "imageMessage"}


def reaction_data(reacted: Reacted, bot: str = BOT_JID) -> dict[str, Any]:
    """The ``data`` of a ``reactionMessage`` upsert (``emoji`` "" removes the reaction): the reacted key from the
    bot's side."""
    mine = reacted.target.from_me(bot)
    key: dict[str, Any] = {"remoteJid": reacted.chat, "fromMe": mine, "id": reacted.target.id}
    if reacted.in_group and not mine:
        key["participant"] = reacted.target.author
    reaction = {"key": key, "text": reacted.emoji, "senderTimestampMs": str(int(time.time() * 1000))}
    return _upserted(_key(reacted.chat, reacted.sender, reacted.id, None), reacted.name or user_of(reacted.sender),
                     {"reactionMessage": reaction}, "reactionMessage")


def _participant(member: Member) -> dict[str, Any]:
    row: dict[str, Any] = {"id": member.jid, "admin": "admin" if member.admin else None}
    if member.phone and member.phone != member.jid:
        row["phoneNumber"] = member.phone
    return row


def group_row(group: Group) -> dict[str, Any]:
    """The group as ``fetchAllGroups?getParticipants=true`` lists it."""
    return {"id": group.id, "subject": group.subject, "size": len(group.members), "creation": 1_700_000_000,
            "restrict": False, "announce": False, "isCommunity": False, "isCommunityAnnounce": False,
            "participants": [_participant(member) for member in group.members]}


def participants_data(group_id: str, action: str, member: Member) -> dict[str, Any]:
    """The ``data`` of a ``group-participants.update``: ``member`` added or promoted (2.3.7's shape: the JIDs, and
    each one's number in ``participantsData`` when the group names them by LID)."""
    data: dict[str, Any] = {"id": group_id, "action": action, "participants": [member.jid]}
    if member.phone and member.phone != member.jid:
        data["participantsData"] = [{"jid": member.jid, "phoneNumber": member.phone}]
    return data


def groups_upsert_data(group: Group) -> list[dict[str, Any]]:
    """The ``data`` of the ``groups.upsert`` that says the bot is in ``group`` (it joined or was added)."""
    return [group_row(group) | {"addressingMode": group.addressing}]


def read_send(route: str, body: Any, answer: Any) -> BotSent | None:
    """A sendText or sendReaction the fake accepted, in the port's words (None for any other call)."""
    key = (answer or {}).get("key") if isinstance(answer, Mapping) else None
    ident = key.get("id") if isinstance(key, Mapping) else None
    if route == "sendText":
        quoted = ((body.get("quoted") or {}).get("key") or {}).get("id")
        return BotSent(phone_jid(str(body["number"])), ident, text=str(body["text"]), quoted=quoted,
                       mentions=tuple(phone_jid(str(m)) for m in body.get("mentioned") or ()))
    if route == "sendReaction":
        return BotSent(str(body["key"]["remoteJid"]), ident, quoted=str(body["key"]["id"]),
                       emoji=str(body["reaction"]))
    return None
