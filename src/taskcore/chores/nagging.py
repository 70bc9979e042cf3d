"""Nagging (SPEC section 25): a direct message to each assignee whose part of an overdue task is still open, then one
every interval, and after the third unanswered one a single notice in the group.

Choices the SPEC leaves open:

- Overdue starts at 00:00 of the day after the due date in the assignee's zone (a midnight the clock skips: the end
  of the gap); each later nag is due ``every_hours`` after the previous one went out.
- A nag that falls due inside the person's quiet hours is held (``HOLD``) and counts as sent at its release instant,
  so the next one is counted from when the person actually got it; while away, nothing is sent or owed: the person
  gets one nag on their first tick back, not the ones they missed.
- "Unanswered" is per task: the group is told once, when any pending assignee has had three nags; re-dating resets
  the counts and the notice (the nags start again if the new date passes too); completing or unassigning stops them.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from taskcore.chores.clock import require_aware, wall_instant
from taskcore.chores.quiet import QuietHours, held_until
from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _

MIN_EVERY_HOURS = 1
MAX_EVERY_HOURS = 168
DEFAULT_EVERY_HOURS = 24
ESCALATE_AFTER = 3
"""Nags sent to a person before the group is told."""


@dataclass(frozen=True, slots=True)
class Nag:
    """A task's nagging setting: a nag every ``every_hours`` (1 to 168, one week)."""

    every_hours: int = DEFAULT_EVERY_HOURS

    def __post_init__(self) -> None:
        hours = self.every_hours
        if isinstance(hours, bool) or not isinstance(hours, int) or not MIN_EVERY_HOURS <= hours <= MAX_EVERY_HOURS:
            raise InvalidChoreSetting(_("el intervalo de aviso va de {low} a {high} horas", low=MIN_EVERY_HOURS,
                                    high=MAX_EVERY_HOURS), field="nag")

    @property
    def interval(self) -> timedelta:
        """The time between two nags."""
        return timedelta(hours=self.every_hours)


class NagKind(enum.StrEnum):
    """What the scheduler does about one person's nag at one tick."""

    SEND = "send"  # send it now
    HOLD = "hold"  # due, but the person's quiet hours hold it until ``at``
    WAIT = "wait"  # not due yet: look again at ``at``
    NONE = "none"  # nothing owed: the part is done or the person is away


@dataclass(frozen=True, slots=True)
class NagAction:
    """The decision and its instant (UTC): now for SEND, the release for HOLD, the due instant for WAIT."""

    kind: NagKind
    at: datetime | None = None


def first_nag_at(due: date, zone: ZoneInfo) -> datetime:
    """The start (00:00 local) of the day after ``due`` in the assignee's zone, as a UTC instant."""
    return wall_instant(datetime.combine(due + timedelta(days=1), time()), zone)


def next_nag_at(last_sent: datetime, every_hours: int) -> datetime:
    """The instant the nag after one sent at ``last_sent`` falls due."""
    return require_aware(last_sent, "last_sent") + Nag(every_hours).interval


def nag_due(
    due: date, zone: ZoneInfo, nag: Nag, *, sent_count: int, last_sent: datetime | None, now: datetime,
    part_done: bool, away: bool, quiet_window: QuietHours | None,
) -> NagAction:
    """Whether the nag of one assignee's open part goes now, is held by quiet hours, waits, or is not owed."""
    require_aware(now, "now")
    if part_done or away:
        return NagAction(NagKind.NONE)
    at = first_nag_at(due, zone)
    if sent_count > 0 and last_sent is not None:
        at = max(at, next_nag_at(last_sent, nag.every_hours))
    if now < at:
        return NagAction(NagKind.WAIT, at)
    release = None if quiet_window is None else held_until(quiet_window, now, zone)
    if release is not None:
        return NagAction(NagKind.HOLD, release)
    return NagAction(NagKind.SEND, now)


def should_escalate(sent_count: int, escalated: bool) -> bool:
    """True once: when ``sent_count`` (the most nags a pending assignee has had) reaches three and the group was
    not told yet."""
    return not escalated and sent_count >= ESCALATE_AFTER


def group_notice(sent_counts: Mapping[str, int], pending: Collection[str], escalated: bool) -> tuple[str, ...]:
    """The pending assignees to mention when the group is told now (sorted); empty when it is not told now."""
    most = max((sent_counts.get(person, 0) for person in pending), default=0)
    return tuple(sorted(pending)) if should_escalate(most, escalated) else ()
