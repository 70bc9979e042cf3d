"""What happens in a chat, in the port's words, whichever fake gateway is behind it: a person writes (a text, a reply,
mentions, a photo) or reacts, the bot is added to a group, and what the bot sent. Each fake turns the first into its
own wire (``write``, ``react``, ``join``) and reads the last back from the calls it recorded (``bot_sent``); the chat
simulator and the tests that run on both gateways speak only these values.

JIDs are in WhatsApp's forms (``<digits>@s.whatsapp.net``, ``<lid>@lid``, ``<id>@g.us``); message ids are bare.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["BOT_JID", "BotSent", "Group", "Member", "Quoted", "Reacted", "Written", "mentioned_in", "phone_jid",
           "user_of"]

BOT_JID = "34600000999@s.whatsapp.net"
"""The number of the fakes' own account (the bot), unless a fake is told another."""
_MENTION = re.compile(r"@([0-9]{5,20})\b")


def phone_jid(user: str) -> str:
    """A user id (digits) as a phone JID; a JID as it is."""
    return user if "@" in user else f"{user}@s.whatsapp.net"


def user_of(jid: str) -> str:
    """The user part of a JID (its digits)."""
    return jid.partition("@")[0].partition(":")[0]


def mentioned_in(text: str) -> tuple[str, ...]:
    """The phone JIDs a text mentions as ``@<digits>``, as a WhatsApp client lists them when one types them."""
    return tuple(dict.fromkeys(phone_jid(digits) for digits in _MENTION.findall(text)))


@dataclass(frozen=True)
class Quoted:
    """A message replied or reacted to: its id, its author's JID and its text."""

    id: str
    author: str
    text: str = ""

    def from_me(self, bot: str = BOT_JID) -> bool:
        """The bot wrote it."""
        return user_of(self.author) == user_of(bot)


@dataclass(frozen=True)
class Written:
    """A person writes: in ``chat`` (a group, or their private chat with the bot: their own JID), as ``sender`` (their
    JID as that chat names them: a phone, or a LID), with the message id ``id``. ``phone`` is their phone JID when
    the chat names them by LID and WhatsApp shows the number (None: a LID-only person). A photo has ``text`` as its
    caption."""

    chat: str
    sender: str
    text: str
    id: str
    name: str = ""
    quoted: Quoted | None = None
    mentions: tuple[str, ...] = ()
    photo: bytes | None = None
    phone: str | None = None

    @property
    def in_group(self) -> bool:
        """Written in a group."""
        return self.chat.endswith("@g.us")

    @property
    def mimetype(self) -> str:
        """The photo's type (the simulator's sample is a PNG, anything else is taken for a JPEG)."""
        return "image/png" if (self.photo or b"").startswith(b"\x89PNG") else "image/jpeg"


@dataclass(frozen=True)
class Reacted:
    """A person reacts with ``emoji`` (``""`` takes their reaction away) to ``target``, in ``chat`` as ``sender``."""

    chat: str
    sender: str
    emoji: str
    target: Quoted
    id: str
    name: str = ""

    @property
    def in_group(self) -> bool:
        """Reacted in a group."""
        return self.chat.endswith("@g.us")


@dataclass(frozen=True)
class Member:
    """A group member as the group names them (``jid``), their phone JID when WhatsApp shows it, and whether they
    are an admin."""

    jid: str
    phone: str | None = None
    admin: bool = False


@dataclass(frozen=True)
class Group:
    """A group the bot is in: its id, subject, members (the bot among them) and how it addresses them."""

    id: str
    subject: str
    members: tuple[Member, ...] = ()
    addressing: str = "pn"


@dataclass(frozen=True)
class BotSent:
    """What the bot sent, read back from the gateway's call: a text (its quote and mentions) or a reaction (its
    emoji on the message ``quoted``), and the id the gateway gave it."""

    chat: str
    message_id: str | None
    text: str | None = None
    quoted: str | None = None
    mentions: tuple[str, ...] = ()
    emoji: str | None = None
