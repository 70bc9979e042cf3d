"""The fake WAHA's wire (../shared/gateway/waha/CONTRACT.md sections 3-5), stdlib only: body checks and the shapes
of its answers and records, as the samples show them.

Each ``check_*`` returns None for a body WAHA accepts, else ``(status, body)`` of its error answer. The checks are
stricter than WAHA where a looser body would hide a bug of the bot (an unknown key, a ``@s.whatsapp.net`` chat).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from typing import Any

Problem = tuple[int, dict[str, Any]]
VERSION = {"version": "2026.7.1", "engine": "GOWS", "tier": "CORE", "browser": None, "platform": "linux/x64",
           "worker": {"id": None}}
KNOWN_EVENTS = frozenset({
    "session.status", "message", "message.any", "message.reaction", "message.ack", "message.ack.group",
    "message.edited", "message.revoked", "message.waiting", "chat.archive", "group.v2.join", "group.v2.leave",
    "group.v2.participants", "group.v2.update", "group.join", "group.leave", "presence.update", "poll.vote",
    "poll.vote.failed", "call.received", "call.accepted", "call.rejected", "label.upsert", "label.deleted",
    "label.chat.added", "label.chat.deleted", "event.response", "event.response.failed", "engine.event", "*"})
ACK_NAMES = {-1: "ERROR", 0: "PENDING", 1: "SERVER", 2: "DEVICE", 3: "READ", 4: "PLAYED"}
RECEIPT_TYPES = {2: "", 3: "read", 4: "played", -1: "server-error"}
_SEND_KEYS = frozenset({"session", "chatId", "text", "reply_to", "mentions", "linkPreview", "linkPreviewHighQuality",
                        "id"})
_RETRY_POLICIES = frozenset({"constant", "linear", "exponential"})


def message_id() -> str:
    """A fresh bare id in WhatsApp's form (``3EB0`` and 18 hex digits)."""
    return "3EB0" + secrets.token_hex(9).upper()


def event_id() -> str:
    """A fresh envelope id (``evt_`` and 26 lower-case characters, like a ULID)."""
    return "evt_" + secrets.token_hex(13)


def iso(seconds: float) -> str:
    """RFC 3339 in UTC, as whatsmeow's timestamps."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def raw_jid(jid: str) -> str:
    """A WAHA JID as whatsmeow writes it inside ``_data`` (``@c.us`` is ``@s.whatsapp.net`` there)."""
    return jid.replace("@c.us", "@s.whatsapp.net")


def waha_jid(jid: str) -> str:
    """A JID in WAHA's top-level form (``@s.whatsapp.net`` is ``@c.us`` there; a ``:device`` suffix goes)."""
    user, _, domain = jid.partition("@")
    user = user.partition(":")[0]
    return f"{user}@{'c.us' if domain == 's.whatsapp.net' else domain}" if domain else jid


def bad_request(*messages: str) -> Problem:
    """A class-validator 400."""
    return 400, {"message": list(messages), "error": "Bad Request", "statusCode": 400}


def unauthorized() -> dict[str, Any]:
    """The 401 of a missing or wrong ``X-Api-Key``."""
    return {"message": "Unauthorized", "statusCode": 401}


def session_not_found(name: str) -> dict[str, Any]:
    """The 404 of an unknown or stopped session."""
    return {"message": f"We didn't find a session with name '{name}'.\nPlease start it first by using POST "
                       f"/api/sessions/{name}/start request", "error": "Not Found", "statusCode": 404}


def session_not_working(name: str, status: str) -> dict[str, Any]:
    """The 422 of a session that is not ``WORKING``."""
    return {"error": "Session status is not as expected. Try again later or restart the session", "session": name,
            "status": status, "expected": ["WORKING"]}


def engine_error(message: str, request: Mapping[str, Any], code: int = 2) -> dict[str, Any]:
    """A 500 of the engine (a gRPC error): WAHA echoes the request in it."""
    details = message.partition(": ")[2] or message
    return {"statusCode": 500, "timestamp": iso(time.time()), "exception": {
        "message": message, "code": code, "details": details, "metadata": {}, "name": "Error"},
        "request": dict(request), "version": VERSION}


def not_found(message: str) -> dict[str, Any]:
    """A NestJS 404."""
    return {"message": message, "error": "Not Found", "statusCode": 404}


def file_gone() -> dict[str, Any]:
    """The 404 of a media file deleted or never kept."""
    return {"error": {"code": 404, "key": "FILE_NOT_FOUND", "message": "File not found",
                      "details": "File not found or no longer available"}}


def _chat_problem(chat: object) -> Problem | None:
    if not isinstance(chat, str) or not chat:
        return bad_request("chatId must be a string")
    user, _, domain = chat.partition("@")
    if domain not in ("c.us", "lid", "g.us") or not user.replace("-", "").isdigit():
        return bad_request(f"chatId must be <digits>@c.us, <lid>@lid or <group>@g.us, not '{chat}'")
    return None


