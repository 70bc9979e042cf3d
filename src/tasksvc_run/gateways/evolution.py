"""The Evolution API v2 client (../shared/gateway/CONTRACT.md section 4): ``taskcore.gateway.port.Gateway`` over one
aiohttp ClientSession, with the ``apikey`` header and a timeout on every call.

Requests are encoded and answers read by the pure adapter (``taskcore.gateway.evolution``); every failure is one
``GatewayError``. The API key goes only into the request header: it never appears in a log line or an exception.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from urllib.parse import quote

import aiohttp

from taskcore.gateway import diagnostics as dx
from taskcore.gateway.errors import GatewayError, MediaRefused
from taskcore.gateway.events import SentMessage
from taskcore.gateway.evolution import answers, diagnose, encode
from taskcore.gateway.outbound import OutboundReaction, OutboundText
from taskcore.gateway.port import GatewayGroup, GatewayParticipant, OwnIds, WebhookOutcome, WebhookPlan
from taskcore.settings import Settings
from tasksvc_run.gateways.http import Http

T = TypeVar("T")
MEDIA_TIMEOUT_S = 60.0  # fetching a photo: the gateway downloads it from WhatsApp first (and retries once after 5 s)


class EvolutionGateway:
    """Calls of CONTRACT.md section 4 against GATEWAY_API_URL for GATEWAY_API_INSTANCE."""

    name = "evolution"

    def __init__(self, session: aiohttp.ClientSession, *, base_url: str, instance: str, api_key: str,
                 timeout_ms: int) -> None:
        self._base = base_url.rstrip("/")
        self._name = instance
        self._instance = quote(instance, safe="")
        self._http = Http(session, headers={"apikey": api_key}, timeout_ms=timeout_ms)

    @classmethod
    def from_settings(cls, session: aiohttp.ClientSession, settings: Settings) -> EvolutionGateway:
        """A client for the configured gateway (GATEWAY_API_URL, _INSTANCE, _KEY, GATEWAY_TIMEOUT_MS)."""
        if not settings.gateway_api_url:
            raise ValueError("GATEWAY_API_URL is not set")
        key = settings.gateway_api_key.get_secret_value() if settings.gateway_api_key else ""
        return cls(session, base_url=settings.gateway_api_url, instance=settings.gateway_api_instance or "",
                   api_key=key, timeout_ms=settings.gateway_timeout_ms)

    def _url(self, action: str) -> str:
        return f"{self._base}/{action}/{self._instance}"

    async def _call(self, method: str, action: str, *, body: Mapping[str, Any] | None = None,
                    query: Mapping[str, str] | None = None) -> Any:
        return await self._http.json(method, self._url(action), action, body=body, query=query)

    async def send_text(self, text: OutboundText, *, message_id: str | None = None) -> str | None:
        """POST /message/sendText; the message id (``key.id``) of the 201 answer (Evolution chooses it itself)."""
        return answers.message_id(await self._call("POST", "message/sendText", body=encode.text_body(text)))

    async def react(self, reaction: OutboundReaction) -> str | None:
        """POST /message/sendReaction; the id of the reaction."""
        return answers.message_id(await self._call("POST", "message/sendReaction",
                                                   body=encode.reaction_body(reaction)))

    async def ensure_webhook(self, plan: WebhookPlan, *, force: bool = False) -> WebhookOutcome:
        """GET /webhook/find, judged against ``plan`` (SPEC section 26); POST /webhook/set when something differs,
        it cannot be read, or ``force``."""
        differed: tuple[str, ...] | None = None
        if not force:
            try:
                row = await self._call("GET", "webhook/find")
            except GatewayError:
                row = differed = None
            else:
                checks = diagnose.webhook_checks(row, expected_url=plan.url, secret=plan.secret,
                                           events=encode.WEBHOOK_EVENTS)
                differed = tuple(check.name for check in checks if check.blocking)
                if not differed:
                    return WebhookOutcome(changed=False, differed=())
        await self._call("POST", "webhook/set", body=encode.webhook_body(plan))
        return WebhookOutcome(changed=True, differed=differed)

    async def list_groups(self, *, participants: bool = False) -> list[GatewayGroup]:
        """GET /group/fetchAllGroups."""
        query = {"getParticipants": "true" if participants else "false"}
        return answers.parse_groups_answer(await self._call("GET", "group/fetchAllGroups", query=query))

    async def group_participants(self, group_id: str) -> tuple[GatewayParticipant, ...]:
        """GET /group/participants for one group."""
        answer = await self._call("GET", "group/participants", query={"groupJid": group_id})
        return answers.parse_participants_answer(answer)

    async def connection_state(self) -> str | None:
        """GET /instance/connectionState: open, connecting, close or refused (None when unreadable)."""
        return answers.connection_state(await self._call("GET", "instance/connectionState"))

    async def own_ids(self) -> OwnIds:
        """GET /instance/fetchInstances?instanceName=: the instance's own number (``ownerJid``)."""
        answer = await self._http.json("GET", f"{self._base}/instance/fetchInstances", "fetchInstances",
                                       query={"instanceName": self._name})
        return answers.own_ids(answer, self._name)

    async def find_sent(self, chat_id: str, *, message_id: str | None = None) -> list[SentMessage]:
        """POST /chat/findMessages: what the instance sent to ``chat_id`` (that message, by id), newest first."""
        key: dict[str, Any] = {"remoteJid": chat_id, "fromMe": True}
        if message_id is not None:
            key["id"] = message_id
        answer = await self._call("POST", "chat/findMessages", body={"where": {"key": key}, "offset": 50, "page": 1})
        return answers.found_messages(answer)

    async def fetch_media(self, media: str, *, max_bytes: int) -> bytes:
        """POST /chat/getBase64FromMediaMessage with the photo's message as received (``{key, message}``) and
        ``convertToMp4`` false (CONTRACT §3): its bytes, at most ``max_bytes``; the answer is read only up to what
        such bytes need (MediaRefused("too_big") past it, without reading it whole)."""
        try:
            message = json.loads(media)
        except ValueError as exc:
            raise MediaRefused("unreadable") from exc
        if not isinstance(message, dict):
            raise MediaRefused("unreadable")
        body = {"message": message, "convertToMp4": False}
        raw = await self._http.media("POST", self._url("chat/getBase64FromMediaMessage"),
                                       "chat/getBase64FromMediaMessage", body=body,
                                       limit=answers.answer_limit(max_bytes), timeout_s=MEDIA_TIMEOUT_S)
        return answers.decode_media_answer(raw, max_bytes=max_bytes)

    async def new_message_id(self) -> str | None:
        """None: Evolution chooses a message's id itself."""
        return None

    async def checks(self, plan: WebhookPlan) -> list[dx.Check]:
        """What ``tasksvc doctor`` says of it: the version, the connection, ``groupsIgnore`` and the webhook, judged
        against ``plan`` (its URL "" when the bot does not manage it)."""
        try:
            info: Any = await self._http.json("GET", f"{self._base}/", "info")
        except GatewayError as exc:
            if exc.status is None or exc.status == 503:
                return [diagnose.failed_call_check("gateway", exc.status, exc.message_text, instance=self._name)]
            info = None
        found = [diagnose.version_check(info)]
        try:
            found.append(diagnose.connection_check(await self.connection_state()))
        except GatewayError as exc:
            return [*found, diagnose.failed_call_check("instance", exc.status, exc.message_text, instance=self._name)]
        found.append(await self._judged("groupsIgnore", "settings/find", diagnose.settings_check))
        try:
            row = await self._call("GET", "webhook/find")
        except GatewayError as exc:
            return [*found, diagnose.failed_call_check("webhook", exc.status, exc.message_text, instance=self._name)]
        return found + diagnose.webhook_checks(row, expected_url=plan.url or None, secret=plan.secret,
                                         events=encode.WEBHOOK_EVENTS)

    async def _judged(self, name: str, route: str, judge: Callable[[Any], dx.Check]) -> dx.Check:
        try:
            return judge(await self._call("GET", route))
        except GatewayError as exc:
            return diagnose.failed_call_check(name, exc.status, exc.message_text, instance=self._name)
