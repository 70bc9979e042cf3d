"""Hostile values and how they get into a running unit: a group name from the gateway's groups.upsert, a person's
name from pushName, a description as the chat keeps it, and raw markup written straight into the database (as an
older release or another client could have)."""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import update

from taskcore.storage import schema
from tests.hostile.conftest import ME, Running

HOSTILE_GROUP = "120363911000000777@g.us"
GROUP_NAME = '<img src=x onerror="window.pwned=1">Obra & "Co"'
PERSON_NAME = "<script>window.pwned=1</script>Ana"
CHAT_TEXT = "a < b > c & 'e' marcador-chat"  # not tags: the chat keeps it as typed (a " would start a quote)
RAW_DESCRIPTION = '<script>window.pwned=1</script><b onmouseover="window.pwned=1">marcador-db</b>'
SEARCH = '"><script>window.pwned=1</script>'
RAW_PIECES = ("<script>", "<img src=x", "<b onmouseover", 'onerror="window')


def groups_upsert(group: str, subject: str, members: list[str]) -> dict[str, object]:
    """The gateway's groups.upsert event for one group (shape of fixtures/gateway/inbound_groups_upsert.json)."""
    people = [{"id": f"{m}@s.whatsapp.net", "admin": None} for m in members]
    return {"event": "groups.upsert", "instance": "taskbot",
            "data": [{"id": group, "subject": subject, "size": len(people), "participants": people}]}


def mark_up(running: Running) -> str:
    """Put the hostile group, person and tasks in place through the real paths; the signed-in cookie of ME."""
    event = json.dumps(groups_upsert(HOSTILE_GROUP, GROUP_NAME, [ME])).encode()
    assert running.request("POST", "/webhook", body=event, headers={"Content-Type": "application/json"}).status == 200
    assert running.say(f"/t nueva {CHAT_TEXT}", group=HOSTILE_GROUP, push_name=PERSON_NAME) == 200
    assert running.say("/t nueva se reescribe", group=HOSTILE_GROUP, push_name=PERSON_NAME) == 200
    assert running.say("/t nueva personal", group=None, push_name=PERSON_NAME) == 200
    cookie = running.cookie()
    json_write = {"Cookie": cookie, "Content-Type": "application/json"}  # every write under /api declares JSON
    found: dict[str, int] = {}
    for _ in range(100):  # the bot processes events after acknowledging them
        found = {item["description"]: item["id"] for path in (f"/api/groups/{HOSTILE_GROUP}/tasks", "/api/me/tasks")
                 for item in _items(running, path, cookie)}
        if {CHAT_TEXT, "se reescribe", "personal"} <= set(found):
            break
        time.sleep(0.1)
    for description in (CHAT_TEXT, "se reescribe"):  # claimed: shown on "Mis tareas" with group and assignee names
        running.request("POST", f"/api/tasks/{found[description]}/claim", headers=json_write)
    ids = [found["se reescribe"], found["personal"]]
    running.db.transact(lambda conn: conn.execute(
        update(schema.tasks).where(schema.tasks.c.id.in_(ids)).values(description=RAW_DESCRIPTION)))
    running.request("POST", f"/api/tasks/{ids[1]}/complete", headers=json_write)
    return cookie


def _items(running: Running, path: str, cookie: str) -> list[dict[str, Any]]:
    answer = running.request("GET", path, headers={"Cookie": cookie})
    return list(answer.json()["items"]) if answer.status == 200 else []
