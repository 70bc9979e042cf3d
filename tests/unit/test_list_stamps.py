"""The list stamps (SPEC section 42, migration 0019): the triggers watch every column a task item shows and every
column that decides whose list a task is on, on both databases; and the web's keeping of answers (web/list_cache.py)
holds its budget and its photo addresses' expiry. Whether the stamps move when they should is the property test's
(tests/property/test_kept_list_properties.py), on random histories."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import Column
from sqlalchemy.sql import visitors

from taskcore.pagination import Page
from taskcore.storage import migrator
from taskcore.storage.proof_tables import PROOF_COLUMNS, task_proofs
from taskcore.storage.schema import task_assignments, tasks
from taskcore.storage.task_page import _ITEM_COLUMNS
from tasksvc_run.web.list_cache import ListCache

MIGRATION = next(m for m in migrator.load_migrations() if m.name == "list_stamps")
CHECKLISTS = next(m for m in migrator.load_migrations() if m.name == "checklists")  # SPEC section 41's items
# What else decides whose list a task is on and in which order (storage.task_lists.mine_candidates).
DECIDING = {"tasks": {"id", "group_id", "created_by", "completed", "due_date", "completed_at"},
            "task_assignments": {"task_id", "user_id", "assigned_at", "done_at"},
            "task_proofs": {"task_id"},
            "task_items": {"task_id", "n"}}


def _columns_of(elements: Any, table: Any) -> set[str]:
    found: set[str] = set()
    for element in elements:
        for node in visitors.iterate(element):
            if isinstance(node, Column) and node.table is table:
                found.add(node.name)
    return found


def _watched(dialect: str, table: str) -> set[str]:
    """The columns an UPDATE trigger on ``table`` watches (its ``UPDATE OF`` list)."""
    watched: set[str] = set()
    for statement in MIGRATION.statements(dialect) + CHECKLISTS.statements(dialect):
        found = re.search(r"UPDATE OF ([\w\s,]+?)\s+ON\s+(\w+)", statement)
        if found and found[2] == table:
            watched |= {name.strip() for name in found[1].split(",")}
    return watched


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
@pytest.mark.parametrize(("table", "shown"), [
    ("tasks", _columns_of(_ITEM_COLUMNS, tasks)),
    ("task_proofs", _columns_of(PROOF_COLUMNS, task_proofs)),
    ("task_assignments", {"user_id", "assigned_at", "done_at"}),
    ("task_items", {"text", "done_at"}),  # what a list shows of an item: its number, text and tick
])
def test_an_update_of_any_column_a_list_shows_or_is_decided_by_moves_the_stamps(
    dialect: str, table: str, shown: set[str]
) -> None:
    assert shown
    assert shown | DECIDING[table] <= _watched(dialect, table)


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_an_item_added_or_removed_moves_the_stamps_on_both_databases(dialect: str) -> None:
    statements = " ".join(CHECKLISTS.statements(dialect))
    if dialect == "sqlite":
        assert "AFTER INSERT ON task_items" in statements
        assert "AFTER DELETE ON task_items" in statements
    else:
        assert "AFTER INSERT OR DELETE OR UPDATE OF" in statements
        assert "ON task_items FOR EACH ROW EXECUTE FUNCTION list_stamps_item()" in statements


def test_the_probe_of_the_shown_columns_reads_the_item_s_columns() -> None:
    assert {"description", "due_date", "points", "nag_every_hours", "rotation_people"} <= _columns_of(
        _ITEM_COLUMNS, tasks)
    assert _columns_of(_ITEM_COLUMNS, task_assignments) == set()


def _page(*proofs: object) -> Page[dict[str, Any]]:
    return Page(items=[{"id": n, "proof": proof} for n, proof in enumerate(proofs)], page=1, limit=20,
                total=len(proofs))


def test_an_answer_is_kept_at_its_stamp_and_given_back_as_it_was_sent() -> None:
    cache = ListCache(lambda: 600)
    body = cache.answer("ana", 7, _page(None), lambda page: {"items": page.items})
    assert cache.stamp_of("ana") == 7
    assert cache.body("ana") == body == b'{"items":[{"id":0,"proof":null}]}'


def test_an_answer_without_a_stamp_is_not_kept() -> None:
    cache = ListCache(lambda: 600)
    cache.answer("ana", None, _page(None), lambda page: {"items": page.items})
    assert cache.stamp_of("ana") is None
    assert len(cache) == 0


def test_an_answer_with_a_photo_is_read_again_once_its_addresses_would_expire_later() -> None:
    expiry = [600]
    cache = ListCache(lambda: expiry[0])
    cache.answer("ana", 7, _page({"state": "waiting"}), lambda page: {"items": page.items})
    assert cache.stamp_of("ana") == 7
    expiry[0] = 1200
    assert cache.stamp_of("ana") is None


def test_the_least_recently_used_answers_go_beyond_the_budget() -> None:
    cache = ListCache(lambda: 600, budget=80)
    for name in ("ana", "bea", "carla"):
        cache.answer(name, 1, _page(None), lambda page: {"items": page.items})  # 33 bytes each
        if name == "bea":
            cache.body("ana")  # ana read again: bea is now the least recently used
    assert [cache.stamp_of(name) for name in ("ana", "bea", "carla")] == [1, None, 1]
