"""WAHA's HTTP client (../shared/gateway/waha/CONTRACT.md section 4): ``taskcore.gateway.port.Gateway`` over one
aiohttp ClientSession, the ``X-Api-Key`` header, GATEWAY_TIMEOUT_MS on every call.

Requests and answers are ``taskcore.gateway.waha`` (pure); this module only sends them and reads the bodies with
bounds. Every failure is the project's ``GatewayError``, classified by ``waha.errors`` (a send WhatsApp refused
with 463 is permanent, its text says "unreachable in private"). The API key goes only into the request header of
calls to GATEWAY_API_URL's own address: never into a log line, an error text, or a request to another host.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import aiohttp
from yarl import URL

from taskcore.gateway.client import GatewayError
from taskcore.gateway.events import Identity, SentMessage
from taskcore.gateway.media import MediaRefused
from taskcore.gateway.port import (
    Gateway,
    GatewayGroup,
    GatewayParticipant,
    OutboundReaction,
    OutboundText,
    OwnIds,
    WebhookPlan,
)
from taskcore.gateway.waha import answers, encode, errors
from taskcore.gateway.waha.encode import Request
from taskcore.settings import Settings

log = logging.getLogger(__name__)
T = TypeVar("T")
ANSWER_LIMIT = 32 * 2**20  # bytes of an answer read at most (a groups list of a busy number stays far below)
ERROR_LIMIT = 64 * 1024  # bytes of a failed answer read for its message
DEFAULT_SESSION = "default"  # WAHA's session when GATEWAY_API_INSTANCE names none


class _TooBig(Exception):
    """An answer longer than it may be."""


class WahaGateway:
    """The bot's calls to one WAHA session (GATEWAY_API_INSTANCE) at GATEWAY_API_URL."""

    name = "waha"

    def __init__(self, http: aiohttp.ClientSession, *, base_url: str, session: str, api_key: str,
                 timeout_ms: int) -> None:
        self._http = http
        self._base = base_url.rstrip("/")
        self._session = session
        self._headers = {"X-Api-Key": api_key}
        self._timeout = aiohttp.ClientTimeout(total=timeout_ms / 1000)

    @classmethod
    def from_settings(cls, http: aiohttp.ClientSession, settings: Settings) -> WahaGateway:
        """A client of the configured WAHA (GATEWAY_API_URL, _INSTANCE as the session, _KEY, GATEWAY_TIMEOUT_MS)."""
        if not settings.gateway_api_url:
            raise ValueError("GATEWAY_API_URL is not set")
        key = settings.gateway_api_key.get_secret_value() if settings.gateway_api_key else ""
        return cls(http, base_url=settings.gateway_api_url, session=settings.gateway_api_instance or DEFAULT_SESSION,
                   api_key=key, timeout_ms=settings.gateway_timeout_ms)

    async def send_text(self, text: OutboundText, *, message_id: str | None = None) -> str | None:
        """``POST /api/sendText`` (with the id chosen before the send, when given); the bare id WAHA answers."""
        return answers.sent_id(await self._call(encode.send_text(self._session, text, message_id=message_id),
                                                "sendText"))

    async def react(self, reaction: OutboundReaction) -> str | None:
        """``PUT /api/reaction``; the bare id of the reaction message."""
        return answers.sent_id(await self._call(encode.reaction(self._session, reaction), "reaction"))

    async def ensure_webhook(self, plan: WebhookPlan, *, force: bool = False) -> bool:
        """Read the session's configuration and, when its webhook to the bot differs from ``plan`` (or ``force``),
        write the whole configuration back with it: WAHA restarts the session on that, so never without need.
        Whether it was written."""
        current = answers.session_config(await self._call(encode.session_get(self._session), "session"))
        if not force and encode.webhook_matches(current, plan):
            return False
        await self._call(encode.session_update(self._session, current, plan), "session update")
        log.info("waha: session webhook set", extra={"forced": force, "events": len(encode.webhook_events(plan))})
        return True

    async def list_groups(self) -> list[GatewayGroup]:
        """``GET /api/{session}/groups``: every group with its participants."""
        return _parsed(answers.groups_of, await self._call(encode.groups(self._session), "groups"))

    async def group_participants(self, group_id: str) -> tuple[GatewayParticipant, ...]:
        """``GET /api/{session}/groups/{id}/participants/v2``."""
        answer = await self._call(encode.group_participants(self._session, group_id), "participants")
        return _parsed(answers.participants_of, answer)

    async def connection_state(self) -> str | None:
        """The session's status as ``open``, ``connecting`` or ``close`` (None for a status WAHA added since)."""
        return answers.session_state(await self._call(encode.session_get(self._session), "session"))

    async def own_ids(self) -> OwnIds:
        """``GET /api/sessions/{session}/me``: the bot's phone and LID (none before pairing)."""
        return answers.own_ids_of(await self._call(encode.session_me(self._session), "me"))

    async def find_sent(self, chat_id: str, *, message_id: str | None = None) -> list[SentMessage]:
        """The bot's latest messages in ``chat_id`` as WAHA's store keeps them, or the one with ``message_id``
        (``[]`` when the store does not have it)."""
        if message_id is None:
            answer = await self._call(encode.chat_messages(self._session, chat_id), "chat messages")
            return _parsed(answers.sent_messages, answer)
        try:
            answer = await self._call(encode.chat_message(self._session, chat_id, message_id), "chat message")
        except GatewayError as exc:
            if _not_found(exc):
                return []
            raise
        return [] if answer is None else _parsed(answers.sent_messages, answer)

    async def new_message_id(self) -> str | None:
        """``GET /api/{session}/new-message-id`` (WAHA 2026.4.3 and later); None from a WAHA without it."""
        try:
            return answers.new_message_id_of(await self._call(encode.new_message_id(self._session), "new-message-id"))
        except GatewayError as exc:
            if exc.status == 404:
                return None
            raise

    async def lookup_lid(self, lid: str) -> Identity:
        """``GET /api/{session}/lids/{lid}``: the LID and, when WAHA knows it, its phone."""
        return answers.lid_pair(await self._call(encode.lid_lookup(self._session, lid), "lids"))

    async def fetch_media(self, media: str, *, max_bytes: int) -> bytes:
        """A photo's bytes from the URL the decoder kept, fetched on the gateway's own address with the key (WAHA
        deletes the file 180 s after the message by default): MediaRefused ``too_big`` past ``max_bytes`` (not read
        whole), ``unreadable`` for no URL; a failed call GatewayError."""
        url = encode.media_url(self._base, media) if media else None
        if url is None:
            raise MediaRefused("unreadable")
        try:
            async with self._http.get(URL(url, encoded=True), headers=self._headers,
                                      timeout=self._timeout) as response:
                if not 200 <= response.status < 300:
                    raise _failed("media", response.status, await _error_body(response))
                if response.content_length is not None and response.content_length > max_bytes:
                    raise MediaRefused("too_big")
                return await _bounded(response.content, max_bytes)
        except _TooBig as exc:
            raise MediaRefused("too_big") from exc
        except TimeoutError as exc:
            raise GatewayError(None, "media: timed out", True) from exc
        except aiohttp.ClientError as exc:
            raise GatewayError(None, f"media: {type(exc).__name__}", True) from exc

    async def _call(self, request: Request, action: str) -> Any:
        """Send one request; its decoded JSON answer (None for an empty one), or the classified GatewayError."""
        url = URL(self._base + request.path, encoded=True)
        try:
            async with self._http.request(
                request.method, url, json=None if request.body is None else dict(request.body),
                params=dict(request.query) if request.query else None, headers=self._headers, timeout=self._timeout,
            ) as response:
                if not 200 <= response.status < 300:
                    raise _failed(action, response.status, await _error_body(response))
                raw = await _bounded(response.content, ANSWER_LIMIT)
        except _TooBig as exc:
            raise GatewayError(None, f"{action}: answer longer than {ANSWER_LIMIT} bytes", False) from exc
        except TimeoutError as exc:
            raise GatewayError(None, f"{action}: timed out", True) from exc
        except aiohttp.ClientError as exc:
            raise GatewayError(None, f"{action}: {type(exc).__name__}: {exc}", True) from exc
        try:
            return json.loads(raw) if raw.strip() else None
        except (ValueError, RecursionError) as exc:
            raise GatewayError(None, f"{action}: the answer is not JSON", False) from exc


