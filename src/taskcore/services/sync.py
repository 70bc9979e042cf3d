"""Group sync and member sync from the gateway's answers, and the admins' notice of a discovered group
(SPEC sections 4 and 10). The schedulers fetch; these functions decide and store.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection

from taskcore.access import GatingMode, effectively_allowed
from taskcore.gateway.outbound import chat_jid, text_payload
from taskcore.gateway.port import GatewayGroup, GatewayParticipant, addressing_of
from taskcore.i18n import SOURCE, _, speaking
from taskcore.model import GroupRecord
from taskcore.queue_rules import JobKind
from taskcore.services.groups import apply_group_listing
from taskcore.services.languages import languages_of
from taskcore.services.people import note_bot, set_addressing
from taskcore.storage import members as member_queries
from taskcore.storage.identities import resolve_identity
from taskcore.storage.people import bot_user_ids
from taskcore.storage.queue import enqueue
from taskcore.unit import UnitOfWork


@dataclass(frozen=True, slots=True)
class GroupSyncOutcome:
    """What a group sync did; ``applied`` is False when the answer was empty and nothing was changed."""

    applied: bool
    listed: int = 0
    discovered: tuple[str, ...] = ()
    deactivated: tuple[str, ...] = ()
    notices: int = 0


def discovery_notice(group_id: str, name: str | None) -> str:
    """The direct message telling an admin that a group was found and how to allow or block it (in the language in
    force)."""
    shown = f"«{name}» ({group_id})" if name else group_id
    return _("Nuevo grupo detectado: {group}. Queda pendiente hasta que decidas.\n"
             "Para permitirlo: /admin permitir {group_id}\nPara bloquearlo: /admin bloquear {group_id}",
             group=shown, group_id=group_id)


def queue_discovery_notices(
    conn: Connection, *, group_id: str, name: str | None, admins: Iterable[str], now: datetime, max_attempts: int,
    default_language: str = SOURCE,
) -> int:
    """Inside a transaction: one direct message per admin in their language, never twice for the same (group,
    admin)."""
    queued = 0
    who = sorted(set(admins))
    langs = languages_of(conn, who, default_language)
    for admin in who:
        with speaking(langs[admin]):
            text = discovery_notice(group_id, name)
        job = enqueue(conn, chat_id=chat_jid(admin), kind=JobKind.TEXT.value,
                      payload=text_payload(chat_id=admin, text=text), dedupe_key=f"discovery:{group_id}:{admin}",
                      max_attempts=max_attempts, now=now)
        queued += job is not None
    return queued


def apply_fetched_groups(
    uow: UnitOfWork, mode: GatingMode, groups: Sequence[GatewayGroup], *, community_id: str | None,
    admins: Iterable[str], notify_admins: bool, max_attempts: int, now: datetime, default_language: str = SOURCE,
) -> GroupSyncOutcome:
    """The group sync: keep the community's chat groups, record them (discovery in discover mode, with the admins'
    notices), deactivate the ones no longer listed. An empty answer changes nothing: it is more likely a gateway
    that lost its session than a bot that left every group."""
    if not groups:
        return GroupSyncOutcome(applied=False)
    kept = synced_groups(groups, community_id)
    names = {group.id: group.subject for group in kept}
    result = apply_group_listing(uow, mode, listed=list(names.items()), community_id=community_id, now=now)
    for group in kept:  # the gateway's record of the group, never one message's key (SPEC section 38)
        if group.addressing is not None:
            set_addressing(uow, group_id=group.id, addressing=group.addressing)
    notices = 0
    if mode is GatingMode.DISCOVER and notify_admins and result.discovered:
        who = list(admins)
        notices = sum(
            queue_discovery_notices(uow.conn, group_id=gid, name=names.get(gid), admins=who, now=now,
                                    max_attempts=max_attempts, default_language=default_language)
            for gid in result.discovered)
    return GroupSyncOutcome(True, len(kept), result.discovered, result.deactivated, notices)


def member_sync_targets(records: Iterable[GroupRecord], mode: GatingMode) -> tuple[list[str], list[str]]:
    """(groups whose members are synced, active groups skipped because they are not allowed)."""
    active = [record for record in records if record.active]
    synced = [r.id for r in active if effectively_allowed(mode, r.status)]
    skipped = [r.id for r in active if not effectively_allowed(mode, r.status)]
    return synced, skipped


def apply_participants(
    uow: UnitOfWork, *, group_id: str, participants: Sequence[GatewayParticipant], now: datetime
) -> tuple[int, int]:
    """Member sync of one group: listed users active (phone/LID pairs recorded as aliases, LID-only users re-keyed),
    absent members inactive since now, and the group's addressing as its participants are named. Returns (active,
    deactivated); an empty list changes nothing."""
    if not participants:
        return 0, 0

    conn = uow.conn
    addressing = addressing_of(participants)
    if addressing is not None:
        set_addressing(uow, group_id=group_id, addressing=addressing)
    present: dict[str, bool | None] = {}
    bot = bot_user_ids(conn)  # the bot is never a member (SPEC section 32)
    for person in participants:
        if person.phone in bot or person.lid in bot:
            note_bot(uow, [found for found in (person.phone, person.lid) if found not in bot], now=now)  # its LID too
            continue
        user_id, _known = resolve_identity(conn, phone=person.phone, lid=person.lid, name=None, now=now)
        present[user_id] = bool(present.get(user_id)) or person.admin
    member_queries.touch_members(conn, group_id, present, now)
    return len(present), member_queries.deactivate_absent(conn, group_id, present.keys(), now)


def synced_groups(groups: Iterable[GatewayGroup], community_id: str | None) -> list[GatewayGroup]:
    """The groups the sync keeps: chat groups only (no community parent, no announcement group); with a
    community, only its sub-groups (linkedParent)."""
    kept = [g for g in groups if not g.is_community and not g.is_community_announce and g.id != community_id]
    if community_id is None:
        return kept
    return [g for g in kept if g.linked_parent == community_id]
