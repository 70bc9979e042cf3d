"""The house rules of the code's layout, checked on the installed packages: small modules, the chat's rules pure,
the conversation reaching storage only through the unit of work, no cycle between taskcore's folders, the shells
reaching storage only through the use cases, and the rules library never importing its shells."""

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


def folder_of(name: str) -> str | None:
    """The taskcore folder a module belongs to (``taskcore.storage.db`` -> ``storage``); None for a top-level
    module of taskcore or a module of another package."""
    parts = name.split(".")
    if parts[0] != "taskcore" or len(parts) < 3:
        return None
    return parts[1] if PACKAGES["taskcore"].joinpath(parts[1]).is_dir() else None


def test_the_chat_s_rules_read_and_write_nothing() -> None:
    chat = PACKAGES["taskcore"] / "chat"
    reached = {name for path in chat.rglob("*.py") for name in imported(path)
               if name.startswith(("taskcore.storage", "taskcore.services", "sqlalchemy"))}
    assert reached == set()


def test_the_conversation_reaches_storage_only_through_the_unit_of_work() -> None:
    conversation = PACKAGES["taskcore"] / "services" / "conversation"
    reached = {(path.name, name) for path in conversation.rglob("*.py") for name in imported(path)
               if name.startswith("taskcore.storage") and name != "taskcore.storage.unit"}
    # The road opens the unit on the database and keeps the inbox's rows in it.
    assert reached == {("road.py", "taskcore.storage.db"), ("road.py", "taskcore.storage.inbox")}


def test_no_cycle_between_taskcore_s_folders() -> None:
    edges: dict[str, set[str]] = {}
    for path in modules("taskcore"):
        relative = path.relative_to(PACKAGES["taskcore"])
        if len(relative.parts) < 2:
            continue
        edges.setdefault(relative.parts[0], set()).update(
            target for name in imported(path) if (target := folder_of(name)) not in (None, relative.parts[0]))

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
                   for nxt in edges.get(start, ()))

    assert sorted(folder for folder in edges if reaches(folder, folder)) == []


COMPOSITION_ROOTS = {  # the shell modules that open the database (and migrate it): they may name the engine
    "bot/app.py", "bot/serve.py", "web/app.py", "web/serve.py", "devgateway/serve.py", "supervisor.py", "cli.py",
    "failures_cli.py", "forget.py", "doctor_reach.py", "probe.py", "restore.py",
}
ROOTS_ON_STORAGE = {"taskcore.storage.db", "taskcore.storage.migrator"}


def test_only_the_composition_roots_import_the_storage_engine() -> None:
    root = PACKAGES["tasksvc_run"]
    found = {(str(path.relative_to(root)), name) for path in modules("tasksvc_run") for name in imported(path)
             if name.startswith("taskcore.storage")
             and not (str(path.relative_to(root)) in COMPOSITION_ROOTS and name in ROOTS_ON_STORAGE)}
    assert sorted(found) == []


def test_the_rules_library_never_imports_its_shells_or_aiohttp_web() -> None:
    found = {(path.name, name) for path in modules("taskcore") for name in imported(path)
             if name.startswith(("tasksvc_run", "aiohttp.web")) or name == "aiohttp"}
    allowed = {("client.py", "aiohttp")}  # gateway/client.py: the aiohttp client, not the server
    assert found <= allowed
