"""Paced sends (issue 20): the gateway's global send rate, GATEWAY_MAX_SENDS_PER_MIN, as pure rules.

A send starts no sooner than 60/R seconds after the previous one and never more than R in any 60 seconds (R the rate
per minute); ``SendPace`` keeps the start times the rules look at. The reminder tick spreads the digests it queues at
the same spacing over the minutes after their slot (``digest_due``), never past the grace window: digests the rate
cannot carry within the window are due at its end and leave after it, at the rate. Times here are plain seconds on a
monotonic clock, except the digests' due times (instants).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta

from taskcore.errors import ValidationError

DEFAULT_MAX_SENDS_PER_MIN = 20
"""One send every 3 s: within what operators of unofficial WhatsApp gateways advise (docs/decisions.md, issue 20)."""
WARN_ABOVE_PER_MIN = 60
"""A rate above this draws a start-up warning in production: one number sending more than one message a second."""
WINDOW = 60.0
KEPT_STARTS = 10_000  # the window rule looks at the R-th latest start; a rate above this is paced by spacing alone


def spacing(per_min: int) -> float:
    """Seconds between two sends at ``per_min`` sends a minute."""
    if per_min < 1:
        raise ValidationError(f"the send rate must be at least 1 a minute, got {per_min}")
    return WINDOW / per_min


def next_send_at(recent: Sequence[float], *, now: float, per_min: int, factor: float = 1.0) -> float:
    """When the next send may start, given the start times of the latest sends (oldest first; only the last
    ``per_min`` matter): now, or the latest start plus the spacing (times ``factor``: a jittered gap), or the
    ``per_min``-th latest start plus a minute, whichever is last."""
    gap = spacing(per_min) * factor
    if not recent:
        return now
    at = max(now, recent[-1] + gap)
    if len(recent) >= per_min:
        at = max(at, recent[-per_min] + WINDOW)
    return at


JITTER_LOW, JITTER_HIGH = 0.5, 1.5  # each gap between half and one and a half times the mean (SPEC section 31)


def check_factor(factor: float) -> float:
    """A gap factor, checked to lie within [JITTER_LOW, JITTER_HIGH]."""
    if not JITTER_LOW <= factor <= JITTER_HIGH:
        raise ValidationError(f"a gap factor lies between {JITTER_LOW} and {JITTER_HIGH}, got {factor}")
    return factor


class SendPace:
    """The start times of one process's sends and the rate they keep (the worker's only state for pacing).

    ``jitter`` draws each gap's factor (SPEC section 31: sending like a person, not a metronome); without it every
    gap is the mean spacing. Either way at most ``per_min`` sends start in any 60 s. Jittered, the minute's rule is
    kept on the gaps (each counted at most 1.5 spacings, an idle pause as 1.5): a gap is at least what makes the
    last ``per_min`` gaps a minute, which by induction is never more than 1.5 spacings, so every gap between two
    sends of a busy queue lies within [0.5, 1.5] spacings."""

    def __init__(self, per_min: int, jitter: Callable[[], float] | None = None) -> None:
        spacing(per_min)  # checks the rate
        self.per_min = per_min
        # Above KEPT_STARTS a minute fewer starts are kept than the window rule reads: spacing alone paces.
        self._starts: deque[float] = deque(maxlen=min(per_min, KEPT_STARTS))
        self._jitter = jitter
        self._factor = self._draw()
        window = per_min - 1 if per_min <= KEPT_STARTS else 0
        self._gaps: deque[float] = deque([spacing(per_min)] * window, maxlen=window)  # as if paced before
        self._gap_sum = sum(self._gaps)

    def _draw(self) -> float:
        return 1.0 if self._jitter is None else check_factor(self._jitter())

    def _jittered_at(self, now: float, last: float | None, gap_sum: float) -> float:
        if last is None:
            return now
        gap = spacing(self.per_min) * self._factor
        if self._gaps.maxlen:
            gap = max(gap, WINDOW - gap_sum)
        return max(now, last + gap)

    def next_at(self, now: float) -> float:
        """When the next send may start."""
        if self._jitter is not None:
            return self._jittered_at(now, self._starts[-1] if self._starts else None, self._gap_sum)
        return next_send_at(self._starts, now=now, per_min=self.per_min)

    def allowance(self, now: float, *, horizon: float, most: int) -> int:
        """How many sends (at most ``most``) may start by ``now + horizon``, one after another at the rate."""
        if self._jitter is not None:  # the gaps are at least half a spacing: step by step, at the current draw
            last, gap_sum, count = self._starts[-1] if self._starts else None, self._gap_sum, 0
            while count < most and (at := self._jittered_at(now, last, gap_sum)) <= now + horizon:
                gap_sum += 0 if last is None else min(at - last, JITTER_HIGH * spacing(self.per_min))
                last, count = at, count + 1
            return count
        starts, count = deque(self._starts, maxlen=self._starts.maxlen), 0
        while count < most:
            at = next_send_at(starts, now=now, per_min=self.per_min)
            if at > now + horizon:
                break
            starts.append(at)
            count += 1
        return count

    def take(self, now: float, count: int) -> list[float]:
        """Book ``count`` sends: their start times, in order, recorded as sent."""
        booked = []
        for _ in range(count):
            at = self.next_at(now)
            if self._starts and self._gaps.maxlen:
                if len(self._gaps) == self._gaps.maxlen:
                    self._gap_sum -= self._gaps[0]
                gap = min(at - self._starts[-1], JITTER_HIGH * spacing(self.per_min))
                self._gaps.append(gap)
                self._gap_sum += gap
            self._starts.append(at)
            booked.append(at)
            self._factor = self._draw()
        return booked


def digest_due(now: datetime, *, index: int, window_end: datetime, per_min: int) -> datetime:
    """The due time of the ``index``-th digest (from 0) one tick queues: ``index`` spacings after ``now``, but never
    past ``window_end`` (the slot plus the grace minutes; ``now`` when the window already closed)."""
    if index < 0:
        raise ValidationError(f"digests are numbered from 0, got {index}")
    return min(now + timedelta(seconds=index * spacing(per_min)), max(now, window_end))


def within_window(per_min: int, window: timedelta) -> int:
    """How many digests queued at one instant are due within ``window`` (the rest are due at its end)."""
    return int(window.total_seconds() // spacing(per_min)) + 1


def last_departure(due: Iterable[datetime], *, per_min: int) -> datetime | None:
    """When the last of the jobs due at ``due`` leaves, sent in due order one spacing apart at the earliest (no
    other sends between them); None for none."""
    gap, last = timedelta(seconds=spacing(per_min)), None
    for at in sorted(due):
        last = at if last is None else max(at, last + gap)
    return last
