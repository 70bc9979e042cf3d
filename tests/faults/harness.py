"""The real unit (`tasksvc run` as OS processes) with a fake gateway in the test's event loop, and what fault tests
ask of it: chat commands and API calls through the proxy, the queue's state, and what the gateway received.

Blocking work (starting and stopping processes, database reads) runs in threads so that the fake gateway, which
lives on the test's event loop, keeps answering meanwhile.
"""

from __future__ import annotations

import asyncio
import collections
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
from sqlalchemy import select, text

from taskcore.services.web_auth import issue_login_token
from taskcore.storage import schema
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tests.fakes.gateway import FakeGateway, wire_body
from tests.system.unit import Unit, chat_message, free_ports, gateway_env, unit_env

GROUP = "120363900000000001@g.us"
PEOPLE = ("34610000001", "34610000002", "34610000003")
TIMEOUT = aiohttp.ClientTimeout(total=30)


@dataclass
class Live:
    """A running unit, its database, the fake gateway and an HTTP client pointed at the proxy."""

    unit: Unit
    db: Database
    gateway: FakeGateway
    http: aiohttp.ClientSession
    serial: int = 0
    answers: collections.Counter[int] = field(default_factory=collections.Counter)

    async def say(self, text: str, *, sender: str = PEOPLE[0], group: str | None = GROUP) -> int:
        """Post one chat message at /webhook through the proxy; the status."""
        self.serial += 1
        event = chat_message(text, sender=sender, group=group, message_id=f"FAULT{self.serial:08d}")
        status, _ = await self.call("POST", "/webhook", json=event)
        return status

    async def call(self, method: str, path: str, **kw: Any) -> tuple[int, Any]:
        """A request through the proxy: the status and the body (JSON decoded when it is JSON)."""
        async with self.http.request(method, self.unit.url(path), timeout=TIMEOUT, allow_redirects=False,
                                     **kw) as answer:
            raw = await answer.read()
            self.answers[answer.status] += 1
            kind = answer.headers.get("Content-Type", "")
            return answer.status, json.loads(raw) if raw and "json" in kind else raw

    async def sign_in(self, person: str = PEOPLE[0]) -> dict[str, str]:
        """A real login link spent through the proxy; the Cookie header of the new session."""
        token = await asyncio.to_thread(units.run, self.db, issue_login_token, user_id=person, now=datetime.now(UTC))
        async with self.http.get(self.unit.url("/login"), params={"token": token}, allow_redirects=False) as answer:
            assert answer.status == 303, await answer.text()
            return {"Cookie": f"tasksvc_session={answer.cookies['tasksvc_session'].value}"}

    async def counts(self) -> dict[str, int]:
        """outbound_queue rows by status."""
        return await asyncio.to_thread(queue_counts, self.db)

    async def wait_until(self, check: Callable[[], Any], within: float, what: str, every: float = 0.1) -> None:
        """Poll ``check`` (run in a thread) until it is truthy; AssertionError after ``within`` seconds."""
        deadline = time.monotonic() + within
        while not await asyncio.to_thread(check):
            if time.monotonic() > deadline:
                raise AssertionError(f"not within {within} s: {what}\n{self.unit.log()}")
            await asyncio.sleep(every)

    async def queued_at_least(self, rows: int, within: float = 20) -> None:
        """Wait until the queue holds at least ``rows`` rows, whatever their status."""
        await self.wait_until(lambda: sum(queue_counts(self.db).values()) >= rows, within, f"{rows} rows queued")

    async def drained(self, within: float) -> None:
        """Wait until no row is pending or sending."""
        def done() -> bool:
            counts = queue_counts(self.db)
            return not counts.get("pending") and not counts.get("sending")

        await self.wait_until(done, within, "the queue drains")

    def log_lines(self, needle: str) -> list[str]:
        """Lines of the unit's log containing ``needle``."""
        return [line for line in self.unit.log_path.read_text(errors="replace").splitlines() if needle in line]


def queue_counts(db: Database) -> dict[str, int]:
    """outbound_queue rows by status."""
    with db.read() as conn:
        return dict(collections.Counter(str(s) for s in conn.execute(select(schema.outbound_queue.c.status)).scalars()))


def sent_rows(db: Database) -> list[tuple[int, str, str]]:
    """(id, chat, canonical payload) of every sent row, in id order."""
    oq = schema.outbound_queue
    with db.read() as conn:
        rows = conn.execute(select(oq.c.id, oq.c.chat_id, oq.c.payload).where(oq.c.status == "sent").order_by(oq.c.id))
        return [(int(r.id), str(r.chat_id), json.dumps(wire_body(json.loads(r.payload)), sort_keys=True))
                for r in rows]


def received(gateway: FakeGateway) -> list[str]:
    """The canonical bodies of the sends the gateway accepted, in order."""
    return [json.dumps(c.body, sort_keys=True) for c in gateway.calls if c.route in ("sendText", "sendReaction")]


def assert_each_delivered_once(db: Database, gateway: FakeGateway) -> int:
    """Every sent row reached the gateway exactly once, each chat's in row order; nothing else arrived. The count."""
    rows = sent_rows(db)
    got = received(gateway)
    assert collections.Counter(got) == collections.Counter(payload for _, _, payload in rows)
    for chat in {chat for _, chat, _ in rows}:
        mine = [payload for _, c, payload in rows if c == chat]
        assert [body for body in got if body in set(mine)] == mine, f"chat {chat} out of order"
    return len(rows)


def integrity(path: Path) -> str:
    """PRAGMA integrity_check of a SQLite file ("ok" when sound)."""
    db = Database.from_url(sqlite_url(path))
    try:
        with db.read() as conn:
            return str(conn.execute(text("PRAGMA integrity_check")).scalar_one())
    finally:
        db.dispose()


@asynccontextmanager
async def live_unit(tmp: Path, *, ready: str = "/health", **env: str) -> AsyncIterator[Live]:
    """`tasksvc run` on free ports over a SQLite file in ``tmp`` (``env`` added), sending to a fake gateway on a
    fixed free port (so that a test can stop it and start it again at the same address); started once ``ready``
    answers 200 (a unit whose database takes no write answers /health 503: SPEC section 40)."""
    gateway = FakeGateway(port=free_ports(1)[0])
    await gateway.start()
    settings = unit_env(tmp, **gateway_env(gateway.url, RATE_LIMIT_PER_MIN="100000", SENDS_PER_PERSON_PER_MIN="100000",
                                          GROUP_GATING_MODE="off", **env))
    unit = await asyncio.to_thread(Unit("run", settings, tmp).start, wait_for=ready)
    db = Database.from_url(sqlite_url(Path(settings["DB_PATH"])))
    try:
        async with aiohttp.ClientSession() as http:
            yield Live(unit, db, gateway, http)
    finally:
        await asyncio.to_thread(unit.stop)
        db.dispose()
        await gateway.close()
