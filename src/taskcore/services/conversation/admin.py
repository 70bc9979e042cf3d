"""The ``/admin`` commands: list, allow and block groups, start a sync (SPEC sections 4 and 5; seed A4)."""

from __future__ import annotations

from taskcore.access import GroupStatus
from taskcore.chat import admin_replies
from taskcore.chat.commands import AdminAllow, AdminBlock, AdminListGroups, AdminSync, AdminUnreachable
from taskcore.chat.result import Answer, MetricEvent, direct_message, rejected
from taskcore.i18n import _
from taskcore.services import groups
from taskcore.services.conversation.turn import Turn
from taskcore.services.unreachable_admin import unreachable_reply


def is_admin(turn: Turn) -> bool:
    """The sender is listed in ADMIN_USERS."""
    return turn.user_id in turn.policy.admins


def list_groups(turn: Turn, cmd: AdminListGroups) -> Answer:
    """/admin grupos [estado]: at most ``list_limit`` lines, then how many more."""
    found = groups.list_groups(turn.uow, status=cmd.status)
    if not found:
        return Answer(admin_replies.no_groups(cmd.status))
    shown = found[: turn.policy.list_limit]
    lines = [admin_replies.groups_heading(len(found), cmd.status),
             *(admin_replies.group_line(g.id, g.name, g.status, g.active) for g in shown)]
    if len(found) > len(shown):
        lines.append(_("y {count} más", count=len(found) - len(shown)))
    return Answer("\n".join(lines))


def _set_status(turn: Turn, group_id: str | None, status: GroupStatus, metric: MetricEvent) -> Answer:
    target = group_id or turn.group_id
    if target is None:
        return rejected(_(admin_replies.HERE_OUTSIDE_GROUP))
    record = groups.set_group_status(turn.uow, group_id=target, status=status, by=turn.user_id, now=turn.moment.now)
    return Answer(admin_replies.group_status_set(record.id, record.name, status), metrics=(metric,))


def allow(turn: Turn, cmd: AdminAllow) -> Answer:
    """/admin permitir <grupo|aquí>."""
    return _set_status(turn, cmd.group_id, GroupStatus.ALLOWED, MetricEvent.ADMIN_ALLOW)


def block(turn: Turn, cmd: AdminBlock) -> Answer:
    """/admin bloquear <grupo|aquí>."""
    return _set_status(turn, cmd.group_id, GroupStatus.BLOCKED, MetricEvent.ADMIN_BLOCK)


def sync(turn: Turn, cmd: AdminSync) -> Answer:
    """/admin sync: ask the schedulers to run the group and member sync now."""
    request = turn.moment.request_sync
    if request is None:
        return rejected(_(admin_replies.SYNC_UNAVAILABLE))
    request()
    return Answer(_(admin_replies.SYNC_STARTED))


def unreachable(turn: Turn, cmd: AdminUnreachable) -> Answer:
    """/admin inalcanzables: the list goes by direct message (it names people); a group hears only that it was
    sent."""
    listed = unreachable_reply(turn.uow, lang=turn.own_language)
    if turn.group_id is None:
        return Answer(listed)
    return Answer(_(admin_replies.SENT_IN_PRIVATE), extra=(direct_message(turn.private_chat, listed),))
