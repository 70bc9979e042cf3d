"""Builders with defaults, so tests state only what matters (STYLE habit 9)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from taskcore.completion import CompletionMode
from taskcore.model import Task
from taskcore.services import tasks as task_service
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.sql import insert_ignore
from taskcore.storage.tasks import load_tasks
from taskcore.storage.users import ensure_user, ensure_users
from tasksvc_run import units

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
TODAY = date(2026, 11, 22)


def make_group(
    db: Database, group_id: str = "100@g.us", *, name: str | None = None, status: str | None = "allowed",
    members: tuple[str, ...] = (), inactive: tuple[str, ...] = (), now: datetime = NOW,
) -> str:
    """A group with an access status (None: unknown) and active/inactive members."""
    with db.write() as conn:
        insert_ignore(conn, schema.groups, {"id": group_id, "name": name or f"Grupo {group_id}",
                                            "active": True, "created_at": now}, ["id"])
        if status is not None:
            insert_ignore(conn, schema.allowed_groups, {"group_id": group_id, "status": status,
                                                        "discovered_at": now, "updated_at": now}, ["group_id"])
        for user_id, active in [*((m, True) for m in members), *((m, False) for m in inactive)]:
            ensure_user(conn, user_id, now)
            conn.execute(schema.group_members.insert().values(
                group_id=group_id, user_id=user_id, is_admin=False, active=active,
                first_seen_at=now, last_seen_at=now, inactive_since=None if active else now))
    return group_id


def make_task(
    db: Database, *, creator: str = "111", group_id: str | None = "100@g.us", description: str = "Comprar pan",
    due: str | None = None, assignees: tuple[str, ...] = (), now: datetime = NOW, each: bool = False,
) -> Task:
    """A task through the real create use case, read back; ``each``: every assignee completes their part."""
    return create_and_read(db, creator=creator, description=description, group_id=group_id,
                           due=date.fromisoformat(due) if due else None, assignees=assignees, now=now,
                           completion=CompletionMode.EACH if each else CompletionMode.ANY)


def create_and_read(db: Database, **create: Any) -> Task:
    """``services.tasks.create_task`` for a creator and assignees made users first (the use case expects them), then
    the task as read by id (the use case does not read it back)."""
    with db.write() as conn:
        ensure_users(conn, [create["creator"], *create.get("assignees", ())], create["now"])
    created = units.run(db, task_service.create_task, **create)
    with db.read() as conn:
        return load_tasks(conn, [created.id])[0]


# Gateway webhook payloads (CONTRACT.md section 3), shaped like fixtures/gateway/inbound_*.json.
BOT_PHONE = "15550100000"
GROUP = "120363300000000010@g.us"
_message_ids = iter(range(1, 10**9))


def wa_envelope(event: str, data: object, *, instance: str = "taskbot") -> dict[str, object]:
    """The envelope every webhook POST carries."""
    return {"event": event, "instance": instance, "data": data, "destination": "https://bot.example.org/webhook",
            "date_time": "2026-11-22T10:00:00.000Z", "sender": f"{BOT_PHONE}@s.whatsapp.net",
            "server_url": "https://evo.example.org", "apikey": None}


def wa_text(
    text: str, *, sender: str = "34600111111", lid: str | None = None, group: str | None = GROUP,
    message_id: str | None = None, mentioned: tuple[str, ...] = (), push_name: str | None = "Ana",
    from_me: bool = False, timestamp: int | None = None, instance: str = "taskbot", quoted: str | None = None,
) -> dict[str, object]:
    """A messages.upsert text: in ``group`` from ``sender`` (phone digits, with ``lid`` as participantAlt when given),
    or a direct message when ``group`` is None; ``mentioned`` are JIDs for contextInfo.mentionedJid; ``quoted`` the
    id of the message it replies to (contextInfo.stanzaId)."""
    key: dict[str, object] = {"id": message_id or f"MSG{next(_message_ids):08d}", "fromMe": from_me}
    if group is None:
        key["remoteJid"] = f"{sender}@s.whatsapp.net"
        if lid:
            key["remoteJidAlt"] = f"{lid}@lid"
    else:
        key |= {"remoteJid": group, "participant": f"{sender}@s.whatsapp.net", "addressingMode": "pn"}
        if lid:
            key["participantAlt"] = f"{lid}@lid"
    context: dict[str, object] = {"mentionedJid": list(mentioned)}
    if quoted is not None:
        context |= {"stanzaId": quoted, "participant": f"{BOT_PHONE}@s.whatsapp.net",
                    "quotedMessage": {"conversation": "…"}}
    data = {"key": key, "pushName": push_name, "status": "DELIVERY_ACK", "message": {"conversation": text},
            "contextInfo": context, "messageType": "conversation",
            "messageTimestamp": int(NOW.timestamp()) if timestamp is None else timestamp, "instanceId": "i-1",
            "source": "android"}
    return wa_envelope("messages.upsert", data, instance=instance)


def wa_reaction(
    emoji: str, target: str, *, sender: str = "34600222222", group: str | None = GROUP, push_name: str | None = "Bea",
    target_from_me: bool = True, target_author: str | None = None, from_me: bool = False,
    message_id: str | None = None,
) -> dict[str, object]:
    """A reactionMessage (messages.upsert) by ``sender`` on message ``target`` (the bot's own unless
    ``target_from_me`` is False; then ``target_author`` wrote it); ``emoji`` "" removes the reaction."""
    payload = wa_text("", sender=sender, group=group, push_name=push_name, from_me=from_me, message_id=message_id)
    data: dict[str, object] = payload["data"]  # type: ignore[assignment]
    reacted: dict[str, object] = {"remoteJid": group or f"{sender}@s.whatsapp.net", "fromMe": target_from_me,
                                  "id": target}
    if target_author:
        reacted["participant"] = target_author
    data["message"] = {"reactionMessage": {"key": reacted, "text": emoji, "senderTimestampMs": "1795341600000"}}
    data["messageType"] = "reactionMessage"
    del data["contextInfo"]
    return payload


def wa_participants(action: str, participants: list[object], *, group: str = GROUP) -> dict[str, object]:
    """A group-participants.update with participants as given (JID strings or objects)."""
    return wa_envelope("group-participants.update", {"id": group, "author": "198765432100001@lid",
                                                      "participants": participants, "action": action})


def wa_photo(
    caption: str | None = None, *, sender: str = "34600111111", group: str | None = GROUP, quoted: str | None = None,
    message_id: str | None = None, push_name: str | None = "Ana", file_length: int | None = 2048,
) -> dict[str, object]:
    """A photo (messages.upsert, imageMessage) as Evolution API v2.3.7 sends it (CONTRACT §3, "Images"): its
    ``caption`` and, replying to ``quoted``, its contextInfo inside imageMessage and at the top level."""
    payload = wa_text("", sender=sender, group=group, message_id=message_id, push_name=push_name, quoted=quoted)
    data: dict[str, object] = payload["data"]  # type: ignore[assignment]
    image: dict[str, object] = {"url": "https://mmg.whatsapp.net/o1/v/t62.7118-24/x.enc", "mimetype": "image/jpeg",
                                "fileSha256": "c2hh", "mediaKey": "a2V5", "directPath": "/o1/v/t62.7118-24/x.enc",
                                "jpegThumbnail": "/9j/4AAQ"}
    if file_length is not None:
        image["fileLength"] = str(file_length)
    if caption is not None:
        image["caption"] = caption
    if quoted is not None:
        image["contextInfo"] = data["contextInfo"]
    else:
        del data["contextInfo"]
    data["message"] = {"imageMessage": image}
    data["messageType"] = "imageMessage"
    return payload
