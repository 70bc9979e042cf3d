"""Shared pieces of the proxy tests: the proxy on a loopback port in front of given upstreams, an aiohttp client of
it that releases what it was given, and raw HTTP/1.1 exchanges on a socket (for framing the clients hide)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
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
