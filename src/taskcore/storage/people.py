"""Queries of SPEC section 32: the service's own secrets and the bot's own ids."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import datetime

from sqlalchemy import Connection, delete, or_, select, update

from taskcore.storage.schema import bot_ids, group_members, groups, identity_aliases, service_secrets
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
    """Record these ids as the bot's own (ids already known are left as they are); a membership an id newly known
    as the bot's had (recorded before the bot knew it, SPEC section 38) is deleted: the bot is never a member."""
    new = [user_id for user_id in dict.fromkeys(user_ids)
           if insert_ignore(conn, bot_ids, {"user_id": user_id, "seen_at": now}, ["user_id"])]
    if new:
        conn.execute(delete(group_members).where(group_members.c.user_id.in_(new)))


def bot_user_ids(conn: Connection) -> frozenset[str]:
    """Every id known as the bot's own."""
    return frozenset(conn.execute(select(bot_ids.c.user_id)).scalars())


def save_addressing(conn: Connection, group_id: str, addressing: str) -> None:
    """How the group addresses its members ("lid" or "pn"), as the gateway last reported it."""
    conn.execute(update(groups).where(groups.c.id == group_id, or_(groups.c.addressing.is_(None),
                                                                   groups.c.addressing != addressing))
                 .values(addressing=addressing))


def mention_forms(conn: Connection, group_id: str, user_ids: Collection[str]) -> tuple[str | None, dict[str, str]]:
    """The group's addressing (None: unknown) and each of ``user_ids``'s LID (their alias, the newest), where known."""
    addressing = conn.execute(select(groups.c.addressing).where(groups.c.id == group_id)).scalar()
    if not user_ids:
        return addressing, {}
    rows = conn.execute(select(identity_aliases.c.user_id, identity_aliases.c.alias)
                        .where(identity_aliases.c.user_id.in_(list(user_ids))).order_by(identity_aliases.c.created_at))
    return addressing, {row.user_id: row.alias for row in rows}
