"""The preferences API's quiet hours and away (SPEC section 25): read them into the answer, save what was sent."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime
from typing import Any

from taskcore.chores.away import check_away_until, is_away
from taskcore.chores.quiet import QuietHours, parse_quiet
from taskcore.services import Database, quiet
from tasksvc_run import units
from tasksvc_run.web.models import PreferencesBody


def chore_fields(db: Database, *, user_id: str, today: date) -> dict[str, Any]:
    """``quiet`` ({from, to} or null) and ``away_until`` (YYYY-MM-DD, null when not away on ``today``)."""
    saved = units.look(db, quiet.chore_settings, user_id=user_id)
    window = saved.quiet
    away = saved.away_until if is_away(saved.away_until, today) else None
    return {"quiet": None if window is None else {"from": f"{window.start:%H:%M}", "to": f"{window.end:%H:%M}"},
            "away_until": None if away is None else away.isoformat()}


def checked_chores(body: PreferencesBody, sent: Collection[str], *, today: date) -> dict[str, Any]:
    """What of quiet and away_until was sent, checked before anything is saved (InvalidChoreSetting, a 422); an
    away date already past means not away."""
    found: dict[str, Any] = {}
    if "quiet" in sent:
        window = body.quiet
        found["quiet"] = None if window is None else parse_quiet(f"{window.start}-{window.end}")
    if "away_until" in sent:
        # A date before today is no absence (as if back already): the document cannot say "today or later", and a
        # request it allows is never refused for the day it is sent on (SPEC section 28).
        until = body.away_until
        found["away_until"] = None if until is None or until < today else check_away_until(until, today)
    return found


def save_chores(db: Database, *, user_id: str, checked: dict[str, Any], today: date, now: datetime) -> None:
    """Save the values ``checked_chores`` let through."""
    if "quiet" in checked:
        window: QuietHours | None = checked["quiet"]
        units.run(db, quiet.set_quiet, user_id=user_id, window=window, now=now)
    if "away_until" in checked:
        units.run(db, quiet.set_away, user_id=user_id, until=checked["away_until"], today=today, now=now)
