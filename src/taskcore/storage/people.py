"""Queries of SPEC section 32: the service's own secrets and the bot's own ids."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import Connection, select

from taskcore.storage.schema import bot_ids, service_secrets
from taskcore.storage.sql import insert_ignore

__all__ = ["bot_user_ids", "keep_secret", "note_bot_ids", "secret_of"]


def secret_of(conn: Connection, name: str) -> str | None:
    """The secret called ``name``, else None."""
    return conn.execute(select(service_secrets.c.secret).where(service_secrets.c.name == name)).scalar()


def keep_secret(conn: Connection, name: str, secret: str, now: datetime) -> str:
    """Store ``secret`` as ``name`` unless one is already stored (another process may have been first); the one in
    force."""
    insert_ignore(conn, service_secrets, {"name": name, "secret": secret, "created_at": now}, ["name"])
    kept = secret_of(conn, name)
    assert kept is not None  # noqa: S101 - inserted or already there, in this transaction
    return kept


def note_bot_ids(conn: Connection, user_ids: Iterable[str], now: datetime) -> None:
    """Record these ids as the bot's own (ids already known are left as they are)."""
    for user_id in dict.fromkeys(user_ids):
        insert_ignore(conn, bot_ids, {"user_id": user_id, "seen_at": now}, ["user_id"])


def bot_user_ids(conn: Connection) -> frozenset[str]:
    """Every id known as the bot's own."""
    return frozenset(conn.execute(select(bot_ids.c.user_id)).scalars())
