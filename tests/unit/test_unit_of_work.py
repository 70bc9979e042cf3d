"""One event, one transaction: an event that fails leaves nothing behind, so its redelivery is handled afresh."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from taskcore.errors import NotFound
from taskcore.services.conversation import tasks as chat_tasks
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from taskcore.unit import Batch, Reading, UnitOfWork
from tasksvc_run import units
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
    def failing_command(uow: UnitOfWork) -> None:
        with uow.savepoint():
            ensure_user(uow.conn, "34600999999", NOW)
            raise NotFound("gone")

    def work(uow: UnitOfWork) -> None:
        with pytest.raises(NotFound):
            failing_command(uow)
        ensure_user(uow.conn, "34600888888", NOW)

    in_one_unit(db, work)
    with db.read() as conn:
        assert (user_exists(conn, "34600999999"), user_exists(conn, "34600888888")) == (False, True)


def test_a_unit_reads_its_own_uncommitted_writes(db: Database) -> None:
    def work(uow: UnitOfWork) -> bool:
        ensure_user(uow.conn, "34600777777", NOW)
        return user_exists(uow.conn, "34600777777")

    assert in_one_unit(db, work) is True


def test_a_unit_left_without_a_commit_keeps_nothing(db: Database) -> None:
    with db.unit() as uow:
        ensure_user(uow.conn, "34600666666", NOW)
    with db.read() as conn:
        assert not user_exists(conn, "34600666666")


def test_a_use_case_run_in_a_unit_of_its_own_is_committed(db: Database) -> None:
    units.run(db, lambda uow, user: ensure_user(uow.conn, user, NOW), "34600555555")
    with db.read() as conn:
        assert user_exists(conn, "34600555555")


def test_a_use_case_that_raises_keeps_none_of_its_writes(db: Database) -> None:
    def failing(uow: UnitOfWork) -> None:
        ensure_user(uow.conn, "34600444444", NOW)
        raise NotFound("gone")

    with pytest.raises(NotFound):
        units.run(db, failing)
    with db.read() as conn:
        assert not user_exists(conn, "34600444444")


def test_a_use_case_is_tried_again_whole_while_the_database_is_busy(db: Database) -> None:
    tries: list[int] = []

    def busy_once(uow: UnitOfWork) -> int:
        tries.append(1)
        ensure_user(uow.conn, "34600333333", NOW)
        if len(tries) == 1:
            raise OperationalError("UPDATE", {}, Exception("database is locked"))
        return len(tries)

    assert units.run(db, busy_once) == 2
    with db.read() as conn:
        assert user_exists(conn, "34600333333")


@dataclass(frozen=True)
class Numbered:
    """A batched use case over the numbers 1..``last``: read ``size`` at a time, each written as a user alone."""

    last: int
    size: int

    def read(self, uow: Reading, after: int | None) -> Batch[int, int]:
        first = (after or 0) + 1
        parts = list(range(first, min(first + self.size, self.last + 1)))
        return Batch(parts, parts[-1] if parts and parts[-1] < self.last else None)

    def write(self, uow: UnitOfWork, part: int, before: Sequence[int]) -> int:
        ensure_user(uow.conn, f"3460000{part:04d}", NOW)
        assert list(before) == list(range(1, part))  # the outcomes of the parts written before, in order
        return part

    def result(self, outcomes: Sequence[int]) -> int:
        return sum(outcomes)


def test_a_batched_use_case_is_read_batch_by_batch_and_written_part_by_part(db: Database) -> None:
    assert units.run_batched(db, Numbered(last=7, size=3)) == 28
    with db.read() as conn:
        assert all(user_exists(conn, f"3460000{n:04d}") for n in range(1, 8))


def test_a_batched_use_case_whose_part_fails_keeps_the_parts_written_before(db: Database) -> None:
    class Failing(Numbered):
        def write(self, uow: UnitOfWork, part: int, before: Sequence[int]) -> int:
            if part == 3:
                raise NotFound("gone")
            return super().write(uow, part, before)

    with pytest.raises(NotFound):
        units.run_batched(db, Failing(last=5, size=2))
    with db.read() as conn:
        assert [user_exists(conn, f"3460000{n:04d}") for n in range(1, 6)] == [True, True, False, False, False]
