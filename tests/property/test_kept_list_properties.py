"""GET /api/me/tasks' kept answers (SPEC section 42) against today's query on random histories: after every step of
a history of creates, claims, unassignments, completions (parts too), edits, deletions, photos, checklists' items
added, removed and ticked, renames, memberships and gating changes, made through the use cases the bot and the web
run (a deletion and a photo by plain SQL: no use case deletes a task but forgetting a person), a reader that keeps
its answers with the person's list stamp answers byte for byte what the query answers without any keeping, for every
person, gating mode and page asked.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select

from taskcore.access import GatingMode, GroupStatus
from taskcore.completion import CompletionMode
from taskcore.errors import TaskcoreError
from taskcore.services import checklists, groups, identities, members, own_data, task_lists
from taskcore.services import tasks as task_service
from taskcore.services.task_lists import MyTasksQuery
from taskcore.storage import schema
from taskcore.storage.checklists import task_items
from taskcore.storage.db import Database
from taskcore.storage.proof_tables import task_proofs
from taskcore.storage.users import ensure_users
from tasksvc_run import units
from tasksvc_run.web import render
from tasksvc_run.web.list_cache import ListCache
from tests.builders import NOW, TODAY, make_group

HISTORIES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
USERS = ("34611100001", "34611100002", "34611100003")
GROUPS = ("120363000000000100@g.us", "120363000000000200@g.us")
QUERIES = (MyTasksQuery(), MyTasksQuery(limit=2, page=2), MyTasksQuery(search="a"),
           MyTasksQuery(due_before=date(2026, 11, 30)))
MODES = (GatingMode.ENFORCE, GatingMode.OFF)
TABLES = (task_items, task_proofs, schema.task_assignments, schema.tasks, schema.group_members, schema.allowed_groups,
          schema.groups, schema.identity_aliases, schema.users, schema.list_stamps)


@dataclass(frozen=True)
class Step:
    """One write of a history: its name (shown when a history fails) and what it does."""

    name: str
    run: Callable[[Database], object]

    def __repr__(self) -> str:
        return self.name


def _use(use_case: Callable[..., object], **kwargs: Any) -> Callable[[Database], object]:
    return lambda db: units.run(db, use_case, **kwargs)


def _task_id(db: Database, index: int) -> int:
    """The id of the ``index``-th task there is (ids go on growing from one history to the next)."""
    with db.read() as conn:
        found = conn.execute(select(schema.tasks.c.id).order_by(schema.tasks.c.id).offset(index).limit(1)).first()
    return int(found[0]) if found else 10**6


USER, GROUP, TASK = st.sampled_from(USERS), st.sampled_from(GROUPS), st.integers(0, 5)
DUE = st.none() | st.dates(date(2026, 11, 20), date(2026, 12, 10))
NOW_LATER = st.integers(0, 600).map(lambda minutes: NOW + timedelta(minutes=minutes))


def _create(creator: str, group: str | None, assignees: list[str], due: date | None, *, each: bool,
            text: str) -> Step:
    completion = CompletionMode.EACH if each and group else CompletionMode.ANY
    people = assignees if group else []
    create = _use(task_service.create_task, creator=creator, description=text, group_id=group, due=due,
                  assignees=people, completion=completion, now=NOW)

    def run(db: Database) -> object:
        with db.write() as conn:  # the people exist, as a front end makes sure (one forgotten is met again)
            ensure_users(conn, [creator, *people], NOW)
        return create(db)
    return Step(f"create({creator}, {group}, {people}, {due}, {completion.value})", run)


def _task_step(name: str, use_case: Callable[..., object], **extra: Any) -> Callable[..., Step]:
    def make(user: str, task: int, mode: GatingMode) -> Step:
        return Step(f"{name}({user}, task #{task}, {mode.value})", lambda db: units.run(
            db, use_case, mode=mode, user_id=user, task_id=_task_id(db, task), **extra))
    return make


def _deleted(index: int) -> Step:
    def run(db: Database) -> None:
        task = _task_id(db, index)
        with db.write() as conn:
            conn.execute(delete(schema.tasks).where(schema.tasks.c.id == task))
    return Step(f"delete(task #{index})", run)


def _photo(index: int, state: str | None) -> Step:
    def run(db: Database) -> None:
        task = _task_id(db, index)
        with db.write() as conn:
            if conn.execute(select(schema.tasks.c.id).where(schema.tasks.c.id == task)).first() is None:
                return
            values = {"required": True, "state": state, "kept_at": NOW if state else None,
                      "file_name": f"{task}.jpg" if state else None}
            if conn.execute(task_proofs.update().where(task_proofs.c.task_id == task).values(values)).rowcount == 0:
                conn.execute(task_proofs.insert().values(task_id=task, attempts=0, **values))
    return Step(f"photo(task #{index}, {state})", run)


def _edit(user: str, task: int, mode: GatingMode, due: date | None, text: str) -> Step:
    return Step(f"edit({user}, task #{task}, {due}, {text!r})", lambda db: units.run(
        db, task_service.edit_task, mode=mode, user_id=user, task_id=_task_id(db, task), due=due, description=text))


STEPS = st.one_of(
    st.builds(_create, USER, st.none() | GROUP, st.lists(USER, unique=True, max_size=2), DUE, each=st.booleans(),
              text=st.sampled_from(("pan", "Agua", "leche"))),
    st.builds(_task_step("claim", task_service.claim_task, now=NOW), USER, TASK, st.sampled_from(MODES)),
    st.builds(_task_step("unassign", task_service.unassign_task, now=NOW), USER, TASK, st.sampled_from(MODES)),
    st.builds(_task_step("complete", task_service.complete_task, now=NOW, proven=True), USER, TASK,
              st.sampled_from(MODES)),
    st.builds(_edit, USER, TASK, st.sampled_from(MODES), DUE, st.sampled_from(("pan", "agua fría"))),
    st.builds(_deleted, TASK),
    # A checklist's items added, removed and ticked (SPEC section 41; the last tick completes the task).
    st.builds(_task_step("add items", checklists.add_items, texts=("horno", "nevera")), USER, TASK,
              st.sampled_from(MODES)),
    st.builds(lambda user, task, mode, n: _task_step(f"remove item {n}", checklists.remove_item, n=n)(user, task, mode),
              USER, TASK, st.sampled_from(MODES), st.integers(1, 3)),
    st.builds(lambda user, task, mode, n: _task_step(f"tick item {n}", checklists.tick_items, numbers=(n,), now=NOW,
                                                     today=TODAY)(user, task, mode),
              USER, TASK, st.sampled_from(MODES), st.integers(1, 3)),
    st.builds(_photo, TASK, st.sampled_from((None, "waiting", "approved"))),
    st.builds(lambda user, name: Step(f"name({user}, {name})", _use(
        identities.resolve_user, phone=user, lid=None, name=name, now=NOW)), USER, st.sampled_from(("Ana", "Bea"))),
    st.builds(lambda group, name: Step(f"group name({group}, {name})", _use(
        groups.see_group, mode=GatingMode.OFF, group_id=group, name=name, now=NOW)), GROUP,
        st.sampled_from(("Casa", "Piso"))),
    st.builds(lambda group, user, verb: Step(f"member({group}, {user}, {verb})", _use(
        members.members_changed, group_id=group, user_ids=[user], action=verb, now=NOW)), GROUP, USER,
        st.sampled_from(("add", "remove"))),
    st.builds(lambda group, status: Step(f"gating({group}, {status.value})", _use(
        groups.set_group_status, group_id=group, status=status, by=None, now=NOW)), GROUP,
        st.sampled_from((GroupStatus.ALLOWED, GroupStatus.BLOCKED, GroupStatus.PENDING))),
    st.builds(lambda user: Step(f"forget({user})", _use(own_data.forget_person, user_id=user, now=NOW)), USER),
)


def _fresh(db: Database) -> None:
    """Two groups with two members each (one in both; the second group not yet allowed: no status), and a task of
    each kind: a group task for two, one done by parts, an unassigned one, a personal one."""
    with db.write() as conn:
        for table in TABLES:
            conn.execute(delete(table))
    make_group(db, GROUPS[0], name="Grupo 0", members=USERS[:2])
    make_group(db, GROUPS[1], name="Grupo 1", members=USERS[1:], status=None)
    first, second, third = USERS
    for step in (_create(first, GROUPS[0], [first, second], date(2026, 11, 25), each=False, text="pan"),
                 _create(second, GROUPS[1], [second, third], None, each=True, text="agua"),
                 _create(third, GROUPS[1], [], date(2026, 11, 21), each=False, text="leche"),
                 _create(first, None, [], date(2026, 12, 1), each=False, text="mío")):
        step.run(db)


def _unkept(db: Database, user: str, mode: GatingMode, query: MyTasksQuery) -> bytes:
    """Today's answer: the query, nothing kept."""
    page = units.look_prepared(db, task_lists.list_my_task_items, mode, user_id=user, query=query, today=TODAY,
                               now=NOW)
    return orjson.dumps(render.item_page(page, str))


