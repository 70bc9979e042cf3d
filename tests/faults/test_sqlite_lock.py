"""Another process holds the SQLite write lock for 2 s: API writes wait for it (busy_timeout 5000 ms) and then
succeed; reads do not wait at all (WAL); the webhook, which must store an event before acknowledging it, waits at
most WEBHOOK_STORE_TIMEOUT_MS (set to 1 s here) and then answers 503 with Retry-After, so the gateway delivers those
events again (SPEC sections 3 and 17).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from taskcore.storage import schema
from tests.faults.harness import GROUP, Live, live_unit

HOLD_SECONDS = 2.0


class LockHolder:
    """A plain sqlite3 connection (as another program would have) holding BEGIN IMMEDIATE for a while."""

    def __init__(self, path: Path, seconds: float) -> None:
        self.path, self.seconds = path, seconds
        self.held = threading.Event()
        self.released_at = 0.0
        self.thread = threading.Thread(target=self._hold, name="write-lock-holder")

    def _hold(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        try:
            conn.execute("BEGIN IMMEDIATE")
            self.held.set()
            time.sleep(self.seconds)
            conn.execute("COMMIT")
            self.released_at = time.monotonic()
        finally:
            conn.close()

    async def __aenter__(self) -> LockHolder:
        self.thread.start()
        assert await asyncio.to_thread(self.held.wait, 10)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.to_thread(self.thread.join, 10)


def _task_count(live: Live) -> int:
    with live.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(schema.tasks)).scalar_one())


async def _done_at(work: Awaitable[tuple[int, Any] | int]) -> tuple[int, float]:
    """The status of a call or a chat post, and the monotonic time it was answered."""
    answer = await work
    return (answer if isinstance(answer, int) else answer[0]), time.monotonic()


async def test_writes_wait_for_a_write_lock_held_elsewhere_and_succeed_while_reads_do_not_wait(tmp_path: Path) -> None:
    async with live_unit(tmp_path, WEBHOOK_STORE_TIMEOUT_MS="1000") as live:
        for n in range(3):
            assert await live.say(f"/t nueva base {n}") == 200
        await live.wait_until(lambda: _task_count(live) >= 3, 20, "three tasks")
        cookie = await live.sign_in()
        _, listed = await live.call("GET", f"/api/groups/{GROUP}/tasks", headers=cookie)
        ids = [item["id"] for item in listed["items"]]

        async with LockHolder(Path(live.unit.env["DB_PATH"]), HOLD_SECONDS) as holder:
            locked_at = time.monotonic()
            json_ = {"Content-Type": "application/json", **cookie}
            writes = [
                live.call("POST", f"/api/tasks/{ids[0]}/claim", headers=json_),
                live.call("POST", f"/api/tasks/{ids[1]}/complete", headers=json_),
                live.call("PATCH", f"/api/tasks/{ids[2]}", headers=json_, data=b'{"description": "cambiada"}'),
                live.call("POST", "/api/me/preferences", headers=json_, data=b'{"freq": "daily", "time": "07:30"}'),
            ]
            read = live.call("GET", "/api/me/tasks", headers=cookie)
            chat = [live.say(f"/t nueva durante el bloqueo {n}") for n in range(5)]
            answers = await asyncio.gather(*(_done_at(w) for w in writes), _done_at(read), *(_done_at(c) for c in chat))
        writes_done, read_done, chat_done = answers[:4], answers[4], answers[5:]

        assert [status for status, _ in writes_done] == [200, 200, 200, 200]
        assert all(done >= holder.released_at for _, done in writes_done)  # they waited for the lock...
        assert max(done for _, done in writes_done) - locked_at < HOLD_SECONDS + 4  # ...not for a timeout
        assert read_done[0] == 200
        assert read_done[1] < holder.released_at  # a read never waits for a writer (WAL)
        refused = [n for n, (status, _) in enumerate(chat_done) if status != 200]
        assert {chat_done[n][0] for n in refused} <= {503}  # never 200 for an event the inbox did not take
        assert refused  # the lock outlasted the webhook's bound
        for n in refused:  # the gateway delivers them again later
            assert await live.say(f"/t nueva durante el bloqueo {n}") == 200
        await live.wait_until(lambda: _task_count(live) == 8, 20, "the five commands processed after the lock")
        await live.queued_at_least(8)  # every command got its reply
        assert sum(count for status, count in live.answers.items() if status >= 500) == len(refused)
        assert len(live.log_lines("database unavailable")) <= 2  # the webhook and the processor, once each
