"""Group member use cases: seen in a message, participant changes, member sync, retention (SPEC sections 3, 10)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection

from taskcore.errors import ValidationError
from taskcore.model import SenderFacts
from taskcore.storage import members as q
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user

# group-participants.update actions -> is_admin to record (None: unchanged); "remove" deactivates instead.
_JOINING: dict[str, bool | None] = {"add": None, "modify": None, "promote": True, "demote": False}
REMOVE = "remove"


def member_seen(
    db: Database, *, group_id: str, user_id: str, now: datetime, name: str | None = None,
    known: SenderFacts | None = None,
) -> None:
    """A user wrote in a group: an active member seen now (display name recorded when given).

    ``known``: the user and the group exist and their membership was read in this transaction (``sender_facts``),
    so only a change is written."""

    def work(conn: Connection) -> None:
        if known is not None and name is None:
            q.touch_known_member(conn, group_id, user_id, now, active=known.member_active,
                                 seen_at=known.member_seen_at)
            return
        ensure_user(conn, user_id, now, name=name)
        q.touch_member(conn, group_id, user_id, now)

    db.transact(work)


def mentioned_members(db: Database, *, group_id: str, user_ids: Sequence[str], now: datetime) -> None:
    """Users mentioned in a group, who exist already, become active members of the group, which exists too."""
    if user_ids:
        db.transact(lambda conn: q.add_known_members(conn, group_id, user_ids, now))


def members_changed(db: Database, *, group_id: str, user_ids: Sequence[str], action: str, now: datetime) -> int:
    """A group-participants.update: add/modify/promote/demote make members active, remove inactive; returns how many."""
    verb = action.strip().lower()
    if verb != REMOVE and verb not in _JOINING:
        raise ValidationError(f"unknown participants action {action!r}", field="action")
    ids = list(dict.fromkeys(user_ids))
    if not ids:
        return 0
    if verb == REMOVE:
        return db.transact(lambda conn: q.deactivate_members(conn, group_id, ids, now))
    admins = dict.fromkeys(ids, _JOINING[verb])
    db.transact(lambda conn: q.touch_members(conn, group_id, admins, now))
    return len(ids)


def delete_inactive_members(db: Database, *, older_than: datetime) -> int:
    """Retention: delete memberships inactive since before ``older_than``; returns how many."""
    return db.transact(lambda conn: q.delete_inactive(conn, older_than))
