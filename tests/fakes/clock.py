"""A clock that moves only when told to: the fake of ``tasksvc_run.clock.Clock``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta


@dataclass
class FrozenClock:
    """A clock that moves only when told to."""

    current: datetime = field(default_factory=lambda: datetime(2026, 11, 22, 10, 0, tzinfo=UTC))
    mono: float = 1000.0

    def now(self) -> datetime:
        """The frozen instant."""
        return self.current

    def monotonic(self) -> float:
        """The frozen monotonic value."""
        return self.mono

    def advance(self, delta: timedelta) -> None:
        """Move both clocks forward."""
        self.current += delta
        self.mono += delta.total_seconds()
