"""taskcore records to the JSON shapes of SPEC section 6 (documented by ``models.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from taskcore.model import GroupSummary, Person, Preference, Series, Task
from taskcore.pagination import Page
from taskcore.recurrence import Recurrence, rule_text
from taskcore.services.own_data import FORGOTTEN_ID
from taskcore.zones import UserZone

# A person's public id (SPEC section 32): how everyone but the person is named in an answer.
Ids = Callable[[str], str]


class Naming:
    """How an answer names people (their public ids) and where a task's photo opens (a signed address that expires,
    SPEC section 34); callable as ``Ids``."""

    __slots__ = ("of", "proof_url")

    def __init__(self, of: Ids, proof_url: Callable[[int, str], str]) -> None:
        self.of, self.proof_url = of, proof_url

    def __call__(self, user_id: str) -> str:
        return self.of(user_id)


def proof(task_id: int, state: str, at: str | None, file_name: str, ids: Ids) -> dict[str, Any]:
    """{url, at, state} of a task's photo; a renderer given only public ids writes its path, unsigned (it opens
    nothing: tests of the shapes)."""
    url = ids.proof_url(task_id, file_name) if isinstance(ids, Naming) else f"/api/tasks/{task_id}/proof"
    return {"url": url, "at": at, "state": state}


def _maybe(ids: Ids, user_id: str | None) -> str | None:
    """A creator or completer by public id; null for none, and for one who asked to be forgotten."""
    return None if user_id is None or user_id == FORGOTTEN_ID else ids(user_id)


def utc_stamp(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with a Z, e.g. 2026-11-22T10:00:00Z (naive values are taken as UTC)."""
    if moment is None:
        return None
    if moment.tzinfo is not UTC:  # what storage returns already is: skip the conversion on the hot path
        moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return moment.isoformat().replace("+00:00", "Z")


def task_item(task: Task, ids: Ids) -> dict[str, Any]:
    """One task item: {id, description, due_date, group_id, group_name, completion, assignees (each with their
    part: done, done_at), created_*, completed*, recurrence, nag, photo_required, proof, items (the checklist:
    n, text, done)}."""
    return {
        "id": task.id,
        "description": task.description,
        "due_date": task.due_date.isoformat() if task.due_date else None,
        "group_id": task.group_id,
        "group_name": task.group_name,
        "completion": task.completion.value,
        "assignees": [{"id": ids(person.id), "name": person.name, "done": person.done_at is not None,
                       "done_at": utc_stamp(person.done_at)} for person in task.assignees],
        "created_by": _maybe(ids, task.created_by),
        "created_at": utc_stamp(task.created_at),
        "completed": task.completed,
        "completed_at": utc_stamp(task.completed_at),
        "completed_by": _maybe(ids, task.completed_by),
        "recurrence": recurrence(task.recurrence, ids),
        "points": task.points,
        "nag": None if task.nag_every_hours is None else {"every_hours": task.nag_every_hours},
        "photo_required": task.photo_required,
        "proof": None if task.proof is None else proof(task.id, task.proof.state.value, utc_stamp(task.proof.at),
                                                       task.proof.file_name, ids),
        "items": [{"n": item.n, "text": item.text, "done": item.done} for item in task.items],
    }


def recurrence(series: Series | None, ids: Ids) -> dict[str, Any] | None:
    """{rule, text, rotation} of a recurring task, else None; the text in the reader's language (SPEC sections 24 and
    41: ``every Monday from April to September``)."""
    if series is None:
        return None
    return {"rule": series.rule, "text": rule_text(series), "rotation": [ids(person) for person in series.rotation]}


def completed_item(task: Task, next_task: Task | None, ids: Ids) -> dict[str, Any]:
    """The completed task's item with ``next``, the occurrence the completion created (or None)."""
    return task_item(task, ids) | {"next": None if next_task is None else task_item(next_task, ids)}


def task_page(page: Page[Task], ids: Ids) -> dict[str, Any]:
    """A list body: {items, page, limit, total, hasMore}."""
    return {"items": [task_item(task, ids) for task in page.items], "page": page.page, "limit": page.limit,
            "total": page.total, "hasMore": page.has_more}


def item_page(page: Page[dict[str, Any]], ids: Ids) -> dict[str, Any]:
    """A list body of items already in their JSON shape but for the people, named here by public id: {items, page,
    limit, total, hasMore}."""
    return {"items": [_named(item, ids) for item in page.items], "page": page.page, "limit": page.limit,
            "total": page.total, "hasMore": page.has_more}


def _named(item: dict[str, Any], ids: Ids) -> dict[str, Any]:
    """A stored item (``task_page``'s dict, people by user id) with its people by public id."""
    for person in item["assignees"]:
        person["id"] = ids(person["id"])
    item["created_by"] = _maybe(ids, item["created_by"])
    item["completed_by"] = _maybe(ids, item["completed_by"])
    if item["recurrence"] is not None:
        kept = item["recurrence"]
        kept["text"] = rule_text(Recurrence(kept["rule"], kept["text"]))  # the reader's words, as task_item's
        kept["rotation"] = [ids(person) for person in kept["rotation"]]
    if item["proof"] is not None:
        kept = item["proof"]
        item["proof"] = proof(item["id"], kept["state"], kept["at"], kept["file"], ids)
    return item


def group_list(groups: Iterable[GroupSummary]) -> dict[str, Any]:
    """{items: [{id, name, active, counts: {open, unassigned}}]}."""
    return {"items": [{"id": group.id, "name": group.name, "active": group.active,
                       "counts": {"open": group.open, "unassigned": group.unassigned}} for group in groups]}


def preference(pref: Preference, zone: UserZone, lang: str) -> dict[str, Any]:
    """{freq, time, tz, tz_source, lang}."""
    return {"freq": pref.freq, "time": pref.time, "tz": zone.name, "tz_source": zone.source.value, "lang": lang}


def member_list(people: Iterable[Person], ids: Ids) -> dict[str, Any]:
    """{items: [{id, name}]}, ids public."""
    return {"items": [{"id": ids(person.id), "name": person.name} for person in people]}