def _kept(db: Database, cache: ListCache, user: str, mode: GatingMode, query: MyTasksQuery) -> bytes:
    """The answer as the handler gives it (web/api.py's my_tasks): kept while the person's stamp stays."""
    key = (user, mode, query)
    found = units.look_prepared(db, task_lists.my_task_items_since, mode, user_id=user, query=query, today=TODAY,
                                now=NOW, known=cache.stamp_of(key))
    if found.page is None:
        return cache.body(key)
    return cache.answer(key, found.stamp, found.page, lambda page: render.item_page(page, str))


@HISTORIES
@given(history=st.lists(STEPS, min_size=1, max_size=16))
def test_a_kept_answer_is_todays_answer_after_every_step_of_any_history(db: Database, history: list[Step]) -> None:
    _fresh(db)
    cache = ListCache(lambda: 0)
    # What PostgreSQL changes is the stamps' triggers (the cache and the queries are the same code): there, the page
    # that shows everything a person sees is asked, which any missed stamp makes stale (a quarter of SQLite's reads).
    queries = QUERIES if db.dialect == "sqlite" else QUERIES[:1]
    asked = [(user, mode, query) for user in USERS for mode in MODES for query in queries]
    for user, mode, query in asked:  # every answer kept before the history starts
        assert _kept(db, cache, user, mode, query) == _unkept(db, user, mode, query)
    for step in history:
        with contextlib.suppress(TaskcoreError):  # refused (not visible, not open, forgotten...): nothing written
            step.run(db)
        for user, mode, query in asked:
            assert _kept(db, cache, user, mode, query) == _unkept(db, user, mode, query), (step, user, mode, query)


