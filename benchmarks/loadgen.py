"""A lean HTTP/1.1 load generator for benchmarks/report.py, and the hello-world server it is compared with.

Keep-alive connections on asyncio streams, each sending its next request as soon as the previous answer is in
(closed loop). Answers framed by Content-Length and chunked ones alike are read whole, since the proxy streams
(R6: no Content-Length through it). aiohttp's own client costs more CPU per request than a hello-world server, so it
would measure itself; this one costs a fraction. Every run is a fixed list of requests under a time bound.
"""

from __future__ import annotations

import asyncio
import os
import selectors
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from benchmarks.common import stop_child

RUN_LIMIT = 180.0  # seconds any one run may take
START_TIMEOUT = 30.0
_SERVE = """
async def main():
    app = web.Application()
    app.router.add_routes([{routes}])
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    print("PORT", runner.addresses[0][1], flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await runner.cleanup()

asyncio.run(main())
"""


def aiohttp_script(handlers: str, routes: Sequence[tuple[str, str, str]]) -> str:
    """A child process's source: ``handlers`` (code defining them, with asyncio, json, sys and aiohttp's web
    imported) served at ``routes`` (method, path, handler) on a free loopback port; prints "PORT n", stops when its
    stdin closes."""
    served = ", ".join(f"web.{method.lower()}({path!r}, {handler})" for method, path, handler in routes)
    return "import asyncio, json, sys\nfrom aiohttp import web\n" + handlers + _SERVE.format(routes=served)


HELLO = aiohttp_script("""
async def hello(_):
    return web.json_response({"hello": "world"})
""", [("GET", "/api/me/tasks", "hello"), ("POST", "/webhook", "hello")])


def get(path: str, *, cookie: str = "") -> bytes:
    """A GET request, with a Cookie header when given."""
    extra = f"Cookie: {cookie}\r\n" if cookie else ""
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode()


def post_json(path: str, body: bytes, headers: Mapping[str, str] | None = None) -> bytes:
    """A POST of a JSON body, with ``headers`` besides (a webhook's signature)."""
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {len(body)}"
    extra = "".join(f"\r\n{name}: {value}" for name, value in (headers or {}).items())
    return (head + extra).encode() + b"\r\n\r\n" + body


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> int:
    """Send one request and read its whole answer (Content-Length or chunked); the status code."""
    writer.write(request)
    status = int((await reader.readline()).split(b" ", 2)[1])
    length, chunked = 0, False
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        key = name.strip().lower()
        if key == b"content-length":
            length = int(value)
        elif key == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
    if not chunked:
        await reader.readexactly(length)
        return status
    while True:
        size = int((await reader.readline()).split(b";", 1)[0], 16)
        await reader.readexactly(size + 2)  # the chunk and its CRLF; after the last (empty) one, the final CRLF
        if size == 0:
            return status


@dataclass(frozen=True)
class Run:
    """Latencies (ms) of every request and the seconds the whole run took."""

    latencies: list[float]
    seconds: float

    @property
    def rate(self) -> float:
        """Requests per second."""
        return len(self.latencies) / self.seconds


async def load(port: int, requests: Sequence[bytes], connections: int, *, expect: int = 200) -> Run:
    """Send every request over ``connections`` kept-alive connections; RuntimeError on another status."""
    latencies: list[float] = []
    pending: Iterator[bytes] = iter(requests)

    async def client() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for request in pending:
                started = time.perf_counter()
                if (status := await exchange(reader, writer, request)) != expect:
                    raise RuntimeError(f"answered {status}: {request[:80]!r}")
                latencies.append((time.perf_counter() - started) * 1000)
        finally:
            writer.close()

    started = time.perf_counter()
    async with asyncio.timeout(RUN_LIMIT):
        await asyncio.gather(*(client() for _ in range(connections)))
    return Run(latencies, time.perf_counter() - started)


def run_load(port: int, requests: Sequence[bytes], connections: int) -> Run:
    """``load`` on a fresh event loop."""
    return asyncio.run(load(port, requests, connections))


class HelloServer:
    """The hello-world aiohttp server (GET /api/me/tasks, POST /webhook) in its own process, pinned to ``cpu``."""

    command: tuple[str, ...] = ("-c", HELLO)

    def __init__(self, cpu: int | None, *arguments: str) -> None:
        pin = ["taskset", "-c", str(cpu)] if cpu is not None and shutil.which("taskset") else []
        self.process = subprocess.Popen([*pin, sys.executable, *self.command, *arguments], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        line = self._first_line()
        if not line.startswith("PORT "):
            self.stop()
            raise RuntimeError(f"{type(self).__name__} did not start: {line!r}")
        self.port = int(line.split()[1])

    def _first_line(self) -> str:
        out = self.process.stdout
        if out is None:
            return ""
        with selectors.DefaultSelector() as selector:
            selector.register(out, selectors.EVENT_READ)
            return out.readline() if selector.select(START_TIMEOUT) else ""

    def stop(self) -> None:
        """Close its stdin, wait (bounded), kill it if it lingers."""
        stop_child(self.process)


class AiohttpProxy(HelloServer):
    """The aiohttp proxy shipped before issue 20 (benchmarks/aiohttp_proxy.py) in front of the bot and web on these
    loopback ports, in its own process pinned to ``cpu``: the baseline the proxy's figures are printed beside."""

    command = ("-m", "benchmarks.aiohttp_proxy")

    def __init__(self, cpu: int | None, bot_port: str, web_port: str) -> None:
        super().__init__(cpu, f"http://127.0.0.1:{bot_port}", f"http://127.0.0.1:{web_port}")
