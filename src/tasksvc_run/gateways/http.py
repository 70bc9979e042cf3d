"""What every gateway client does over HTTP: one aiohttp ClientSession, its headers (the API key), a timeout on
every call, answers decoded as JSON, failures as one classified ``GatewayError``, and bodies read with a bound.

The key is only ever in the headers: no log line and no exception text names it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import aiohttp

from taskcore.gateway.errors import GatewayError, MediaRefused
from taskcore.queue_rules import gateway_error_text

log = logging.getLogger(__name__)
ERROR_BYTES = 64 * 1024  # of a failed answer, read for its message


class Http:
    """Requests to a gateway with its headers and timeout."""

    def __init__(self, session: aiohttp.ClientSession, *, headers: Mapping[str, str], timeout_ms: int) -> None:
        self._session = session
        self._headers = dict(headers)
        self._timeout = aiohttp.ClientTimeout(total=timeout_ms / 1000)

    async def json(self, method: str, url: str, action: str, *, body: Mapping[str, Any] | None = None,
                   query: Mapping[str, str] | None = None) -> Any:
        """The decoded answer of a 2xx; anything else raises the classified GatewayError (``action`` names the call
        in its message)."""
        try:
            async with self._session.request(method, url, json=None if body is None else dict(body), params=query,
                                             headers=self._headers, timeout=self._timeout) as response:
                text = await response.text()
                status = response.status
        except TimeoutError as exc:
            raise GatewayError(None, f"{action}: timed out", True) from exc
        except aiohttp.ClientError as exc:
            raise GatewayError(None, f"{action}: {type(exc).__name__}: {exc}", True) from exc
        return answer(action, status, text)

    async def bounded(self, method: str, url: str, action: str, *, body: Mapping[str, Any] | None = None,
                      limit: int, timeout_s: float) -> bytes:
        """A 2xx answer's bytes, at most ``limit`` (MediaRefused("too_big") as soon as it holds more, without reading
        it whole), with a longer timeout (a photo)."""
        timeout = aiohttp.ClientTimeout(total=max(self._timeout.total or 0, timeout_s))
        try:
            async with self._session.request(method, url, json=None if body is None else dict(body),
                                             headers=self._headers, timeout=timeout) as response:
                if not 200 <= response.status < 300:
                    text = (await response.content.read(ERROR_BYTES)).decode("utf-8", "replace")
                    answer(action, response.status, text)
                return await _bounded(response.content, limit)
        except TimeoutError as exc:
            raise GatewayError(None, f"{action}: timed out", True) from exc
        except aiohttp.ClientError as exc:
            raise GatewayError(None, f"{action}: {type(exc).__name__}: {exc}", True) from exc


def answer(action: str, status: int, text: str) -> Any:
    """The decoded body of a 2xx answer; any other status raises the classified GatewayError."""
    try:
        body: Any = json.loads(text) if text else None
    except ValueError:
        body = text
    if 200 <= status < 300:
        return body
    message = gateway_error_text(body) if body is not None else ""
    error = GatewayError.classified(status, f"{action}: {message}" if message else action)
    log.warning("gateway call failed", extra={"action": action, "status": status, "retryable": error.retryable})
    raise error


async def _bounded(stream: aiohttp.StreamReader, limit: int) -> bytes:
    """At most ``limit`` bytes of a body; MediaRefused("too_big") as soon as it holds more."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in stream.iter_chunked(64 * 1024):
        size += len(chunk)
        if size > limit:
            raise MediaRefused("too_big")
        chunks.append(chunk)
    return b"".join(chunks)
