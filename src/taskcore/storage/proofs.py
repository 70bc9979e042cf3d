"""Queries of photo proof (SPEC section 34): a task's photo rule and its photo's way from the chat to approval."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, delete, false, or_, select, true, update

from taskcore.errors import PhotoRequired
from taskcore.storage.proof_tables import task_proofs
from taskcore.storage.schema import group_members, groups, task_messages, tasks, users
from taskcore.storage.sql import insert_ignore, upsert

tp, t, gm, g = task_proofs, tasks, group_members, groups
FETCHING, WAITING, APPROVED = "fetching", "waiting", "approved"
_PHOTO_COLUMNS = ("state", "sent_by", "chat_id", "message_id", "participant", "caption", "media", "next_at",
                  "file_name", "received_at", "kept_at", "approved_at")


@dataclass(frozen=True, slots=True)
class ProofRow:
    """A task's row: whether it needs a photo, and its photo's state and whereabouts."""

    task_id: int
    required: bool
    state: str | None
    sent_by: str | None
    chat_id: str | None
    message_id: str | None
    participant: str | None
    caption: str | None
    media: str | None
    attempts: int
    file_name: str | None
    kept_at: datetime | None
    approved_at: datetime | None


def _row(found: Any) -> ProofRow:
    return ProofRow(int(found.task_id), bool(found.required), found.state, found.sent_by, found.chat_id,
                    found.message_id, found.participant, found.caption, found.media, int(found.attempts or 0),
                    found.file_name, found.kept_at, found.approved_at)


def proof_of(conn: Connection, task_id: int) -> ProofRow | None:
    """The task's row, None when it never needed a photo."""
    found = conn.execute(select(tp).where(tp.c.task_id == task_id)).one_or_none()
    return None if found is None else _row(found)


def check_unproven(conn: Connection, task_id: int) -> None:
    """PhotoRequired when the task needs a photo (SPEC section 34): nothing completes it but an approval."""
    found = conn.execute(select(tp.c.required, tp.c.state).where(tp.c.task_id == task_id)).one_or_none()
    if found is not None and found.required:
        raise PhotoRequired(task_id, waiting=found.state in (FETCHING, WAITING))


def requires_photo(conn: Connection, task_id: int) -> bool:
    """Whether the task needs a photo to be done."""
    found = conn.execute(select(tp.c.required).where(tp.c.task_id == task_id)).scalar_one_or_none()
    return bool(found)


def set_required(conn: Connection, task_id: int, required: bool) -> None:
    """Set whether the task needs a photo (the row made when absent)."""
    upsert(conn, tp, {"task_id": task_id, "required": required, "attempts": 0}, ["task_id"], ["required"])


def clear_photo(conn: Connection, task_id: int) -> None:
    """Forget the task's photo (its file is the caller's to delete): no photo kept, nothing to fetch."""
    conn.execute(update(tp).where(tp.c.task_id == task_id).values({**dict.fromkeys(_PHOTO_COLUMNS), "attempts": 0}))


def record_fetch(conn: Connection, task_id: int, *, sent_by: str, chat_id: str, message_id: str,
                 participant: str | None, caption: str | None, media: str, now: datetime) -> None:
    """A photo for the task arrived: to fetch now (``media`` is its message as received)."""
    conn.execute(update(tp).where(tp.c.task_id == task_id).values(
        state=FETCHING, sent_by=sent_by, chat_id=chat_id, message_id=message_id, participant=participant,
        caption=caption, media=media, attempts=0, next_at=now, file_name=None, received_at=now, kept_at=None,
        approved_at=None))


def due_fetches(conn: Connection, *, now: datetime, limit: int) -> list[ProofRow]:
    """Photos whose fetch is due at ``now``, oldest first."""
    query = (select(tp).where(tp.c.state == FETCHING, tp.c.next_at <= now)
             .order_by(tp.c.next_at, tp.c.task_id).limit(limit))
    return [_row(found) for found in conn.execute(query)]


def claim_fetch(conn: Connection, task_id: int, message_id: str, *, now: datetime, until: datetime) -> bool:
    """Take the fetch of this photo until ``until`` (one attempt more), unless another process took it."""
    taken = update(tp).where(tp.c.task_id == task_id, tp.c.message_id == message_id, tp.c.state == FETCHING,
                             tp.c.next_at <= now)
    return bool(conn.execute(taken.values(next_at=until, attempts=tp.c.attempts + 1)).rowcount)


