"""WhatsApp identities: user ids, JIDs, LIDs, device suffixes, id lists and group ids."""

from __future__ import annotations

import re

from taskcore.errors import InvalidIdentifier, ValidationError

USER_DOMAIN = "s.whatsapp.net"
LID_DOMAIN = "lid"
GROUP_DOMAIN = "g.us"

_GROUP_ID = re.compile(r"[0-9]+(?:-[0-9]+)?@g\.us")
_DIGITS = re.compile(r"[0-9]")
# A run of 8 or more digits, whole (possessive: never a part of a longer run), unless it is a group id's last part.
_PHONE_LIKE = re.compile(r"(?<![0-9])[0-9]{8,}+(?!@g\.us)")
MASKED_PREFIX = "***"


def normalize_user_id(value: str) -> str:
    """Digits only: phone numbers lose '+' and spaces, JIDs and LIDs their domain and device suffix."""
    user_part = value.split("@", 1)[0].split(":", 1)[0]
    digits = "".join(_DIGITS.findall(user_part))
    if not digits:
        raise InvalidIdentifier(f"no digits in user id {value!r}", field="user_id")
    return digits


def mask_phone_numbers(text: str) -> str:
    """``text`` with every run of 8 or more digits (a phone number, a LID, a JID's user part, the creator's number
    in an old-style group id) shown as ``***`` and its last four digits; a group id's own digits stay."""
    return _PHONE_LIKE.sub(lambda found: MASKED_PREFIX + found.group()[-4:], text)


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
