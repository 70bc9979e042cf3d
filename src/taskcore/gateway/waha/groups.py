"""WAHA's group and session events into the bot's (contract section 3): ``group.v2.join`` (the bot joined or was
added), ``group.v2.leave`` (it left or was removed), ``group.v2.participants`` (members joined, left, were promoted
or demoted), ``group.v2.update`` (the subject changed) and ``session.status`` (the connection)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taskcore.gateway.events import (
    ConnectionChanged,
    GatewayEvent,
    GroupSeen,
    GroupsUpserted,
    Identity,
    Ignored,
    ParticipantsChange,
)
from taskcore.gateway.waha import read
from taskcore.gateway.waha.envelope import Envelope
from taskcore.gateway.waha.jids import LID_DOMAIN, Me, domain_of, identity, whatsapp_jid
from taskcore.identity import normalize_group_id

__all__ = ["ACTIONS", "ADMIN_ROLES", "SESSION_STATES", "connection_of", "join_event", "leave_event",
           "participant_identity", "participants_event", "session_event", "update_event"]

ACTIONS = {"join": "add", "leave": "remove", "promote": "promote", "demote": "demote"}
ADMIN_ROLES = frozenset({"admin", "superadmin"})
SESSION_STATES = {"WORKING": "open", "STARTING": "connecting", "SCAN_QR_CODE": "connecting",
                  "PASSKEY_REQUIRED": "connecting", "PASSKEY_CONFIRMATION_REQUIRED": "connecting",
                  "FAILED": "close", "STOPPED": "close"}


def _group_id(envelope: Envelope) -> str | None:
    jid = whatsapp_jid(read.at(envelope.payload, "group", "id"))
    try:
        return normalize_group_id(jid) if jid else None
    except ValueError:
        return None


def participant_identity(raw: object, me: Me | None = None) -> Identity:
    """A participant ``{id, pn, role}``: ``id`` in ``@lid`` or ``@c.us`` form, ``pn`` its phone when WhatsApp shows
    it (``null`` or ``""`` when hidden); a bare JID string is read too."""
    if isinstance(raw, str):
        return identity(raw, me=me)
    return identity(read.at(raw, "id"), read.at(raw, "pn"), me=me)


def _people(raw: list[Any], me: Me) -> list[tuple[Identity, bool]]:
    """Each readable participant and whether it is an admin."""
    found = ((participant_identity(item, me), read.string(item, "role") in ADMIN_ROLES) for item in raw)
    return [(who, admin) for who, admin in found if who.known]


def _addressing(data: Mapping[str, Any], people: list[tuple[Identity, bool]]) -> str | None:
    """``AddressingMode`` of the raw group info, else ``lid`` when its members are named by LID, else ``pn``."""
    mode = read.string(data, "AddressingMode")
    if mode in ("lid", "pn"):
        return mode
    if not people:
        return None
    return "lid" if any(domain_of(who.jid or "") == LID_DOMAIN for who, _ in people) else "pn"


def join_event(envelope: Envelope) -> GatewayEvent:
    """``group.v2.join``: the bot is in a group (new or existing), with its subject and participants."""
    group_id = _group_id(envelope)
    if group_id is None:
        return Ignored("group event without a group", envelope.event)
    group = read.mapping(envelope.payload, "group")
    people = _people(read.items(group, "participants"), envelope.me)
    seen = GroupSeen(group_id, read.text(group, "subject"), tuple(people),
                     _addressing(read.mapping(envelope.payload, "_data"), people))
    return GroupsUpserted(envelope.session, (seen,), envelope.bot_id)


def leave_event(envelope: Envelope) -> GatewayEvent:
    """``group.v2.leave``: the bot left the group or was removed, as a removal of the bot."""
    group_id = _group_id(envelope)
    me = envelope.me
    if group_id is None or not (me.phone or me.lid):
        return Ignored("group event without a group" if group_id is None else "the bot is not known yet",
                       envelope.event)
    bot = Identity(me.phone, me.lid, f"{me.phone}@s.whatsapp.net" if me.phone else f"{me.lid}@{LID_DOMAIN}")
    return ParticipantsChange(envelope.session, group_id, "remove", (bot,), envelope.bot_id)


def participants_event(envelope: Envelope) -> GatewayEvent:
    """``group.v2.participants``: ``join``/``leave``/``promote``/``demote`` as add/remove/promote/demote."""
    group_id = _group_id(envelope)
    action = ACTIONS.get((read.string(envelope.payload, "type") or "").strip().lower())
    if group_id is None or action is None:
        return Ignored("participants event without group or known type", envelope.event)
    people = tuple(who for who, _ in _people(read.items(envelope.payload, "participants"), envelope.me))
    if not people:
        return Ignored("participants event naming nobody", envelope.event)
    return ParticipantsChange(envelope.session, group_id, action, people, envelope.bot_id)


def update_event(envelope: Envelope) -> GatewayEvent:
    """``group.v2.update``: a new subject, as the group seen again with that name; other changes (description,
    invite link, who may write) are not kept by the bot."""
    group_id = _group_id(envelope)
    subject = read.text(envelope.payload, "group", "subject")
    if group_id is None or subject is None:
        return Ignored("group change the bot does not keep", envelope.event)
    return GroupsUpserted(envelope.session, (GroupSeen(group_id, subject, ()),), envelope.bot_id)


def connection_of(status: object) -> str | None:
    """The port's connection state of a WAHA session status: ``WORKING`` open; ``STARTING``, ``SCAN_QR_CODE`` and
    the passkey steps connecting; ``FAILED`` and ``STOPPED`` close; None for anything else."""
    return SESSION_STATES.get(status.strip().upper()) if isinstance(status, str) else None


def session_event(envelope: Envelope) -> GatewayEvent:
    """``session.status``: the connection opened, is (re)connecting, or closed."""
    state = connection_of(read.at(envelope.payload, "status"))
    if state is None:
        return Ignored("unknown session status", envelope.event)
    return ConnectionChanged(envelope.session, state, None)
