"""People named to others by public id (SPEC section 32): the service's key, made once and kept in the database, and
a cache of the public ids computed with it."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Collection, Iterable
from datetime import datetime
from functools import lru_cache

from sqlalchemy import Connection

from taskcore.addresses import mention_address
from taskcore.public_ids import is_public_id, public_id, resolve_public_id
from taskcore.storage import people as q
from taskcore.unit import Reading, UnitOfWork

__all__ = ["PUBLIC_ID_KEY", "KeptKey", "PublicIds", "bot_ids", "group_mentions", "note_bot", "public_key",
           "service_key", "set_addressing"]

PUBLIC_ID_KEY = "public_ids"  # the service_secrets row of the key
KEY_BYTES = 32


def service_key(uow: UnitOfWork, name: str, *, now: datetime) -> bytes:
    """The service's key ``name`` (a ``service_secrets`` row), made (32 random bytes) the first time it is asked for."""
    conn = uow.conn
    found = q.secret_of(conn, name)
    if found is None:
        found = q.keep_secret(uow.conn, name, secrets.token_hex(KEY_BYTES), now)
    return bytes.fromhex(found)


def public_key(uow: UnitOfWork, *, now: datetime) -> bytes:
    """The key of public ids, made the first time it is asked for."""
    return service_key(uow, PUBLIC_ID_KEY, now=now)


class KeptKey:
    """A service key read (or made) on first use by ``load`` (``service_key`` in a unit of work the composition root
    opens) and then remembered; threads may share it."""

    def __init__(self, load: Callable[[], bytes]) -> None:
        self._load = load
        self._key: bytes | None = None
        self._lock = threading.Lock()

    def __call__(self) -> bytes:
        if self._key is None:
            with self._lock:
                if self._key is None:
                    self._key = self._load()
        return self._key


def note_bot(uow: UnitOfWork, ids: Iterable[str | None], *, now: datetime) -> None:
    """Record these ids (None skipped) as the bot's own: never a member, never assignable (SPEC section 32)."""
    known = [found for found in ids if found]
    if known:
        conn = uow.conn
        q.note_bot_ids(conn, known, now)


def bot_ids(uow: Reading) -> frozenset[str]:
    """Every id known as the bot's own (SPEC section 32)."""
    conn = uow.conn
    return q.bot_user_ids(conn)


def set_addressing(uow: UnitOfWork, *, group_id: str, addressing: str) -> None:
    """Record how the group addresses its members ("lid" or "pn"), as the gateway's record of the group says (its
    sync, a groups event): never one message's key, which an old client may send in the other form (SPEC 38)."""
    conn = uow.conn
    q.save_addressing(conn, group_id, addressing)


def group_mentions(conn: Connection, group_id: str, user_ids: Collection[str]) -> dict[str, tuple[str, str]]:
    """Each person's mention in the group, in the form it uses: (digits after ``@``, JID) (SPEC section 31)."""
    addressing, lids = q.mention_forms(conn, group_id, user_ids)
    return {user: mention_address(user, addressing=addressing, lid=lids.get(user)) for user in user_ids}


class PublicIds:
    """Public ids under the service's key, read from the database on first use and remembered."""

    def __init__(self, key: Callable[[], bytes]) -> None:
        self.key = KeptKey(key)

    def of(self, user_id: str) -> str:
        """The public id of ``user_id``."""
        return _cached(user_id, self.key())

    def maybe(self, user_id: str | None) -> str | None:
        """The public id, or None for None."""
        return None if user_id is None else self.of(user_id)

    def resolve(self, value: str, candidates: Iterable[str]) -> str | None:
        """The candidate whose public id is ``value``, else None."""
        if not is_public_id(value):
            return None
        return resolve_public_id(value, candidates, self.key())


@lru_cache(maxsize=65536)
def _cached(user_id: str, key: bytes) -> str:
    return public_id(user_id, key)
