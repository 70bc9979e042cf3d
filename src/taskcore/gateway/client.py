"""The gateway client (Evolution API v2): one aiohttp ClientSession, the ``apikey`` header, a timeout on every call.

Every failure is one ``GatewayError`` classified by ``taskcore.queue_rules.classify_gateway_error``. The API key goes
only into the request header: it never appears in a log line or an exception text.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import quote

import aiohttp

from taskcore.errors import TaskcoreError
from taskcore.gateway.media import MediaRefused, answer_limit, decode_media_answer
from taskcore.gateway.wire import (
    GatewayGroup,
    GatewayParticipant,
    connection_state,
    parse_groups_answer,
    parse_participants_answer,
)
from taskcore.queue_rules import FailureKind, classify_gateway_error, gateway_error_text
from taskcore.settings import Settings

log = logging.getLogger(__name__)
T = TypeVar("T")
MEDIA_TIMEOUT_S = 60.0  # fetching a photo: the gateway downloads it from WhatsApp first (and retries once after 5 s)
_ERROR_BYTES = 64 * 1024  # of a failed answer, read for its message


class GatewayError(TaskcoreError):
    """A failed gateway call: HTTP status (None for timeouts and connection errors), the message, retryable or not."""

    def __init__(self, status: int | None, message_text: str, retryable: bool) -> None:
        super().__init__(f"gateway {'error' if status is None else status}: {message_text}")
        self.status = status
        self.message_text = message_text
        self.retryable = retryable

    @classmethod
    def classified(cls, status: int | None, message_text: str) -> GatewayError:
        """An error whose retryability follows SPEC section 9."""
        kind = classify_gateway_error(status, message_text)
        return cls(status, message_text, kind is FailureKind.RETRY)

    @property
    def kind(self) -> FailureKind:
        """RETRY or PERMANENT."""
        return FailureKind.RETRY if self.retryable else FailureKind.PERMANENT


class GatewayClient:
    """Calls of CONTRACT.md section 4 against GATEWAY_API_URL for GATEWAY_API_INSTANCE."""

    def __init__(
        self, session: aiohttp.ClientSession, *, base_url: str, instance: str, api_key: str, timeout_ms: int
    ) -> None:
        self._session = session
        self._base = base_url.rstrip("/")
        self._name = instance
        self._instance = quote(instance, safe="")
        self._headers = {"apikey": api_key}
        self._timeout = aiohttp.ClientTimeout(total=timeout_ms / 1000)

    @classmethod
    def from_settings(cls, session: aiohttp.ClientSession, settings: Settings) -> GatewayClient:
        """A client for the configured gateway (GATEWAY_API_URL, _INSTANCE, _KEY, GATEWAY_TIMEOUT_MS)."""
        if not settings.gateway_api_url:
            raise ValueError("GATEWAY_API_URL is not set")
        key = settings.gateway_api_key.get_secret_value() if settings.gateway_api_key else ""
        return cls(session, base_url=settings.gateway_api_url, instance=settings.gateway_api_instance or "",
                   api_key=key, timeout_ms=settings.gateway_timeout_ms)

    async def send_text(self, body: Mapping[str, Any]) -> str | None:
        """POST /message/sendText; the gateway's message id (``key.id``) of the 201 answer."""
        return _message_id(await self._call("POST", "message/sendText", body=body))

    async def send_reaction(self, body: Mapping[str, Any]) -> str | None:
        """POST /message/sendReaction; the gateway's message id of the reaction."""
        return _message_id(await self._call("POST", "message/sendReaction", body=body))

    async def fetch_all_groups(self, *, get_participants: bool) -> list[GatewayGroup]:
        """GET /group/fetchAllGroups, parsed."""
        query = {"getParticipants": "true" if get_participants else "false"}
        answer = await self._call("GET", "group/fetchAllGroups", query=query)
        return _parsed(parse_groups_answer, answer)

    async def group_participants(self, group_jid: str) -> tuple[GatewayParticipant, ...]:
        """GET /group/participants for one group, parsed."""
        answer = await self._call("GET", "group/participants", query={"groupJid": group_jid})
        return _parsed(parse_participants_answer, answer)

    async def set_webhook(
        self, url: str, *, events: Sequence[str], headers: Mapping[str, str] | None = None
    ) -> dict[str, Any]:
        """POST /webhook/set with the body nested under ``webhook`` and ``events`` always present."""
        webhook: dict[str, Any] = {"enabled": True, "url": url, "events": list(events), "byEvents": False,
                                   "base64": False}
        if headers:
            webhook["headers"] = dict(headers)
        answer = await self._call("POST", "webhook/set", body={"webhook": webhook})
        return answer if isinstance(answer, dict) else {}

    async def connection_state(self) -> str | None:
        """GET /instance/connectionState: open, connecting, close or refused (None when unreadable)."""
        return connection_state(await self._call("GET", "instance/connectionState"))

    async def find_settings(self) -> Any:
        """GET /settings/find: the instance's settings row (``groupsIgnore`` ...), or None when it has none."""
        return await self._call("GET", "settings/find")

    async def find_webhook(self) -> Any:
        """GET /webhook/find: the stored webhook row (url, enabled, events, headers ...), or None when none is set."""
        return await self._call("GET", "webhook/find")

    async def fetch_instances(self) -> Any:
        """GET /instance/fetchInstances?instanceName=: the instance's rows (``ownerJid``: its own number)."""
        url = f"{self._base}/instance/fetchInstances"
        return await self._request("GET", url, "fetchInstances", query={"instanceName": self._name})

    async def find_messages(self, remote_jid: str, *, message_id: str | None = None, page_size: int = 50) -> Any:
        """POST /chat/findMessages: the messages the instance sent to ``remote_jid`` (one of them by id), newest
        first."""
        key: dict[str, Any] = {"remoteJid": remote_jid, "fromMe": True}
        if message_id is not None:
            key["id"] = message_id
        return await self._call("POST", "chat/findMessages", body={"where": {"key": key}, "offset": page_size,
                                                                      "page": 1})

    async def media_bytes(self, message: Mapping[str, Any], *, max_bytes: int) -> bytes:
        """POST /chat/getBase64FromMediaMessage with the whole message as received (``{key, message}``) and
        ``convertToMp4`` false (CONTRACT §3): the media's bytes, at most ``max_bytes``. The answer is read only up to
        what such bytes need (``media.answer_limit``): a larger one raises MediaRefused("too_big") without being
        read whole; an unreadable one MediaRefused("unreadable"); a failed call GatewayError."""
        action = "chat/getBase64FromMediaMessage"
        url = f"{self._base}/{action}/{self._instance}"
        body = {"message": dict(message), "convertToMp4": False}
        limit = answer_limit(max_bytes)
        timeout = aiohttp.ClientTimeout(total=max(self._timeout.total or 0, MEDIA_TIMEOUT_S))
        try:
            async with self._session.post(url, json=body, headers=self._headers, timeout=timeout) as response:
                if not 200 <= response.status < 300:
                    _answer(action, response.status, (await response.content.read(_ERROR_BYTES)).decode(
                        "utf-8", "replace"))
                raw = await _bounded(response.content, limit)
        except TimeoutError as exc:
            raise GatewayError(None, f"{action}: timed out", True) from exc
        except aiohttp.ClientError as exc:
            raise GatewayError(None, f"{action}: {type(exc).__name__}: {exc}", True) from exc
        return decode_media_answer(raw, max_bytes=max_bytes)

    async def server_info(self) -> Any:
        """GET / (no instance): ``{status, message, version, ...}``; ``version`` where the gateway reports one."""
        return await self._request("GET", f"{self._base}/", "info")

    async def _call(
        self, method: str, action: str, *, body: Mapping[str, Any] | None = None,
        query: Mapping[str, str] | None = None,
    ) -> Any:
        return await self._request(method, f"{self._base}/{action}/{self._instance}", action, body=body, query=query)

    async def _request(
        self, method: str, url: str, action: str, *, body: Mapping[str, Any] | None = None,
        query: Mapping[str, str] | None = None,
    ) -> Any:
        try:
            async with self._session.request(
                method, url, json=None if body is None else dict(body), params=query,
                headers=self._headers, timeout=self._timeout,
            ) as response:
                text = await response.text()
                status = response.status
        except TimeoutError as exc:
            raise GatewayError(None, f"{action}: timed out", True) from exc
        except aiohttp.ClientError as exc:
            raise GatewayError(None, f"{action}: {type(exc).__name__}: {exc}", True) from exc
        return _answer(action, status, text)


def _answer(action: str, status: int, text: str) -> Any:
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


def _message_id(answer: Any) -> str | None:
    key = answer.get("key") if isinstance(answer, Mapping) else None
    ident = key.get("id") if isinstance(key, Mapping) else None
    return ident if isinstance(ident, str) else None


def _parsed(parse: Callable[[Any], T], answer: Any) -> T:
    try:
        return parse(answer)
    except ValueError as exc:
        raise GatewayError(None, str(exc), False) from exc

