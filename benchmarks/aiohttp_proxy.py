"""The aiohttp reverse proxy the service shipped until issue 20, kept (not shipped) as the benchmarks' baseline.

It is src/tasksvc_run/proxy/app.py and body.py as they were, in one module, so `nox -s bench` can print the old and
the new proxy's figures side by side in one run. ``python -m benchmarks.aiohttp_proxy BOT_URL WEB_URL`` serves it on
a free loopback port, prints ``PORT <n>`` and runs until its stdin closes.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web
from multidict import CIMultiDict

from taskcore.settings import Settings
from tasksvc_run.problems import problem

log = logging.getLogger(__name__)

MAX_BODY = 10 * 1024 * 1024
CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class BodyLimits:
    """How long a client may take to send its body, and how much of it is read before going upstream."""

    idle: float = 10.0  # seconds without a byte
    deadline: float = 30.0  # seconds for the whole body
    buffered: int = 64 * 1024  # bytes read whole before an upstream connection is taken


class BodyTooLarge(Exception):
    """The request body passed MAX_BODY."""


class BodyTooSlow(Exception):
    """The request body did not arrive within the limits."""


class ClientBody:
    """One request's body: ``start()`` reads up to ``buffered`` bytes and gives the whole body (bytes) or a stream
    of it. Failures while streaming are kept in ``failure`` too, since the upstream client wraps what it raises."""

    def __init__(self, request: web.Request, limits: BodyLimits) -> None:
        self.request, self.limits = request, limits
        self.failure: BodyTooLarge | BodyTooSlow | None = None
        self._ends_at = asyncio.get_running_loop().time() + limits.deadline
        self._seen = 0

    async def start(self) -> bytes | AsyncIterator[bytes] | None:
        """None without a body; the whole body when it fits ``buffered``; else a stream of it."""
        if not self.request.body_exists:
            return None
        head = bytearray()
        while len(head) <= self.limits.buffered:
            chunk = await self._read()
            if not chunk:
                return bytes(head)
            head += chunk
        return self._stream(bytes(head))

    async def _stream(self, head: bytes) -> AsyncIterator[bytes]:
        yield head
        while chunk := await self._read():
            yield chunk

    async def _read(self) -> bytes:
        """The next piece of the body (b"" at its end), within the idle and overall limits."""
        left = self._ends_at - asyncio.get_running_loop().time()
        try:
            async with asyncio.timeout(max(0.0, min(self.limits.idle, left))):
                chunk = await self.request.content.readany()
        except TimeoutError:
            self.failure = BodyTooSlow()
            raise self.failure from None
        self._seen += len(chunk)
        if self._seen > MAX_BODY:
            self.failure = BodyTooLarge()
            raise self.failure
        return chunk

HOP_BY_HOP = frozenset({
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer", "trailers",
    "transfer-encoding", "upgrade", "proxy-connection",
})
# What a client says about where it came from is not believed: the proxy says it itself (SPEC section 16).
CLIENT_ORIGIN_CLAIMS = frozenset({"forwarded", "x-real-ip"})
FORWARDED_PREFIX = "x-forwarded-"
# R6: compression is off end to end; lengths are recomputed by this hop.
DROPPED_RESPONSE = HOP_BY_HOP | {"content-encoding", "vary", "content-length"}
SESSIONS = web.AppKey("proxy_sessions", dict)
UPSTREAMS = web.AppKey("proxy_upstreams", dict)
LIMITS = web.AppKey("proxy_body_limits", BodyLimits)


@dataclass(frozen=True, slots=True)
class PoolLimits:
    """Connections each upstream may hold at once, and how long a request waits for one when its pool is full
    (at most PROXY_UPSTREAM_TIMEOUT_MS) before it gets 504."""

    sizes: Mapping[str, int] = field(default_factory=lambda: {"bot": 64, "web": 128, "dev": 16})
    wait: float = 5.0


def route(path: str, *, dev: bool = False) -> str:
    """Which upstream serves a path: "bot", "health", "dev" (development's local gateway) or "web" (R2, R3)."""
    if path == "/webhook" or path.startswith("/webhook/") or path == "/metrics":
        return "bot"
    if path == "/health":
        return "health"
    if dev and path.startswith("/dev/"):
        return "dev"
    return "web"


def upstream_headers(request: web.Request, target: str) -> CIMultiDict[str]:
    """Request headers minus hop-by-hop ones and the client's own claims of origin (X-Forwarded-*, Forwarded,
    X-Real-IP), plus X-Forwarded-For/-Proto/-Host as this proxy sees the request; the web gets identity (R6)."""
    dropped = HOP_BY_HOP | CLIENT_ORIGIN_CLAIMS | _connection_tokens(request.headers)
    headers = CIMultiDict((k, v) for k, v in request.headers.items()
                          if k.lower() not in dropped and not k.lower().startswith(FORWARDED_PREFIX))
    headers["X-Forwarded-For"] = request.remote or ""
    headers["X-Forwarded-Proto"] = request.scheme
    headers["X-Forwarded-Host"] = request.host
    if target == "web":
        headers["Accept-Encoding"] = "identity"
    return headers


def _connection_tokens(headers: Mapping[str, str]) -> frozenset[str]:
    """Header names that a Connection header marks as hop-by-hop."""
    value = headers.get("Connection")
    return frozenset(t.strip().lower() for t in value.split(",") if t.strip()) if value else frozenset()


async def health(_: web.Request) -> web.Response:
    """GET /health: always 200 (answered here, for container health checks)."""
    return web.json_response({"status": "ok"})


async def forward(request: web.Request) -> web.StreamResponse:
    """Forward one request upstream and stream the answer back."""
    target = route(request.path, dev="dev" in request.app[UPSTREAMS])
    if target == "health":
        return await health(request)
    if request.content_length is not None and request.content_length > MAX_BODY:
        return problem(413, "request bodies are limited to 10 MiB")
    return await _proxy(request, target)


async def _proxy(request: web.Request, target: str) -> web.StreamResponse:
    url = request.app[UPSTREAMS][target] + request.rel_url.raw_path_qs
    body = ClientBody(request, request.app[LIMITS])
    try:
        data = await body.start()  # before an upstream connection is taken
        async with request.app[SESSIONS][target].request(
            request.method, url, headers=upstream_headers(request, target), allow_redirects=False, data=data,
        ) as upstream:
            return await _relay(request, upstream)
    except (BodyTooLarge, BodyTooSlow, TimeoutError, aiohttp.ClientError) as exc:
        return _failed(target, body.failure or exc)


def _failed(target: str, exc: BaseException) -> web.Response:
    """The problem answer for a request that could not be forwarded (the body's own failure comes first: the
    upstream client wraps what the body stream raised)."""
    if isinstance(exc, BodyTooLarge):
        return problem(413, "request bodies are limited to 10 MiB")
    if isinstance(exc, BodyTooSlow):
        return problem(408, "the request body arrived too slowly")
    if isinstance(exc, TimeoutError):
        return problem(504, f"the {target} process did not answer in time")
    log.warning("proxy: upstream unavailable", extra={"upstream": target, "error": type(exc).__name__})
    return problem(502, f"the {target} process is not available")


async def _relay(request: web.Request, upstream: aiohttp.ClientResponse) -> web.StreamResponse:
    dropped = DROPPED_RESPONSE | _connection_tokens(upstream.headers)
    headers = CIMultiDict((k, v) for k, v in upstream.headers.items() if k.lower() not in dropped)
    response = web.StreamResponse(status=upstream.status, reason=upstream.reason, headers=headers)
    await response.prepare(request)
    try:
        async for chunk in upstream.content.iter_chunked(CHUNK):
            await response.write(chunk)
    except (aiohttp.ClientError, TimeoutError) as exc:  # headers are gone: all that is left is to cut it short
        log.warning("proxy: upstream failed mid-response", extra={"error": type(exc).__name__})
        request.transport.close() if request.transport else None
        return response
    await response.write_eof()
    return response


def _sessions_ctx(settings: Settings, pools: PoolLimits) -> Callable[[web.Application], AsyncIterator[None]]:
    async def ctx(app: web.Application) -> AsyncIterator[None]:
        upstream_timeout = settings.proxy_upstream_timeout_ms / 1000
        timeout = aiohttp.ClientTimeout(total=None, connect=min(pools.wait, upstream_timeout), sock_connect=5,
                                        sock_read=upstream_timeout)
        app[SESSIONS] = {  # one pool per upstream: a crowd at one cannot hold up the other
            name: aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=pools.sizes[name], keepalive_timeout=30, ttl_dns_cache=None),
                timeout=timeout, auto_decompress=True, skip_auto_headers=("User-Agent", "Accept-Encoding"))
            for name in app[UPSTREAMS]
        }
        yield
        for session in app[SESSIONS].values():
            await session.close()
        await asyncio.sleep(0)

    return ctx