def _failed(action: str, status: int, body: object) -> GatewayError:
    """The GatewayError of a failed answer, logged once (without its body: a 500 echoes the message's text)."""
    failure = errors.classify(status, body, action=action)
    log.warning("waha: call failed", extra={"action": action, "status": status, "retryable": failure.retryable,
                                            "code": failure.code})
    return GatewayError(failure.status, failure.text, failure.retryable)


async def _error_body(response: aiohttp.ClientResponse) -> object:
    """A failed answer's body, decoded when it is JSON, bounded."""
    text = (await response.content.read(ERROR_LIMIT)).decode("utf-8", "replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


async def _bounded(stream: aiohttp.StreamReader, limit: int) -> bytes:
    """At most ``limit`` bytes of a body; _TooBig as soon as it holds more."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in stream.iter_chunked(64 * 1024):
        size += len(chunk)
        if size > limit:
            raise _TooBig
        chunks.append(chunk)
    return b"".join(chunks)


def _not_found(error: GatewayError) -> bool:
    """A look-up of a message WAHA's store does not hold: 404, or the engine's NOT_FOUND in a 500."""
    text = error.message_text.lower()
    return error.status == 404 or (error.status == 500 and ("not found" in text or "not_found" in text))


def _parsed(read: Callable[[Any], T], answer: Any) -> T:
    try:
        return read(answer)
    except ValueError as exc:
        raise GatewayError(None, str(exc), False) from exc


def as_port(gateway: WahaGateway) -> Gateway:
    """The client as the port's ``Gateway`` (the type checker proves it is one)."""
    return gateway
