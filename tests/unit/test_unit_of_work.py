"""One event, one transaction: an event that fails leaves nothing behind, so its redelivery is handled afresh."""

from __future__ import annotations

from typing import Any

import pytest

from taskcore.errors import NotFound
from taskcore.services.conversation import tasks as chat_tasks
from taskcore.storage.db import Database
from taskcore.storage.unit import savepoint
from taskcore.storage.users import ensure_user
from tests.builders import NOW, wa_text
from tests.chat_support import in_one_unit, queued, run, task_rows
from tests.queries import user_exists


def test_an_event_that_fails_midway_keeps_nothing_and_its_redelivery_is_handled(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    payload = wa_text("/t nueva pan", message_id="RETRY")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("database went away")

    monkeypatch.setattr(chat_tasks.tasks, "create_task", broken)
    with pytest.raises(RuntimeError):
        run(db, payload)
    monkeypatch.undo()
    assert run(db, payload).outcome == "nueva done"
    assert len(task_rows(db)) == 1
    assert len(queued(db)) == 1


def test_a_command_that_fails_after_writing_leaves_none_of_its_writes(db: Database) -> None:
    def failing_command(joined: Database) -> None:
        with savepoint(joined):
            joined.transact(lambda conn: ensure_user(conn, "34600999999", NOW))
            raise NotFound("gone")

    def work(joined: Database) -> None:
        with pytest.raises(NotFound):
            failing_command(joined)
        joined.transact(lambda conn: ensure_user(conn, "34600888888", NOW))

    in_one_unit(db, work)
    with db.read() as conn:
        assert (user_exists(conn, "34600999999"), user_exists(conn, "34600888888")) == (False, True)


def test_the_joined_database_reads_its_own_uncommitted_writes(db: Database) -> None:
    def work(joined: Database) -> bool:
        joined.transact(lambda conn: ensure_user(conn, "34600777777", NOW))
        with joined.read() as conn:
            return user_exists(conn, "34600777777")

    assert in_one_unit(db, work) is True


def test_a_savepoint_outside_a_joined_database_is_a_no_op(db: Database) -> None:
    with savepoint(db):
        db.transact(lambda conn: ensure_user(conn, "34600666666", NOW))
    with db.read() as conn:
        assert user_exists(conn, "34600666666")


def test_a_joined_database_never_closes_the_shared_engine(db: Database) -> None:
    in_one_unit(db, lambda joined: joined.dispose())
    with db.read() as conn:
        assert not user_exists(conn, "nobody")
