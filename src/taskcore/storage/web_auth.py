"""Queries on web login tokens and sessions; only SHA-256 hashes of the secrets are kept (SPEC section 6)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, delete, select, update

from taskcore.storage.schema import UtcDateTime, web_sessions, web_tokens

# The lifetimes live beside the queries that enforce them, so the clean-up and the checks cannot disagree.
TOKEN_TTL = timedelta(minutes=15)
SESSION_ABSOLUTE_TTL = timedelta(days=30)
SESSION_IDLE_TTL = timedelta(days=7)
SESSION_TOUCH_EVERY = timedelta(minutes=5)
USED_TOKEN_RETENTION = timedelta(days=1)


def insert_token(conn: Connection, *, token_hash: str, user_id: str, now: datetime) -> None:
    """Record a login token, valid for TOKEN_TTL from ``now``."""
    conn.execute(
        web_tokens.insert().values(
            token_hash=token_hash, user_id=user_id, created_at=now, expires_at=now + TOKEN_TTL, used_at=None
        )
    )


def revoke_unused_tokens(conn: Connection, *, user_id: str) -> int:
    """Delete the user's login tokens not used yet (used ones stay for their retention); how many."""
    t = web_tokens.c
    return int(conn.execute(delete(web_tokens).where(t.user_id == user_id, t.used_at.is_(None))).rowcount)


def usable_token_user(conn: Connection, *, token_hash: str, now: datetime) -> str | None:
    """The user of an unused, unexpired token, read only; None when there is no such token."""
    t = web_tokens.c
    stmt = select(t.user_id).where(t.token_hash == token_hash, t.used_at.is_(None), t.expires_at > now)
    user_id: str | None = conn.execute(stmt).scalar_one_or_none()
    return user_id


def consume_token(conn: Connection, *, token_hash: str, now: datetime) -> str | None:
    """Mark an unused, unexpired token used and return its user; None when there is no such token."""
    stmt = (
        update(web_tokens)
        .where(
            web_tokens.c.token_hash == token_hash,
            web_tokens.c.used_at.is_(None),
            web_tokens.c.expires_at > now,
        )
        .values(used_at=now)
        .returning(web_tokens.c.user_id)
    )
    user_id: str | None = conn.execute(stmt).scalar_one_or_none()
    return user_id


def insert_session(conn: Connection, *, id_hash: str, user_id: str, now: datetime) -> datetime:
    """Record a session used ``now``; return its absolute expiry."""
    expires_at = now + SESSION_ABSOLUTE_TTL
    conn.execute(
        web_sessions.insert().values(
            id_hash=id_hash, user_id=user_id, created_at=now, last_used_at=now, expires_at=expires_at
        )
    )
    return expires_at


_LIVE_SESSION = select(web_sessions.c.user_id, web_sessions.c.last_used_at, web_sessions.c.expires_at).where(
    web_sessions.c.id_hash == bindparam("id_hash"),
    web_sessions.c.expires_at > bindparam("now", type_=UtcDateTime()),
    web_sessions.c.last_used_at > bindparam("idle_since", type_=UtcDateTime()),
)  # built once: every API request runs it (unless the web's session cache answers)


def live_session(conn: Connection, *, id_hash: str, now: datetime) -> tuple[str, datetime, datetime] | None:
    """(user id, last used, absolute expiry) of a session neither past its absolute expiry nor idle for
    SESSION_IDLE_TTL."""
    row = conn.execute(_LIVE_SESSION, {"id_hash": id_hash, "now": now, "idle_since": now - SESSION_IDLE_TTL}).first()
    return None if row is None else (row[0], row[1], row[2])


def touch_session(conn: Connection, *, id_hash: str, now: datetime) -> bool:
    """Set last_used_at to ``now`` unless it was set within SESSION_TOUCH_EVERY; True when written."""
    stmt = (
        update(web_sessions)
        .where(web_sessions.c.id_hash == id_hash, web_sessions.c.last_used_at <= now - SESSION_TOUCH_EVERY)
        .values(last_used_at=now)
    )
    return bool(conn.execute(stmt).rowcount)


def delete_session(conn: Connection, *, id_hash: str) -> None:
    """Delete a session if it exists."""
    conn.execute(delete(web_sessions).where(web_sessions.c.id_hash == id_hash))


def delete_expired(conn: Connection, *, now: datetime) -> int:
    """Delete tokens past expiry or used a day ago, sessions past absolute or idle expiry; the count."""
    t, s = web_tokens.c, web_sessions.c
    stale_token = (t.expires_at <= now) | (t.used_at < now - USED_TOKEN_RETENTION)
    stale_session = (s.expires_at <= now) | (s.last_used_at <= now - SESSION_IDLE_TTL)
    tokens = conn.execute(delete(web_tokens).where(stale_token)).rowcount
    sessions = conn.execute(delete(web_sessions).where(stale_session)).rowcount
    return int(tokens) + int(sessions)
