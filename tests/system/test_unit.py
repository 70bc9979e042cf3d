"""The whole unit as OS processes (seed R1-R6, SPEC sections 2, 7, 8, 12): routing, compression, stop and failure."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system.unit import Unit, alive, children_of, http_status, unit_env

SAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "gateway" / "inbound_connection_update_open.json"


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Unit]:
    """One `tasksvc run` shared by the read-only checks of this module."""
    tmp = tmp_path_factory.mktemp("unit")
    unit = Unit("run", unit_env(tmp), tmp).start()
    yield unit
    unit.stop()


def _request(unit: Unit, path: str, *, method: str = "GET", body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(unit.url(path), data=body, method=method, headers=headers or {})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:  # noqa: S310 - loopback
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_r1_health_answers_on_the_public_port(running: Unit) -> None:
    status, _, body = _request(running, "/health")
    assert (status, json.loads(body)) == (200, {"status": "ok"})


def test_r2_webhook_and_metrics_reach_the_bot(running: Unit) -> None:
    status, _, _ = _request(running, "/webhook", method="POST", body=SAMPLE.read_bytes(),
                               headers={"Content-Type": "application/json"})
    assert status == 200
    status, headers, metrics = _request(running, "/metrics")
    assert status == 200
    assert headers["Content-Type"].startswith("text/plain")
    assert b"allowed_groups_total_pending" in metrics


def test_r3_everything_else_reaches_the_web(running: Unit) -> None:
    status, headers, _ = _request(running, "/api/me/tasks")
    assert status == 401
    assert headers["Content-Type"].startswith("application/problem+json")
    status, headers, _ = _request(running, "/")
    assert status == 200
    assert headers["Content-Type"].startswith("text/html")


def test_r6_no_compression_headers_even_when_the_client_asks_for_gzip(running: Unit) -> None:
    for path in ("/", "/metrics", "/api/me/tasks"):
        _, headers, _ = _request(running, path, headers={"Accept-Encoding": "gzip, deflate, br"})
        lowered = {k.lower() for k in headers}
        assert not lowered & {"content-encoding", "vary", "content-length"}, path


def test_sigterm_stops_all_three_within_10_seconds(tmp_path: Path) -> None:
    unit = Unit("run", unit_env(tmp_path), tmp_path).start()
    assert unit.process is not None
    children = children_of(unit.process.pid)
    assert set(children) >= {"bot", "web", "proxy"}
    started = time.monotonic()
    code = unit.stop(timeout=12)
    elapsed = time.monotonic() - started
    assert code == 0
    assert elapsed < 10, f"stopped in {elapsed:.1f} s"
    assert not any(alive(pid) for pid in children.values())


def test_bot_web_and_proxy_are_forked_by_the_template_and_are_the_supervisor_s_children(tmp_path: Path) -> None:
    unit = Unit("run", unit_env(tmp_path), tmp_path).start()
    try:
        assert unit.process is not None
        children = children_of(unit.process.pid)
        names = {name: Path(f"/proc/{pid}/comm").read_text().strip() for name, pid in children.items()}
    finally:
        assert unit.stop() == 0
    assert names == {"bot": "tasksvc-bot", "web": "tasksvc-web", "proxy": "tasksvc-proxy"}


def test_a_killed_child_makes_the_supervisor_exit_non_zero(tmp_path: Path) -> None:
    unit = Unit("run", unit_env(tmp_path), tmp_path).start()
    assert unit.process is not None
    children = children_of(unit.process.pid)
    os.kill(children["web"], signal.SIGKILL)
    code = unit.process.wait(timeout=15)
    assert code != 0
    assert not any(alive(pid) for pid in children.values())


def test_the_proxy_gives_502_while_the_web_is_down_and_health_stays_200(tmp_path: Path) -> None:
    env = unit_env(tmp_path)
    bot = Unit("bot", env, tmp_path).start(wait_for=None)
    proxy = Unit("proxy", env, tmp_path).start()
    try:
        deadline = time.monotonic() + 30
        while http_status(proxy.url("/metrics")) != 200 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert http_status(proxy.url("/metrics")) == 200
        status, headers, body = _request(proxy, "/api/me/tasks")
        assert status == 502
        assert headers["Content-Type"].startswith("application/problem+json")
        assert json.loads(body)["status"] == 502
        assert http_status(proxy.url("/health")) == 200
    finally:
        proxy.stop()
        bot.stop()
