"""Web sign-in: single-use login tokens and hashed, expiring sessions (SPEC section 6, seed A2/A3).

Secrets (tokens, session ids) are returned to the caller once and stored only as SHA-256 hashes; they never
appear in a log line, an exception message or a repr.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from taskcore.errors import Unauthorized
from taskcore.storage import web_auth as q
from taskcore.storage.users import display_names, ensure_user
from taskcore.storage.web_auth import SESSION_ABSOLUTE_TTL, SESSION_IDLE_TTL, SESSION_TOUCH_EVERY, TOKEN_TTL
from taskcore.unit import Reading, UnitOfWork

__all__ = [
    "SESSION_ABSOLUTE_TTL",
    "SESSION_CACHE_TTL",
    "SESSION_IDLE_TTL",
    "SESSION_TOUCH_EVERY",
    "TOKEN_TTL",
    "ConfirmSwitch",
    "NewSession",
    "SessionCache",
    "SessionLookup",
    "confirm_login_switch",
    "end_session",
    "hash_secret",
    "issue_login_token",
    "look_up_session",
    "open_login_link",
    "redeem_login_token",
    "touch_session",
]

SECRET_BYTES = 32
# secrets.token_urlsafe(32): unpadded URL-safe base64 of 32 bytes. Anything else cannot be ours.
_SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")
_LINK_REJECTED = "the login link is invalid, used or expired"
# How long a web process may answer for a session without reading it again: the window in which a session ended in
# another process can still be used here.
SESSION_CACHE_TTL = timedelta(seconds=5)


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


def issue_login_token(uow: UnitOfWork, *, user_id: str, now: datetime) -> str:
    """A new login token for the user (created if absent), valid for TOKEN_TTL and usable once; the user's unused
    older ones stop working (one live login link per person, SPEC section 32)."""
    token = secrets.token_urlsafe(SECRET_BYTES)
    ensure_user(uow.conn, user_id, now)
    q.revoke_unused_tokens(uow.conn, user_id=user_id)
    q.insert_token(uow.conn, token_hash=hash_secret(token), user_id=user_id, now=now)
    return token


def redeem_login_token(uow: UnitOfWork, *, token: str, now: datetime, ending: str | None = None) -> NewSession:
    """Spend a login token on a new session (ending the session ``ending``, if given, in the same transaction);
    Unauthorized when it is unknown, used or expired. A token that matches nothing costs a read, never a write."""
    if not _well_formed(token):
        raise Unauthorized(_LINK_REJECTED)
    conn = uow.conn
    if q.usable_token_user(conn, token_hash=hash_secret(token), now=now) is None:
        raise Unauthorized(_LINK_REJECTED)
    session_id = secrets.token_urlsafe(SECRET_BYTES)
    user_id = q.consume_token(conn, token_hash=hash_secret(token), now=now)  # still unused: checked again here
    if user_id is None:
        raise Unauthorized(_LINK_REJECTED)
    if ending is not None and _well_formed(ending):
        q.delete_session(conn, id_hash=hash_secret(ending))
    expires_at = q.insert_session(conn, id_hash=hash_secret(session_id), user_id=user_id, now=now)
    return NewSession(session_id=session_id, user_id=user_id, expires_at=expires_at)


@dataclass(frozen=True, slots=True)
class ConfirmSwitch:
    """A login link of another user than the browser's live session: ask before replacing it (login CSRF).

    ``code`` goes into the confirmation form; only a page served to the holder of the current session can know it.
    """

    current_user: str
    current_name: str | None
    new_user: str
    new_name: str | None
    code: str = field(repr=False)


def switch_code(session_id: str, token: str) -> str:
    """What the confirmation form must carry to replace session ``session_id`` with the session of ``token``: an
    HMAC-SHA256 of the token keyed by the session id, which another site can neither read nor compute."""
    return hmac.new(session_id.encode("utf-8", "surrogatepass"), token.encode("utf-8", "surrogatepass"),
                    hashlib.sha256).hexdigest()


def open_login_link(uow: UnitOfWork, *, token: str, session_id: str | None,
                    now: datetime) -> NewSession | ConfirmSwitch:
    """GET /login: the token spent on a new session (the browser's previous session of the same user ends), or a
    ConfirmSwitch when the browser holds a live session of another user; Unauthorized, without any write, when the
    token matches nothing."""
    if not _well_formed(token):
        raise Unauthorized(_LINK_REJECTED)
    current_id = session_id if session_id is not None and _well_formed(session_id) else None
    conn = uow.conn
    owner = q.usable_token_user(conn, token_hash=hash_secret(token), now=now)
    current = None if current_id is None else q.live_session(conn, id_hash=hash_secret(current_id), now=now)
    if owner is None:
        raise Unauthorized(_LINK_REJECTED)
    if current is not None and current_id is not None and current[0] != owner:
        names = display_names(conn, [current[0], owner])
        return ConfirmSwitch(current[0], names.get(current[0]), owner, names.get(owner),
                             code=switch_code(current_id, token))
    return redeem_login_token(uow, token=token, now=now, ending=current_id if current is not None else None)


def confirm_login_switch(uow: UnitOfWork, *, token: str, session_id: str | None, code: str,
                         now: datetime) -> NewSession:
    """POST /login from the confirmation page: the code must be this session's for this token (a request from
    another site carries neither the SameSite=Lax cookie nor the code); the token is then spent and the previous
    session ends. Unauthorized otherwise, with the token left unspent."""
    if session_id is None or not hmac.compare_digest(code.encode("utf-8", "surrogateescape"),
                                                     switch_code(session_id, token).encode("ascii")):
        raise Unauthorized("the change of account was not confirmed from this browser")
    return redeem_login_token(uow, token=token, now=now, ending=session_id)


@dataclass(frozen=True, slots=True)
class SessionLookup:
    """A live session's user, and whether its last recorded use is old enough to record again."""

    user_id: str
    touch_due: bool


