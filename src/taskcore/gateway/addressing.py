"""How the gateway names people and chats (CONTRACT.md section 3, "Keys in groups"): JIDs to phone and LID digits.

Every addressing form is accepted: LID and phone-number (PN) keys, ``participantAlt``/``remoteJidAlt``, the older
``senderPn``/``senderLid``/``participantPn``/``participantLid`` names; device suffixes (``:12``) are stripped.
"""

from __future__ import annotations

from dataclasses import dataclass

from taskcore.gateway.inbound_models import WireKey, WireParticipant
from taskcore.identity import GROUP_DOMAIN, LID_DOMAIN, jid_domain, normalize_group_id

_PHONE_DOMAINS = frozenset({"s.whatsapp.net", "c.us", ""})


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


def participant_identity(person: WireParticipant) -> Identity:
    """PN = phoneNumber, or id when a phone JID; LID = id when ``@lid``, else lid (CONTRACT.md "Parsing")."""
    lid = lid_of(person.id) or lid_of(person.lid) or (digits_of(person.lid) if person.lid else None)
    phone = phone_of(person.id) or phone_of(person.phone_number)
    # Leavers' participantsData (2.3.5) carries the LID digits as "phoneNumber": that is no phone number.
    return Identity(None if phone == lid else phone, lid, person.id)


def chat_of(key: WireKey) -> tuple[str, str | None, Identity] | None:
    """(chat id for replies, group id or None, sender) of a message key; None for broadcasts and unknown chats."""
    remote = strip_device(key.remote_jid or "")
    if jid_domain(remote) == GROUP_DOMAIN:
        group_id = normalize_group_id(remote)
        sender = identity_of(key.participant, key.participant_alt, key.participant_pn, key.participant_lid,
                             key.sender_pn, key.sender_lid, raw=key.participant)
        return group_id, group_id, sender
    if not remote or jid_domain(remote) not in _PHONE_DOMAINS | {LID_DOMAIN}:
        return None
    sender = identity_of(remote, key.remote_jid_alt, key.sender_pn, key.sender_lid, key.previous_remote_jid,
                         raw=key.remote_jid)
    chat_id = f"{sender.phone}@s.whatsapp.net" if sender.phone else f"{sender.lid}@{LID_DOMAIN}"
    return chat_id, None, sender
