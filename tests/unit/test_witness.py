"""Points need someone else (SPEC section 38): which completions hold a task's points for another member's approval."""

from __future__ import annotations

from dataclasses import replace

import pytest

from taskcore.access import GatingMode
from taskcore.chores.witness import needs_witness
from taskcore.model import Person, Series, Task
from taskcore.services import tasks as task_service
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import GROUP, NOW, make_group, make_task

ANA, LUIS = "34600111111", "34600222222"
MINE = Task(1, "regar", None, GROUP, "Piso", ANA, NOW, True, NOW, ANA, (Person(ANA, "Ana"),), points=10)


@pytest.mark.parametrize(("task", "completer", "held"), [
    pytest.param(MINE, ANA, True, id="made, held and done alone"),
    pytest.param(MINE, LUIS, False, id="done by someone else"),
    pytest.param(replace(MINE, created_by=LUIS), ANA, False, id="made by someone else"),
    pytest.param(replace(MINE, assignees=(Person(ANA, "Ana"), Person(LUIS, "Luis"))), ANA, False, id="shared"),
    pytest.param(replace(MINE, group_id=None), ANA, False, id="personal"),
    pytest.param(replace(MINE, recurrence=Series("FREQ=WEEKLY", "cada lunes", (ANA, LUIS))), ANA, False,
                 id="a turn of a shared chore"),
    pytest.param(replace(MINE, recurrence=Series("FREQ=WEEKLY", "cada lunes")), ANA, True, id="her own series"),
])
def test_which_completions_wait_for_someone_else(task: Task, completer: str, held: bool) -> None:
    assert needs_witness(task, completer) is held


def test_a_completion_through_an_approved_photo_holds_nothing(db: Database) -> None:
    make_group(db, GROUP, members=(ANA, LUIS))
    held, proven = (make_task(db, creator=ANA, group_id=GROUP, assignees=(ANA,)) for _ in range(2))
    done = [units.run(db, task_service.complete_task, GatingMode.OFF, user_id=ANA, task_id=task.id, now=NOW,
                      proven=task is proven) for task in (held, proven)]
    assert [(one.newly_completed, one.points_held) for one in done] == [(True, True), (True, False)]
