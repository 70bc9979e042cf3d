"""Evolution API's answers (../shared/gateway/CONTRACT.md section 4), read into the bot's words, pure: the groups
and their participants (fetchAllGroups, group participants), the connection's state, the instance's own number
(fetchInstances), the messages it sent (findMessages) and a photo's bytes (getBase64FromMediaMessage, read with
bounds: only ``base64`` is read, a ``data:`` URI prefix dropped, and only when it can hold at most ``max_bytes``; the
bytes are checked by their content afterwards, ``chores.proof.image_kind``). Anything unreadable is skipped or None;
an answer of the wrong shape raises UnreadableAnswer (a GatewayError).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Mapping
from typing import Any

from taskcore.gateway.errors import MediaRefused, UnreadableAnswer
from taskcore.gateway.events import SentMessage
from taskcore.gateway.evolution.records import sent_message
from taskcore.gateway.port import GatewayGroup, GatewayParticipant, OwnIds, addressing_of
from taskcore.identity import addressing_form, is_lid, is_phone_jid, normalize_user_id

ADMIN_ROLES = frozenset({"admin", "superadmin"})


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
    return GatewayParticipant(phone, lid, raw.get("admin") in ADMIN_ROLES, name if isinstance(name, str) else None,
                              addressing_form(ident_text))


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
        raise UnreadableAnswer("group participants answer without a participants list")
    return parse_participants(body["participants"])


def parse_group(raw: object) -> GatewayGroup | None:
    """One group object; None when it has no usable id."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str) or not raw["id"].endswith("@g.us"):
        return None
    subject, parent, mode = raw.get("subject"), raw.get("linkedParent"), raw.get("addressingMode")
    members = raw.get("participants")
    people = parse_participants(members) if isinstance(members, list) else ()
    return GatewayGroup(
        id=raw["id"],
        subject=(subject.strip() or None) if isinstance(subject, str) else None,
        linked_parent=parent if isinstance(parent, str) and parent else None,
        is_community=raw.get("isCommunity") is True,
        is_community_announce=raw.get("isCommunityAnnounce") is True,
        participants=people,
        addressing=mode if mode in ("lid", "pn") else addressing_of(people),
    )


def parse_groups_answer(body: object) -> list[GatewayGroup]:
    """The answer of GET /group/fetchAllGroups: an array of groups (unusable entries skipped)."""
    if not isinstance(body, list):
        raise UnreadableAnswer("fetchAllGroups answer is not an array")
    return [group for group in map(parse_group, body) if group is not None]


def connection_state(body: object) -> str | None:
    """The ``state`` of GET /instance/connectionState (``{"instance": {"state": ...}}``), or None."""
    if isinstance(body, Mapping):
        inner: Any = body.get("instance", body)
        if isinstance(inner, Mapping) and isinstance(inner.get("state"), str):
            return str(inner["state"])
    return None


def owner_jid(answer: object, instance: str | None = None) -> str | None:
    """``ownerJid`` of the instance in a fetchInstances answer (an array of rows), or None (never paired)."""
    rows = answer if isinstance(answer, list) else [answer]
    for row in rows:
        if not isinstance(row, Mapping):
            continue
        nested = row.get("instance")
        inner: Mapping[str, Any] = nested if isinstance(nested, Mapping) else row
        if instance and inner.get("name", inner.get("instanceName")) not in (instance, None):
            continue
        jid = inner.get("ownerJid", inner.get("owner"))
        if isinstance(jid, str) and "@" in jid:
            return jid
    return None


def own_ids(answer: object, instance: str | None = None) -> OwnIds:
    """The instance's own account: the digits of its ``ownerJid`` (Evolution gives no LID of the bot)."""
    jid = owner_jid(answer, instance)
    return OwnIds(_digits(jid) if jid else None)


def found_messages(answer: object) -> list[SentMessage]:
    """The readable records of a findMessages answer ``{"messages": {"records": [...]}}`` (also a bare list)."""
    messages = answer.get("messages") if isinstance(answer, Mapping) else answer
    records = messages.get("records") if isinstance(messages, Mapping) else messages
    if not isinstance(records, list):
        raise UnreadableAnswer("findMessages answer without records")
    return [found for found in map(sent_message, records) if found is not None]


def message_id(answer: object) -> str | None:
    """The id (``key.id``) of a sendText or sendReaction answer."""
    key = answer.get("key") if isinstance(answer, Mapping) else None
    ident = key.get("id") if isinstance(key, Mapping) else None
    return ident if isinstance(ident, str) else None


_SLACK = 256 * 1024  # the answer's other fields (a long caption, a file name) beside the base64 text


def base64_limit(max_bytes: int) -> int:
    """The length of the base64 text of ``max_bytes`` bytes."""
    return 4 * -(-max_bytes // 3)


def answer_limit(max_bytes: int) -> int:
    """The most bytes of an answer worth reading: the base64 of ``max_bytes`` and room for the other fields."""
    return base64_limit(max_bytes) + _SLACK


def decode_media_answer(body: bytes, *, max_bytes: int) -> bytes:
    """The media's bytes from the answer's body; MediaRefused when they would pass ``max_bytes`` or cannot be
    read."""
    if len(body) > answer_limit(max_bytes):
        raise MediaRefused("too_big")
    try:
        answer = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise MediaRefused("unreadable") from exc
    text = answer.get("base64") if isinstance(answer, dict) else None
    if not isinstance(text, str) or not text:
        raise MediaRefused("unreadable")
    if text.startswith("data:"):
        text = text.partition(",")[2]
    text = "".join(text.split())
    if not text:
        raise MediaRefused("unreadable")
    if len(text) > base64_limit(max_bytes):
        raise MediaRefused("too_big")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise MediaRefused("unreadable") from exc
    if len(data) > max_bytes:
        raise MediaRefused("too_big")
    return data
