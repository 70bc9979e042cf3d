"""The unit of work is a parameter (SPEC section 37, STYLE habit 21): the use cases run in a unit made by hand
(``tests/fakes/unit.py``: a plain connection, no ``Database`` and no ``SqlUnit``), never commit it, and a savepoint
of it rolls back alone."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from sqlalchemy import func, select

from taskcore.access import GatingMode
from taskcore.errors import InvalidDescription
from taskcore.services import task_lists, tasks
from taskcore.storage.identities import ensure_user
from taskcore.storage.schema import tasks as task_table
from taskcore.unit import UnitOfWork
from tests.fakes.unit import FakeUnit, fake_unit

NOW = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)
ANA = "34600000001"


def count(uow: FakeUnit) -> int:
    return int(uow.conn.execute(select(func.count()).select_from(task_table)).scalar_one())


def test_use_cases_run_in_a_hand_made_unit_and_leave_the_commit_to_its_opener() -> None:
    with fake_unit() as uow:
        ensure_user(uow.conn, ANA, NOW)
        made = tasks.create_task(uow, creator=ANA, description="  Comprar <b>pan</b> ", now=NOW)
        done = tasks.complete_task(uow, GatingMode.OFF, user_id=ANA, task_id=made.id, now=NOW)
        page = task_lists.list_my_tasks(uow, GatingMode.OFF, user_id=ANA, query=task_lists.MyTasksQuery(
            status="recent"), today=date(2026, 12, 6), now=NOW)
        assert uow.commits == 0
        uow.commit()
    assert (made.description, done.newly_completed) == ("Comprar pan", True)
    assert [task.id for task in page.items] == [made.id]


def two_then_a_blank(uow: FakeUnit) -> None:
    """Two tasks in a savepoint, the second refused: the first goes with it."""
    with uow.savepoint():
        tasks.create_task(uow, creator=ANA, description="barrer", now=NOW)
        tasks.create_task(uow, creator=ANA, description="   ", now=NOW)


def test_a_savepoint_rolls_back_its_part_alone() -> None:
    with fake_unit() as uow:
        ensure_user(uow.conn, ANA, NOW)
        tasks.create_task(uow, creator=ANA, description="regar", now=NOW)
        with pytest.raises(InvalidDescription):
            two_then_a_blank(uow)
        assert count(uow) == 1


def test_the_hand_made_unit_is_a_unit_of_work() -> None:
    with fake_unit() as made:
        uow: UnitOfWork = made  # the type checker holds it to the protocol (mypy over tests)
        assert uow.conn is made.conn
