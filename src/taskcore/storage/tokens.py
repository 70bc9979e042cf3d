"""Queries on personal API tokens, stored as SHA-256 hashes with their name and last use (SPEC section 22)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, delete, func, or_, select, update

from taskcore.storage.schema import UtcDateTime, api_tokens, users

a = api_tokens
# How often a token's last use is written: a script polling every second costs one write a minute, not sixty.
LAST_USE_EVERY = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class TokenRow:
    """A token as its owner sees it listed: never the secret, which is not stored."""

    id: int
    name: str
    created_at: datetime
    last_used_at: datetime | None


@dataclass(frozen=True, slots=True)
class TokenOwner:
    """Who a presented token belongs to, and when it was last used."""

    token_id: int
    user_id: str
    last_used_at: datetime | None


def insert_token(conn: Connection, *, user_id: str, name: str, token_hash: str, now: datetime) -> int:
    """Record a new token; its id."""
    stmt = a.insert().values(user_id=user_id, name=name, token_hash=token_hash, created_at=now,
                             last_used_at=None).returning(a.c.id)
    return int(conn.execute(stmt).scalar_one())


def lock_user_tokens(conn: Connection, *, user_id: str) -> int:
    """How many tokens the user holds, with their user row locked until the transaction ends (PostgreSQL; SQLite
    has one writer at a time), so two creations at once cannot both pass a limit."""
    conn.execute(select(users.c.id).where(users.c.id == user_id).with_for_update())
    return int(conn.execute(select(func.count()).select_from(a).where(a.c.user_id == user_id)).scalar_one())


def user_tokens(conn: Connection, *, user_id: str) -> list[TokenRow]:
    """The user's tokens, oldest first."""
    rows = conn.execute(select(a.c.id, a.c.name, a.c.created_at, a.c.last_used_at)
                        .where(a.c.user_id == user_id).order_by(a.c.id))
    return [TokenRow(int(row.id), row.name, row.created_at, row.last_used_at) for row in rows]


def delete_token(conn: Connection, *, user_id: str, token_id: int) -> bool:
    """Delete one of the user's tokens; False when the user has no token with that id (another user's included)."""
    return bool(conn.execute(delete(a).where(a.c.id == token_id, a.c.user_id == user_id)).rowcount)


# Built once: every request that carries a token runs it.
_OWNER = select(a.c.id, a.c.user_id, a.c.last_used_at).where(a.c.token_hash == bindparam("token_hash"))


def token_owner(conn: Connection, *, token_hash: str) -> TokenOwner | None:
    """The owner of the token stored under ``token_hash``; None for a revoked or unknown token."""
    row = conn.execute(_OWNER, {"token_hash": token_hash}).first()
    return None if row is None else TokenOwner(int(row.id), row.user_id, row.last_used_at)


def touch_token(conn: Connection, *, token_id: int, now: datetime) -> bool:
    """Record a use of the token unless one was recorded within LAST_USE_EVERY; True when written."""
    stale = or_(a.c.last_used_at.is_(None), a.c.last_used_at <= bindparam("since", type_=UtcDateTime()))
    stmt = update(a).where(a.c.id == token_id, stale).values(last_used_at=now)
    return bool(conn.execute(stmt, {"since": now - LAST_USE_EVERY}).rowcount)
