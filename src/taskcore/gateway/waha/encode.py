"""The requests the bot makes of WAHA, pure (../shared/gateway/waha/CONTRACT.md sections 1, 2 and 4): each one a
``Request`` (method, path below the base URL, JSON body, query) the shell's client sends as it is.

The bot's words go in (``port.OutboundText``, ``OutboundReaction``, ``WebhookPlan``), WAHA's forms come out: phones
as ``<digits>@c.us``, a quoted or reacted message by its serialized id, the webhook inside the session's whole
configuration (WAHA restarts the session on every change of it, so ``webhook_differences`` tells when none is
needed).
"""

from __future__ import annotations

import copy
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from taskcore.gateway.outbound import OutboundReaction, OutboundText
from taskcore.gateway.port import WebhookPlan
from taskcore.gateway.waha import read
from taskcore.gateway.waha.decode import EVENTS
from taskcore.gateway.waha.jids import GROUP_DOMAIN, domain_of, serialized_id, waha_chat

__all__ = [
    "DEFAULT_RETRIES",
    "WEBHOOK_EVENTS",
    "Request",
    "chat_message",
    "chat_messages",
    "group_participants",
    "groups",
    "lid_lookup",
    "media_url",
    "new_message_id",
    "reaction",
    "send_text",
    "session_get",
    "session_me",
    "session_update",
    "updated_config",
    "webhook_differences",
]

DEFAULT_RETRIES: Mapping[str, Any] = {"policy": "exponential", "delaySeconds": 2, "attempts": 10}
FOUND_PAGE = 50  # stored messages read per look-up of a chat (the in-doubt check wants the latest few)


@dataclass(frozen=True, slots=True)
class Request:
    """One call: ``path`` is below the base URL (``/api/...``, segments percent-encoded)."""

    method: str
    path: str
    body: Mapping[str, Any] | None = None
    query: Mapping[str, str] | None = None


def _segment(value: str) -> str:
    return quote(value, safe="")


def send_text(session: str, text: OutboundText, *, message_id: str | None = None) -> Request:
    """``POST /api/sendText``: the chat in WAHA's form, the quote by its serialized id, mentions (in a group only,
    in the form the bot chose for that group), no link preview, and the id chosen before the send when given."""
    body: dict[str, Any] = {"session": session, "chatId": waha_chat(text.chat_id), "text": text.text,
                            "linkPreview": False}
    if text.quote is not None:
        quoted = text.quote
        body["reply_to"] = serialized_id(quoted.chat_id or text.chat_id, quoted.message_id,
                                         from_me=quoted.from_me, participant=quoted.participant)
    if text.mentioned and domain_of(text.chat_id) == GROUP_DOMAIN:
        body["mentions"] = list(dict.fromkeys(waha_chat(jid) for jid in text.mentioned))
    if message_id:
        body["id"] = message_id
    return Request("POST", "/api/sendText", body)


def reaction(session: str, wanted: OutboundReaction) -> Request:
    """``PUT /api/reaction``: the reacted message by the serialized id WAHA reads its author from (``true_`` for the
    bot's own, else the author's participant part in a group); ``""`` takes the bot's reaction away."""
    message = serialized_id(wanted.chat_id, wanted.message_id, from_me=wanted.from_me,
                            participant=wanted.participant)
    return Request("PUT", "/api/reaction", {"session": session, "messageId": message, "reaction": wanted.emoji})


def server_version() -> Request:
    """``GET /api/server/version``: WAHA's version, engine and tier."""
    return Request("GET", "/api/server/version")


def session_get(session: str) -> Request:
    """``GET /api/sessions/{session}``: status, configuration (the webhooks), ``me``."""
    return Request("GET", f"/api/sessions/{_segment(session)}")


def session_me(session: str) -> Request:
    """``GET /api/sessions/{session}/me``: the bot's own account, or null before pairing."""
    return Request("GET", f"/api/sessions/{_segment(session)}/me")


def session_update(session: str, config: Mapping[str, Any] | None, plan: WebhookPlan) -> Request:
    """``PUT /api/sessions/{session}`` with the session's whole configuration, its webhook to the bot set as
    ``plan`` says (WAHA replaces the configuration and restarts the session)."""
    return Request("PUT", f"/api/sessions/{_segment(session)}", {"config": updated_config(config, plan)})


def groups(session: str, *, participants: bool = True) -> Request:
    """``GET /api/{session}/groups``: every group, with its participants unless not ``participants``
    (``exclude=participants``: a busy number's list stays small)."""
    query = None if participants else {"exclude": "participants"}
    return Request("GET", f"/api/{_segment(session)}/groups", query=query)


def group_participants(session: str, group_id: str) -> Request:
    """``GET /api/{session}/groups/{id}/participants/v2``."""
    return Request("GET", f"/api/{_segment(session)}/groups/{_segment(group_id)}/participants/v2")


def new_message_id(session: str) -> Request:
    """``GET /api/{session}/new-message-id``: an id for the next send."""
    return Request("GET", f"/api/{_segment(session)}/new-message-id")


