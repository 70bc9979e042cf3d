"""Evolution API's requests (../shared/gateway/CONTRACT.md section 4), made from the bot's words, pure: the bodies of
sendText and sendReaction, and of webhook/set with the events the bot handles and its secret header."""

from __future__ import annotations

from typing import Any

from taskcore.gateway.outbound import OutboundReaction, OutboundText
from taskcore.gateway.port import WebhookPlan
from taskcore.identity import is_group_jid

__all__ = ["SECRET_HEADER", "WEBHOOK_EVENTS", "body_of", "reaction_body", "text_body", "webhook_body"]

WEBHOOK_EVENTS = ("MESSAGES_UPSERT", "GROUPS_UPSERT", "GROUP_PARTICIPANTS_UPDATE", "CONNECTION_UPDATE", "SEND_MESSAGE",
                  "MESSAGES_UPDATE")
"""The events the bot handles: messages, groups, participants, the connection, the echo of its sends (SPEC section
26) and their statuses (SPEC section 31)."""
SECRET_HEADER = "X-Webhook-Secret"  # noqa: S105 - the header's name, not a secret


def text_body(text: OutboundText) -> dict[str, Any]:
    """Body of POST /message/sendText: ``number`` the chat's JID; a quote as its key with the original sender as
    participant, plus its text when the bot has it (else the gateway completes it from its store: CONTRACT §4
    "Quoting"); mentions only in a group."""
    body: dict[str, Any] = {"number": text.chat_id, "text": text.text, "linkPreview": False}
    if text.quote is not None:
        q = text.quote
        key: dict[str, Any] = {"id": q.message_id, "remoteJid": q.chat_id, "fromMe": q.from_me}
        if q.participant:
            key["participant"] = q.participant
        body["quoted"] = {"key": key} if q.text is None else {"key": key, "message": {"conversation": q.text}}
    if text.mentioned and is_group_jid(text.chat_id):
        body["mentioned"] = list(text.mentioned)
    return body


def reaction_body(reaction: OutboundReaction) -> dict[str, Any]:
    """Body of POST /message/sendReaction; in a group the participant is passed exactly as received."""
    key: dict[str, Any] = {"remoteJid": reaction.chat_id, "fromMe": reaction.from_me, "id": reaction.message_id}
    if reaction.participant:
        key["participant"] = reaction.participant
    return {"key": key, "reaction": reaction.emoji}


def body_of(outbound: OutboundText | OutboundReaction) -> dict[str, Any]:
    """The body of the send that carries ``outbound`` (sendText or sendReaction)."""
    return text_body(outbound) if isinstance(outbound, OutboundText) else reaction_body(outbound)


def webhook_body(plan: WebhookPlan) -> dict[str, Any]:
    """Body of POST /webhook/set: nested under ``webhook``, ``events`` always present, the secret as a header."""
    webhook: dict[str, Any] = {"enabled": True, "url": plan.url, "events": list(WEBHOOK_EVENTS), "byEvents": False,
                               "base64": False}
    if plan.secret:
        webhook["headers"] = {SECRET_HEADER: plan.secret}
    return {"webhook": webhook}
