"""docs/architecture.md stays true (SPEC sections 29 and 37): every module it names exists in the installed packages,
the drawing names every file one group message's road enters, and that road, traced from the webhook's aiohttp
handler to the commit of its unit of work by benchmarks/road.py, stays within its gate: the files it enters, its
distinct file-to-file edges, and no call from a lower layer into a higher one."""

from __future__ import annotations

import importlib

import pytest
from benchmarks.road import MAX_EDGES, MAX_FILES, MAX_INVERSIONS, Count, layer_of, named_modules, trace_one_message


@pytest.fixture(scope="module")
def road() -> Count:
    return trace_one_message()


@pytest.mark.parametrize("path", sorted(named_modules()))
def test_every_module_the_drawing_names_is_installed(path: str) -> None:
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    assert module.__file__ is not None
    assert module.__file__.endswith(path)


def test_one_group_message_s_road_stays_within_its_gate(road: Count) -> None:
    assert road.files <= MAX_FILES, road.file_names
    assert len(road.edges) <= MAX_EDGES, road.edges
    assert len(road.inversions) <= MAX_INVERSIONS, road.inversions


def test_the_drawing_names_every_file_the_road_enters(road: Count) -> None:
    assert sorted(set(road.file_names) - named_modules()) == []


def test_the_road_runs_from_the_handler_to_the_queued_reply_and_the_inbox_row(road: Count) -> None:
    assert road.calls[0][0] == "tasksvc_run/bot/webhook.py"
    entered = {callee for _, callee, _ in road.calls}
    assert {"taskcore/gateway/evolution/decode.py", "taskcore/services/conversation/road.py",
            "taskcore/chat/grammar.py", "taskcore/services/conversation/registry.py", "taskcore/storage/tasks.py",
            "taskcore/storage/queue.py", "taskcore/storage/inbox.py"} <= entered
    assert ("taskcore/services/conversation/road.py", "taskcore/storage/inbox.py", "insert_events") in road.calls
    assert road.calls[-2][1:] == ("taskcore/storage/unit.py", "commit")


def test_a_call_into_a_file_the_road_left_is_a_return_and_repeated_calls_one_edge() -> None:
    count = Count([
        ("tasksvc_run/bot/webhook.py", "taskcore/a.py", "f"),
        ("taskcore/a.py", "taskcore/b.py", "g"),
        ("taskcore/a.py", "taskcore/b.py", "g"),  # b.py was left for a.py: a return, the same edge
        ("taskcore/b.py", "tasksvc_run/bot/webhook.py", "h"),  # the handler's file too, and upwards
    ])
    assert (count.files, count.returns, len(count.edges)) == (3, 2, 3)
    assert count.inversions == [("taskcore/b.py", "tasksvc_run/bot/webhook.py")]


@pytest.mark.parametrize(("path", "layer"), [
    ("tasksvc_run/bot/webhook.py", 3), ("taskcore/services/conversation/road.py", 2),
    ("taskcore/storage/unit.py", 1), ("taskcore/chat/grammar.py", 0), ("taskcore/gateway/events.py", 0),
])
def test_each_file_has_its_layer(path: str, layer: int) -> None:
    assert layer_of(path) == layer
