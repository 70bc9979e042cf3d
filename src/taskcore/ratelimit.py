"""Per-user token buckets for chat commands and API calls (SPEC section 5); ``now`` is monotonic seconds."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Protocol

from taskcore.errors import ValidationError

# Refills are float arithmetic: a bucket that should hold exactly ``cost`` tokens may hold a hair less.
_EPSILON = 1e-9


class TokenBucket:
    """Holds up to ``capacity`` tokens, starts full and refills ``rate_per_min`` per minute."""

    __slots__ = ("_capacity", "_last", "_per_second", "_tokens")

    def __init__(self, rate_per_min: float, capacity: float) -> None:
        if not (math.isfinite(rate_per_min) and rate_per_min > 0):
            raise ValidationError("rate_per_min must be a positive number")
        if not (math.isfinite(capacity) and capacity > 0):
            raise ValidationError("capacity must be a positive number")
        self._per_second = rate_per_min / 60
        self._capacity = float(capacity)
        self._tokens = float(capacity)
        self._last = -math.inf  # the first refill fills a full bucket: nothing changes

    @property
    def capacity(self) -> float:
        """The most tokens the bucket holds."""
        return self._capacity

    def available(self, now: float) -> float:
        """Tokens in the bucket at ``now``."""
        self._refill(now)
        return self._tokens

    def try_take(self, now: float, cost: float = 1) -> bool:
        """Take ``cost`` tokens if the bucket holds them; say whether it did."""
        _check_cost(cost)
        self._refill(now)
        if self._tokens + _EPSILON < cost:
            return False
        self._tokens = max(0.0, self._tokens - cost)
        return True

    def seconds_until(self, now: float, cost: float = 1) -> float:
        """Seconds until ``cost`` tokens are available (0 when they are; infinite above capacity)."""
        _check_cost(cost)
        self._refill(now)
        if cost > self._capacity:
            return math.inf
        if self._tokens + _EPSILON >= cost:
            return 0.0
        return (cost - self._tokens) / self._per_second

    def _refill(self, now: float) -> None:
        # A clock that goes backwards counts as no time passing; ``_last`` only moves forward.
        if now > self._last:
            self._tokens = min(self._capacity, self._tokens + (now - self._last) * self._per_second)
            self._last = now


def _check_cost(cost: float) -> None:
    if not (math.isfinite(cost) and cost >= 0):
        raise ValidationError("cost must be a non-negative number")


@dataclass(frozen=True, slots=True)
class Decision:
    """Outcome of one command: allowed, or refused with a wait in whole seconds and whether to say so."""

    allowed: bool
    retry_after: int = 0
    notify: bool = False


_ALLOWED = Decision(allowed=True)


class _Entry:
    __slots__ = ("bucket", "refused")

    def __init__(self, bucket: TokenBucket) -> None:
        self.bucket = bucket
        self.refused = False


class RateLimiter:
    """One token bucket per key, with one notice per empty spell and bounded memory.

    A bucket that has filled up again carries no information and is dropped. Beyond ``max_entries``
    keys the least recently used one is dropped even if not full, which resets that key's bucket:
    the documented price of the hard memory bound.
    """

    def __init__(self, rate_per_min: float, capacity: float, *, max_entries: int = 100_000) -> None:
        if max_entries < 1:
            raise ValidationError("max_entries must be at least 1")
        TokenBucket(rate_per_min, capacity)  # validates both before any key is seen
        self._rate_per_min = rate_per_min
        self._capacity = capacity
        self._max_entries = max_entries
        self._entries: OrderedDict[str, _Entry] = OrderedDict()

    def __len__(self) -> int:
        """Number of keys currently tracked."""
        return len(self._entries)

    def check(self, key: str, now: float) -> Decision:
        """Take one token for ``key`` at ``now``; on refusal say how long to wait and whether to tell."""
        self._drop_refilled(now)
        entry = self._entry(key)
        if entry.bucket.try_take(now):
            entry.refused = False
            return _ALLOWED
        notify = not entry.refused
        entry.refused = True
        wait = max(1, math.ceil(entry.bucket.seconds_until(now)))
        return Decision(allowed=False, retry_after=wait, notify=notify)

    def _entry(self, key: str) -> _Entry:
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
            return entry
        entry = self._entries[key] = _Entry(TokenBucket(self._rate_per_min, self._capacity))
        if len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)
        return entry

    def _drop_refilled(self, now: float) -> None:
        # Keys are kept in order of last use, so the oldest come first: drop them while their bucket is
        # full again. Each key is dropped at most once per insertion, so this is O(1) amortised per call.
        while self._entries:
            oldest = next(iter(self._entries.values()))
            if oldest.bucket.available(now) < oldest.bucket.capacity:
                return
            self._entries.popitem(last=False)


class Draw(Protocol):
    """What the conversation takes tokens from: one event's draw on a set of buckets (``Allowance``)."""

    def take(self, key: str) -> Decision:
        """One token of ``key``'s bucket, or why not."""
        ...


class Allowance:
    """One event's draw on a set of buckets shared by the events a process handles (the bot's chat limiter, or its
    per-person reply limiter): ``take`` takes one token for a person at the event's instant ``at``, once per
    person, so an event handled again after its batch failed gets the same answer. Buckets may be shared between
    threads: ``lock`` guards them. ``None`` as the limiter allows everything (a tool, a test)."""

    __slots__ = ("_at", "_decided", "_limiter", "_lock")

    def __init__(self, limiter: RateLimiter | None, at: float, lock: threading.Lock | None = None) -> None:
        self._limiter, self._at, self._lock = limiter, at, lock or threading.Lock()
        self._decided: dict[str, Decision] = {}

    def take(self, key: str) -> Decision:
        """One token of ``key``'s bucket (the same answer again for the same key)."""
        if self._limiter is None:
            return _ALLOWED
        decided = self._decided.get(key)
        if decided is None:
            with self._lock:
                decided = self._decided[key] = self._limiter.check(key, self._at)
        return decided


UNLIMITED = Allowance(None, 0.0)
"""An allowance that refuses nothing (and remembers nothing: it allows every key)."""
