"""docs/architecture.md stays true: every module it names exists in the installed packages, and the road of a chat
event it draws is the road one event takes (counted by benchmarks/road.py), short and without doubling back."""

from __future__ import annotations

import importlib

import pytest
from benchmarks.road import counts, drawn_modules, named_modules


@pytest.mark.parametrize("path", sorted(named_modules()))
def test_every_module_the_drawing_names_is_installed(path: str) -> None:
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    assert module.__file__ is not None
    assert module.__file__.endswith(path)


def test_the_chat_event_s_steps_are_ten_modules() -> None:
    assert len(drawn_modules()) == 10


def test_one_chat_event_takes_the_drawn_road_without_doubling_back() -> None:
    as_drawn, every_file = counts()
    assert len(as_drawn.calls) <= 25
    assert as_drawn.files <= 12
    assert as_drawn.returns <= 6
    steps = [callee for _, callee, _ in as_drawn.calls]
    assert steps[:2] == ["taskcore/services/conversation/road.py", "taskcore/services/conversation/messages.py"]
    assert steps[-1] == "taskcore/services/queue.py"  # the reply is queued last, by the road
    assert {callee for _, callee, _ in every_file.calls} >= {"taskcore/storage/queue.py", "taskcore/storage/tasks.py"}
