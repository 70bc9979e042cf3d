"""``tasksvc forget <number>`` and the erasure use case (SPEC section 32), by phone number or by LID."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from taskcore.queue_rules import JobKind
from taskcore.services.own_data import forget_number
from taskcore.storage import migrator, schema
from taskcore.storage.db import Database
from taskcore.storage.identities import record_alias
from taskcore.storage.queue import enqueue
from tasksvc_run import units
from tasksvc_run.cli import main
from tests.builders import NOW, make_group, make_task

GROUP = "120363000000000001@g.us"
PHONE, LID, OTHER = "34600000001", "123456789012345", "34600000002"


def holding(db: Database, digits: str) -> list[str]:
    """Tables with a row that holds ``digits`` anywhere."""
    with db.read() as conn:
        return sorted({table.name for table in schema.metadata.sorted_tables for row in conn.execute(select(table))
                       if any(digits in str(value) for value in row)})


def seed(db: Database) -> None:
    make_group(db, GROUP, members=(PHONE, OTHER))
    with db.write() as conn:
        record_alias(conn, LID, PHONE, NOW)
        enqueue(conn, chat_id=f"{PHONE}@s.whatsapp.net", kind=JobKind.TEXT, payload={"text": "hola"},
                label="reply", max_attempts=3, now=NOW)
        enqueue(conn, chat_id=GROUP, kind=JobKind.TEXT, payload={"text": f"@{LID} hola", "mentioned": [LID]},
                label="reply", max_attempts=3, now=NOW)
    task = make_task(db, creator=OTHER, group_id=GROUP, assignees=(PHONE, OTHER))
    with db.write() as conn:
        conn.execute(schema.tasks.update().where(schema.tasks.c.id == task.id).values(
            rotation_people=f"{PHONE} {OTHER}", rotation_turn=1, completed=True, completed_by=PHONE,
            completed_at=NOW + timedelta(hours=1)))


def test_forgetting_by_lid_erases_the_phone_user_and_every_trace(db: Database) -> None:
    seed(db)
    assert holding(db, LID)
    assert holding(db, PHONE)
    assert units.run(db, forget_number, number=LID, now=NOW)
    assert (holding(db, LID), holding(db, PHONE)) == ([], [])
    with db.read() as conn:
        task = conn.execute(select(schema.tasks)).one()
        jobs = conn.execute(select(schema.outbound_queue)).all()
    assert (task.rotation_people, task.completed, task.completed_by) == (OTHER, True, "0")
    assert jobs == []
    assert holding(db, OTHER)  # the others stay
    assert not units.run(db, forget_number, number=LID, now=NOW)


def test_the_command_line_erases_by_number(sqlite_db: Database, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = sqlite_db
    migrator.migrate(db)
    seed(db)
    monkeypatch.setenv("DB_PATH", str(db.engine.url.database))
    monkeypatch.setenv("NODE_ENV", "test")
    assert main(["forget", "+34 600 00 00 01"]) == 0
    assert holding(db, PHONE) == []
    assert main(["forget", "+34 600 00 00 01"]) == 1
    assert main(["forget", "nadie"]) == 2
    out = capsys.readouterr()
    assert PHONE not in out.out + out.err  # masked: ***0001


def test_a_number_written_with_spaces_is_masked_in_every_line(sqlite_db: Database, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    migrator.migrate(sqlite_db)
    seed(sqlite_db)
    monkeypatch.setenv("DB_PATH", str(sqlite_db.engine.url.database))
    monkeypatch.setenv("NODE_ENV", "test")
    assert main(["forget", "+34 600 00 00 01"]) == 0
    assert main(["forget", "(+34) 600-00-00-01"]) == 1
    out = capsys.readouterr()
    said = out.out + out.err
    assert "person forgotten" in said  # the log line itself
    assert "***0001" in said
    assert not any(shown in said for shown in ("600 00 00 01", "600-00-00-01", "600 00", "600-00"))
