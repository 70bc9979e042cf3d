"""The echo watchdog's and the connection's rules, pure (SPEC section 26): times are passed in, actions come out.

Inbound delivery is judged broken when a send the gateway accepted has no echo within ``echo_within``, or when a
probe (sent after ``idle_after`` without inbound events while connected) gets none. Broken means: set the webhook
again and probe once more (REPAIR); if that probe gets no echo either, the outage begins (ALERT, once). The first echo
after that ends it (RECOVERED). While disconnected nothing is judged: no echo can come.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

MAX_PENDING = 2_000  # sends awaiting their echo that are remembered (the oldest are dropped past it)
LONG_OUTAGE = timedelta(minutes=5)  # a disconnection longer than this is told to the admins


class Health(StrEnum):
    """Where the watchdog stands."""

    OK = "ok"
    PROBING = "probing"  # an idle probe is out
    REPAIRING = "repairing"  # the webhook was set again and a probe is out
    DOWN = "down"  # echoes stopped: the admins were told


class Act(StrEnum):
    """What the shell does next."""

    NOTHING = "nothing"
    PROBE = "probe"  # send a probe to the bot's own number
    REPAIR = "repair"  # set the webhook again, then probe
    ALERT = "alert"  # gauge 0, one log line, one DM per admin
    RECOVERED = "recovered"  # gauge 1, the admins told


@dataclass(frozen=True, slots=True)
class WatchTimes:
    """WATCHDOG_ECHO_SECONDS, WATCHDOG_IDLE_MINUTES and how often an outage is probed again."""

    echo_within: timedelta = timedelta(seconds=120)
    idle_after: timedelta = timedelta(minutes=60)
    reprobe_every: timedelta = timedelta(minutes=10)


@dataclass
class EchoWatch:
    """The watchdog's state: sends awaiting their echo, the probe out, the last signs of life."""

    times: WatchTimes
    started: datetime
    health: Health = Health.OK
    pending: dict[str, datetime] = field(default_factory=dict)
    probe_sent: datetime | None = None
    last_life: datetime | None = None  # the last inbound event or echo
    down_since: datetime | None = None

    def accepted(self, message_id: str, now: datetime) -> None:
        """The gateway accepted a send whose echo should come."""
        self.pending[message_id] = now
        while len(self.pending) > MAX_PENDING:
            self.pending.pop(next(iter(self.pending)))

    def probed(self, now: datetime) -> None:
        """A probe went out (its echo ends the doubt like any other)."""
        self.probe_sent = now

    def inbound(self, now: datetime) -> None:
        """An inbound event arrived (the webhook is reached)."""
        self.last_life = now

    def echoed(self, message_ids: set[str], now: datetime) -> Act:
        """Echoes arrived (any unit's); RECOVERED when they end an outage."""
        if not message_ids:
            return Act.NOTHING
        for ident in message_ids:
            self.pending.pop(ident, None)
        self.last_life = now
        was = self.health
        self.health, self.probe_sent, self.down_since = Health.OK, None, None
        return Act.RECOVERED if was is Health.DOWN else Act.NOTHING

    def overdue(self, now: datetime) -> list[str]:
        """Sends whose echo is late (to look up among the other units' echoes before judging)."""
        return [ident for ident, at in self.pending.items() if now - at >= self.times.echo_within]

    def tick(self, now: datetime, *, connected: bool, late: bool) -> Act:
        """The next action; ``late``: a send's echo is overdue (and no unit saw it)."""
        if not connected:
            return Act.NOTHING
        if self.health is Health.OK:
            return self._judge_ok(now, late)
        if self.probe_sent is not None and now - self.probe_sent < self.times.echo_within:
            return Act.NOTHING  # the probe's echo may still come
        return self._step(now)

    def _judge_ok(self, now: datetime, late: bool) -> Act:
        if late:
            return self._repair(now)
        quiet_since = max(t for t in (self.last_life, self.started) if t is not None)
        if now - quiet_since >= self.times.idle_after:
            self.health, self.probe_sent = Health.PROBING, now
            return Act.PROBE
        return Act.NOTHING

    def _step(self, now: datetime) -> Act:
        if self.health is Health.PROBING:
            return self._repair(now)
        if self.health is Health.REPAIRING:
            self.health, self.down_since, self.probe_sent = Health.DOWN, now, now
            self.pending.clear()
            return Act.ALERT
        if self.probe_sent is None or now - self.probe_sent >= self.times.reprobe_every:
            self.probe_sent = now
            return Act.REPAIR  # DOWN: keep setting the webhook and probing, so the end is noticed
        return Act.NOTHING

    def _repair(self, now: datetime) -> Act:
        self.health, self.probe_sent = Health.REPAIRING, now
        self.pending.clear()
        return Act.REPAIR


@dataclass
class ConnectionWatch:
    """The gateway's WhatsApp session: open or closed since when."""

    connected: bool = True
    closed_since: datetime | None = None

    def changed(self, state: str | None, now: datetime) -> timedelta | None:
        """Apply a ``connection.update`` state; on reopening, how long the outage lasted (None otherwise)."""
        if state == "close" and self.connected:
            self.connected, self.closed_since = False, now
        elif state == "open" and not self.connected:
            lasted = now - self.closed_since if self.closed_since else timedelta(0)
            self.connected, self.closed_since = True, None
            return lasted
        return None


def tell_admins(lasted: timedelta) -> bool:
    """Whether a disconnection lasted long enough to tell the admins."""
    return lasted > LONG_OUTAGE
