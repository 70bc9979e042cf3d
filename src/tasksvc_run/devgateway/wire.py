"""The local gateway's wire rules: body checks and answer shapes of ../shared/gateway/CONTRACT.md (stdlib only).

Each ``check_*`` returns None for a body the real gateway accepts, else ``(status, messages)`` of its error answer.
"""

from __future__ import annotations

import copy
import secrets
import time
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

INSTANCE_ID = "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
WEBHOOK_EVENTS = frozenset({
    "APPLICATION_STARTUP", "QRCODE_UPDATED", "MESSAGES_SET", "MESSAGES_UPSERT", "MESSAGES_EDITED", "MESSAGES_UPDATE",
    "MESSAGES_DELETE", "SEND_MESSAGE", "CONTACTS_SET", "CONTACTS_UPSERT", "CONTACTS_UPDATE", "PRESENCE_UPDATE",
    "CHATS_SET", "CHATS_UPSERT", "CHATS_UPDATE", "CHATS_DELETE", "GROUPS_UPSERT", "GROUP_UPDATE",
    "GROUP_PARTICIPANTS_UPDATE", "CONNECTION_UPDATE", "LABELS_EDIT", "LABELS_ASSOCIATION", "CALL", "TYPEBOT_START",
    "TYPEBOT_CHANGE_STATUS",
})
REACTION_ERROR = "Reaction must be a single emoji or empty string"
_JOINERS = {"\u200d", "\ufe0f", "\ufe0e", "\u20e3"}
Problem = tuple[int, list[Any]]


def error_body(status: int, messages: object) -> dict[str, Any]:
    """The gateway's error envelope ``{status, error, response: {message}}``."""
    reasons = {400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 500: "Internal Server Error"}
    return {"status": status, "error": reasons.get(status, "Error"), "response": {"message": messages}}


def message_id() -> str:
    """A fresh id in the gateway's form (``3EB0`` and 18 hex digits)."""
    return "3EB0" + secrets.token_hex(9).upper()


def _requires(path: str, name: str) -> Problem:
    return 400, [f'{path} requires property "{name}"']


def _missing(body: Mapping[str, Any], path: str, fields: Mapping[str, type | tuple[type, ...]]) -> Problem | None:
    for name, kind in fields.items():
        value = body.get(name)
        if not isinstance(value, kind):
            return _requires(path, name)
    return None


def is_single_emoji(text: str) -> bool:
    """One emoji (with its modifiers, joiners and variation selectors), as sendReaction demands."""
    if not text or any(ch.isascii() and (ch.isalnum() or ch.isspace()) for ch in text):
        return False
    bases, joined = 0, False
    for ch in text:
        if ch in _JOINERS or "\U0001f3fb" <= ch <= "\U0001f3ff" or "\U000e0020" <= ch <= "\U000e007f":
            joined = joined or ch == "\u200d"
            continue
        if unicodedata.category(ch) not in ("So", "Sk", "Cn"):
            return False
        bases += 0 if joined else 1
        joined = False
    flags = sum("\U0001f1e6" <= ch <= "\U0001f1ff" for ch in text)
    return bases == 1 or (flags == 2 and bases == 2)


def check_send_text(body: object) -> Problem | None:
    """sendText: flat body, ``number`` and non-blank ``text``; ``quoted.key.id``; ``mentioned`` digit-led strings."""
    if not isinstance(body, Mapping):
        return 400, ["instance is not of a type(s) object"]
    problem = _missing(body, "instance", {"number": str, "text": str})
    if problem or not body["text"].strip():
        return problem or (400, ["Text is required"])
    quoted = body.get("quoted")
    if quoted is not None:
        key = quoted.get("key") if isinstance(quoted, Mapping) else None
        if not isinstance(key, Mapping) or not isinstance(key.get("id"), str):
            return _requires("instance.quoted.key", "id")
    mentioned = body.get("mentioned")
    if mentioned is not None and (
        not isinstance(mentioned, list) or len(set(map(str, mentioned))) != len(mentioned)
        or not all(isinstance(m, str) and m[:1].isdigit() for m in mentioned)
    ):
        return 400, ["instance.mentioned must be unique strings starting with a digit"]
    if "mentionsEveryOne" in body and not isinstance(body["mentionsEveryOne"], bool):
        return 400, ["instance.mentionsEveryOne is not of a type(s) boolean"]
    return None


def check_send_reaction(body: object) -> Problem | None:
    """sendReaction: ``key`` with remoteJid, fromMe and id; ``reaction`` one emoji or ``""``."""
    if not isinstance(body, Mapping):
        return 400, ["instance is not of a type(s) object"]
    key = body.get("key")
    if not isinstance(key, Mapping):
        return _requires("instance", "key")
    problem = _missing(key, "instance.key", {"remoteJid": str, "fromMe": bool, "id": str})
    if problem:
        return problem
    reaction = body.get("reaction")
    if not isinstance(reaction, str):
        return _requires("instance", "reaction")
    return None if reaction == "" or is_single_emoji(reaction) else (400, [REACTION_ERROR])


