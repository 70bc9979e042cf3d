"""Queries on everything the service keeps about one person (SPEC section 32): read it all, or erase it.

Erasure: the person's rows go (identity, name, aliases, preferences, sessions, login links, tokens, calendar,
memberships, assignments, reminders held or delivered, their personal tasks, their reward requests and missed
chores by the foreign keys' cascade); the group tasks they created stay with the forgotten creator ``FORGOTTEN_ID``
(``tasks.created_by`` is NOT NULL), their completions stay, credited to it (counts without a name); queued and
received messages that carry their digits are deleted.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, delete, or_, select, update

from taskcore.storage.penalty_tables import missed_chores
from taskcore.storage.reward_tables import reward_requests
from taskcore.storage.schema import (
    allowed_groups,
    api_tokens,
    calendar_feeds,
    gateway_echoes,
    group_members,
    groups,
    held_messages,
    identity_aliases,
    inbox,
    outbound_queue,
    reminder_deliveries,
    task_assignments,
    task_messages,
    tasks,
    user_preferences,
    users,
    web_sessions,
    web_tokens,
)
from taskcore.storage.sql import insert_ignore
from taskcore.storage.tasks import BALANCED_MARK
from taskcore.storage.utc import utc_from_db

__all__ = ["FORGOTTEN_ID", "erase_person", "person_ids", "person_rows"]

FORGOTTEN_ID = "0"  # the creator of tasks whose creator was forgotten; never a person
_OWN: tuple[Table, ...] = (web_tokens, web_sessions, api_tokens, calendar_feeds, user_preferences,
                           reminder_deliveries, held_messages, group_members, task_assignments)


def person_ids(conn: Connection, user_id: str) -> list[str]:
    """The person's user id and every alias (LID) that stands for it."""
    aliases = conn.execute(select(identity_aliases.c.alias).where(identity_aliases.c.user_id == user_id)).scalars()
    return [user_id, *aliases]


def _plain(row: Any) -> dict[str, Any]:
    return {str(key): utc_from_db(value) if isinstance(value, datetime) else value
            for key, value in row._asdict().items()}


def person_rows(conn: Connection, user_id: str) -> dict[str, list[dict[str, Any]]]:
    """Every row about the person, by table; secrets (hashes) left out."""
    t = tasks
    mine = or_(t.c.created_by == user_id, t.c.completed_by == user_id,
               t.c.id.in_(select(task_assignments.c.task_id).where(task_assignments.c.user_id == user_id)))
    found: dict[str, Any] = {
        "users": select(users).where(users.c.id == user_id),
        "identity_aliases": select(identity_aliases.c.alias, identity_aliases.c.created_at)
        .where(identity_aliases.c.user_id == user_id),
        "user_preferences": select(user_preferences).where(user_preferences.c.user_id == user_id),
        "group_members": select(group_members, groups.c.name.label("group_name"))
        .join(groups, groups.c.id == group_members.c.group_id).where(group_members.c.user_id == user_id),
        "tasks": select(t.c.id, t.c.group_id, t.c.description, t.c.due_date, t.c.created_at, t.c.completed,
                        t.c.completed_at, t.c.completion, t.c.recurrence_text, t.c.points,
                        (t.c.created_by == user_id).label("created_by_me"),
                        (t.c.completed_by == user_id).label("completed_by_me")).where(mine).order_by(t.c.id),
        "task_assignments": select(task_assignments.c.task_id, task_assignments.c.assigned_at,
                                   task_assignments.c.done_at).where(task_assignments.c.user_id == user_id),
        "api_tokens": select(api_tokens.c.id, api_tokens.c.name, api_tokens.c.created_at,
                             api_tokens.c.last_used_at).where(api_tokens.c.user_id == user_id),
        "calendar_feeds": select(calendar_feeds.c.created_at).where(calendar_feeds.c.user_id == user_id),
        "web_sessions": select(web_sessions.c.created_at, web_sessions.c.last_used_at, web_sessions.c.expires_at)
        .where(web_sessions.c.user_id == user_id),
        "web_tokens": select(web_tokens.c.created_at, web_tokens.c.expires_at, web_tokens.c.used_at)
        .where(web_tokens.c.user_id == user_id),
        "reminder_deliveries": select(reminder_deliveries.c.slot, reminder_deliveries.c.outcome)
        .where(reminder_deliveries.c.user_id == user_id),
        "held_messages": select(held_messages.c.text, held_messages.c.held_at, held_messages.c.release_at)
        .where(held_messages.c.user_id == user_id),
        "reward_requests": select(reward_requests.c.id, reward_requests.c.group_id, reward_requests.c.reward_id,
                                  reward_requests.c.points, reward_requests.c.state, reward_requests.c.requested_at,
                                  reward_requests.c.decided_at, reward_requests.c.reason)
        .where(reward_requests.c.requester == user_id).order_by(reward_requests.c.id),
        "missed_chores": select(missed_chores.c.id, missed_chores.c.group_id, missed_chores.c.task_id,
                                missed_chores.c.due_date, missed_chores.c.points, missed_chores.c.state,
                                missed_chores.c.found_at, missed_chores.c.decided_at, missed_chores.c.reason)
        .where(missed_chores.c.user_id == user_id).order_by(missed_chores.c.id),
    }
    return {name: [_plain(row) for row in conn.execute(stmt)] for name, stmt in found.items()}


