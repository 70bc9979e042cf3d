"""The messages of the fake WAHA, in the shapes of ../shared/gateway/waha/samples (stdlib only): what a send
answers, the stored message and its ``message.any`` echo, a reaction's echo, receipts (``message.ack``,
``message.ack.group``) and messages from people (``message``) that the fake pushes to the bot's webhook.

Chats and people are in WAHA's forms (``@c.us``, ``@lid``, ``@g.us``); inside ``_data`` in whatsmeow's.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tasksvc_run.devgateway.acts import Group, Member
from tasksvc_run.devgateway.waha_wire import ACK_NAMES, RECEIPT_TYPES, iso, raw_jid, waha_jid


@dataclass(frozen=True)
class Me:
    """The session's own account: ``id`` (``<pn>@c.us``), ``lid`` and the device of the session."""

    id: str
    lid: str | None
    device: int = 12
    push_name: str = "Task Bot"

    @property
    def jid(self) -> str:
        """The account with its device, as whatsmeow names the session's sends."""
        user, _, _domain = self.id.partition("@")
        return f"{user}:{self.device}@s.whatsapp.net"

    def info(self) -> dict[str, Any]:
        """The envelope's and the session answer's ``me``."""
        return {"id": self.id, "pushName": self.push_name, "lid": self.lid, "jid": self.jid, "reachoutTimelock": None}


def is_group(chat: str) -> bool:
    """Whether a WAHA chat id is a group."""
    return chat.endswith("@g.us")


def serialized(chat: str, bare: str, *, from_me: bool, sender: str | None) -> str:
    """``{fromMe}_{chat}_{ID}`` in a direct chat, ``..._{sender}`` in a group (WAHA's ``buildMessageId``)."""
    head = f"{'true' if from_me else 'false'}_{chat}_{bare}"
    return f"{head}_{sender}" if is_group(chat) and sender else head


def _info(chat: str, sender: str, bare: str, at: float, *, from_me: bool, push_name: str = "",
          alt: str = "", mode: str = "") -> dict[str, Any]:
    return {"Chat": raw_jid(chat), "Sender": raw_jid(sender), "IsFromMe": from_me, "IsGroup": is_group(chat),
            "AddressingMode": mode, "SenderAlt": raw_jid(alt), "RecipientAlt": "", "ID": bare, "ServerID": 0,
            "Type": "" if from_me else "text", "PushName": push_name, "Timestamp": iso(at), "MediaType": ""}


@dataclass(frozen=True)
class Quoted:
    """A message a text replies to: its bare id, its author (WAHA's form) and text."""

    id: str
    participant: str | None
    body: str

    def reply_to(self) -> dict[str, Any]:
        """The payload's ``replyTo``."""
        return {"id": self.id, "participant": self.participant, "body": self.body, "hasMedia": False, "media": None,
                "_data": {"extendedTextMessage": {"text": self.body}}}

    def context(self) -> dict[str, Any]:
        """The raw ``contextInfo`` of the reply."""
        return {"stanzaID": self.id, "participant": raw_jid(self.participant or ""),
                "quotedMessage": {"extendedTextMessage": {"text": self.body}}}


def _text_message(text: str, quoted: Quoted | None, mentions: Sequence[str]) -> dict[str, Any]:
    context: dict[str, Any] = quoted.context() if quoted else {}
    if mentions:
        context["mentionedJID"] = [raw_jid(m) for m in mentions]
    return {"extendedTextMessage": {"text": text, **({"contextInfo": context} if context else {})}}


