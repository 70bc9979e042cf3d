"""Group member use cases: seen in a message, participant changes, member sync, retention (SPEC sections 3, 10)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from taskcore.errors import ValidationError
from taskcore.storage import members as q
from taskcore.unit import Reading, UnitOfWork

# group-participants.update actions -> is_admin to record (None: unchanged); "remove" deactivates instead.
_JOINING: dict[str, bool | None] = {"add": None, "modify": None, "promote": True, "demote": False}
REMOVE = "remove"


def members_changed(uow: UnitOfWork, *, group_id: str, user_ids: Sequence[str], action: str, now: datetime) -> int:
    """A group-participants.update: add/modify/promote/demote make members active, remove inactive; returns how many."""
    verb = action.strip().lower()
    if verb != REMOVE and verb not in _JOINING:
        raise ValidationError(f"unknown participants action {action!r}", field="action")
    ids = list(dict.fromkeys(user_ids))
    if not ids:
        return 0
    if verb == REMOVE:
        return q.deactivate_members(uow.conn, group_id, ids, now)
    admins = dict.fromkeys(ids, _JOINING[verb])
    q.touch_members(uow.conn, group_id, admins, now)
    return len(ids)


def delete_inactive_members(uow: UnitOfWork, *, older_than: datetime) -> int:
    """Retention: delete memberships inactive since before ``older_than``; returns how many."""
    return q.delete_inactive(uow.conn, older_than)


def member_names(uow: Reading, *, group_id: str) -> list[tuple[str, str | None]]:
    """The group's active members with the names the bot knows of them (seen in their messages or given by the
    gateway)."""
    conn = uow.conn
    return [(person.id, person.name) for person in q.active_members(conn, group_id)]
