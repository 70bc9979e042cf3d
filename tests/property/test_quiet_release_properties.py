"""Releasing held messages (SPEC section 25): whatever was held, each person whose messages' release has come gets
exactly one message with all of them in the order they were held, a second run sends nothing, and what is not due
yet stays held."""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select

from taskcore.services.quiet import merged_header, release_held
from taskcore.storage.db import Database
from taskcore.storage.quiet import hold_many
from taskcore.storage.schema import held_messages, outbound_queue
from taskcore.storage.users import ensure_user
from tasksvc_run import units

REUSED_DB = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
START = datetime(2026, 11, 23, 6, 0, tzinfo=UTC)
_runs = itertools.count()

held = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 120), st.integers(0, 120)), max_size=12)


@REUSED_DB
@given(rows=held, at=st.integers(0, 150))
def test_each_person_gets_one_message_with_everything_due_and_only_once(db: Database, rows: list[tuple[int, int, int]],
                                                                        at: int) -> None:
    run = next(_runs)
    users = [f"9{run:06d}{n}" for n in range(3)]
    now = START + timedelta(minutes=at)
    values = [{"user_id": users[who], "chat_id": users[who], "text": f"m{run}-{i}", "label": "notice",
               "dedupe_key": None, "held_at": START + timedelta(minutes=when),
               "release_at": START + timedelta(minutes=when + wait)} for i, (who, when, wait) in enumerate(rows)]
    with db.write() as conn:
        conn.execute(delete(held_messages))  # the database is reused: the examples before leave rows
        for user in users:
            ensure_user(conn, user, START)
        hold_many(conn, values)
    due = [v for v in values if v["release_at"] <= now]
    expected = {user: [v["text"] for v in sorted((v for v in due if v["user_id"] == user),
                                                 key=lambda v: v["held_at"])] for user in users}
    expected = {user: texts for user, texts in expected.items() if texts}
    assert units.run(db, release_held, now=now, max_attempts=3, default_language="es") == len(expected)
    assert units.run(db, release_held, now=now, max_attempts=3, default_language="es") == 0
    with db.read() as conn:
        queued = conn.execute(select(outbound_queue.c.payload).where(
            outbound_queue.c.chat_id.in_([f"{u}@s.whatsapp.net" for u in users]))).scalars().all()
        left = conn.execute(select(held_messages.c.text).where(held_messages.c.user_id.in_(users))).scalars().all()
    got = {}
    for payload in queued:
        body = json.loads(payload)
        header, *texts = body["text"].split("\n\n")
        assert header == merged_header()
        got[body["chat"].partition("@")[0]] = texts
    assert got == expected
    assert sorted(left) == sorted(v["text"] for v in values if v["release_at"] > now)
