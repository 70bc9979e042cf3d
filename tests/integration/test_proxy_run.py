"""`tasksvc proxy` in this process: it serves on HOST:PORT, answers /health, and stops on SIGTERM (the supervisor's
signal), returning 0 (R1, SPEC section 7)."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time

import uvloop

from taskcore.settings import load_settings
from tasksvc_run.proxy.app import new_loop, run_proxy


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def health_answer(port: int, within: float) -> bytes:
    """The first bytes of GET /health's answer once the port opens (b"" if it never does within ``within``)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                sock.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
                return sock.recv(4096)
        except OSError:
            time.sleep(0.05)
    return b""


def test_the_proxy_command_serves_until_sigterm() -> None:
    port = free_port()
    settings = load_settings({"NODE_ENV": "test", "HOST": "127.0.0.1", "PORT": str(port)})
    seen: list[bytes] = []
    running = threading.Event()
    running.set()

    def check_then_stop() -> None:
        seen.append(health_answer(port, within=20))
        if seen[0] and running.is_set():  # the port is open, so the signal handlers are in place
            os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=check_then_stop)
    thread.start()
    try:
        assert run_proxy(settings) == 0
    finally:
        running.clear()
        thread.join(30)
    assert seen[0].startswith(b"HTTP/1.1 200 OK")
    assert seen[0].endswith(b'{"status":"ok"}')


def test_the_proxy_command_runs_on_uvloops_loop() -> None:
    loop = new_loop()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()
