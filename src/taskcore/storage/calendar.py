"""Queries on calendar feeds: one secret URL per user, stored as the SHA-256 hash of its token (SPEC section 22)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, bindparam, delete, select

from taskcore.storage.schema import calendar_feeds
from taskcore.storage.sql import upsert

f = calendar_feeds
# Built once: every calendar client's poll runs it.
_FEED_USER = select(f.c.user_id).where(f.c.token_hash == bindparam("token_hash"))


def put_feed(conn: Connection, *, user_id: str, token_hash: str, now: datetime) -> None:
    """Give the user a feed under ``token_hash``, replacing the one they had (whose URL then stops working)."""
    values = {"user_id": user_id, "token_hash": token_hash, "created_at": now}
    upsert(conn, f, values, ["user_id"], ["token_hash", "created_at"])


def delete_feed(conn: Connection, *, user_id: str) -> bool:
    """Delete the user's feed; True when there was one."""
    return bool(conn.execute(delete(f).where(f.c.user_id == user_id)).rowcount)


def feed_created_at(conn: Connection, *, user_id: str) -> datetime | None:
    """When the user's current feed URL was made, or None when they have none."""
    created: datetime | None = conn.execute(select(f.c.created_at).where(f.c.user_id == user_id)).scalar_one_or_none()
    return created


def feed_user(conn: Connection, *, token_hash: str) -> str | None:
    """The user whose feed is stored under ``token_hash``; None for a revoked, rotated or unknown token."""
    user_id: str | None = conn.execute(_FEED_USER, {"token_hash": token_hash}).scalar_one_or_none()
    return user_id
