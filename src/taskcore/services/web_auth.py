"""Web sign-in: single-use login tokens and hashed, expiring sessions (SPEC section 6, seed A2/A3).

Secrets (tokens, session ids) are returned to the caller once and stored only as SHA-256 hashes; they never
appear in a log line, an exception message or a repr.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Connection

from taskcore.errors import Unauthorized
from taskcore.storage import web_auth as q
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from taskcore.storage.web_auth import SESSION_ABSOLUTE_TTL, SESSION_IDLE_TTL, SESSION_TOUCH_EVERY, TOKEN_TTL

__all__ = [
    "SESSION_ABSOLUTE_TTL",
    "SESSION_IDLE_TTL",
    "SESSION_TOUCH_EVERY",
    "TOKEN_TTL",
    "NewSession",
    "SessionLookup",
    "end_session",
    "hash_secret",
    "issue_login_token",
    "look_up_session",
    "redeem_login_token",
    "session_user",
    "touch_session",
]

SECRET_BYTES = 32
# secrets.token_urlsafe(32): unpadded URL-safe base64 of 32 bytes. Anything else cannot be ours.
_SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")
_LINK_REJECTED = "the login link is invalid, used or expired"


@dataclass(frozen=True, slots=True)
class NewSession:
    """A session just created; ``session_id`` is the cookie value and is kept out of the repr."""

    session_id: str = field(repr=False)
    user_id: str
    expires_at: datetime


def hash_secret(value: str) -> str:
    """The SHA-256 hex digest under which a token or session id is stored."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def _well_formed(value: str) -> bool:
    return _SECRET_SHAPE.fullmatch(value) is not None


def issue_login_token(db: Database, *, user_id: str, now: datetime) -> str:
    """A new login token for the user (created if absent), valid for TOKEN_TTL and usable once."""
    token = secrets.token_urlsafe(SECRET_BYTES)

    def work(conn: Connection) -> None:
        ensure_user(conn, user_id, now)
        q.insert_token(conn, token_hash=hash_secret(token), user_id=user_id, now=now)

    db.transact(work)
    return token


def redeem_login_token(db: Database, *, token: str, now: datetime) -> NewSession:
    """Spend a login token on a new session; Unauthorized when it is unknown, used or expired."""
    if not _well_formed(token):
        raise Unauthorized(_LINK_REJECTED)
    session_id = secrets.token_urlsafe(SECRET_BYTES)

    def work(conn: Connection) -> NewSession | None:
        user_id = q.consume_token(conn, token_hash=hash_secret(token), now=now)
        if user_id is None:
            return None
        expires_at = q.insert_session(conn, id_hash=hash_secret(session_id), user_id=user_id, now=now)
        return NewSession(session_id=session_id, user_id=user_id, expires_at=expires_at)

    session = db.transact(work)
    if session is None:
        raise Unauthorized(_LINK_REJECTED)
    return session


@dataclass(frozen=True, slots=True)
class SessionLookup:
    """A live session's user, and whether its last recorded use is old enough to record again."""

    user_id: str
    touch_due: bool


def look_up_session(db: Database, *, session_id: str, now: datetime) -> SessionLookup | None:
    """Read only: the user of a live session and whether a touch is due; None when there is no live session."""
    if not _well_formed(session_id):
        return None
    with db.read() as conn:
        found = q.live_session(conn, id_hash=hash_secret(session_id), now=now)
    if found is None:
        return None
    user_id, last_used_at = found
    return SessionLookup(user_id=user_id, touch_due=now - last_used_at >= SESSION_TOUCH_EVERY)


def touch_session(db: Database, *, session_id: str, now: datetime) -> None:
    """Record a use of the session (a short write), which pushes its idle expiry back."""
    if _well_formed(session_id):
        db.transact(lambda conn: q.touch_session(conn, id_hash=hash_secret(session_id), now=now))


def session_user(db: Database, *, session_id: str, now: datetime) -> str | None:
    """The user of a live session, or None; records the use at most once per SESSION_TOUCH_EVERY."""
    found = look_up_session(db, session_id=session_id, now=now)
    if found is None:
        return None
    if found.touch_due:
        touch_session(db, session_id=session_id, now=now)
    return found.user_id


def end_session(db: Database, *, session_id: str) -> None:
    """Delete the session if it exists (signing out twice is harmless)."""
    if _well_formed(session_id):
        db.transact(lambda conn: q.delete_session(conn, id_hash=hash_secret(session_id)))