def _containing(column: Any, ids: Collection[str]) -> Any:
    return or_(*(column.contains(digits, autoescape=True) for digits in ids))


def erase_person(conn: Connection, user_id: str, now: datetime) -> bool:
    """Erase the person (see the module's text); False when no such person is stored."""
    if conn.execute(select(users.c.id).where(users.c.id == user_id)).first() is None:
        return False
    ids = person_ids(conn, user_id)
    insert_ignore(conn, users, {"id": FORGOTTEN_ID, "display_name": None, "created_at": now,
                                "last_seen_at": None}, ["id"])
    t = tasks
    personal = select(t.c.id).where(t.c.group_id.is_(None), t.c.created_by == user_id).scalar_subquery()
    for table in (task_assignments, task_messages):
        conn.execute(delete(table).where(table.c.task_id.in_(personal)))
    conn.execute(delete(outbound_queue).where(outbound_queue.c.task_id.in_(personal)))
    conn.execute(delete(t).where(t.c.group_id.is_(None), t.c.created_by == user_id))
    conn.execute(update(t).where(t.c.created_by == user_id).values(created_by=FORGOTTEN_ID))
    conn.execute(update(t).where(t.c.completed_by == user_id).values(completed_by=FORGOTTEN_ID))
    conn.execute(update(t).where(_containing(t.c.origin_participant, ids)).values(origin_participant=None))
    _out_of_rotations(conn, set(ids))
    by = task_assignments.c.assigned_by
    conn.execute(update(task_assignments).where(_containing(by, ids)).values(assigned_by=None))
    conn.execute(update(allowed_groups).where(_containing(allowed_groups.c.updated_by, ids)).values(updated_by=None))
    for table in _OWN:
        conn.execute(delete(table).where(table.c.user_id == user_id))
    conn.execute(delete(identity_aliases).where(or_(identity_aliases.c.user_id == user_id,
                                                    identity_aliases.c.alias.in_(ids))))
    q = outbound_queue
    conn.execute(delete(q).where(or_(_containing(q.c.chat_id, ids), _containing(q.c.payload, ids))))
    conn.execute(delete(inbox).where(or_(_containing(inbox.c.payload, ids), _containing(inbox.c.chat_key, ids))))
    conn.execute(delete(gateway_echoes).where(_containing(gateway_echoes.c.chat_id, ids)))
    conn.execute(delete(task_messages).where(_containing(task_messages.c.chat_id, ids)))
    conn.execute(delete(users).where(users.c.id == user_id))
    return True


def _out_of_rotations(conn: Connection, ids: set[str]) -> None:
    """Take the person out of every rotation (the turn stays at its index, within the shorter list)."""
    t = tasks
    rows = conn.execute(select(t.c.id, t.c.rotation_people, t.c.rotation_turn).where(
        t.c.rotation_people.is_not(None), _containing(t.c.rotation_people, ids))).all()
    for row in rows:
        words = str(row.rotation_people).split()
        kept = [word for word in words if word not in ids]
        people = [word for word in kept if word != BALANCED_MARK]
        turn = int(row.rotation_turn or 0) % len(people) if people else 0
        conn.execute(update(t).where(t.c.id == row.id).values(
            rotation_people=" ".join(kept) if people else None, rotation_turn=turn))
