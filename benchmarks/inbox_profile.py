"""Where the bot's CPU per webhook "create task" event goes, in-process and without HTTP (issue 20): the event loop's
share (the body's JSON, the event model, the stored text) and the worker thread's (``EventRunner.run_arrived`` over
groups of events, as the inbox writer's group commit calls it), in CPU time per event.

The events are ``benchmarks.bot_bench``'s ``/t nueva`` messages from 200 people in 50 groups, stored in a SQLite file
set up as ``tasksvc bot`` sets it up; a warm-up group runs first (statements compiled, people and groups known), so
the figures are those of a running bot. Rounds alternate with the garbage collector frozen as ``tune_process`` does.
``--profile`` prints cProfile's top functions of the worker's part instead.

    python -m benchmarks.inbox_profile [--rounds N] [--group G] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.bot_bench import event
from taskcore.chat import ChatPolicy
from taskcore.gateway.events import DeliveryStatus, Echo
from taskcore.gateway.evolution.decode import CODEC as EVOLUTION
from taskcore.ratelimit import RateLimiter
from taskcore.services.conversation.road import chat_key
from taskcore.settings import load_settings
from taskcore.storage import migrator
from taskcore.storage.db import Database
from tasksvc_run.bot.runner import EventRunner
from tasksvc_run.bot.webhook import ArrivedEvent, _as_text, _json_object
from tasksvc_run.clock import SystemClock
from tasksvc_run.gateways import CODECS
from tasksvc_run.metrics import Metrics

EVENTS_PER_ROUND = 1024


def _runner(folder: Path) -> tuple[EventRunner, Database]:
    settings = load_settings({"NODE_ENV": "test", "RATE_LIMIT_PER_MIN": "1000000",
                              "SENDS_PER_PERSON_PER_MIN": "1000000", "REACTIONS_ENABLED": "false",
                              "DB_PATH": str(folder / "tasks.db")})
    db = Database.from_url(settings.sqlalchemy_url)
    migrator.migrate(db)
    runner = EventRunner(db, ChatPolicy.from_settings(settings), settings=settings, clock=SystemClock(),
                         codecs=CODECS, metrics=Metrics(db, enabled=settings.metrics_enabled),
                         limiter=RateLimiter(settings.rate_limit_per_min, settings.rate_limit_burst))
    return runner, db


def arrived(body: bytes) -> ArrivedEvent:
    """What the webhook handler does with a body once the secret is checked (aiohttp's part left out)."""
    payload = _json_object(body)
    if isinstance(payload, str):
        raise TypeError(payload)
    parsed = EVOLUTION.decode(payload, path_event=None)
    if isinstance(parsed, Echo | DeliveryStatus):
        raise TypeError("not a conversation's event")
    return ArrivedEvent(chat_key(parsed), parsed.kind, None, _as_text(body, payload), parsed=parsed)


def one_round(runner: EventRunner, first: int, group: int,
              profile: cProfile.Profile | None = None) -> tuple[float, float]:
    """CPU µs per event of the loop's part and of the worker's part, over EVENTS_PER_ROUND new events."""
    bodies = [event(i) for i in range(first, first + EVENTS_PER_ROUND)]
    started = time.process_time()
    events = [arrived(body) for body in bodies]
    loop_part = time.process_time() - started
    started = time.process_time()
    if profile is not None:
        profile.enable()
    for at in range(0, len(events), group):
        outcome = runner.run_arrived([(e, e.parsed) for e in events[at:at + group] if e.parsed is not None], None)
        if len(outcome.handled) != len(events[at:at + group]):
            raise RuntimeError("an event was stored pending instead of handled at once")
    if profile is not None:
        profile.disable()
    worker_part = time.process_time() - started
    return loop_part / EVENTS_PER_ROUND * 1e6, worker_part / EVENTS_PER_ROUND * 1e6


def main(argv: list[str] | None = None) -> None:
    """Print the median CPU per event of each part over the rounds (or, ``--profile``, the worker's top functions)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--group", type=int, default=32, help="events stored and handled per transaction")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="inbox-profile-"))
    runner, db = _runner(folder)
    one_round(runner, 10_000_000, args.group)  # warm-up: statements compiled, people and groups known
    gc.collect()
    gc.freeze()
    profile = cProfile.Profile() if args.profile else None
    figures = [one_round(runner, n * EVENTS_PER_ROUND, args.group, profile) for n in range(args.rounds)]
    db.dispose()
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(40)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(60)
        return
    loop = [f[0] for f in figures]
    worker = [f[1] for f in figures]
    print(f"groups of {args.group}, {args.rounds} rounds of {EVENTS_PER_ROUND} events, CPU µs per event")
    print(f"loop part (JSON, event model): median {statistics.median(loop):.1f}  (min {min(loop):.1f})")
    print(f"worker part (run_arrived):     median {statistics.median(worker):.1f}  (min {min(worker):.1f})")


if __name__ == "__main__":
    main()