def sent_record(me: Me, chat: str, bare: str, text: str, at: float, *, quoted: Quoted | None = None,
                mentions: Sequence[str] = ()) -> dict[str, Any]:
    """The bot's sent text as WAHA stores it and echoes it (``message.any``, ``fromMe``, ``source: "api"``)."""
    sender = me.id if is_group(chat) else None
    message_id = serialized(chat, bare, from_me=True, sender=me.id)
    info = _info(chat, me.jid, bare, at, from_me=True)
    return {"id": message_id, "timestamp": int(at), "from": chat, "fromMe": True, "source": "api", "body": text,
            "to": sender, "participant": sender, "hasMedia": False, "media": None, "ack": 1, "location": None,
            "vCards": None, "ackName": "SERVER", "replyTo": quoted.reply_to() if quoted else None,
            "_data": {"Info": info, "Message": _text_message(text, quoted, mentions), "Status": 2}}


def send_answer(record: Mapping[str, Any]) -> dict[str, Any]:
    """What ``POST /api/sendText`` answers on GOWS: ``{id, _data}`` (no WAMessage)."""
    data = {key: value for key, value in record["_data"].items() if key != "Status"}
    return {"id": record["id"], "_data": copy.deepcopy(data)}


def reaction_echo(me: Me, chat: str, bare: str, *, emoji: str, reacted: str, at: float) -> dict[str, Any]:
    """The bot's reaction coming back as ``message.reaction`` (``fromMe``, ``source: "api"``), and its answer's
    ``_data``."""
    sender = me.id if is_group(chat) else None
    return {"id": serialized(chat, bare, from_me=True, sender=me.id), "timestamp": int(at), "from": chat,
            "fromMe": True, "source": "api", "to": sender, "participant": sender,
            "reaction": {"text": emoji, "messageId": reacted}}


def ack(record: Mapping[str, Any], level: int, member: str | None, at: float) -> dict[str, Any]:
    """A receipt of the bot's message ``record``: in a group one member's (``message.ack.group``)."""
    chat = str(record["from"])
    bare = str(record["_data"]["Info"]["ID"])
    return {"id": record["id"], "from": chat, "to": member, "participant": member, "fromMe": True, "ack": level,
            "ackName": ACK_NAMES[level], "_data": {
                "Chat": raw_jid(chat), "Sender": raw_jid(member or chat), "IsFromMe": False,
                "IsGroup": is_group(chat), "AddressingMode": "lid" if (member or "").endswith("@lid") else "",
                "SenderAlt": "", "RecipientAlt": "", "MessageIDs": [bare], "Timestamp": iso(at),
                "Type": RECEIPT_TYPES.get(level, ""), "MessageSender": ""}}


@dataclass(frozen=True)
class Said:
    """A message someone writes to the bot: where (WAHA's chat id), who (their id as the chat names them), what.
    ``alt`` is their other form (``_data.Info.SenderAlt``: empty for people known only by LID)."""

    chat: str
    sender: str
    text: str
    push_name: str = ""
    alt: str = ""
    quoted: Quoted | None = None
    mentions: tuple[str, ...] = ()
    media: Mapping[str, Any] | None = None


def said_record(said: Said, bare: str, at: float) -> dict[str, Any]:
    """The ``message`` (and ``message.any``) payload of what someone wrote; a photo when ``said.media`` is set."""
    group = is_group(said.chat)
    mode = ("lid" if said.sender.endswith("@lid") else "pn") if group else ""
    message = _text_message(said.text, said.quoted, said.mentions)
    if said.media is not None:
        caption = {"caption": said.text, "mimetype": said.media.get("mimetype"), "fileLength": said.media.get("size")}
        message = {"imageMessage": caption | ({"contextInfo": said.quoted.context()} if said.quoted else {})}
    info = _info(said.chat, said.sender, bare, at, from_me=False, push_name=said.push_name, alt=said.alt, mode=mode)
    media = None if said.media is None else {key: said.media.get(key) for key in ("url", "mimetype")} | {
        "filename": None, "error": None}
    return {"id": serialized(said.chat, bare, from_me=False, sender=said.sender), "timestamp": int(at),
            "from": said.chat, "fromMe": False, "source": "app", "body": said.text,
            "to": said.sender if group else None, "participant": said.sender if group else None,
            "hasMedia": said.media is not None, "media": media, "ack": 2, "location": None, "vCards": None,
            "ackName": "DEVICE", "replyTo": said.quoted.reply_to() if said.quoted else None,
            "_data": {"Info": info, "Message": message, "Status": 3}}


