"""WAHA's answers read into the bot's words, pure (../shared/gateway/waha/CONTRACT.md section 4): the id of a send,
groups and participants (GOWS answers with whatsmeow's ``GroupInfo``, Go field names), the session (its connection
state, its configuration, ``me``), a LID's phone, stored messages (the in-doubt check) and a fresh message id.

An answer of the wrong overall shape raises UnreadableAnswer (a GatewayError); inside a good one,
unreadable entries are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from taskcore.gateway.errors import UnreadableAnswer
from taskcore.gateway.events import Identity, SentMessage
from taskcore.gateway.port import GatewayGroup, GatewayParticipant, OwnIds, addressing_of
from taskcore.gateway.waha import read, records
from taskcore.gateway.waha.envelope import me_of
from taskcore.gateway.waha.groups import ADMIN_ROLES, connection_of
from taskcore.gateway.waha.jids import bare_id, identity, lid_digits, phone_digits, whatsapp_jid
from taskcore.identity import addressing_form, normalize_group_id

__all__ = ["group_of", "groups_of", "lid_pair", "new_message_id_of", "own_ids_of", "participants_of",
           "sent_id", "sent_messages", "session_config", "session_state"]


def sent_id(answer: object) -> str | None:
    """The bare id of the message a sendText or reaction answer ``{id, _data}`` reports sent."""
    return bare_id(read.text(answer, "id")) or read.text(answer, "_data", "Info", "ID")


def new_message_id_of(answer: object) -> str | None:
    """The ``id`` of a ``new-message-id`` answer."""
    return read.text(answer, "id")


def _name(value: object) -> str | None:
    """A display name worth showing: WhatsApp writes a hidden member's masked number there (``+1 555•••02``)."""
    return value.strip() if isinstance(value, str) and any(ch.isalpha() for ch in value) else None


def _unique(people: Iterable[GatewayParticipant | None]) -> tuple[GatewayParticipant, ...]:
    seen: dict[str, GatewayParticipant] = {}
    for person in people:
        if person is not None:
            seen.setdefault(person.user_id, person)
    return tuple(seen.values())


def _raw_participant(raw: object) -> GatewayParticipant | None:
    """One of a GroupInfo's ``Participants`` ``{JID, PhoneNumber, LID, IsAdmin, IsSuperAdmin, DisplayName}``."""
    jid = read.at(raw, "JID")
    phone = phone_digits(read.at(raw, "PhoneNumber")) or phone_digits(jid)
    lid = lid_digits(read.at(raw, "LID")) or lid_digits(jid)
    if phone is None and lid is None:
        return None
    admin = read.flag(raw, "IsAdmin") or read.flag(raw, "IsSuperAdmin")
    return GatewayParticipant(phone, lid, admin, _name(read.at(raw, "DisplayName")), addressing_form(whatsapp_jid(jid)))


def group_of(raw: object) -> GatewayGroup | None:
    """One GroupInfo; None without a usable group id."""
    jid = whatsapp_jid(read.at(raw, "JID"))
    try:
        group_id = normalize_group_id(jid) if jid else None
    except ValueError:
        return None
    if group_id is None:
        return None
    mode = read.string(raw, "AddressingMode")
    people = _unique(map(_raw_participant, read.items(raw, "Participants")))
    return GatewayGroup(
        id=group_id, subject=read.text(raw, "Name"), linked_parent=whatsapp_jid(read.at(raw, "LinkedParentJID")),
        is_community=read.flag(raw, "IsParent"), is_community_announce=read.flag(raw, "IsDefaultSubGroup"),
        participants=people, addressing=mode if mode in ("lid", "pn") else addressing_of(people))


def groups_of(answer: object) -> list[GatewayGroup]:
    """The answer of ``GET /api/{session}/groups``: an array of GroupInfo (unusable entries skipped)."""
    if not isinstance(answer, list):
        raise UnreadableAnswer("groups answer is not an array")
    return [group for group in map(group_of, answer) if group is not None]


def _v2_participant(raw: object) -> GatewayParticipant | None:
    """``{id, pn, role}`` of ``participants/v2``: ``pn`` empty or absent when WhatsApp hides the number."""
    who = identity(read.at(raw, "id"), read.at(raw, "pn"))
    if not who.known:
        return None
    return GatewayParticipant(who.phone, who.lid, read.string(raw, "role") in ADMIN_ROLES,
                              form=addressing_form(who.jid))


def participants_of(answer: object) -> tuple[GatewayParticipant, ...]:
    """The answer of ``GET /api/{session}/groups/{id}/participants/v2``: an array of ``{id, pn, role}``."""
    if not isinstance(answer, list):
        raise UnreadableAnswer("participants answer is not an array")
    return _unique(map(_v2_participant, answer))


def session_state(answer: object) -> str | None:
    """The connection state (``open``, ``connecting``, ``close``) of a session answer's ``status``."""
    return connection_of(read.at(answer, "status"))


def session_config(answer: object) -> Mapping[str, Any] | None:
    """The ``config`` of a session answer (None when the session has none)."""
    config = read.at(answer, "config")
    return config if isinstance(config, Mapping) else None


def own_ids_of(answer: object) -> OwnIds:
    """The bot's phone and LID digits from a ``me`` answer (``MeInfo``, or null before pairing) or a session answer
    (its ``me``)."""
    me = read.at(answer, "me") if isinstance(answer, Mapping) and "me" in answer else answer
    ids = me_of(me)
    return OwnIds(ids.phone, ids.lid)


def lid_pair(answer: object) -> Identity:
    """A ``lids`` answer ``{lid, pn}``: the LID's digits and its phone's (None when WAHA does not know it)."""
    return identity(read.at(answer, "lid"), read.at(answer, "pn"))


def sent_messages(answer: object) -> list[SentMessage]:
    """The bot's own messages in a stored-messages answer: an array of WAMessage, or one WAMessage (a look-up by
    id); others' messages are left out."""
    if isinstance(answer, Mapping):
        answer = [answer]
    if not isinstance(answer, list):
        raise UnreadableAnswer("messages answer is neither an array nor a message")
    return [found for found in map(records.sent_message, answer) if found is not None]
