"""Every benchmark module still imports against the code it measures: a profile left behind by a refactor (as
``benchmarks.reminder_profile`` was, after the reminder tick moved to ``taskcore.services``) fails here, not on the
day someone needs its figures."""

from __future__ import annotations

import importlib
from pathlib import Path

import benchmarks
import pytest

MODULES = sorted(path.stem for path in Path(benchmarks.__file__).parent.glob("*.py") if path.stem != "__init__")


def test_the_benchmarks_are_found() -> None:
    assert {"reminder_profile", "inbox_profile", "outbound_bench", "scheduler_minute"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_each_benchmark_module_imports(name: str) -> None:
    module = importlib.import_module(f"benchmarks.{name}")
    assert module.__doc__, f"benchmarks.{name} says what it measures"
