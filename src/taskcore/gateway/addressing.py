"""How the gateways name people and chats: JIDs (``<digits>@s.whatsapp.net``, WAHA's ``<digits>@c.us``,
``<digits>@lid``) to phone and LID digits, device suffixes (``:12``) stripped."""

from __future__ import annotations

from taskcore.gateway.events import Identity
from taskcore.identity import LID_DOMAIN, jid_domain

_PHONE_DOMAINS = frozenset({"s.whatsapp.net", "c.us", ""})


def strip_device(jid: str) -> str:
    """``34600112233:12@s.whatsapp.net`` -> ``34600112233@s.whatsapp.net``; other JIDs unchanged."""
    user, at, domain = jid.strip().partition("@")
    return f"{user.partition(':')[0]}{at}{domain}"


def digits_of(jid: str) -> str | None:
    user = strip_device(jid).partition("@")[0]
    return user if user.isascii() and user.isdigit() else None


def phone_of(jid: str | None) -> str | None:
    """The digits of a phone-number JID (or of bare digits); None for LIDs, groups and anything else."""
    if not jid or jid_domain(jid) not in _PHONE_DOMAINS:
        return None
    return digits_of(jid)


def lid_of(jid: str | None) -> str | None:
    """The digits of a ``...@lid`` JID; None otherwise."""
    return digits_of(jid) if jid and jid_domain(jid) == LID_DOMAIN else None


def identity_of(*jids: str | None, raw: str | None = None) -> Identity:
    """The first phone number and the first LID among ``jids``; ``raw`` is kept as received."""
    phone = next((p for p in map(phone_of, jids) if p), None)
    lid = next((lid for lid in map(lid_of, jids) if lid), None)
    return Identity(phone, lid, raw)