def chat_messages(session: str, chat_id: str, *, limit: int = FOUND_PAGE) -> Request:
    """``GET /api/{session}/chats/{chatId}/messages``: the bot's own latest messages in a chat, newest first."""
    query = {"limit": str(limit), "offset": "0", "downloadMedia": "false", "filter.fromMe": "true",
             "sortBy": "timestamp", "sortOrder": "desc"}
    return Request("GET", f"/api/{_segment(session)}/chats/{_segment(waha_chat(chat_id))}/messages", query=query)


def chat_message(session: str, chat_id: str, message_id: str) -> Request:
    """``GET /api/{session}/chats/{chatId}/messages/{messageId}``: one stored message by its bare id."""
    path = f"/api/{_segment(session)}/chats/{_segment(waha_chat(chat_id))}/messages/{_segment(message_id)}"
    return Request("GET", path, query={"downloadMedia": "false"})


def lid_lookup(session: str, lid: str) -> Request:
    """``GET /api/{session}/lids/{lid}``: the phone behind a LID, when WAHA knows it."""
    return Request("GET", f"/api/{_segment(session)}/lids/{_segment(lid if '@' in lid else lid + '@lid')}")


WEBHOOK_EVENTS = tuple(name for name in EVENTS if name != "message")
"""The events the bot's webhook subscribes to: every event the decoder reads but ``message``, whose every message
``message.any`` carries too (it adds the bot's own): subscribed to both, WAHA posts each message twice, and the second
copy costs a webhook call and an inbox row before it is known by its id. A webhook that has both (set by hand) still
works: the decoder reads both the same and the inbox keeps one (docs/decisions.md)."""


def _entry(existing: Mapping[str, Any], plan: WebhookPlan) -> dict[str, Any]:
    """The bot's webhook entry: what the session had for that URL (custom headers, retries) with the URL, events
    and HMAC key the plan needs; a default retry policy when it had none."""
    entry: dict[str, Any] = {"customHeaders": None, **copy.deepcopy(dict(existing))}
    entry |= {"url": plan.url, "events": list(WEBHOOK_EVENTS),
              "hmac": {"key": plan.secret} if plan.secret else entry.get("hmac")}
    if not isinstance(entry.get("retries"), Mapping):
        entry["retries"] = dict(DEFAULT_RETRIES)
    return entry


def updated_config(config: Mapping[str, Any] | None, plan: WebhookPlan) -> dict[str, Any]:
    """The session's configuration with the bot's webhook as ``plan`` says: everything else kept, other webhooks
    (to other URLs) kept, the bot's one entry in place of any it had."""
    kept = copy.deepcopy(dict(config)) if isinstance(config, Mapping) else {}
    hooks = [hook for hook in read.items(kept, "webhooks") if isinstance(hook, Mapping)]
    ours = next((hook for hook in hooks if hook.get("url") == plan.url), {})
    kept["webhooks"] = [*(hook for hook in hooks if hook.get("url") != plan.url), _entry(ours, plan)]
    return kept


def webhook_differences(config: Mapping[str, Any] | None, plan: WebhookPlan) -> tuple[str, ...]:
    """What keeps the session from calling the bot as ``plan`` says (``()``: nothing): ``webhook`` when it has no
    single webhook to the plan's URL, ``events`` when that one misses an event the bot needs (``*`` has them all),
    ``secret`` when it is not signed with the plan's key. Other settings are the operator's."""
    ours = [hook for hook in read.items(config, "webhooks") if read.at(hook, "url") == plan.url]
    if len(ours) != 1:
        return ("webhook",)
    differed = []
    events = {name for name in read.items(ours[0], "events") if isinstance(name, str)}
    if "*" not in events and not set(WEBHOOK_EVENTS) <= events:
        differed.append("events")
    key = read.string(ours[0], "hmac", "key") or ""
    if plan.secret is not None and not hmac.compare_digest(key.encode("utf-8", "surrogateescape"),
                                                           plan.secret.encode("utf-8", "surrogateescape")):
        differed.append("secret")
    return tuple(differed)


def media_url(base_url: str, media: str) -> str | None:
    """Where to fetch a photo's ``media.url`` with the API key: that URL when it is on the gateway's own origin, else
    its path and query on the gateway's base URL (WAHA writes the URL from ``WAHA_BASE_URL``, which the bot may not
    reach; and the key must never go to another host). None for anything that is no URL or path."""
    target, base = urlsplit(media.strip()), urlsplit(base_url.strip())
    if not target.path.startswith("/") or (target.scheme and target.scheme not in ("http", "https")):
        return None
    if (target.scheme, target.netloc.lower()) == (base.scheme, base.netloc.lower()):
        return media.strip()
    prefix = base.path.rstrip("/")
    path = target.path if prefix and target.path.startswith(prefix + "/") else prefix + target.path
    return urlunsplit((base.scheme, base.netloc, path, target.query, ""))
