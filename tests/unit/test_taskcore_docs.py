"""docs/taskcore.md, the page for projects that import taskcore (SPEC section 33): its example runs and prints what
the page says, it names every public name, every public name has the docstring the reference is made of, and a
deprecated name warns (the rule of "What may change")."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import taskcore

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "taskcore.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", PAGE.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)


def test_the_example_runs_as_it_stands_and_prints_what_the_page_says(tmp_path: Path) -> None:
    [example], [printed] = blocks("python"), blocks("text")
    (tmp_path / "example.py").write_text(example, encoding="utf-8")
    done = subprocess.run([sys.executable, "-W", "error", str(tmp_path / "example.py")], capture_output=True,  # noqa: S603
                          text=True, timeout=60, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == printed


def test_the_page_names_every_public_name_and_nothing_else() -> None:
    table = PAGE.read_text(encoding="utf-8").split("## What is public", 1)[1].split("## An example", 1)[0]
    named = {name for row in table.splitlines() if row.startswith("| ") for name in re.findall(r"`(\w+)`", row)}
    assert named == set(taskcore.__all__)


@pytest.mark.parametrize("name", taskcore.__all__)
def test_every_public_name_has_a_docstring_of_its_own(name: str) -> None:
    value = getattr(taskcore, name)
    doc = inspect.getdoc(value)
    assert doc, f"taskcore.{name} has no docstring: the reference would be empty"
    if inspect.isclass(value) and value.__doc__ is None:
        pytest.fail(f"taskcore.{name} only inherits its docstring")


def test_a_deprecated_name_keeps_working_and_warns_saying_what_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(taskcore._DEPRECATED, "old_escape", ("search", "use taskcore.escape_like"))
    monkeypatch.setattr("taskcore.search.old_escape", taskcore.escape_like, raising=False)
    with pytest.warns(DeprecationWarning, match=r"taskcore.old_escape is deprecated .*: use taskcore.escape_like"):
        old = taskcore.old_escape  # type: ignore[attr-defined]
    assert old("50%") == taskcore.escape_like("50%")
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        _ = taskcore.old_escape  # type: ignore[attr-defined]
    assert [w.category for w in again] == [DeprecationWarning]  # every use, not only the first