@dataclass(slots=True)
class _Seen:
    """A live session as read from the database at ``read_at`` (and as touched since, in this process)."""

    user_id: str
    last_used_at: datetime
    expires_at: datetime
    read_at: datetime


class SessionCache:
    """Live sessions read within the last ``ttl``, so a burst of requests reads the database once per session.

    Only live sessions are kept, keyed by the stored hash, and each answer is re-checked against ``now`` (absolute
    and idle expiry), so expiry is exact. A session ended in this process is forgotten at once; one ended in another
    process (a second web instance), or re-keyed to another user, may still be honoured here for up to ``ttl``.
    At most ``max_entries`` are kept (least recently read dropped first). Not thread-safe: the web uses it from the
    event loop only.
    """

    def __init__(self, ttl: timedelta = SESSION_CACHE_TTL, max_entries: int = 10_000) -> None:
        self.ttl = min(ttl, SESSION_CACHE_TTL)
        self.max_entries = max_entries
        self._seen: OrderedDict[str, _Seen] = OrderedDict()

    def get(self, id_hash: str, now: datetime) -> _Seen | None:
        """The entry if it was read less than ``ttl`` ago and the session is still live at ``now``."""
        seen = self._seen.get(id_hash)
        if seen is None:
            return None
        if not (seen.read_at <= now < seen.read_at + self.ttl and _live(seen.last_used_at, seen.expires_at, now)):
            self._seen.pop(id_hash, None)
            return None
        return seen

    def put(self, id_hash: str, seen: _Seen) -> None:
        """Remember a session just read."""
        self._seen[id_hash] = seen
        self._seen.move_to_end(id_hash)
        while len(self._seen) > self.max_entries:
            self._seen.popitem(last=False)

    def forget(self, session_id: str) -> None:
        """Forget a session that was just ended (call it after the deletion committed)."""
        self._seen.pop(hash_secret(session_id), None)


def _live(last_used_at: datetime, expires_at: datetime, now: datetime) -> bool:
    """The same test as the query: before the absolute expiry and used within SESSION_IDLE_TTL."""
    return expires_at > now and last_used_at > now - SESSION_IDLE_TTL


def look_up_session(
    uow: Reading, *, session_id: str, now: datetime, cache: SessionCache | None = None
) -> SessionLookup | None:
    """Read only: the user of a live session and whether a touch is due; None when there is no live session.

    With a ``cache``, a session read less than its ttl ago is answered without the database; a lookup that reports
    a touch due records the touch in the cache, so the caller touches once rather than once per concurrent request.
    """
    if not _well_formed(session_id):
        return None
    id_hash = hash_secret(session_id)
    seen = cache.get(id_hash, now) if cache is not None else None
    if seen is None:
        conn = uow.conn
        found = q.live_session(conn, id_hash=id_hash, now=now)
        if found is None:
            return None
        seen = _Seen(*found, read_at=now)
        if cache is not None:
            cache.put(id_hash, seen)
    return _lookup(seen, now)


def cached_session(cache: SessionCache, *, session_id: str, now: datetime) -> SessionLookup | None:
    """``look_up_session``'s answer when ``cache`` holds the live session, without a unit of work (a burst of
    requests opens no read at all); None when the database has to be asked."""
    if not _well_formed(session_id):
        return None
    seen = cache.get(hash_secret(session_id), now)
    return None if seen is None else _lookup(seen, now)


def _lookup(seen: _Seen, now: datetime) -> SessionLookup:
    """The answer for a live session, its touch recorded in ``seen`` when one is due (the caller touches once)."""
    touch_due = now - seen.last_used_at >= SESSION_TOUCH_EVERY
    if touch_due:
        seen.last_used_at = now
    return SessionLookup(user_id=seen.user_id, touch_due=touch_due)


def touch_session(uow: UnitOfWork, *, session_id: str, now: datetime) -> None:
    """Record a use of the session (a short write), which pushes its idle expiry back."""
    if _well_formed(session_id):
        q.touch_session(uow.conn, id_hash=hash_secret(session_id), now=now)


def end_session(uow: UnitOfWork, *, session_id: str) -> None:
    """Delete the session if it exists (signing out twice is harmless)."""
    if _well_formed(session_id):
        q.delete_session(uow.conn, id_hash=hash_secret(session_id))
