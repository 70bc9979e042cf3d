"""The house rules of the code's layout, checked on the installed packages: small modules, the chat reaching storage
only through the use cases, and the rules library never importing its shells."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import taskcore
import tasksvc_run

MAX_LINES = 300
PACKAGES = {"taskcore": Path(taskcore.__file__).parent, "tasksvc_run": Path(tasksvc_run.__file__).parent}


def modules(package: str) -> list[Path]:
    return sorted(PACKAGES[package].rglob("*.py"))


def imported(path: Path) -> Iterator[str]:
    """Every module the file imports (``from taskcore.storage import tasks`` is ``taskcore.storage.tasks``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            package = PACKAGES["taskcore"].parent.joinpath(*node.module.split("."))
            submodules = [a.name for a in node.names if package.joinpath(f"{a.name}.py").exists()]
            yield from ([f"{node.module}.{name}" for name in submodules] or [node.module])


@pytest.mark.parametrize("path", [*modules("taskcore"), *modules("tasksvc_run")], ids=lambda p: p.name)
def test_no_module_is_longer_than_300_lines(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def test_the_chat_reaches_storage_only_through_the_use_cases() -> None:
    chat = PACKAGES["taskcore"] / "chat"
    reached = {name for path in chat.rglob("*.py") for name in imported(path) if name.startswith("taskcore.storage")}
    assert reached == {"taskcore.storage.db"}


def test_the_rules_library_never_imports_its_shells_or_aiohttp_web() -> None:
    found = {(path.name, name) for path in modules("taskcore") for name in imported(path)
             if name.startswith(("tasksvc_run", "aiohttp.web")) or name == "aiohttp"}
    allowed = {("client.py", "aiohttp")}  # gateway/client.py: the aiohttp client, not the server
    assert found <= allowed