def test_an_answer_is_kept_until_a_write_changes_the_person_s_list(db: Database) -> None:
    _fresh(db)
    cache = ListCache(lambda: 0)
    user, other = USERS[0], USERS[1]
    first = _kept(db, cache, user, GatingMode.ENFORCE, QUERIES[0])
    stamp = cache.stamp_of((user, GatingMode.ENFORCE, QUERIES[0]))
    units.run(db, task_service.create_task, creator=other, description="solo mío", group_id=None, now=NOW)
    assert cache.stamp_of((user, GatingMode.ENFORCE, QUERIES[0])) == stamp
    assert _kept(db, cache, user, GatingMode.ENFORCE, QUERIES[0]) == first  # another's personal task: kept
    units.run(db, task_service.create_task, creator=other, description="para ti", group_id=GROUPS[0],
              assignees=[user], now=NOW)
    again = _kept(db, cache, user, GatingMode.ENFORCE, QUERIES[0])
    assert again != first
    assert b"para ti" in again


def test_a_new_member_s_list_and_a_forgotten_person_s_stamp(db: Database) -> None:
    _fresh(db)
    cache = ListCache(lambda: 0)
    first, _, third = USERS
    units.run(db, groups.set_group_status, group_id=GROUPS[1], status=GroupStatus.ALLOWED, by=None, now=NOW)
    units.run(db, task_service.create_task, creator=third, description="para ti", group_id=GROUPS[1],
              assignees=[first], now=NOW)
    before = _kept(db, cache, first, GatingMode.ENFORCE, QUERIES[0])
    assert b"para ti" not in before  # not a member of that group yet
    units.run(db, members.members_changed, group_id=GROUPS[1], user_ids=[first], action="add", now=NOW)
    assert b"para ti" in _kept(db, cache, first, GatingMode.ENFORCE, QUERIES[0])
    units.run(db, own_data.forget_person, user_id=first, now=NOW)
    with db.read() as conn:
        assert conn.execute(select(schema.list_stamps).where(schema.list_stamps.c.user_id == first)).first() is None


def test_a_photo_taken_again_shows_in_the_kept_answer(db: Database) -> None:
    _fresh(db)
    cache = ListCache(lambda: 0)
    user = USERS[0]
    for state in (None, "waiting", "approved"):  # the first inserts the task's photo row, the others update it
        _photo(0, state).run(db)
        assert _kept(db, cache, user, GatingMode.ENFORCE, QUERIES[0]) == _unkept(db, user, GatingMode.ENFORCE,
                                                                                   QUERIES[0])
