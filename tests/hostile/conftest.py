"""One real unit (`tasksvc run`, three processes behind the proxy) shared by the hostile-input tests, and the
blocking clients they use: raw bytes on a socket, http.client, and real login links.
"""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from taskcore.services.web_auth import issue_login_token
from taskcore.storage.db import Database, sqlite_url
from tasksvc_run import units
from tests.system.unit import Unit, chat_message, unit_env, unit_pids

TIMEOUT = 10.0
ME = "34611000001"
GROUP = "120363911000000001@g.us"


@dataclass
class Answer:
    """Status, headers (last value per lower-cased name, plus every Set-Cookie) and body of one response."""

    status: int
    headers: dict[str, str]
    cookies: list[str]
    body: bytes

    def json(self) -> Any:
        """The body decoded as JSON."""
        return json.loads(self.body)


@dataclass
class Running:
    """The unit, its database, and the processes' ids at the start (to tell that none was replaced)."""

    unit: Unit
    db: Database
    pids: dict[str, int]
    serial: int = 0

    def raw(self, request: bytes, *, timeout: float = TIMEOUT) -> int:
        """Send bytes as they are; the status of the answer (0: the connection closed without one)."""
        with socket.create_connection(("127.0.0.1", self.unit.port), timeout=timeout) as sock:
            sock.sendall(request)
            received = b""
            while b"\r\n" not in received:
                try:
                    chunk = sock.recv(65536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                received += chunk
        head = received.split(b"\r\n", 1)[0].split()
        return int(head[1]) if len(head) >= 2 and head[0].startswith(b"HTTP/") and head[1].isdigit() else 0

    def request(self, method: str, path: str, *, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        """One request through the proxy with http.client (which sends the path as given)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.unit.port, timeout=TIMEOUT)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                          [v for k, v in response.getheaders() if k.lower() == "set-cookie"], response.read())
        finally:
            conn.close()

    def login(self, user: str = ME, *, cookie: str | None = None) -> Answer:
        """Spend a fresh login link of ``user`` through the proxy (optionally sending ``cookie`` along)."""
        token = units.run(self.db, issue_login_token, user_id=user, now=datetime.now(UTC))
        return self.request("GET", f"/login?token={token}", headers={"Cookie": cookie} if cookie else {})

    def cookie(self, user: str = ME) -> str:
        """A Cookie header value carrying a new session of ``user``."""
        answer = self.login(user)
        assert answer.status == 303, answer
        return answer.cookies[0].split(";", 1)[0]

    def say(self, text: str, *, sender: str = ME, group: str | None = GROUP, push_name: str | None = None) -> int:
        """A chat message at /webhook through the proxy; the status."""
        self.serial += 1
        event = chat_message(text, sender=sender, group=group, message_id=f"HOSTILE{self.serial:08d}",
                             push_name=push_name)
        return self.request("POST", "/webhook", body=json.dumps(event).encode(),
                            headers={"Content-Type": "application/json"}).status

    def still_running(self) -> bool:
        """The same four processes are alive and the proxy answers /health."""
        return unit_pids(self.unit) == self.pids and self.request("GET", "/health").status == 200


@pytest.fixture(scope="package")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """`tasksvc run` on free ports over a fresh SQLite file, rate limits out of the way."""
    yield from run_unit(Path(tmp_path_factory.mktemp("hostile")), RATE_LIMIT_PER_MIN="1000000",
                        GROUP_GATING_MODE="off")


def run_unit(tmp: Path, **env: str) -> Iterator[Running]:
    """A started `tasksvc run` over a fresh SQLite file in ``tmp`` (``env`` on top of the defaults), stopped after."""
    unit = Unit("run", unit_env(tmp, **env), tmp).start()
    db = Database.from_url(sqlite_url(Path(unit.env["DB_PATH"])))
    try:
        yield Running(unit, db, unit_pids(unit))
    finally:
        unit.stop()
        db.dispose()


@pytest.fixture(scope="package")
def marked(running: Running) -> str:
    """The hostile group, person and tasks of tests/hostile/markup.py in place; the cookie of a session of ME."""
    from tests.hostile.markup import mark_up  # noqa: PLC0415 - markup.py imports this module

    return mark_up(running)
