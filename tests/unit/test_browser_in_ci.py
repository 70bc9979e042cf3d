"""SPEC section 37: a browser test fails, not skips, under CI=true when Chromium is missing (.ci/run installs it);
elsewhere it is skipped with the reason. The check runs before any of the test's fixtures (tests/conftest.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tests
from tests import chromium
from tests.conftest import pytest_runtest_setup

TESTS = Path(tests.__file__).parent


class _Item:
    """What the hook reads of a test: its markers."""

    def __init__(self, *markers: str) -> None:
        self.markers = markers

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


@pytest.fixture
def no_chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chromium, "CHROMIUM", tmp_path / "chromium")


def test_in_ci_a_browser_test_without_chromium_fails(no_chromium: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="chromium is missing"):
        pytest_runtest_setup(_Item("browser"))  # type: ignore[arg-type]


def test_elsewhere_a_browser_test_without_chromium_is_skipped(no_chromium: None,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="BROWSER TESTS SKIPPED"):
        pytest_runtest_setup(_Item("browser"))  # type: ignore[arg-type]


def test_other_tests_do_not_need_chromium(no_chromium: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    pytest_runtest_setup(_Item("slow"))  # type: ignore[arg-type]


def _marked_browser(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                     for t in node.targets)
               and "browser" in ast.unparse(node.value) for node in tree.body)


def test_every_module_that_drives_chromium_is_marked_browser() -> None:
    """The hook finds them by the marker: one that drove Chromium unmarked would bypass it."""
    trees = {path.name: ast.parse(path.read_text(encoding="utf-8")) for path in TESTS.rglob("test_*.py")}
    driving = [name for name, tree in trees.items() if any(
        isinstance(node, ast.ImportFrom) and (node.module or "").startswith("playwright") for node in tree.body)]
    assert len(driving) >= 6
    assert [name for name in driving if not _marked_browser(trees[name])] == []
