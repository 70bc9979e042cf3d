"""The gateway's wire format, both ways, pure (../shared/gateway/CONTRACT.md section 4): the bodies of the outbound
calls (sendText, sendReaction) and the parsing of its group answers (fetchAllGroups, group participants).

Webhook events, the inbound direction, are parsed in ``gateway.inbound``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from taskcore.identity import is_group_jid, is_lid, is_phone_jid, normalize_user_id, user_jid


def chat_number(chat_id: str) -> str:
    """The ``number`` of sendText: group JIDs and LIDs as they are, a digits-only user id as a phone JID."""
    return chat_id if "@" in chat_id else user_jid(chat_id)


def mention_jid(user_id_or_jid: str) -> str:
    """A JID to put in ``mentioned``: LIDs and phone JIDs kept, digits turned into a phone JID."""
    return user_id_or_jid if is_lid(user_id_or_jid) or "@" in user_id_or_jid else user_jid(user_id_or_jid)


def quoted_key(*, chat_id: str, message_id: str, participant: str | None, text: str | None) -> dict[str, Any]:
    """The ``quoted`` object: key with the original sender as participant, plus the message (else it is lost)."""
    key: dict[str, Any] = {"id": message_id, "remoteJid": chat_id, "fromMe": False}
    if participant:
        key["participant"] = participant
    return {"key": key, "message": {"conversation": text or ""}}


def quoted_reference(*, chat_id: str, message_id: str, from_me: bool, participant: str | None) -> dict[str, Any]:
    """The ``quoted`` object for a message whose text the bot does not have (one a reaction named): the key alone,
    which the gateway completes from its own store (CONTRACT.md section 4, "Quoting")."""
    key: dict[str, Any] = {"id": message_id, "remoteJid": chat_id, "fromMe": from_me}
    if participant:
        key["participant"] = participant
    return {"key": key}


def send_text_body(
    *, chat_id: str, text: str, quoted: dict[str, Any] | None = None, mentioned: Sequence[str] = ()
) -> dict[str, Any]:
    """Body of POST /message/sendText/{instance}; mentions only apply to group chats."""
    body: dict[str, Any] = {"number": chat_number(chat_id), "text": text, "linkPreview": False}
    if quoted is not None:
        body["quoted"] = quoted
    if mentioned and is_group_jid(chat_id):
        body["mentioned"] = list(dict.fromkeys(mention_jid(m) for m in mentioned))
    return body


def send_reaction_body(*, chat_id: str, message_id: str, participant: str | None, emoji: str) -> dict[str, Any]:
    """Body of POST /message/sendReaction/{instance}; in groups the participant is passed exactly as received."""
    key: dict[str, Any] = {"remoteJid": chat_id, "fromMe": False, "id": message_id}
    if participant:
        key["participant"] = participant
    return {"key": key, "reaction": emoji}


ADMIN_ROLES = frozenset({"admin", "superadmin"})


@dataclass(frozen=True, slots=True)
class GatewayParticipant:
    """A group participant: phone and LID digits when known (at least one of them), and whether it is an admin."""

    phone: str | None
    lid: str | None
    admin: bool
    name: str | None = None

    @property
    def user_id(self) -> str:
        """The id the service keys the user by: the phone digits, else the LID digits."""
        return self.phone or self.lid or ""


@dataclass(frozen=True, slots=True)
class GatewayGroup:
    """A group as fetchAllGroups lists it."""

    id: str
    subject: str | None
    linked_parent: str | None
    is_community: bool
    is_community_announce: bool
    participants: tuple[GatewayParticipant, ...] = ()


def _digits(value: object) -> str | None:
    """Digits of a JID or a digits string; None for anything else (e.g. the gateway's "[object Object]")."""
    if not isinstance(value, str) or not value.strip():
        return None
    if "@" in value and not (is_phone_jid(value) or is_lid(value)):
        return None
    if "@" not in value and not value.strip().lstrip("+").isdigit():
        return None
    try:
        return normalize_user_id(value)
    except ValueError:
        return None


def parse_participant(raw: object) -> GatewayParticipant | None:
    """One participant (an object, or a bare JID string of older gateways); None when no identity is readable."""
    if isinstance(raw, str):
        raw = {"id": raw}
    if not isinstance(raw, Mapping):
        return None
    ident = raw.get("id")
    ident_text = ident if isinstance(ident, str) else ""
    phone = _digits(ident_text) if is_phone_jid(ident_text) else _digits(raw.get("phoneNumber"))
    lid = _digits(ident_text) if is_lid(ident_text) else _digits(raw.get("lid"))
    if phone is None and lid is None:
        return None
    name = raw.get("name")
    return GatewayParticipant(phone, lid, raw.get("admin") in ADMIN_ROLES, name if isinstance(name, str) else None)


def parse_participants(raw: Iterable[object]) -> tuple[GatewayParticipant, ...]:
    """Every readable participant, in order, each identity once."""
    seen: dict[str, GatewayParticipant] = {}
    for item in raw:
        parsed = parse_participant(item)
        if parsed is not None:
            seen.setdefault(parsed.user_id, parsed)
    return tuple(seen.values())


def parse_participants_answer(body: object) -> tuple[GatewayParticipant, ...]:
    """The answer of GET /group/participants: ``{"participants": [...]}``."""
    if not isinstance(body, Mapping) or not isinstance(body.get("participants"), list):
        raise ValueError("group participants answer without a participants list")
    return parse_participants(body["participants"])


def parse_group(raw: object) -> GatewayGroup | None:
    """One group object; None when it has no usable id."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str) or not raw["id"].endswith("@g.us"):
        return None
    subject, parent = raw.get("subject"), raw.get("linkedParent")
    members = raw.get("participants")
    return GatewayGroup(
        id=raw["id"],
        subject=(subject.strip() or None) if isinstance(subject, str) else None,
        linked_parent=parent if isinstance(parent, str) and parent else None,
        is_community=raw.get("isCommunity") is True,
        is_community_announce=raw.get("isCommunityAnnounce") is True,
        participants=parse_participants(members) if isinstance(members, list) else (),
    )


def parse_groups_answer(body: object) -> list[GatewayGroup]:
    """The answer of GET /group/fetchAllGroups: an array of groups (unusable entries skipped)."""
    if not isinstance(body, list):
        raise ValueError("fetchAllGroups answer is not an array")
    return [group for group in map(parse_group, body) if group is not None]


def synced_groups(groups: Iterable[GatewayGroup], community_id: str | None) -> list[GatewayGroup]:
    """The groups the sync keeps: chat groups only (no community parent, no announcement group); with a
    community, only its sub-groups (linkedParent)."""
    kept = [g for g in groups if not g.is_community and not g.is_community_announce and g.id != community_id]
    if community_id is None:
        return kept
    return [g for g in kept if g.linked_parent == community_id]


def connection_state(body: object) -> str | None:
    """The ``state`` of GET /instance/connectionState (``{"instance": {"state": ...}}``), or None."""
    if isinstance(body, Mapping):
        inner: Any = body.get("instance", body)
        if isinstance(inner, Mapping) and isinstance(inner.get("state"), str):
            return str(inner["state"])
    return None