def make_proxy_app(
    settings: Settings, *, bot_url: str | None = None, web_url: str | None = None, dev_url: str | None = None,
    body_limits: BodyLimits | None = None, pool_limits: PoolLimits | None = None,
) -> web.Application:
    """The proxy app; upstreams default to 127.0.0.1 on BOT_PORT and WEB_PORT; /dev/ goes to ``dev_url`` if given."""
    app = web.Application(client_max_size=MAX_BODY, handler_args={"max_field_size": 16384})
    app[UPSTREAMS] = {
        "bot": bot_url or f"http://127.0.0.1:{settings.bot_port}",
        "web": web_url or f"http://127.0.0.1:{settings.web_port}",
    }
    if dev_url and settings.node_env == "development":
        app[UPSTREAMS]["dev"] = dev_url
    app[LIMITS] = body_limits or BodyLimits()
    app.cleanup_ctx.append(_sessions_ctx(settings, pool_limits or PoolLimits()))
    app.router.add_route("*", "/{tail:.*}", forward)
    return app


async def _serve(bot_url: str, web_url: str) -> None:
    from taskcore.settings import load_settings  # noqa: PLC0415

    runner = web.AppRunner(make_proxy_app(load_settings({"NODE_ENV": "test"}), bot_url=bot_url, web_url=web_url),
                           access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    print(f"PORT {runner.addresses[0][1]}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent closes stdin
    await runner.cleanup()


if __name__ == "__main__":
    asyncio.run(_serve(sys.argv[1], sys.argv[2]))