@dataclass(frozen=True)
class Reaction:
    """Someone's reaction: where (WAHA's chat id), who (their id as the chat names them), the emoji (``""`` takes it
    away) and the reacted message's serialized id as their client writes it (``reacted_id``)."""

    chat: str
    sender: str
    emoji: str
    reacted: str


def reacted_id(me: Me, chat: str, bare: str, *, author: str, reactor: str) -> str:
    """The serialized id of the reacted message from the reactor's side: ``true_`` for their own message, else
    ``false_``; in a group its author's part, in a direct chat the chat is the bot's account."""
    own = author == reactor
    if is_group(chat):
        return serialized(chat, bare, from_me=own, sender=author)
    return serialized(me.id, bare, from_me=own, sender=None)


def reaction_record(reaction: Reaction, bare: str, at: float) -> dict[str, Any]:
    """The ``message.reaction`` payload of someone's reaction (no ``_data``, as GOWS sends it)."""
    group = is_group(reaction.chat)
    return {"id": serialized(reaction.chat, bare, from_me=False, sender=reaction.sender), "timestamp": int(at),
            "from": reaction.chat, "fromMe": False, "source": "app", "to": reaction.sender if group else None,
            "participant": reaction.sender if group else None,
            "reaction": {"text": reaction.emoji, "messageId": reaction.reacted}}


def _raw_member(member: Member) -> dict[str, Any]:
    lid = member.jid if member.jid.endswith("@lid") else ""
    phone = member.phone or ("" if lid else member.jid)
    return {"JID": raw_jid(member.jid), "PhoneNumber": raw_jid(phone), "LID": lid, "IsAdmin": member.admin,
            "IsSuperAdmin": False, "DisplayName": "", "Error": 0, "AddRequest": None}


def group_info(group: Group) -> dict[str, Any]:
    """The group as GOWS lists it (whatsmeow's ``GroupInfo``)."""
    return {"JID": group.id, "Name": group.subject, "Topic": "", "IsLocked": False, "IsAnnounce": False,
            "IsEphemeral": False, "IsParent": False, "LinkedParentJID": "", "IsDefaultSubGroup": False,
            "IsJoinApprovalRequired": False, "AddressingMode": group.addressing,
            "Participants": [_raw_member(member) for member in group.members]}


def _v2_person(member: Member) -> dict[str, Any]:
    phone = waha_jid(member.phone) if member.phone else (None if member.jid.endswith("@lid") else waha_jid(member.jid))
    return {"id": waha_jid(member.jid), "pn": phone, "role": "admin" if member.admin else "participant"}


def participants_payload(group_id: str, action: str, member: Member, at: float) -> dict[str, Any]:
    """The ``group.v2.participants`` payload of ``member`` added (``join``) or promoted in the group."""
    return {"type": "join" if action == "add" else action, "timestamp": int(at * 1000), "group": {"id": group_id},
            "participants": [_v2_person(member)]}


def join_payload(group: Group, at: float) -> dict[str, Any]:
    """The ``group.v2.join`` payload of the bot added to ``group``."""
    people = [{"id": waha_jid(m.jid), "pn": waha_jid(m.phone) if m.phone else (
        None if m.jid.endswith("@lid") else waha_jid(m.jid)), "role": "admin" if m.admin else "participant"}
        for m in group.members]
    return {"timestamp": int(at * 1000), "group": {
        "id": group.id, "subject": group.subject, "description": "", "participants": people,
        "membersCanAddNewMember": False, "membersCanSendMessages": True, "newMembersApprovalRequired": False},
        "_data": group_info(group)}
