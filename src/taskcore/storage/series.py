"""Queries of recurring tasks (SPEC section 20): the next occurrence as a copy of the completed one, and the people
of a rotation as they are known now."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from sqlalchemy import Connection, Integer, Text, bindparam, false, insert, select

from taskcore.storage.schema import UtcDateTime, identity_aliases, tasks, users

t = tasks

# Columns the next occurrence does not copy: it is a new, open task with its own date and turn.
_NOT_COPIED = frozenset({
    "id", "due_date", "created_at", "completed", "completed_at", "completed_by", "origin_chat_id",
    "origin_message_id", "origin_participant", "origin_message_at", "rotation_turn", "nag_escalated_at",
    "turn_passed_at",
})
_COPIED = [column for column in t.columns if column.name not in _NOT_COPIED]
# INSERT ... SELECT: every other column (description, group, creator, rule, and whatever later columns describe the
# task, such as its completion mode) comes from the completed occurrence as it is stored.
_INSERT_NEXT = (
    insert(t)
    .from_select(
        [c.name for c in _COPIED] + ["due_date", "created_at", "completed", "rotation_turn"],
        select(*_COPIED, bindparam("due", type_=Text()), bindparam("now", type_=UtcDateTime()), false(),
               bindparam("turn", type_=Integer())).where(t.c.id == bindparam("source")),
    )
    .returning(t.c.id)
)


def insert_next(conn: Connection, source: int, *, due: date, turn: int | None, now: datetime) -> int:
    """Insert the occurrence after task ``source``, due on ``due``; return its id."""
    row = conn.execute(_INSERT_NEXT, {"source": source, "due": due.isoformat(), "turn": turn, "now": now}).first()
    if row is None:  # pragma: no cover - the source row is read in the same transaction
        raise AssertionError(f"task {source} vanished while its next occurrence was created")
    return int(row[0])


def current_people(conn: Connection, user_ids: Sequence[str]) -> dict[str, str]:
    """Each id of a rotation as a user known now: itself, or the phone user a LID-keyed user became; ids that match
    no user are left out."""
    ids = list(dict.fromkeys(user_ids))
    found = {user: user for user in conn.execute(select(users.c.id).where(users.c.id.in_(ids))).scalars()}
    missing = [user for user in ids if user not in found]
    if missing:
        ia = identity_aliases
        rows = conn.execute(select(ia.c.alias, ia.c.user_id).where(ia.c.alias.in_(missing)))
        found |= {str(alias): str(user) for alias, user in rows}
    return found
