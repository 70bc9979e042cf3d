"""Shared pieces of the proxy tests: the proxy on a loopback port in front of given upstreams, an aiohttp client of
it that releases what it was given, and raw HTTP/1.1 exchanges on a socket (for framing the clients hide)."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from taskcore.settings import load_settings
from tasksvc_run.proxy.app import Proxy, make_proxy

TIMEOUT = 10.0


@contextlib.asynccontextmanager
async def proxy_at(bot_url: str, web_url: str, **options: Any) -> AsyncIterator[Proxy]:
    """The proxy on a free loopback port (``options``: settings variables in upper case, make_proxy's keyword
    arguments in lower case), closed after."""
    env = {"NODE_ENV": "test", **{k: v for k, v in options.items() if k.isupper()}}
    proxy = make_proxy(load_settings(env), bot_url=bot_url, web_url=web_url,
                       **{k: v for k, v in options.items() if not k.isupper()})
    proxy.port = await proxy.start("127.0.0.1", 0)  # type: ignore[attr-defined]
    try:
        yield proxy
    finally:
        await proxy.close(grace=1.0)


class ProxyClient:
    """An aiohttp session on the proxy's base URL that releases every response it gave when closed."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.session = aiohttp.ClientSession(base_url=f"http://127.0.0.1:{port}")
        self.responses: list[aiohttp.ClientResponse] = []

    async def request(self, method: str, path: str, **kw: Any) -> aiohttp.ClientResponse:
        """One request; the response (its body is read by the caller, or released at the end)."""
        response = await self.session.request(method, path, **kw)
        self.responses.append(response)
        return response

    async def get(self, path: str, **kw: Any) -> aiohttp.ClientResponse:
        return await self.request("GET", path, **kw)

    async def post(self, path: str, **kw: Any) -> aiohttp.ClientResponse:
        return await self.request("POST", path, **kw)

    async def patch(self, path: str, **kw: Any) -> aiohttp.ClientResponse:
        return await self.request("PATCH", path, **kw)

    async def close(self) -> None:
        """Release every response and close the session."""
        for response in self.responses:
            response.release()
        await self.session.close()


@dataclass
class Answer:
    """One response read off the wire: status, headers (lower-case names, last value) and the body, de-chunked."""

    status: int
    headers: dict[str, str]
    body: bytes


