"""WAHA's HTTP client (../shared/gateway/waha/CONTRACT.md section 4): ``taskcore.gateway.port.Gateway`` over one
aiohttp ClientSession (``gateways.http.Http``: the ``X-Api-Key`` header, GATEWAY_TIMEOUT_MS on every call, answers
read with a bound).

Requests and answers are ``taskcore.gateway.waha`` (pure); this module only sends them. Every failure is one
``GatewayError`` classified by ``waha.errors`` (a send WhatsApp refused with 463 is permanent and ``unreachable``).
The API key goes only into the request header of calls to GATEWAY_API_URL's own address: never into a log line, an
error text, or a request to another host.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
from yarl import URL

from taskcore.gateway import diagnostics as dx
from taskcore.gateway.errors import GatewayError, MediaRefused
from taskcore.gateway.events import Identity, SentMessage
from taskcore.gateway.outbound import OutboundReaction, OutboundText
from taskcore.gateway.port import GatewayGroup, GatewayParticipant, OwnIds, WebhookOutcome, WebhookPlan
from taskcore.gateway.waha import answers, diagnose, encode, errors
from taskcore.gateway.waha.encode import Request
from taskcore.settings import Settings
from tasksvc_run.gateways.http import Http

log = logging.getLogger(__name__)
DEFAULT_SESSION = "default"  # WAHA's session when GATEWAY_API_INSTANCE names none
MEDIA_TIMEOUT_S = 60.0  # fetching a photo from WAHA's files


def waha_failure(action: str, status: int, body: object) -> GatewayError:
    """WAHA's reading of a failed answer (``waha.errors.classify``) as the port's error."""
    failure = errors.classify(status, body, action=action)
    return GatewayError(failure.status, failure.text, failure.retryable, unreachable=failure.unreachable)


class WahaGateway:
    """The bot's calls to one WAHA session (GATEWAY_API_INSTANCE) at GATEWAY_API_URL."""

    name = "waha"

    def __init__(self, http: aiohttp.ClientSession, *, base_url: str, session: str, api_key: str,
                 timeout_ms: int) -> None:
        self._base = base_url.rstrip("/")
        self._session = session
        self._http = Http(http, headers={"X-Api-Key": api_key}, timeout_ms=timeout_ms, failure=waha_failure)

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

    async def ensure_webhook(self, plan: WebhookPlan, *, force: bool = False) -> WebhookOutcome:
        """Read the session's configuration and, when its webhook to the bot differs from ``plan`` (or ``force``),
        write the whole configuration back with it: WAHA restarts the session on that, so never without need."""
        current = answers.session_config(await self._call(encode.session_get(self._session), "session"))
        differed = encode.webhook_differences(current, plan)
        if not differed and not force:
            return WebhookOutcome(changed=False, differed=())
        await self._call(encode.session_update(self._session, current, plan), "session update")
        return WebhookOutcome(changed=True, differed=differed or None)

    async def list_groups(self, *, participants: bool = False) -> list[GatewayGroup]:
        """``GET /api/{session}/groups``: every group, with its participants when asked."""
        return answers.groups_of(await self._call(encode.groups(self._session, participants=participants),
                                                  "groups"))

    async def group_participants(self, group_id: str) -> tuple[GatewayParticipant, ...]:
        """``GET /api/{session}/groups/{id}/participants/v2``."""
        return answers.participants_of(await self._call(encode.group_participants(self._session, group_id),
                                                        "participants"))

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
            return answers.sent_messages(answer)
        try:
            answer = await self._call(encode.chat_message(self._session, chat_id, message_id), "chat message")
        except GatewayError as exc:
            if _not_found(exc):
                return []
            raise
        return [] if answer is None else answers.sent_messages(answer)

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
        return await self._http.media("GET", URL(url, encoded=True), "media", limit=max_bytes,
                                      timeout_s=MEDIA_TIMEOUT_S)

    async def checks(self, plan: WebhookPlan) -> list[dx.Check]:
        """What ``tasksvc doctor`` says of it: the version and engine, the session's status, ``ignore.groups`` and
        the webhook, judged against ``plan`` (its URL "" when the bot does not manage it)."""
        try:
            version: Any = await self._call(encode.server_version(), "server/version")
        except GatewayError as exc:
            if exc.status is None or exc.status in (401, 403):
                return [diagnose.failed_call_check("gateway", exc.status, exc.message_text, session=self._session)]
            version = None
        found = [diagnose.version_check(version)]
        try:
            session = await self._call(encode.session_get(self._session), "session")
        except GatewayError as exc:
            return [*found, diagnose.failed_call_check("session", exc.status, exc.message_text, session=self._session)]
        config = answers.session_config(session)
        return [*found, diagnose.session_check(session), diagnose.ignore_check(config),
                *diagnose.webhook_checks(config, plan)]

    async def _call(self, request: Request, action: str) -> Any:
        """Send one request; its decoded JSON answer (None for an empty one), or the classified GatewayError."""
        return await self._http.json(request.method, URL(self._base + request.path, encoded=True), action,
                                     body=request.body, query=request.query)


def _not_found(error: GatewayError) -> bool:
    """A look-up of a message WAHA's store does not hold: 404, or the engine's NOT_FOUND in a 500."""
    text = error.message_text.lower()
    return error.status == 404 or (error.status == 500 and ("not found" in text or "not_found" in text))
