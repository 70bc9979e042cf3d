"""GET /api/me/tasks' fast path (storage.task_page) against a plain reference on random data: the same items, in the
same order, with the same total, on every page (issue 20).

The reference reads every row of the few tables involved with plain SELECTs and applies the rules in Python:
a task is the user's when it is assigned to them and visible (personal, or in a group where they are an active
member and, unless gating is off, the group is allowed), or when it is personal and they created it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

import orjson
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select

from taskcore.access import GatingMode
from taskcore.services import task_lists
from taskcore.services.task_lists import MyTasksQuery
from taskcore.storage import schema
from taskcore.storage.checklists import task_items
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.web import render
from tests.builders import NOW, TODAY

REUSED_DB = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
USERS = ("111", "222", "333", "444")
GROUPS = ("100@g.us", "200@g.us", "300@g.us")
TABLES = (task_items, schema.task_assignments, schema.tasks, schema.group_members, schema.allowed_groups, schema.groups,
          schema.users)
# Letters of both cases, a non-ASCII pair (not folded by LIKE), and LIKE's special characters.
TEXT = st.text(alphabet="aAbBñÑ%_\\ ", min_size=1, max_size=6)
MOMENTS = st.builds(lambda hours, micros: NOW - timedelta(hours=hours, microseconds=micros),
                    st.integers(0, 48), st.sampled_from((0, 1, 250_000)))


@dataclass(frozen=True)
class World:
    """Random users, groups, memberships and tasks (with assignees), as rows to insert."""

    names: dict[str, str | None]
    groups: dict[str, tuple[str, str | None]]  # id -> (name, allowed_groups status or None: no row)
    members: dict[tuple[str, str], bool]  # (group, user) -> active
    tasks: list[dict[str, Any]]
    assignments: list[dict[str, Any]]
    items: list[dict[str, Any]]  # checklists (SPEC section 41)


@st.composite
def worlds(draw: st.DrawFn) -> World:
    names = {user: draw(st.none() | st.sampled_from(("Ana", "Bea", "Ñoño"))) for user in USERS}
    statuses = st.sampled_from((None, "allowed", "allowed", "pending", "blocked"))  # None: no allowed_groups row
    groups = {g: (f"Grupo {g[:3]}", draw(statuses)) for g in GROUPS}
    members = {key: active for key in ((g, u) for g in GROUPS for u in USERS)
               if (active := draw(st.sampled_from((None, True, True, False)))) is not None}
    tasks: list[dict[str, Any]] = []
    assignments: list[dict[str, Any]] = []
    items: list[dict[str, Any]] = []
    for task_id in range(1, draw(st.integers(1, 16)) + 1):
        items += [{"task_id": task_id, "n": n, "text": draw(TEXT), "done_at": draw(st.none() | MOMENTS)}
                  for n in range(1, draw(st.integers(0, 3)) + 1)]
        completed = draw(st.booleans())
        each = draw(st.booleans())
        rule = draw(st.sampled_from((None, "FREQ=WEEKLY", "FREQ=DAILY")))
        tasks.append({
            "id": task_id, "group_id": draw(st.sampled_from((None, *GROUPS))), "description": draw(TEXT),
            "due_date": draw(st.none() | st.dates(date(2026, 11, 1), date(2026, 12, 31)).map(date.isoformat)),
            "created_by": draw(st.sampled_from(USERS)), "created_at": draw(MOMENTS), "completed": completed,
            "completed_at": draw(MOMENTS) if completed else None,
            "completed_by": draw(st.sampled_from(USERS)) if completed else None,
            "completion": "each" if each else "any", "recurrence_rule": rule,
            "recurrence_text": draw(st.sampled_from((None, "cada semana"))) if rule else None,
            "rotation_people": draw(st.sampled_from((None, "111 222", "333"))) if rule else None,
            "rotation_turn": 0})
        for user in draw(st.lists(st.sampled_from(USERS), unique=True, min_size=draw(st.integers(0, 2)), max_size=3)):
            assignments.append({"task_id": task_id, "user_id": user, "assigned_at": draw(MOMENTS),
                                "assigned_by": None, "done_at": draw(st.none() | MOMENTS) if each else None})
    return World(names, groups, members, tasks, assignments, items)


def _store(db: Database, world: World) -> None:
    with db.write() as conn:
        for table in TABLES:
            conn.execute(delete(table))
        conn.execute(schema.users.insert(), [{"id": u, "display_name": n, "created_at": NOW}
                                             for u, n in world.names.items()])
        conn.execute(schema.groups.insert(), [{"id": g, "name": name, "active": True, "created_at": NOW}
                                              for g, (name, _) in world.groups.items()])
        allowed = [{"group_id": g, "status": status, "discovered_at": NOW, "updated_at": NOW}
                   for g, (_, status) in world.groups.items() if status is not None]
        if allowed:
            conn.execute(schema.allowed_groups.insert(), allowed)
        if world.members:
            conn.execute(schema.group_members.insert(), [
                {"group_id": g, "user_id": u, "is_admin": False, "active": active, "first_seen_at": NOW,
                 "last_seen_at": NOW} for (g, u), active in world.members.items()])
        if world.tasks:
            conn.execute(schema.tasks.insert(), world.tasks)
        if world.assignments:
            conn.execute(schema.task_assignments.insert(), world.assignments)
        if world.items:
            conn.execute(task_items.insert(), world.items)


# --- the reference: every row read plainly, the rules applied in Python -------------------------------------------


def _fold(text: str) -> str:
    return "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in text)


def _stamp(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).replace(tzinfo=None).isoformat() + "Z"


def _reference(db: Database, user: str, mode: GatingMode, query: MyTasksQuery) -> list[dict[str, Any]]:
    with db.read() as conn:
        rows = [row._asdict() for row in conn.execute(select(schema.tasks))]
        people = [row._asdict() for row in conn.execute(select(schema.task_assignments))]
        lists = [row._asdict() for row in conn.execute(select(task_items))]
        names = dict(conn.execute(select(schema.users.c.id, schema.users.c.display_name)).all())
        group_names = dict(conn.execute(select(schema.groups.c.id, schema.groups.c.name)).all())
        status = dict(conn.execute(select(schema.allowed_groups.c.group_id, schema.allowed_groups.c.status)).all())
        active = {g for g, u, on in conn.execute(select(schema.group_members.c.group_id, schema.group_members.c.user_id,
                                                        schema.group_members.c.active)) if u == user and on}
    sees = {g for g in active if mode is GatingMode.OFF or status.get(g) == "allowed"}
    assigned = {p["task_id"] for p in people if p["user_id"] == user}

    def mine(task: dict[str, Any]) -> bool:
        visible = task["group_id"] is None or task["group_id"] in sees
        return (task["id"] in assigned and visible) or (task["group_id"] is None and task["created_by"] == user)

    def wanted(task: dict[str, Any]) -> bool:
        if query.status == "recent":
            right_state = task["completed"] and task["completed_at"] >= NOW - timedelta(hours=24)
        else:
            right_state = not task["completed"]
        found = not query.search or _fold(query.search) in _fold(task["description"])
        dated = query.due_before is None or (task["due_date"] is not None
                                             and task["due_date"] <= query.due_before.isoformat())
        return bool(right_state and found and dated)

    chosen = [task for task in rows if mine(task) and wanted(task)]
    if query.status == "recent":
        chosen.sort(key=lambda task: (task["completed_at"], task["id"]), reverse=True)
    else:
        chosen.sort(key=lambda task: (task["due_date"] is None, task["due_date"] or "", task["id"]))
    return [_expected_item(task, people, names, group_names) | {"items": [
        {"n": item["n"], "text": item["text"], "done": item["done_at"] is not None}
        for item in sorted(lists, key=lambda item: item["n"]) if item["task_id"] == task["id"]]} for task in chosen]


def _expected_item(task: dict[str, Any], people: list[dict[str, Any]], names: dict[str, str | None],
                   group_names: dict[str, str]) -> dict[str, Any]:
    parts = sorted((p for p in people if p["task_id"] == task["id"]), key=lambda p: (p["assigned_at"], p["user_id"]))
    rule = task["recurrence_rule"]
    return {
        "id": task["id"], "description": task["description"], "due_date": task["due_date"],
        "group_id": task["group_id"], "group_name": group_names.get(task["group_id"] or ""),
        "completion": task["completion"],
        "assignees": [{"id": p["user_id"], "name": names[p["user_id"]], "done": p["done_at"] is not None,
                       "done_at": _stamp(p["done_at"])} for p in parts],
        "created_by": task["created_by"], "created_at": _stamp(task["created_at"]),
        "completed": task["completed"], "completed_at": _stamp(task["completed_at"]),
        "completed_by": task["completed_by"],
        "recurrence": None if not rule else {"rule": rule, "text": task["recurrence_text"] or "",
                                             "rotation": (task["rotation_people"] or "").split()},
        "points": task.get("points") or 1,
        "nag": None if task.get("nag_every_hours") is None else {"every_hours": task["nag_every_hours"]},
        "photo_required": False, "proof": None,  # no task of these worlds needs a photo (SPEC section 34)
        "items": [],  # its checklist (SPEC section 41): _reference's, from the items' rows
    }


ASKS = st.tuples(
    st.sampled_from(USERS), st.sampled_from(GatingMode),
    st.builds(MyTasksQuery, status=st.sampled_from(("open", "open", "recent")),
              search=st.integers(0, 3).flatmap(lambda n: TEXT if n == 0 else st.none()),
              due_before=st.none() | st.dates(date(2026, 11, 1), date(2026, 12, 31)), limit=st.integers(1, 6)),
)


@REUSED_DB
@given(world=worlds(), asked=ASKS)
def test_every_page_of_the_fast_path_is_the_reference_page(
    db: Database, world: World, asked: tuple[str, GatingMode, MyTasksQuery]
) -> None:
    user, mode, query = asked
    _store(db, world)
    expected = _reference(db, user, mode, query)
    event(f"items: {min(len(expected), 5)}")  # --hypothesis-show-statistics shows how many examples list some
    pages = -(-len(expected) // query.limit) + 1  # every page, and the first one past the end
    for number in range(1, pages + 1):
        paged = replace(query, page=number)
        fast = units.look(db, task_lists.list_my_task_items, mode, user_id=user, query=paged, today=TODAY, now=NOW)
        want = expected[(number - 1) * query.limit:number * query.limit]
        assert (fast.total, fast.page, fast.limit) == (len(expected), number, query.limit)
        assert list(fast.items) == want
        # Byte for byte what the Task-based path renders (the pages, the chat and the calendar use it).
        slow = units.look(db, task_lists.list_my_tasks, mode, user_id=user, query=paged, today=TODAY, now=NOW)
        assert orjson.dumps(render.item_page(fast, str)) == orjson.dumps(render.task_page(slow, str))
