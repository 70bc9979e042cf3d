"""Queries on users."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, select, update

from taskcore.storage.schema import users
from taskcore.storage.sql import insert_ignore

# A sighting within this long after the recorded one (same name) writes nothing: last_seen_at is informational, and
# a user who sends a burst of messages should not cost an UPDATE per message.
SEEN_RESOLUTION = timedelta(minutes=1)

# Built once (bind names differ from the column names, as UPDATE requires); the values go in as parameters.
_RENAME = (
    update(users).where(users.c.id == bindparam("b_id"))
    .values(display_name=bindparam("b_name"), last_seen_at=bindparam("b_now"))
)


def ensure_user(conn: Connection, user_id: str, now: datetime, *, name: str | None = None) -> None:
    """Create the user if absent; record a new display name and the time they were seen."""
    created = insert_ignore(
        conn, users, {"id": user_id, "display_name": name, "created_at": now, "last_seen_at": now}, ["id"]
    )
    if not created and name:
        conn.execute(_RENAME, {"b_id": user_id, "b_name": name, "b_now": now})


def seen_lately(last_seen_at: datetime | None, now: datetime) -> bool:
    """True when ``last_seen_at`` is at most SEEN_RESOLUTION before ``now`` (and not after it)."""
    return last_seen_at is not None and last_seen_at <= now < last_seen_at + SEEN_RESOLUTION


def refresh_user(
    conn: Connection, user_id: str, now: datetime, *, name: str | None, stored_name: str | None,
    last_seen_at: datetime | None,
) -> None:
    """``ensure_user`` for a user read a moment ago: written only when the name changed or was not seen lately."""
    if name and (name != stored_name or not seen_lately(last_seen_at, now)):
        conn.execute(_RENAME, {"b_id": user_id, "b_name": name, "b_now": now})


def ensure_users(conn: Connection, user_ids: Iterable[str], now: datetime) -> None:
    """Create every user that does not exist yet (names untouched)."""
    for user_id in dict.fromkeys(user_ids):
        insert_ignore(conn, users, {"id": user_id, "created_at": now}, ["id"])


def display_names(conn: Connection, user_ids: Iterable[str]) -> dict[str, str | None]:
    """The display name of each known user among ``user_ids``."""
    ids = list(dict.fromkeys(user_ids))
    if not ids:
        return {}
    rows = conn.execute(select(users.c.id, users.c.display_name).where(users.c.id.in_(ids)))
    return {row.id: row.display_name for row in rows}
