"""WhatsApp identities: user ids, JIDs (in the gateways' forms: ``<digits>@s.whatsapp.net``, WAHA's ``<digits>@c.us``,
``<digits>@lid``), LIDs, device suffixes (``:12``), a person's ``Identity`` (phone and LID), id lists and group ids."""

from __future__ import annotations

import re
from dataclasses import dataclass

from taskcore.errors import InvalidIdentifier, ValidationError

USER_DOMAIN = "s.whatsapp.net"
LID_DOMAIN = "lid"
GROUP_DOMAIN = "g.us"

_GROUP_ID = re.compile(r"[0-9]+(?:-[0-9]+)?@g\.us")
_DIGITS = re.compile(r"[0-9]")
# A run of 8 or more digits, whole (possessive: never a part of a longer run), unless it is a group id's last part.
_PHONE_LIKE = re.compile(r"(?<![0-9])[0-9]{8,}+(?!@g\.us)")
# A number written in groups (``+34 600 44 55 66``, ``(555) 010-0123``, ``600.44.55.66``) of 8 or more digits: groups
# joined by one space, hyphen or dot, or by parentheses, with an optional ``+``; never a JID's start (a run), the tail
# of a hyphenated word or a time (``10:00:12.345678``), nor an ISO date (``2026-12-06``, with the time after it).
_WRITTEN = re.compile(r"(?<![\w+.(:])(?<![0-9]-)(?![0-9]{4}-[0-9]{2}-[0-9]{2}(?![0-9]))(?=(?:[ .()+\-]*[0-9]){8})"
                      r"\(?\+?\(?[0-9]+(?:(?:[ .\-]\(?|\)[ .\-]?)[0-9]+)+\)?(?![0-9@])")
_ADDRESS = re.compile(r"(?:(?:25[0-5]|2[0-4][0-9]|1?[0-9]{1,2})\.){3}(?:25[0-5]|2[0-4][0-9]|1?[0-9]{1,2})")  # IPv4
_DECIMAL = re.compile(r"[0-9]+\.[0-9]+")  # 1234.5678: a measure, not a number written in groups
MASKED_PREFIX = "***"


def normalize_user_id(value: str) -> str:
    """Digits only: phone numbers lose '+' and spaces, JIDs and LIDs their domain and device suffix."""
    user_part = value.split("@", 1)[0].split(":", 1)[0]
    digits = "".join(_DIGITS.findall(user_part))
    if not digits:
        raise InvalidIdentifier(f"no digits in user id {value!r}", field="user_id")
    return digits


def mask_phone_numbers(text: str) -> str:
    """``text`` with every number of 8 or more digits however it is written (a run: a phone number, a LID, a JID's
    user part, the creator's number in an old-style group id; or in groups: ``+34 600 44 55 66``) shown as ``***``
    and its last four digits; a group id's own digits, dates and IPv4 addresses stay (SPEC section 38)."""
    return _PHONE_LIKE.sub(lambda found: MASKED_PREFIX + found.group()[-4:], _WRITTEN.sub(_masked_written, text))


def _masked_written(found: re.Match[str]) -> str:
    written = found.group()
    if _ADDRESS.fullmatch(written) or _DECIMAL.fullmatch(written):
        return written
    return MASKED_PREFIX + "".join(_DIGITS.findall(written))[-4:]


def parse_id_list(value: str | None) -> frozenset[str]:
    """ADMIN_USERS: comma-separated ids or JIDs, each normalised; empty items skipped."""
    if not value:
        return frozenset()
    return frozenset(normalize_user_id(item) for item in value.split(",") if item.strip())


def normalize_group_id(value: str) -> str:
    """Accept ``<digits>@g.us`` or ``<digits>-<digits>@g.us`` (spaces around ignored); raise InvalidIdentifier (a
    TaskcoreError and a ValueError) otherwise."""
    candidate = value.strip()
    if not _GROUP_ID.fullmatch(candidate):
        raise InvalidIdentifier(f"not a group id (<digits>@g.us or <digits>-<digits>@g.us): {value!r}",
                                field="group_id")
    return candidate


def parse_group_list(value: str | None) -> frozenset[str]:
    """ALLOWED_GROUPS: comma-separated group ids; empty items skipped; a malformed one raises ValueError."""
    if not value:
        return frozenset()
    return frozenset(normalize_group_id(item) for item in value.split(",") if item.strip())


def jid_domain(jid: str) -> str:
    """The part after '@', or '' when there is none."""
    return jid.rpartition("@")[2] if "@" in jid else ""


def is_group_jid(jid: str) -> bool:
    """True for a group JID (``...@g.us``)."""
    return jid_domain(jid) == GROUP_DOMAIN


def is_lid(jid: str) -> bool:
    """True for a LID JID (``...@lid``)."""
    return jid_domain(jid) == LID_DOMAIN


def is_phone_jid(jid: str) -> bool:
    """True for a phone-number JID (``...@s.whatsapp.net``)."""
    return jid_domain(jid) == USER_DOMAIN


def addressing_form(jid: object) -> str | None:
    """How a JID names a person: ``lid`` for a LID, ``pn`` for a phone number (``@s.whatsapp.net``, WAHA's
    ``@c.us``), None for anything else."""
    if not isinstance(jid, str) or "@" not in jid:
        return None
    domain = jid_domain(jid.strip())
    return "lid" if domain == LID_DOMAIN else "pn" if domain in (USER_DOMAIN, "c.us") else None


def user_jid(user_id: str) -> str:
    """The phone-number JID of a digits-only user id."""
    return f"{user_id}@{USER_DOMAIN}"


def identity_key(phone: str | None, lid: str | None) -> str:
    """The digits a sender is known by before any alias: the phone number, else the LID. A user is identified by one
    of them: ValidationError (field ``phone``) without either."""
    key = phone or lid
    if not key:
        raise ValidationError("a phone number or a LID is needed to identify a user", field="phone")
    return key


def needs_rekey(lid_is_user: bool, phone: str | None, lid: str | None) -> bool:
    """True when a user known by their LID (``lid_is_user``) must be re-keyed to the phone number a message now
    shows (the full resolution does that)."""
    return bool(phone and lid and lid != phone and lid_is_user)


@dataclass(frozen=True, slots=True)
class Identity:
    """A person as the gateway names them: phone digits and/or LID digits, and the JID exactly as received."""

    phone: str | None
    lid: str | None
    jid: str | None = None

    @property
    def known(self) -> bool:
        """True when there is a phone number or a LID to resolve."""
        return bool(self.phone or self.lid)


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
