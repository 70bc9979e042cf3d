"""Quiet hours and away in the reminder tick (SPEC section 25), from the values the tick's one read brings with each
row: whose digest is skipped (away through today, in their calendar) and whose is held until their window ends."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from zoneinfo import ZoneInfo

from taskcore.chores.away import is_away
from taskcore.chores.quiet import held_until
from taskcore.reminders.slots import DueReminder, Plan
from taskcore.services.quiet import window_of
from taskcore.zones import effective_zone


def away_users(plans: Iterable[Plan]) -> frozenset[str]:
    """The users of the due plans who are away on their own today: no digest for them."""
    return frozenset(plan.row.user_id for plan in plans if plan.due is not None and plan.row.away_until is not None
                     and is_away(date.fromisoformat(plan.row.away_until), plan.due.today))


def reachable(plans: Iterable[Plan]) -> list[DueReminder]:
    """The due reminders of the plans but those of the away: the digests to write."""
    listed = list(plans)
    away = away_users(listed)
    return [plan.due for plan in listed if plan.due is not None and plan.row.user_id not in away]


def held_releases(plans: Iterable[Plan], *, now: datetime, fallback: ZoneInfo) -> dict[str, datetime]:
    """The users of the due plans inside their quiet hours at ``now``, and when each one's window ends."""
    releases: dict[str, datetime] = {}
    for plan in plans:
        window = window_of(plan.row.quiet_from, plan.row.quiet_to)
        if plan.due is None or window is None:
            continue
        zone = effective_zone(plan.row.tz, plan.row.user_id, fallback).zone
        release = held_until(window, now, zone)
        if release is not None:
            releases[plan.row.user_id] = release
    return releases