def check_webhook_set(body: object) -> Problem | None:
    """webhook/set: body nested under ``webhook``; ``enabled`` and ``url`` required; ``events`` always sent."""
    webhook = body.get("webhook") if isinstance(body, Mapping) else None
    if not isinstance(webhook, Mapping):
        return _requires("instance", "webhook")
    problem = _missing(webhook, "instance.webhook", {"enabled": bool, "url": str})
    if problem:
        return problem
    events = webhook.get("events")
    if events is None:
        return 500, ["TypeError: Cannot read properties of undefined (reading 'length')"]
    if not isinstance(events, list) or not all(e in WEBHOOK_EVENTS for e in events):
        return 400, ["instance.webhook.events[0] is not one of enum values"]
    headers = webhook.get("headers", {})
    if not isinstance(headers, Mapping) or not all(isinstance(v, str) for v in headers.values()):
        return 400, ["instance.webhook.headers is not of a type(s) object"]
    return None


def _sent_shape(remote_jid: str, message: dict[str, Any], message_type: str) -> dict[str, Any]:
    return {
        "key": {"remoteJid": remote_jid, "fromMe": True, "id": message_id()},
        "pushName": "Você", "status": "PENDING", "message": message, "messageType": message_type,
        "messageTimestamp": int(time.time()), "instanceId": INSTANCE_ID, "source": "web",
    }


def send_text_answer(body: Mapping[str, Any]) -> dict[str, Any]:
    """The 201 answer of sendText (the sample's shape, a fresh ``key.id``)."""
    number = body["number"]
    jid = number if "@" in number else f"{''.join(ch for ch in number if ch.isdigit())}@s.whatsapp.net"
    answer = _sent_shape(jid, {"conversation": body["text"]}, "conversation")
    context: dict[str, Any] = {}
    if body.get("mentioned"):
        context["mentionedJid"] = list(body["mentioned"])
    if body.get("quoted"):
        quoted = body["quoted"]
        context |= {"stanzaId": quoted["key"]["id"], "participant": quoted["key"].get("participant"),
                    "quotedMessage": quoted.get("message", {})}
    if context:
        answer["contextInfo"] = context
    return answer


def send_reaction_answer(body: Mapping[str, Any]) -> dict[str, Any]:
    """The 201 answer of sendReaction."""
    key = dict(body["key"])
    return _sent_shape(key["remoteJid"], {"reactionMessage": {"key": key, "text": body["reaction"]}},
                       "reactionMessage")


def webhook_answer(webhook: Mapping[str, Any]) -> dict[str, Any]:
    """The 201 answer of webhook/set: the stored row."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    return {
        "id": "cm" + secrets.token_hex(12), "url": webhook["url"], "headers": dict(webhook.get("headers", {})),
        "enabled": webhook["enabled"], "events": list(webhook["events"]),
        "webhookByEvents": bool(webhook.get("byEvents", False)), "webhookBase64": bool(webhook.get("base64", False)),
        "createdAt": stamp, "updatedAt": stamp, "instanceId": INSTANCE_ID,
    }


def groups_answer(groups: list[dict[str, Any]], flag: str | None) -> tuple[int, Any]:
    """fetchAllGroups: ``getParticipants`` is required; participants only when it is ``true``."""
    if flag not in ("true", "false"):
        return 400, error_body(400, ["The getParticipants needs to be informed in the query"])
    listed = copy.deepcopy(groups)
    if flag == "false":
        for group in listed:
            group.pop("participants", None)
    return 200, listed


def participants_answer(
    jid: str | None, configured: list[dict[str, Any]] | None, groups: list[dict[str, Any]]
) -> tuple[int, Any]:
    """group/participants: ``groupJid`` is required; the configured list, else the group's own; else 404."""
    if not jid:
        return 400, error_body(400, ["The group id needs to be informed in the query", 'ex: "groupJid=120362@g.us"'])
    found = configured if configured is not None else next(
        (g.get("participants") for g in groups if g.get("id") == jid), None)
    if found is None:
        return 404, error_body(404, ["No participants", "Error: item-not-found"])
    return 200, {"participants": copy.deepcopy(found)}


def settings_answer(groups_ignore: bool | None) -> dict[str, Any] | None:
    """GET /settings/find: the instance's settings row, or None (JSON null) when it has none."""
    if groups_ignore is None:
        return None
    return {"rejectCall": False, "msgCall": "", "groupsIgnore": groups_ignore, "alwaysOnline": False,
            "readMessages": False, "readStatus": False, "syncFullHistory": False, "wavoipToken": ""}


def root_answer(version: str | None, base_url: str) -> dict[str, Any]:
    """GET /: the welcome answer, with ``version`` when the gateway reports one."""
    answer: dict[str, Any] = {"status": 200, "message": "Welcome to the Evolution API, it is working!",
                              "clientName": "evolution_exchange", "manager": f"{base_url}/manager",
                              "documentation": "https://doc.evolution-api.com"}
    if version is not None:
        answer["version"] = version
    return answer


def license_required_body() -> dict[str, Any]:
    """The 503 answer of a 2.4 gateway whose licence is not activated (CONTRACT section 5)."""
    return {"status": 503, "code": "LICENSE_REQUIRED",
            "message": "This instance of Evolution API requires license activation"}


CHECKS: dict[str, Callable[[object], Problem | None]] = {
    "sendText": check_send_text, "sendReaction": check_send_reaction, "webhook/set": check_webhook_set}
ANSWERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "sendText": send_text_answer, "sendReaction": send_reaction_answer,
    "webhook/set": lambda body: webhook_answer(body["webhook"])}
