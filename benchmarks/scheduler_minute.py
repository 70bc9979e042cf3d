"""The scheduler's running minute (issue 29): the reminder tick, the nag tick, the look for missed chores (SPEC
section 41), the automatic pass of missed turns, the weekly summary tick and the release of held messages, each
called as ``tasksvc_run.schedulers.jobs`` calls it (the settings' defaults, TZ Europe/Madrid), timed apart; the
figures of a simulated day of such minutes."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo

from taskcore.access import GatingMode
from taskcore.services import quiet
from taskcore.services.nag_tick import NagTick
from taskcore.services.penalties import MissedTick
from taskcore.services.reminder_tick import ReminderTick
from taskcore.services.summaries import WeeklyTick
from taskcore.services.turns import AutoPassTick
from taskcore.settings import Settings
from taskcore.storage.db import Database
from tasksvc_run import units

PARTS = ("reminders", "nags", "missed", "turns", "weekly", "held")  # the jobs' order: reminders, chores, weekly, held
NAMES = {"reminders": "reminder tick", "nags": "nag tick", "missed": "missed chores found",
         "turns": "auto pass of missed turns",
         "weekly": "weekly summary tick", "held": "held release"}
GATE_MS = 50.0


def _default(name: str) -> Any:
    return Settings.model_fields[name].default


ZONE = ZoneInfo(_default("tz"))


@dataclass(frozen=True)
class Config:
    """What the jobs pass from the settings (their defaults)."""

    zone: ZoneInfo = ZONE
    grace_minutes: int = _default("reminders_grace_minutes")
    max_attempts: int = _default("rq_max_attempts")
    sends_per_min: int = _default("gateway_max_sends_per_min")
    language: str = _default("default_language")
    mode: GatingMode = GatingMode.OFF


def calls(db: Database, now: datetime, c: Config) -> dict[str, Callable[[], Any]]:
    """Each part of the minute, with the arguments its job gives it."""
    chores = {"now": now, "zone": c.zone, "max_attempts": c.max_attempts, "default_language": c.language}
    reminders = ReminderTick(c.mode, now=now, zone=c.zone, grace_minutes=c.grace_minutes,
                             max_attempts=c.max_attempts, sends_per_min=c.sends_per_min, default_language=c.language)
    return {"reminders": partial(units.run_batched, db, reminders),
            "nags": partial(units.run_batched, db, NagTick(**chores)),
            "missed": partial(units.run_batched, db, MissedTick(now=now, zone=c.zone)),
            "turns": partial(units.run_batched, db, AutoPassTick(**chores)),
            "weekly": partial(units.run_batched, db, WeeklyTick(**chores)),
            "held": partial(units.run, db, quiet.release_held, now=now, max_attempts=c.max_attempts,
                            default_language=c.language)}


@dataclass(frozen=True)
class Minute:
    """One running minute: each part's time (ms) and what it returned."""

    at: datetime
    ms: dict[str, float]
    results: dict[str, Any]

    @property
    def total_ms(self) -> float:
        """The whole minute."""
        return sum(self.ms.values())


def run_minute(db: Database, now: datetime, config: Config) -> Minute:
    """Every part of the minute at ``now``, in the jobs' order, each timed."""
    ms, results = {}, {}
    for part, work in calls(db, now, config).items():
        started = time.perf_counter()
        results[part] = work()
        ms[part] = (time.perf_counter() - started) * 1000
    return Minute(now, ms, results)


@dataclass(frozen=True)
class MinuteFigures:
    """A day of whole minutes: median, p99 and worst (with when); each part's share of the day, median and worst."""

    median_ms: float
    p99_ms: float
    worst_ms: float
    worst_at: datetime
    shares: dict[str, float]
    median_part_ms: dict[str, float]
    worst_part_ms: dict[str, float]
    done: dict[str, int]
    minutes: int

    def rows(self) -> list[tuple[str, float, str]]:
        """(measure, value, unit) for the tables."""
        rows = [(f"a running minute, whole (median of the day's {self.minutes:,})", self.median_ms, "ms"),
                ("a running minute, whole, p99 of the day", self.p99_ms, "ms"),
                (f"a running minute, whole, worst of the day ({self.worst_at:%H:%M} UTC)", self.worst_ms, "ms")]
        for part in PARTS:
            rows += [(f"{NAMES[part]}: share of the day's scheduler time", self.shares[part] * 100, "%"),
                     (f"{NAMES[part]}: median minute", self.median_part_ms[part], "ms"),
                     (f"{NAMES[part]}: worst minute ({self.done[part]:,} {_DONE[part]} over the day)",
                      self.worst_part_ms[part], "ms")]
        return rows


_DONE = {"reminders": "slots", "nags": "nags queued", "missed": "missed chores found", "turns": "turns passed",
         "weekly": "summaries queued", "held": "released messages queued"}


def minute_figures(times: Sequence[Mapping[str, float]], ats: Sequence[datetime],
                   done: Mapping[str, int]) -> MinuteFigures:
    """The figures of minutes given as each part's ms (in ``PARTS``), at ``ats``, having done ``done``."""
    totals = [sum(minute.values()) for minute in times]
    worst = max(range(len(totals)), key=totals.__getitem__)
    day = sum(totals) or 1.0
    ordered = sorted(totals)
    return MinuteFigures(statistics.median(totals), ordered[int(len(ordered) * 0.99)], totals[worst], ats[worst],
                         {part: sum(m[part] for m in times) / day for part in PARTS},
                         {part: statistics.median(m[part] for m in times) for part in PARTS},
                         {part: max(m[part] for m in times) for part in PARTS},
                         dict(done), len(times))


def done_counts(minutes: Sequence[Minute]) -> dict[str, int]:
    """What each part did over the minutes: slots, nags queued, turns passed, summaries and released bundles."""
    return {"reminders": sum(m.results["reminders"].sent + m.results["reminders"].late
                             + m.results["reminders"].skipped for m in minutes),
            "nags": sum(m.results["nags"].sent for m in minutes),
            **{part: sum(int(m.results[part]) for m in minutes) for part in ("missed", "turns", "weekly", "held")}}


def figures_of(minutes: Sequence[Minute]) -> MinuteFigures:
    """The day's figures of ``minutes``."""
    return minute_figures([m.ms for m in minutes], [m.at for m in minutes], done_counts(minutes))


def gate(measure: str) -> float | None:
    """The target of a row: the whole minute's median at most 50 ms."""
    return GATE_MS if measure.startswith("a running minute, whole (median") else None