def _mentions_problem(mentions: object, chat: str) -> Problem | None:
    if not isinstance(mentions, list) or not all(isinstance(m, str) for m in mentions):
        return bad_request("mentions must be an array of strings")
    if "all" in mentions and not chat.endswith("@g.us"):
        return 422, {"message": f"\"mentions\":[\"all\"] can be used only in group chats, not in '{chat}'",
                     "error": "Unprocessable Entity", "statusCode": 422}
    wrong = [m for m in mentions if m != "all" and _chat_problem(m) is not None]
    return bad_request(f"mentions must be <digits>@c.us or <lid>@lid, not {wrong}") if wrong else None


def check_send_text(body: object) -> Problem | None:
    """sendText: ``chatId`` and ``text`` strings, optional ``reply_to``, ``mentions``, ``linkPreview``, ``id``."""
    if not isinstance(body, Mapping):
        return bad_request("body must be an object")
    extra = sorted(set(body) - _SEND_KEYS)
    if extra:
        return bad_request(*(f"property {name} should not exist" for name in extra))
    problem = _chat_problem(body.get("chatId"))
    if problem or not isinstance(body.get("text"), str):
        return problem or bad_request("text must be a string")
    kinds = {"reply_to": (str, "a string"), "linkPreview": (bool, "a boolean value"), "id": (str, "a string")}
    wrong = [f"{name} must be {said}" for name, (kind, said) in kinds.items()
             if body.get(name) is not None and not isinstance(body[name], kind)]
    if wrong:
        return bad_request(*wrong)
    return None if body.get("mentions") is None else _mentions_problem(body["mentions"], body["chatId"])


def check_reaction(body: object) -> Problem | None:
    """reaction: ``messageId`` the full serialized id (else the engine's 500), ``reaction`` a string."""
    if not isinstance(body, Mapping) or not isinstance(body.get("messageId"), str):
        return bad_request("messageId must be a string")
    if not isinstance(body.get("reaction"), str):
        return bad_request("reaction must be a string")
    if len(body["messageId"].split("_")) not in (3, 4):
        message = "Message id be in format false_11111111111@c.us_AAAAAAAAAAAAAAAAAAAA[_participant]"
        return 500, engine_error(message, {"path": "/api/reaction", "method": "PUT", "body": dict(body)}) | {
            "exception": {"message": message, "name": "Error"}}
    return None


def _hook_problem(hook: object) -> Problem | None:
    if not isinstance(hook, Mapping) or not isinstance(hook.get("url"), str) or not hook["url"]:
        return bad_request("config.webhooks.url must be a URL")
    events = hook.get("events")
    if not isinstance(events, list) or not all(isinstance(e, str) and e in KNOWN_EVENTS for e in events):
        return bad_request(f"config.webhooks.events must hold WAHA's event names, not {events!r}")
    hmac = hook.get("hmac")
    if hmac is not None and not (isinstance(hmac, Mapping) and isinstance(hmac.get("key"), str | None)):
        return bad_request("config.webhooks.hmac.key must be a string")
    retries = hook.get("retries")
    if retries is not None and not (isinstance(retries, Mapping) and retries.get("policy") in _RETRY_POLICIES
                                    and isinstance(retries.get("delaySeconds"), int)
                                    and isinstance(retries.get("attempts"), int)):
        return bad_request("config.webhooks.retries must be {policy, delaySeconds, attempts}")
    headers = hook.get("customHeaders")
    if headers is not None and not (isinstance(headers, list) and all(
            isinstance(h, Mapping) and isinstance(h.get("name"), str) and isinstance(h.get("value"), str)
            for h in headers)):
        return bad_request("config.webhooks.customHeaders must be [{name, value}]")
    return None


def check_session_update(body: object) -> Problem | None:
    """``PUT /api/sessions/{session}``: ``{config}`` with well-formed webhooks."""
    config = body.get("config") if isinstance(body, Mapping) else None
    if not isinstance(config, Mapping):
        return bad_request("config must be an object")
    hooks = config.get("webhooks", [])
    if not isinstance(hooks, list):
        return bad_request("config.webhooks must be an array")
    return next((problem for problem in map(_hook_problem, hooks) if problem is not None), None)


def group_participants_v2(group: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``participants/v2`` of one GroupInfo: ``{id, pn, role}``, ids in WAHA's forms, ``pn`` empty when hidden."""
    found = []
    for member in group.get("Participants") or []:
        jid = str(member.get("JID", "")).replace("@s.whatsapp.net", "@c.us")
        phone = str(member.get("PhoneNumber") or "").replace("@s.whatsapp.net", "@c.us")
        role = "superadmin" if member.get("IsSuperAdmin") else "admin" if member.get("IsAdmin") else "participant"
        found.append({"id": jid, "pn": phone, "role": role})
    return found
