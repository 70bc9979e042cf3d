"""What every gateway client does over HTTP: one aiohttp ClientSession, its headers (the API key), a timeout on
every call, answers read with a bound and decoded as JSON, and failures as one ``GatewayError``, classified by the
gateway's own rules (``Failure``: Evolution's by default).

The key is only ever in the headers: no log line and no exception text names it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

import aiohttp
from yarl import URL

from taskcore.gateway.errors import GatewayError, MediaRefused, UnreadableAnswer
from taskcore.queue_rules import gateway_error_text

log = logging.getLogger(__name__)
ERROR_BYTES = 64 * 1024  # of a failed answer, read for its message
ANSWER_BYTES = 32 * 2**20  # of any other answer (a busy number's groups with their members stay far below)
Failure = Callable[[str, int, object], GatewayError]
"""A gateway's reading of a failed answer: (the call, its status, its body decoded when JSON) to the error."""


def evolution_failure(action: str, status: int, body: object) -> GatewayError:
    """Evolution API's: the message of its error envelope, retryable as SPEC section 9 says."""
    message = gateway_error_text(body) if body is not None else ""
    return GatewayError.classified(status, f"{action}: {message}" if message else action)


class Http:
    """Requests to a gateway with its headers and timeout."""

    def __init__(self, session: aiohttp.ClientSession, *, headers: Mapping[str, str], timeout_ms: int,
                 failure: Failure = evolution_failure) -> None:
        self._session = session
        self._headers = dict(headers)
        self._timeout = aiohttp.ClientTimeout(total=timeout_ms / 1000)
        self._failure = failure

    async def json(self, method: str, url: str | URL, action: str, *, body: Mapping[str, Any] | None = None,
                   query: Mapping[str, str] | None = None) -> Any:
        """The decoded answer of a 2xx (None for an empty one); anything else raises the classified GatewayError
        (``action`` names the call in its message)."""
        try:
            async with self._session.request(method, url, json=None if body is None else dict(body), params=query,
                                             headers=self._headers, timeout=self._timeout) as response:
                if not 200 <= response.status < 300:
                    raise self._failed(action, response.status, await response.content.read(ERROR_BYTES))
                raw = await _bounded(response.content, ANSWER_BYTES, action)
        except TimeoutError as exc:
            raise GatewayError(None, f"{action}: timed out", True) from exc
        except aiohttp.ClientError as exc:
            raise GatewayError(None, f"{action}: {type(exc).__name__}: {exc}", True) from exc
        try:
            return json.loads(raw) if raw.strip() else None
        except (ValueError, RecursionError) as exc:
            raise UnreadableAnswer(f"{action}: the answer is not JSON") from exc

    async def media(self, method: str, url: str | URL, action: str, *, body: Mapping[str, Any] | None = None,
                    limit: int, timeout_s: float) -> bytes:
        """A 2xx answer's bytes, at most ``limit`` (MediaRefused("too_big") as soon as it holds more or says it
        will, without reading it whole), with a longer timeout (a photo)."""
        timeout = aiohttp.ClientTimeout(total=max(self._timeout.total or 0, timeout_s))
        try:
            async with self._session.request(method, url, json=None if body is None else dict(body),
                                             headers=self._headers, timeout=timeout) as response:
                if not 200 <= response.status < 300:
                    raise self._failed(action, response.status, await response.content.read(ERROR_BYTES))
                if response.content_length is not None and response.content_length > limit:
                    raise MediaRefused("too_big")
                return await _bounded(response.content, limit, action, media=True)
        except TimeoutError as exc:
            raise GatewayError(None, f"{action}: timed out", True) from exc
        except aiohttp.ClientError as exc:
            raise GatewayError(None, f"{action}: {type(exc).__name__}: {exc}", True) from exc

    def _failed(self, action: str, status: int, raw: bytes) -> GatewayError:
        """The classified error of a failed answer, logged once (without its body: an error may echo a message)."""
        text = raw.decode("utf-8", "replace")
        try:
            body: object = json.loads(text) if text.strip() else None
        except (ValueError, RecursionError):
            body = text
        error = self._failure(action, status, body)
        log.warning("gateway call failed", extra={"action": action, "status": status, "retryable": error.retryable})
        return error


async def _bounded(stream: aiohttp.StreamReader, limit: int, action: str, *, media: bool = False) -> bytes:
    """At most ``limit`` bytes of a body, refused as soon as it holds more: MediaRefused("too_big") for a photo,
    else UnreadableAnswer."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in stream.iter_chunked(64 * 1024):
        size += len(chunk)
        if size > limit:
            raise MediaRefused("too_big") if media else UnreadableAnswer(f"{action}: answer longer than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)
