"""Calendar feeds and API tokens (SPEC section 22): what a feed costs, and that a revoked token and an unknown one
cost the same (nothing to learn from timing which addresses once existed).

In this process, over a SQLite file: a user with 1,000 open dated tasks (the feed's cap) and one with 10. Figures are
the least CPU time of interleaved runs (``text_bench.best_ms``). ``python -m benchmarks calendar`` prints the table.
"""

from __future__ import annotations

import contextlib
import tempfile
from datetime import UTC, date, datetime, timedelta
from functools import partial
from pathlib import Path

from benchmarks.text_bench import best_ms
from taskcore.access import GatingMode
from taskcore.calendar_feed import build_calendar, feed_etag
from taskcore.errors import NotFound, Unauthorized
from taskcore.services.calendar import FEED_LIMIT, issue_calendar_feed, read_calendar_feed, revoke_calendar_feed
from taskcore.services.tasks import create_task
from taskcore.services.tokens import authenticate_api_token, create_api_token, revoke_api_token
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from taskcore.storage.users import ensure_user
from tasksvc_run import units

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
BIG, SMALL = "34600000001", "34600000002"
RUNS = 40
SIMILAR = 1.25  # "no difference worth measuring": within the noise of a shared machine


def _seed(db: Database) -> dict[str, str]:
    for user in (BIG, SMALL):
        db.transact(lambda conn, user=user: ensure_user(conn, user, NOW))
    for n, user in enumerate([BIG] * FEED_LIMIT + [SMALL] * 10):
        units.run(db, create_task, creator=user, description=f"Tarea {n}",
                  due=date(2026, 12, 1) + timedelta(days=n % 90), now=NOW)
    revoked_feed = units.run(db, issue_calendar_feed, user_id=SMALL, now=NOW)
    units.run(db, revoke_calendar_feed, user_id=SMALL)
    revoked_token = units.run(db, create_api_token, user_id=SMALL, name="old", now=NOW)
    units.run(db, revoke_api_token, user_id=SMALL, token_id=revoked_token.id)
    big = units.run(db, issue_calendar_feed, user_id=BIG, now=NOW)
    small = units.run(db, issue_calendar_feed, user_id=SMALL, now=NOW)
    token = units.run(db, create_api_token, user_id=SMALL, name="new", now=NOW).token
    return {"big": big, "small": small, "revoked": revoked_feed, "unknown": "Q" * 43,
            "revoked_token": revoked_token.token, "unknown_token": "tsk_" + "Q" * 43, "token": token}


def _feed(db: Database, token: str) -> bytes:
    try:
        tasks = units.look(db, read_calendar_feed, GatingMode.OFF, token=token, now=NOW).tasks
    except NotFound:
        return b""
    return build_calendar(tasks, domain="bench")


def _etag(db: Database, token: str) -> str:
    """What a 304 costs: the read and the ETag, without writing the calendar."""
    return feed_etag(units.look(db, read_calendar_feed, GatingMode.OFF, token=token, now=NOW).tasks, domain="bench")


def _auth(db: Database, token: str) -> None:
    with contextlib.suppress(Unauthorized):
        units.look(db, authenticate_api_token, token=token, now=NOW)


def _pair(first: float, second: float) -> str:
    ratio = first / second
    verdict = "similar" if 1 / SIMILAR <= ratio <= SIMILAR else "**differs**"
    return f"{first:.3f} vs {second:.3f} ms, ratio {ratio:.2f} ({verdict})"


def rows() -> list[tuple[str, str]]:
    """(measure, figure) rows."""
    with tempfile.TemporaryDirectory() as folder:
        db = Database.from_url(sqlite_url(Path(folder) / "tasks.db"))
        migrator.migrate(db)
        t = _seed(db)
        big, small, cached = best_ms(partial(_feed, db, t["big"]), partial(_feed, db, t["small"]),
                                     partial(_etag, db, t["big"]), runs=10)
        revoked, unknown = best_ms(partial(_feed, db, t["revoked"]), partial(_feed, db, t["unknown"]), runs=RUNS)
        gone, never, live = best_ms(*(partial(_auth, db, t[k]) for k in ("revoked_token", "unknown_token", "token")),
                                    runs=RUNS)
        db.dispose()
    return [
        (f"feed of {FEED_LIMIT} events: read + written", f"{big:.1f} ms ({big / FEED_LIMIT * 1000:.0f} µs/event)"),
        (f"304 for the {FEED_LIMIT}-event feed: read + ETag, not written", f"{cached:.1f} ms"),
        ("feed of 10 events: read + written", f"{small:.2f} ms"),
        ("404: revoked vs unknown feed token", _pair(revoked, unknown)),
        ("401: revoked vs unknown API token", _pair(gone, never)),
        ("a live API token's lookup", f"{live:.3f} ms"),
    ]


def main() -> None:
    """Print the table."""
    print("| measure | figure |\n|---|---|")
    for measure, figure in rows():
        print(f"| {measure} | {figure} |")


if __name__ == "__main__":
    main()