async def raw_exchange(port: int, data: bytes, *, responses: int = 1, eof: bool = False,
                       heads: frozenset[int] = frozenset()) -> list[Answer]:
    """Send ``data`` as it is; the answers read until ``responses`` are whole or the proxy closes (bounded).
    ``heads``: the positions of the answers to HEAD requests."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        if eof:
            writer.write_eof()
        received = b""
        async with asyncio.timeout(TIMEOUT):
            while len(parse_answers(received, heads=heads)) < responses:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                received += chunk
        return parse_answers(received, heads=heads)
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


def parse_answers(data: bytes, *, heads: frozenset[int] = frozenset()) -> list[Answer]:
    """The whole final responses at the start of ``data`` (1xx skipped; a body without framing runs to the end;
    ``heads``: the positions of the answers to HEAD requests, which have no body)."""
    answers, rest = [], data
    while (end := rest.find(b"\r\n\r\n")) >= 0:
        lines = rest[:end].split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        headers = {name.strip().lower().decode(): value.strip().decode("latin-1")
                   for name, _, value in (line.partition(b":") for line in lines[1:])}
        rest = rest[end + 4:]
        body = b""
        if status < 200:
            continue
        if len(answers) in heads or status in (204, 304):
            pass
        elif headers.get("transfer-encoding") == "chunked":
            while True:
                line_end = rest.find(b"\r\n")
                if line_end < 0:
                    return answers
                size = int(rest[:line_end].split(b";", 1)[0], 16)
                if len(rest) < line_end + 2 + size + 2:
                    return answers
                body += rest[line_end + 2:line_end + 2 + size]
                rest = rest[line_end + 4 + size:]
                if size == 0:
                    break
        elif "content-length" in headers:
            length = int(headers["content-length"])
            if len(rest) < length:
                return answers
            body, rest = rest[:length], rest[length:]
        else:
            body, rest = rest, b""
        answers.append(Answer(status, headers, body))
    return answers


# --- a scripted upstream ----------------------------------------------------------------------------------------------


def ok(body: bytes, *extra: bytes) -> bytes:
    """A 200 framed by Content-Length."""
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n%s\r\n%s" % (len(body), b"".join(h + b"\r\n" for h in extra),
                                                                   body)


SCRIPTS: dict[bytes, bytes] = {
    b"/chunked": (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Kind: chunked\r\n\r\n"
                  b"5\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n"),
    b"/no-content": b"HTTP/1.1 204 No Content\r\nX-Kind: empty\r\n\r\n",
    b"/not-modified": b"HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 99\r\n\r\n",
    b"/interim": b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n" + ok(b"final"),
    b"/brotli": ok(b"\x0b\x02\x80hola\x03", b"Content-Encoding: br"),
    b"/garbage": b"NOT HTTP AT ALL\r\n\r\n",
    b"/cut": b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly a part",
    b"/until-close": b"HTTP/1.0 200 OK\r\nX-Kind: eof\r\n\r\nto the end",
    b"/big": ok(b"b" * 20_000_000),
    b"/gzip": ok(gzip.compress(b"hola " * 1000), b"Content-Encoding: gzip", b"Vary: Accept-Encoding"),
}
CLOSE_AFTER = {b"/cut", b"/until-close", b"/garbage"}


@dataclass
class Scripted:
    """A loopback HTTP/1.1 upstream: each request (Content-Length bodies) is recorded with the client port it came
    from and answered with SCRIPTS[path], or else an echo of it as JSON; ``/hang-up`` closes without an answer."""

    seen: list[dict[str, object]] = field(default_factory=list)
    hang_up_reused: bool = False  # close a kept-alive connection at its second request without answering
    server: asyncio.Server | None = None
    writers: set[asyncio.StreamWriter] = field(default_factory=set)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            for writer in list(self.writers):
                writer.close()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            await self.server.wait_closed()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        port, served = writer.get_extra_info("peername")[1], 0
        self.writers.add(writer)
        task = asyncio.current_task()
        if task is not None:
            self.tasks.add(task)  # type: ignore[arg-type]
        try:
            while head := await reader.readuntil(b"\r\n\r\n"):
                lines = head[:-4].split(b"\r\n")
                method, target, _ = lines[0].split(b" ")
                headers = [(n.decode(), v.strip().decode("latin-1"))
                           for n, _, v in (h.partition(b":") for h in lines[1:])]
                length = next((int(v) for n, v in headers if n.lower() == "content-length"), 0)
                if target == b"/sip":  # slow to take a large body
                    await asyncio.sleep(0.5)
                body = await reader.readexactly(length)
                self.seen.append({"method": method, "target": target, "headers": headers, "body": body, "port": port})
                served += 1
                if target == b"/slow":
                    await asyncio.sleep(0.5)
                if target == b"/stall":  # half an answer, then nothing
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf")
                    await asyncio.sleep(3)
                    break
                if target == b"/hang-up" or (self.hang_up_reused and served > 1):
                    break
                answer = SCRIPTS.get(target) or ok(json.dumps({"target": target.decode(), "size": len(body)}).encode())
                writer.write(answer)
                await writer.drain()
                if target in CLOSE_AFTER:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.writers.discard(writer)
            writer.close()


Setup = tuple[Proxy, Scripted]


@contextlib.asynccontextmanager
async def scripted(**options: object) -> AsyncIterator[Setup]:
    """The proxy in front of a Scripted upstream (as bot and as web); ``options`` as for ``proxy_at``."""
    upstream = Scripted()
    url = await upstream.start()
    try:
        async with proxy_at(url, url, **options) as proxy:
            yield proxy, upstream
    finally:
        await upstream.close()


def get(path: bytes, *headers: bytes, version: bytes = b"1.1", method: bytes = b"GET") -> bytes:
    """A request head (GET unless ``method``) with a Host header and ``headers``."""
    return method + b" " + path + b" HTTP/" + version + b"\r\nHost: tasks.test\r\n" + b"".join(
        h + b"\r\n" for h in headers) + b"\r\n"
