"""Properties of the task lists over a real database: paging and literal search."""

from __future__ import annotations

import itertools
from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskcore.access import GatingMode
from taskcore.errors import InvalidDescription
from taskcore.model import Task
from taskcore.pagination import Page
from taskcore.services import task_lists
from taskcore.services.task_lists import MyTasksQuery
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, TODAY, create_and_read

# Each example writes under a user id of its own, so reusing the function-scoped database across examples
# cannot leak one example's rows into another's assertions.
REUSED_DB = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
_users = itertools.count(10_000)


def _list(db: Database, user: str, **query: object) -> Page[Task]:
    return units.look(db, task_lists.list_my_tasks, GatingMode.OFF, user_id=user, query=MyTasksQuery(**query),  # type: ignore[arg-type]
                             today=TODAY, now=NOW)


@REUSED_DB
@given(
    dues=st.lists(st.none() | st.dates(min_value=date(2026, 1, 1), max_value=date(2027, 12, 31)), max_size=25),
    limit=st.integers(min_value=1, max_value=7),
)
def test_pages_cover_every_matching_task_exactly_once_in_order(db: Database, dues: list[date | None],
                                                               limit: int) -> None:
    user = str(next(_users))
    created = [create_and_read(db, creator=user, description="t", due=due, now=NOW).id for due in dues]
    seen: list[Task] = []
    for page_number in range(1, len(dues) + 2):
        page = _list(db, user, page=page_number, limit=limit)
        seen += page.items
        assert page.total == len(dues)
        if not page.has_more:
            break
    assert sorted(task.id for task in seen) == sorted(created)
    keys = [(task.due_date is None, task.due_date or date.min, task.id) for task in seen]
    assert keys == sorted(keys)


@REUSED_DB
@given(descriptions=st.lists(st.text(min_size=1, max_size=30), max_size=6), needle=st.text(max_size=8))
def test_search_with_any_text_never_errors_and_matches_literally(db: Database, descriptions: list[str],
                                                                 needle: str) -> None:
    user = str(next(_users))
    stored: dict[int, str] = {}
    for text in descriptions:
        try:
            task = create_and_read(db, creator=user, description=text, now=NOW)
        except InvalidDescription:
            continue
        stored[task.id] = task.description
    found = {task.id for task in _list(db, user, search=needle, limit=100).items}
    if not needle:
        assert found == set(stored)
    else:
        assert found == {i for i, text in stored.items() if _fold(needle) in _fold(text)}


def _fold(text: str) -> str:
    return "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in text)