def fetch_later(conn: Connection, task_id: int, message_id: str, *, at: datetime) -> None:
    """Try this photo's fetch again at ``at``."""
    conn.execute(update(tp).where(tp.c.task_id == task_id, tp.c.message_id == message_id, tp.c.state == FETCHING)
                 .values(next_at=at))


def keep_photo(conn: Connection, task_id: int, message_id: str, *, file_name: str, now: datetime) -> bool:
    """The fetched photo is kept in ``file_name`` and waits for approval; False when it is no longer awaited."""
    stmt = update(tp).where(tp.c.task_id == task_id, tp.c.message_id == message_id, tp.c.state == FETCHING)
    return bool(conn.execute(stmt.values(state=WAITING, file_name=file_name, media=None, next_at=None,
                                         kept_at=now)).rowcount)


def mark_approved(conn: Connection, task_id: int, *, now: datetime) -> None:
    """The waiting photo is approved."""
    conn.execute(update(tp).where(tp.c.task_id == task_id, tp.c.state == WAITING)
                 .values(state=APPROVED, approved_at=now))


def link_photo_message(conn: Connection, *, message_id: str, task_id: int, chat_id: str, now: datetime) -> None:
    """The photo's message leads to its task (a ✅ on it approves, SPEC section 18)."""
    insert_ignore(conn, task_messages, {"message_id": message_id, "task_id": task_id, "chat_id": chat_id,
                                        "created_at": now}, ["message_id"])


def approvers(conn: Connection, task_id: int) -> tuple[str | None, list[str]]:
    """The task's creator and the WhatsApp admins (active members) of its group, admins in id order."""
    found = conn.execute(select(t.c.created_by, t.c.group_id).where(t.c.id == task_id)).one_or_none()
    if found is None:
        return None, []
    admins = conn.execute(select(gm.c.user_id).where(gm.c.group_id == found.group_id, gm.c.is_admin == true(),
                                                     gm.c.active == true()).order_by(gm.c.user_id)).scalars()
    return found.created_by, list(admins)


def expired_photos(conn: Connection, *, approved_before: datetime, limit: int) -> list[tuple[int, str]]:
    """(task, file) of approved photos kept since before ``approved_before``."""
    query = (select(tp.c.task_id, tp.c.file_name)
             .where(tp.c.state == APPROVED, tp.c.approved_at < approved_before, tp.c.file_name.is_not(None))
             .order_by(tp.c.approved_at).limit(limit))
    return [(int(task), str(name)) for task, name in conn.execute(query)]


def forget_file(conn: Connection, task_id: int, file_name: str) -> None:
    """The approved photo's file is gone (retention): its row keeps that it was approved, without a photo."""
    conn.execute(update(tp).where(tp.c.task_id == task_id, tp.c.file_name == file_name)
                 .values(file_name=None, state=None))


def kept_files(conn: Connection) -> set[str]:
    """Every photo file a row names (the others in the folder are left over)."""
    return {str(name) for name in conn.execute(select(tp.c.file_name).where(tp.c.file_name.is_not(None))).scalars()}


def pending_for(conn: Connection, user_id: str) -> list[Any]:
    """Rows (task, group, group name, description, sender's name, sender, kept at) of the photos waiting for
    ``user_id``'s approval: of tasks they created or in groups they administer, never their own photo."""
    admin = select(gm.c.group_id).where(gm.c.user_id == user_id, gm.c.is_admin == true(), gm.c.active == true())
    mine = and_(t.c.created_by == user_id, gm.c.user_id.is_not(None))  # still a member of the task's group
    query = (
        select(t.c.id, t.c.group_id, g.c.name, t.c.description, users.c.display_name, tp.c.sent_by, tp.c.kept_at)
        .select_from(tp.join(t, t.c.id == tp.c.task_id).outerjoin(g, g.c.id == t.c.group_id)
                     .outerjoin(users, users.c.id == tp.c.sent_by)
                     .outerjoin(gm, and_(gm.c.group_id == t.c.group_id, gm.c.user_id == user_id,
                                         gm.c.active == true())))
        .where(tp.c.state == WAITING, t.c.completed == false(), t.c.group_id.is_not(None),
               or_(tp.c.sent_by.is_(None), tp.c.sent_by != user_id), or_(mine, t.c.group_id.in_(admin)))
        .order_by(tp.c.kept_at, t.c.id)
    )
    return list(conn.execute(query))


def delete_rows(conn: Connection, task_ids: Sequence[int]) -> None:
    """Drop these tasks' rows (nothing required, no photo)."""
    if task_ids:
        conn.execute(delete(tp).where(tp.c.task_id.in_(list(task_ids))))
