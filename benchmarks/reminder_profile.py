"""Where the reminder tick's busiest minute goes (issue 20): the CPU of each part of one tick over the reminder dataset
(100k users in 20 zones), in-process: reading the due rows, planning them in their zones, the digests' two queries and
their text, the ledger claim, the queue insert, the next looks, and the write transactions around the last three.

The minute before the busiest one is ticked first, on a copy that already ran the busiest minute once (statements
compiled, the phone numbers' data loaded), so the figures are those of a running bot. ``--profile`` prints cProfile's
top functions instead.

    python -m benchmarks.reminder_profile [--rounds N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from benchmarks.reminder_dataset import START, TZ, build
from taskcore.access import GatingMode
from taskcore.reminders import slots
from taskcore.services import reminder_tick as tick
from taskcore.storage.db import Database, sqlite_url
from taskcore.storage.schema import user_preferences
from tasksvc_run import units

BUSIEST = START + timedelta(hours=13, minutes=30)  # 08:30 in Bogotá, Lima, New York: 5,985 users due
PARTS = {"due_preferences": "read the due rows", "digest_tasks": "digests: open tasks query",
         "unassigned_counts": "digests: unassigned counts query", "digest_text": "digests: text",
         "claim_deliveries": "ledger claim", "enqueue_many": "queue insert", "plan_next": "next looks stored",
         "hold_many": "held in quiet hours"}
SENDS_PER_MIN = 20  # GATEWAY_MAX_SENDS_PER_MIN's default, as ReminderJob passes it


def _timed(spent: dict[str, float], label: str, work: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return work(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - started
    return run


def _tick(db: Database, now: datetime) -> tick.TickResult:
    return units.run_batched(db, tick.ReminderTick(GatingMode.OFF, now=now, zone=TZ, grace_minutes=60, max_attempts=6,
                                                   sends_per_min=SENDS_PER_MIN))


def _database() -> Database:
    """A copy of the dataset as a running bot leaves it the minute before the busiest one."""
    db = Database.from_url(sqlite_url(build()))
    with db.write() as conn:  # the earlier minutes' rows, planned as their ticks would leave them: out of the way
        conn.execute(user_preferences.update().where(user_preferences.c.next_due_at < BUSIEST).values(
            next_due_at=BUSIEST + timedelta(hours=12)))
    return db


def one_round(profile: cProfile.Profile | None = None) -> dict[str, float]:
    """The busiest minute's CPU per part, in ms."""
    warm = _database()
    _tick(warm, BUSIEST)
    warm.dispose()
    db = _database()
    spent: dict[str, float] = defaultdict(float)
    originals = {name: getattr(tick, name) for name in PARTS if hasattr(tick, name)}
    plan, transact = slots.Planner.plan, Database.transact
    try:
        for name, work in originals.items():
            setattr(tick, name, _timed(spent, PARTS[name], work))
        slots.Planner.plan = _timed(spent, "plan in the users' zones", plan)  # type: ignore[method-assign]
        Database.transact = _timed(spent, "write transactions (claim, queue, next looks, commit)",  # type: ignore[method-assign]
                                   transact)
        started = time.process_time()
        if profile is not None:
            profile.enable()
        result = _tick(db, BUSIEST)
        if profile is not None:
            profile.disable()
        spent[f"the whole tick ({result})"] = time.process_time() - started
    finally:
        for name, work in originals.items():
            setattr(tick, name, work)
        slots.Planner.plan, Database.transact = plan, transact  # type: ignore[method-assign]
        db.dispose()
    return {label: seconds * 1000 for label, seconds in spent.items()}


def main() -> None:
    """Print the table (medians of the rounds), or the profile."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        profile = cProfile.Profile()
        one_round(profile)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        return
    rounds = [one_round() for _ in range(args.rounds)]
    print(f"| busiest minute ({BUSIEST:%H:%M} UTC), CPU per part | ms (median of {args.rounds}) |")
    print("|---|---:|")
    for label in rounds[0]:
        print(f"| {label} | {statistics.median(r[label] for r in rounds):.0f} |")


if __name__ == "__main__":
    main()
