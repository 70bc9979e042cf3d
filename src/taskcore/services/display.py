"""The kitchen display (SPEC section 41): a group admin makes (or replaces) the group's secret read-only address or
revokes it, and the page reads what it shows by its token, without a session.

The token is the calendar feed's kind (32 random bytes, URL-safe), returned once and stored only as its SHA-256
hash: a revoked token and one that never existed take the same path to the same NotFound. What a display shows
carries no number of any kind: the chores by their text, the people by their names.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from urllib.parse import quote
from zoneinfo import ZoneInfo

from taskcore.access import GatingMode, effectively_allowed
from taskcore.chores.summary import MemberSummary
from taskcore.errors import NotFound, TaskcoreError
from taskcore.model import Task
from taskcore.services.languages import group_language_of
from taskcore.services.rewards import require_admin, require_member
from taskcore.services.summaries import group_week
from taskcore.services.web_auth import SECRET_BYTES, hash_secret
from taskcore.storage import displays as q
from taskcore.storage import groups
from taskcore.storage.tasks import load_tasks
from taskcore.unit import Reading, UnitOfWork
from taskcore.zones import parse_time_zone

SHOWN = 60  # chores at most on one display: a kitchen's week, not an archive
WEEK = timedelta(days=6)  # "this week": today and the six days after it (on a Sunday, the coming week)


@dataclass(frozen=True, slots=True)
class Display:
    """What a display shows: the group's name, its language and today (in its zone); the chores due today or late,
    those due in the six days after today, and this calendar week's points by member (their shown names)."""

    group_name: str | None
    lang: str
    today: date
    due_today: tuple[Task, ...]
    this_week: tuple[Task, ...]
    points: tuple[tuple[str, MemberSummary], ...]


def display_url(base_url: str, token: str) -> str:
    """The display's secret address under WEB_BASE_URL."""
    return f"{base_url}/pantalla/{quote(token, safe='')}"


def issue_display(uow: UnitOfWork, mode: GatingMode, *, group_id: str, user_id: str, now: datetime) -> str:
    """A new display token for the group (Forbidden unless the user sees it and is one of its admins:
    NotGroupAdmin); the old one stops working."""
    conn = uow.conn
    require_member(conn, mode, group_id, user_id)
    require_admin(conn, group_id, user_id)
    token = secrets.token_urlsafe(SECRET_BYTES)
    q.put_display(conn, group_id=group_id, token_hash=hash_secret(token), by=user_id, now=now)
    return token


def group_name(uow: Reading, *, group_id: str) -> str | None:
    """The group's name, as the display's link names it."""
    record = groups.load_group(uow.conn, group_id)
    return None if record is None else record.name


def revoke_display(uow: UnitOfWork, mode: GatingMode, *, group_id: str, user_id: str) -> bool:
    """Revoke the group's display (Forbidden, NotGroupAdmin, as ``issue_display``); True when it had one."""
    conn = uow.conn
    require_member(conn, mode, group_id, user_id)
    require_admin(conn, group_id, user_id)
    return q.delete_display(conn, group_id=group_id)


def _zone(name: str | None, fallback: ZoneInfo) -> ZoneInfo:
    try:
        return fallback if name is None else parse_time_zone(name)
    except TaskcoreError:  # pragma: no cover - a stored zone was valid when it was chosen
        return fallback


def read_display(uow: Reading, mode: GatingMode, *, token: str, now: datetime, zone: ZoneInfo,
                 default_language: str) -> Display:
    """The display of ``token``; NotFound for a revoked, replaced or unknown token, and for a group the bot no
    longer serves (not allowed under gating). ``zone``: TZ, for a group without its own."""
    conn = uow.conn
    group_id = q.display_group(conn, token_hash=hash_secret(token))
    record = None if group_id is None else groups.load_group(conn, group_id)
    if group_id is None or record is None or not effectively_allowed(mode, record.status):
        raise NotFound("no such display")
    here = _zone(groups.group_zone(conn, group_id), zone)
    today = now.astimezone(here).date()
    shown = load_tasks(conn, q.open_until(conn, group_id=group_id, last=today + WEEK, limit=SHOWN))
    due_today = tuple(task for task in shown if task.due_date is not None and task.due_date <= today)
    later = tuple(task for task in shown if task.due_date is not None and task.due_date > today)
    lang = group_language_of(conn, group_id, default_language)  # chosen, else its members' (SPEC section 39)
    week = group_week(uow, group_id=group_id, now=now, zone=here)
    ranked = sorted(week, key=lambda line: (-line[1].points, line[0].casefold()))
    return Display(record.name, lang, today, due_today, later, tuple(ranked))
