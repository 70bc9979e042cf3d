"""Pure parsing of the gateway's group answers: fetchAllGroups and group participants (CONTRACT.md section 4)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from taskcore.identity import is_lid, is_phone_jid, normalize_user_id

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
