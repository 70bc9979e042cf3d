"""docs/architecture.md stays true (SPEC section 29): every module it names exists in the installed packages, the
drawing names every file one group message's road enters, and that road, counted from the webhook's aiohttp handler
to the commit of its unit of work by benchmarks/road.py, stays within 40 files and 45 returns."""

from __future__ import annotations

import importlib

import pytest
from benchmarks.road import MAX_FILES, MAX_RETURNS, Count, named_modules, trace_one_message


@pytest.fixture(scope="module")
def road() -> Count:
    return trace_one_message()


@pytest.mark.parametrize("path", sorted(named_modules()))
def test_every_module_the_drawing_names_is_installed(path: str) -> None:
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    assert module.__file__ is not None
    assert module.__file__.endswith(path)


def test_one_group_message_s_road_is_at_most_40_files_and_45_returns(road: Count) -> None:
    assert road.files <= MAX_FILES, road.file_names
    assert road.returns <= MAX_RETURNS, road.calls


def test_the_drawing_names_every_file_the_road_enters(road: Count) -> None:
    assert sorted(set(road.file_names) - named_modules()) == []


def test_the_road_runs_from_the_handler_to_the_queued_reply_and_the_inbox_row(road: Count) -> None:
    assert road.calls[0][0] == "tasksvc_run/bot/webhook.py"
    entered = {callee for _, callee, _ in road.calls}
    assert {"taskcore/services/conversation/road.py", "taskcore/chat/grammar.py", "taskcore/storage/tasks.py",
            "taskcore/storage/queue.py", "taskcore/storage/inbox.py"} <= entered
    assert ("taskcore/services/conversation/road.py", "taskcore/storage/inbox.py", "insert_events") in road.calls


def test_a_call_into_a_file_the_road_left_is_a_return() -> None:
    count = Count([
        ("tasksvc_run/bot/webhook.py", "a.py", "f"),
        ("a.py", "b.py", "g"),
        ("a.py", "b.py", "g"),  # b.py was left for a.py: a return
        ("b.py", "tasksvc_run/bot/webhook.py", "h"),  # the handler's file too
    ])
    assert count.files == 3
    assert count.returns == 2
