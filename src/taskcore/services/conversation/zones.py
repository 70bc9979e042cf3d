"""/t zona: show or choose the sender's time zone (SPEC section 21); in a group, the group's (SPEC section 30)."""

from __future__ import annotations

from taskcore.chat import locale_replies
from taskcore.chat.commands import SetZone, ShowZone
from taskcore.chat.result import Answer
from taskcore.chores import texts
from taskcore.services import zones
from taskcore.services.conversation.turn import Turn


def show_zone(turn: Turn, cmd: ShowZone) -> Answer:
    """/t zona: the zone in force and where it comes from; in a group, the group's."""
    if turn.group_id is not None:
        group = zones.group_zone(turn.uow, group_id=turn.group_id)
        return Answer(texts.group_zone_shown(group, turn.policy.zone, turn.moment.now))
    zone = zones.user_zone(turn.uow, user_id=turn.user_id, fallback=turn.policy.zone)
    return Answer(locale_replies.zone_shown(zone, turn.moment.now))


def set_zone(turn: Turn, cmd: SetZone) -> Answer:
    """/t zona <lugar>|sin: the sender's zone; in a group the group's (any member, like its language: the
    member's own zone is unchanged)."""
    if turn.group_id is not None:
        group = zones.set_group_zone(turn.uow, group_id=turn.group_id, name=cmd.tz, now=turn.moment.now)
        return Answer(texts.group_zone_set(group, turn.policy.zone, turn.moment.now))
    zone = zones.set_time_zone(turn.uow, user_id=turn.user_id, name=cmd.tz, fallback=turn.policy.zone,
                               now=turn.moment.now)
    return Answer(locale_replies.zone_set(zone, turn.moment.now))
