"""Groups and members seen in webhook events: discovery notices, participant changes, groups created with the bot."""

from __future__ import annotations

from collections.abc import Iterable

from taskcore.access import Sighting
from taskcore.chat.notices import discovery
from taskcore.chat.policy import ChatPolicy, Moment
from taskcore.chat.result import ChatResult, MetricEvent
from taskcore.gateway.events import GroupSeen, GroupsUpserted, Identity, ParticipantsChange
from taskcore.services import members
from taskcore.services.conversation.store import ConversationUnit
from taskcore.services.groups import see_group
from taskcore.services.identities import resolve_user
from taskcore.services.people import note_bot, set_addressing

KNOWN_ACTIONS = frozenset({"add", "remove", "promote", "demote", "modify"})


def resolve_people(
    uow: ConversationUnit, people: Iterable[Identity], *, bot_id: str | None, moment: Moment
) -> tuple[list[str], tuple[MetricEvent, ...]]:
    """User ids of these participants (the bot left out), recording LID/phone pairs; one metric per alias used."""
    users: list[str] = []
    metrics: list[MetricEvent] = []
    note_bot(uow, [bot_id], now=moment.now)
    for person in people:
        if bot_id and bot_id in (person.phone, person.lid):
            note_bot(uow, [person.phone, person.lid], now=moment.now)  # its LID too, where the group shows one
            continue
        found = resolve_user(uow, phone=person.phone, lid=person.lid, name=None, now=moment.now)
        users.append(found.user_id)
        if found.via_alias:
            metrics.append(MetricEvent.IDENTITY_ALIAS_RESOLVED)
    return users, tuple(metrics)


def _admins_languages(uow: ConversationUnit, policy: ChatPolicy, sighting: Sighting) -> dict[str, str]:
    """The languages the admins chose, read only when a discovery notice will be written to them."""
    return uow.chosen_languages(policy.admins) if sighting.newly_discovered and policy.admins else {}


def participants_changed(uow: ConversationUnit, policy: ChatPolicy, event: ParticipantsChange,
                         moment: Moment) -> ChatResult:
    """group-participants.update: members become active or inactive in groups the bot serves."""
    sighting = see_group(uow, policy.mode, group_id=event.group_id, now=moment.now)
    found = discovery(policy, sighting, languages=_admins_languages(uow, policy, sighting))
    if not sighting.allowed:
        return ChatResult("group not served", found.texts, metrics=found.metrics)
    if event.action not in KNOWN_ACTIONS:
        return ChatResult(f"unknown action {event.action}", found.texts, metrics=found.metrics)
    users, metrics = resolve_people(uow, event.participants, bot_id=event.bot_id, moment=moment)
    members.members_changed(uow, group_id=event.group_id, user_ids=users, action=event.action, now=moment.now)
    return ChatResult(f"members {event.action}", found.texts, metrics=found.metrics + metrics)


def groups_upserted(uow: ConversationUnit, policy: ChatPolicy, event: GroupsUpserted, moment: Moment) -> ChatResult:
    """groups.upsert: each group recorded with its name; in a served group every participant is an active member."""
    result = ChatResult("groups")
    for group in event.groups:
        one = _one_group(uow, policy, group, event.bot_id, moment)
        result = result.plus(texts=one.texts, metrics=one.metrics)
    return result


def _one_group(uow: ConversationUnit, policy: ChatPolicy, group: GroupSeen, bot_id: str | None,
               moment: Moment) -> ChatResult:
    sighting = see_group(uow, policy.mode, group_id=group.group_id, name=group.name, now=moment.now)
    found = discovery(policy, sighting, group.name, languages=_admins_languages(uow, policy, sighting))
    metrics = found.metrics
    if group.addressing is not None:
        set_addressing(uow, group_id=group.group_id, addressing=group.addressing)
    if sighting.allowed:
        for admins, action in ((True, "promote"), (False, "demote")):
            people = [who for who, is_admin in group.participants if is_admin is admins]
            users, used = resolve_people(uow, people, bot_id=bot_id, moment=moment)
            members.members_changed(uow, group_id=group.group_id, user_ids=users, action=action, now=moment.now)
            metrics += used
    return ChatResult(found.outcome, found.texts, metrics=metrics)
