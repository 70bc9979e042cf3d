"""A streaming reverse proxy: /webhook and /metrics to the bot, /health here, everything else to the web.

Per-request work is kept small (PERFORMANCE.md): one pooled client session, headers filtered in one pass, bodies
streamed both ways without buffering.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Mapping

import aiohttp
from aiohttp import web
from multidict import CIMultiDict

from taskcore.settings import Settings
from tasksvc_run.problems import problem

log = logging.getLogger(__name__)

MAX_BODY = 10 * 1024 * 1024
HOP_BY_HOP = frozenset({
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer", "trailers",
    "transfer-encoding", "upgrade", "proxy-connection",
})
# R6: compression is off end to end; lengths are recomputed by this hop.
DROPPED_RESPONSE = HOP_BY_HOP | {"content-encoding", "vary", "content-length"}
SESSION = web.AppKey("proxy_session", aiohttp.ClientSession)
UPSTREAMS = web.AppKey("proxy_upstreams", dict)
CHUNK = 64 * 1024


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
    """Request headers minus hop-by-hop ones, plus X-Forwarded-*; the web is asked for identity encoding (R6)."""
    dropped = HOP_BY_HOP | _connection_tokens(request.headers)
    headers = CIMultiDict((k, v) for k, v in request.headers.items() if k.lower() not in dropped)
    peer = request.remote or ""
    prior = request.headers.get("X-Forwarded-For")
    headers["X-Forwarded-For"] = f"{prior}, {peer}" if prior else peer
    headers["X-Forwarded-Proto"] = request.headers.get("X-Forwarded-Proto", request.scheme)
    headers["X-Forwarded-Host"] = request.headers.get("X-Forwarded-Host", request.host)
    if target == "web":
        headers["Accept-Encoding"] = "identity"
    return headers


def _connection_tokens(headers: Mapping[str, str]) -> frozenset[str]:
    """Header names that a Connection header marks as hop-by-hop."""
    value = headers.get("Connection")
    return frozenset(t.strip().lower() for t in value.split(",") if t.strip()) if value else frozenset()


class BodyTooLarge(Exception):
    """The request body passed MAX_BODY while streaming."""


class _LimitedBody:
    """Streams the request body upstream and stops past MAX_BODY (the client wraps the error, so it is noted)."""

    def __init__(self, request: web.Request) -> None:
        self.request = request
        self.exceeded = False

    async def chunks(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self.request.content.iter_chunked(CHUNK):
            seen += len(chunk)
            if seen > MAX_BODY:
                self.exceeded = True
                raise BodyTooLarge
            yield chunk


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
    body = _LimitedBody(request)
    try:
        async with request.app[SESSION].request(
            request.method, url, headers=upstream_headers(request, target), allow_redirects=False,
            data=body.chunks() if request.body_exists else None,
        ) as upstream:
            return await _relay(request, upstream)
    except BodyTooLarge:
        return problem(413, "request bodies are limited to 10 MiB")
    except TimeoutError:
        return problem(504, f"the {target} process did not answer in time")
    except aiohttp.ClientError as exc:
        if body.exceeded:
            return problem(413, "request bodies are limited to 10 MiB")
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


def _session_ctx(settings: Settings) -> Callable[[web.Application], AsyncIterator[None]]:
    async def ctx(app: web.Application) -> AsyncIterator[None]:
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=5, sock_read=settings.proxy_upstream_timeout_ms / 1000)
        connector = aiohttp.TCPConnector(limit=256, keepalive_timeout=30, ttl_dns_cache=None)
        app[SESSION] = aiohttp.ClientSession(connector=connector, timeout=timeout, auto_decompress=True,
                                             skip_auto_headers=("User-Agent", "Accept-Encoding"))
        yield
        await app[SESSION].close()
        await asyncio.sleep(0)

    return ctx


def make_proxy_app(
    settings: Settings, *, bot_url: str | None = None, web_url: str | None = None, dev_url: str | None = None
) -> web.Application:
    """The proxy app; upstreams default to 127.0.0.1 on BOT_PORT and WEB_PORT; /dev/ goes to ``dev_url`` if given."""
    app = web.Application(client_max_size=MAX_BODY, handler_args={"max_field_size": 16384})
    app[UPSTREAMS] = {
        "bot": bot_url or f"http://127.0.0.1:{settings.bot_port}",
        "web": web_url or f"http://127.0.0.1:{settings.web_port}",
    }
    if dev_url and settings.node_env == "development":
        app[UPSTREAMS]["dev"] = dev_url
    app.cleanup_ctx.append(_session_ctx(settings))
    app.router.add_route("*", "/{tail:.*}", forward)
    return app
