"""The messages the bot sends, in its own words (SPEC section 36): a text (its chat, the text, the message it quotes,
the people it mentions) or a reaction. The outbound queue keeps each as its ``payload`` (JSON), and the gateway in use
encodes it when it sends (``tasksvc_run.gateways``): nothing that queues a message knows which gateway sends it.

A chat is a JID (``<digits>@s.whatsapp.net``, ``<digits>@lid``, ``<id>@g.us``); ``chat_jid`` and ``person_jid``
make one of a user id (the phone digits the service keys people by).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from taskcore.errors import ValidationError
from taskcore.identity import is_group_jid, user_jid

__all__ = ["OutboundReaction", "OutboundText", "Quote", "chat_jid", "outbound_of", "person_jid", "reaction_payload",
           "text_payload"]


def chat_jid(chat_id: str) -> str:
    """The JID of a chat: group JIDs and LIDs as they are, a digits-only user id as a phone JID."""
    return chat_id if "@" in chat_id else user_jid(chat_id)


def person_jid(user_id_or_jid: str) -> str:
    """The JID a mention names: LIDs and phone JIDs kept, digits turned into a phone JID."""
    return chat_jid(user_id_or_jid)


@dataclass(frozen=True, slots=True)
class Quote:
    """The message a text replies to: its bare id and chat, whether the bot sent it, its author as the chat names
    them (in a group) and its text when the bot has it (the gateway shows the quote from it)."""

    message_id: str
    chat_id: str
    from_me: bool = False
    participant: str | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class OutboundText:
    """A text to send: its chat, the text, the message it quotes, the people it mentions (JIDs, in a group)."""

    chat_id: str
    text: str
    quote: Quote | None = None
    mentioned: tuple[str, ...] = ()

    @property
    def payload(self) -> dict[str, Any]:
        """How the outbound queue keeps it (JSON)."""
        body: dict[str, Any] = {"chat": self.chat_id, "text": self.text}
        if self.quote is not None:
            q = self.quote
            body["quote"] = {"id": q.message_id, "chat": q.chat_id, "from_me": q.from_me,
                             "participant": q.participant, "text": q.text}
        if self.mentioned:
            body["mentioned"] = list(self.mentioned)
        return body


@dataclass(frozen=True, slots=True)
class OutboundReaction:
    """An emoji to put on a message (``""`` takes the bot's away): its chat, bare id and author in a group."""

    chat_id: str
    message_id: str
    emoji: str
    participant: str | None = None
    from_me: bool = False

    @property
    def payload(self) -> dict[str, Any]:
        """How the outbound queue keeps it (JSON)."""
        return {"chat": self.chat_id, "message_id": self.message_id, "emoji": self.emoji,
                "participant": self.participant, "from_me": self.from_me}


def outbound_of(payload: Mapping[str, Any]) -> OutboundText | OutboundReaction:
    """The message a queue row keeps (its ``payload``); ValidationError when it is not one."""
    chat = payload.get("chat")
    if not isinstance(chat, str) or not chat:
        raise ValidationError("a queued message without its chat", field="chat")
    if isinstance(payload.get("emoji"), str):
        return OutboundReaction(chat, str(payload["message_id"]), str(payload["emoji"]),
                                _text_or_none(payload.get("participant")), payload.get("from_me") is True)
    quote = payload.get("quote")
    return OutboundText(chat, str(payload.get("text") or ""), _quote(quote) if isinstance(quote, Mapping) else None,
                        tuple(str(jid) for jid in payload.get("mentioned") or ()))


def _quote(raw: Mapping[str, Any]) -> Quote:
    return Quote(str(raw.get("id") or ""), str(raw.get("chat") or ""), raw.get("from_me") is True,
                 _text_or_none(raw.get("participant")), _text_or_none(raw.get("text")))


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def text_payload(*, chat_id: str, text: str, quote: Quote | None = None,
                 mentioned: Sequence[str] = ()) -> dict[str, Any]:
    """The queue's payload of a text to ``chat_id`` (a JID or a user id); mentions only apply in a group."""
    chat = chat_jid(chat_id)
    people = tuple(dict.fromkeys(person_jid(m) for m in mentioned)) if is_group_jid(chat) else ()
    return OutboundText(chat, text, quote, people).payload


def reaction_payload(*, chat_id: str, message_id: str, participant: str | None, emoji: str,
                     from_me: bool = False) -> dict[str, Any]:
    """The queue's payload of a reaction on message ``message_id`` of ``chat_id`` (its author ``participant`` in a
    group, exactly as received)."""
    return OutboundReaction(chat_jid(chat_id), message_id, emoji, participant, from_me).payload
