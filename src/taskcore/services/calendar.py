"""Calendar feeds (SPEC section 22): a secret URL per user, issued or rotated, revoked, and read by its token.

The token (32 random bytes, URL-safe) is returned once and stored only as its SHA-256 hash. Reading a feed hashes
whatever token it is given and looks the hash up: a revoked token and one that never existed take the same path
to the same NotFound. A feed is written in its owner's language (SPEC section 24), read with its tasks.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime

from taskcore.access import GatingMode
from taskcore.errors import NotFound
from taskcore.i18n import SOURCE
from taskcore.model import Task
from taskcore.services.languages import language_of
from taskcore.services.web_auth import SECRET_BYTES, hash_secret
from taskcore.storage import calendar as q
from taskcore.storage import task_lists as lists
from taskcore.storage.users import ensure_user
from taskcore.unit import Reading, UnitOfWork

FEED_LIMIT = 1000
"""At most this many events in one feed (the soonest due first): a calendar is for what is coming, not an archive."""


@dataclass(frozen=True, slots=True)
class CalendarFeed:
    """Whose feed a token opened, the tasks it shows (their open tasks with a due date, soonest first) and the
    language its words are written in (the owner's)."""

    user_id: str
    tasks: tuple[Task, ...]
    lang: str = SOURCE


def issue_calendar_feed(uow: UnitOfWork, *, user_id: str, now: datetime) -> str:
    """A new feed token for the user (created if absent); the token they had before stops working."""
    token = secrets.token_urlsafe(SECRET_BYTES)
    ensure_user(uow.conn, user_id, now)
    q.put_feed(uow.conn, user_id=user_id, token_hash=hash_secret(token), now=now)
    return token


def revoke_calendar_feed(uow: UnitOfWork, *, user_id: str) -> bool:
    """Revoke the user's feed (its URL then answers 404); True when they had one."""
    return q.delete_feed(uow.conn, user_id=user_id)


def calendar_feed_since(uow: Reading, *, user_id: str) -> datetime | None:
    """When the user's current feed URL was made; None when they have no feed."""
    conn = uow.conn
    return q.feed_created_at(conn, user_id=user_id)


def read_calendar_feed(
    uow: Reading, mode: GatingMode, *, token: str, now: datetime, default_language: str = SOURCE
) -> CalendarFeed:
    """The feed of ``token``: what GET /api/me/tasks lists open for its user, keeping only tasks with a due date and
    leaving out a shared task whose part the user has done (as the digest does, SPEC 19); NotFound for a revoked,
    rotated or unknown token alike; with the owner's language (``default_language``: DEFAULT_LANGUAGE). Reads only."""
    token_hash = hash_secret(token)
    conn = uow.conn
    user_id = q.feed_user(conn, token_hash=token_hash)
    if user_id is None:
        raise NotFound("no such calendar feed")
    dated = lists.MyTasksFilter(status="open", due_before=date.max, page=1, limit=FEED_LIMIT, pending_part=True)
    page = lists.my_tasks(conn, user_id, mode, dated, now)
    lang, _source = language_of(conn, user_id, default_language)
    return CalendarFeed(user_id, tuple(page.items), lang)
