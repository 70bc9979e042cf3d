"""How WAHA names chats, people and messages (../shared/gateway/waha/CONTRACT.md section 3, "Identifiers"), and
the port's forms of them: pure string rules.

WAHA writes a phone as ``<digits>@c.us`` in its top-level fields and as ``<digits>@s.whatsapp.net`` inside ``_data``;
the port speaks WhatsApp's forms only (``@s.whatsapp.net``, ``@lid``, ``@g.us``, no device suffix). A message id is
serialized as ``{fromMe}_{chat}_{ID}[_{participant}]``; the port keeps the bare ``ID``.
"""

from __future__ import annotations

from dataclasses import dataclass

from taskcore.gateway.events import Identity

__all__ = ["Me", "bare_id", "device_of", "digits", "identity", "lid_digits", "phone_digits", "serialized_id",
           "waha_chat", "whatsapp_jid"]

PHONE_DOMAIN = "s.whatsapp.net"
WAHA_PHONE_DOMAIN = "c.us"
LID_DOMAIN = "lid"
GROUP_DOMAIN = "g.us"
_PHONE_DOMAINS = frozenset({PHONE_DOMAIN, WAHA_PHONE_DOMAIN})


def _split(jid: str) -> tuple[str, str, str | None]:
    """(user, domain, device) of ``user[:device]@domain``; the domain lower-cased."""
    user, _, domain = jid.strip().partition("@")
    user, colon, device = user.partition(":")
    return user, domain.lower(), device if colon else None


def digits(jid: object) -> str | None:
    """The user part of a JID when it is all digits (device suffix dropped); None otherwise."""
    if not isinstance(jid, str) or not jid:
        return None
    user = _split(jid)[0]
    return user if user.isascii() and user.isdigit() else None


def whatsapp_jid(value: object) -> str | None:
    """A JID in WhatsApp's form: ``@c.us`` becomes ``@s.whatsapp.net``, any ``:device`` suffix goes; None for
    anything that is not a ``user@domain`` string."""
    if not isinstance(value, str) or "@" not in value:
        return None
    user, domain, _device = _split(value)
    if not user or not domain:
        return None
    return f"{user}@{PHONE_DOMAIN if domain == WAHA_PHONE_DOMAIN else domain}"


def domain_of(jid: str) -> str:
    """The part after '@', lower-cased ('' when there is none)."""
    return _split(jid)[1] if "@" in jid else ""


def phone_digits(jid: object) -> str | None:
    """The digits of a phone JID (``@c.us`` or ``@s.whatsapp.net``); None for LIDs, groups and anything else."""
    return digits(jid) if isinstance(jid, str) and domain_of(jid) in _PHONE_DOMAINS else None


def lid_digits(jid: object) -> str | None:
    """The digits of a ``...@lid`` JID; None otherwise."""
    return digits(jid) if isinstance(jid, str) and domain_of(jid) == LID_DOMAIN else None


def device_of(jid: object) -> str | None:
    """The device of ``user:device@domain`` (``me.jid``, the bot's own sends' ``Info.Sender``); None without one."""
    return _split(jid)[2] if isinstance(jid, str) and jid else None


def waha_chat(jid: str) -> str:
    """A chat or person as WAHA takes it on a send: phones as ``<digits>@c.us`` (bare digits too), LIDs and groups
    as they are, device suffixes dropped."""
    if "@" not in jid:
        user = _split(jid)[0]
        return f"{user}@{WAHA_PHONE_DOMAIN}"
    user, domain, _device = _split(jid)
    return f"{user}@{WAHA_PHONE_DOMAIN if domain in _PHONE_DOMAINS else domain}"


def bare_id(serialized: object) -> str | None:
    """The bare WhatsApp id of a WAHA message id: the third part of ``{fromMe}_{chat}_{ID}[_{participant}]``, or the
    id itself when it has no parts; None when it is neither."""
    if not isinstance(serialized, str) or not serialized.strip():
        return None
    text = serialized.strip()
    if "_" not in text:
        return text
    parts = text.split("_")
    return parts[2] or None if len(parts) in (3, 4) else None


def serialized_id(chat_id: str, message_id: str, *, from_me: bool, participant: str | None = None) -> str:
    """The serialized id WAHA needs to name a message (``PUT /api/reaction``, ``reply_to``): chat and participant
    in WAHA's forms; the participant part only for someone else's message in a group (contract section 4, React)."""
    head = f"{'true' if from_me else 'false'}_{waha_chat(chat_id)}_{message_id}"
    if participant and not from_me and domain_of(chat_id) == GROUP_DOMAIN:
        return f"{head}_{waha_chat(participant)}"
    return head


@dataclass(frozen=True, slots=True)
class Me:
    """The bot's own account as an envelope's ``me`` names it: phone digits, LID digits, and the device of its
    session (what tells a send of this session from one typed on the phone)."""

    phone: str | None = None
    lid: str | None = None
    device: str | None = None

    def named(self, jid: str | None) -> bool:
        """Whether ``jid`` names the bot (by its phone or its LID)."""
        if not jid:
            return False
        return bool((self.phone and phone_digits(jid) == self.phone) or (self.lid and lid_digits(jid) == self.lid))


def identity(*jids: object, me: Me | None = None) -> Identity:
    """The first phone and the first LID among ``jids`` (WAHA's or WhatsApp's forms); the JID kept is the first one,
    in WhatsApp's form. The bot's LID completes its phone from ``me`` (a group may name the bot only by its LID)."""
    phone = next((p for p in map(phone_digits, jids) if p), None)
    lid = next((found for found in map(lid_digits, jids) if found), None)
    if me is not None and me.phone and phone is None and lid is not None and lid == me.lid:
        phone = me.phone
    return Identity(phone, lid, next((j for j in map(whatsapp_jid, jids) if j), None))
