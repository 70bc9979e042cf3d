"""The house rules of the code's layout, checked on the installed packages: small modules, the chat's rules pure,
the conversation reaching storage only through the unit of work, no use case opening a transaction or asking what
kind of object it was given, no cycle between taskcore's folders, the shells reaching storage only through the use
cases (the composition roots open the database), each gateway named only by its adapter and the composition root, and
the rules library never importing its shells."""

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


UNIT_OPENERS = frozenset({"transact", "unit", "reading", "read", "write", "begin", "connect"})
STORE_TYPES = frozenset({"Database", "SqlUnit", "UnitOfWork", "Reading", "Connection"})


def unit_taken_or_asked(path: Path) -> list[str]:
    """Where a module opens a transaction (``db.unit()``, ``.transact``, ``engine.begin``...) or asks which kind of
    store object it was given (``isinstance(uow, SqlUnit)``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in UNIT_OPENERS:
            receiver = func.value
            name = receiver.id if isinstance(receiver, ast.Name) else receiver.attr if isinstance(
                receiver, ast.Attribute) else ""
            if name in ("db", "database", "engine", "_db") or func.attr in ("transact", "unit", "reading"):
                found.append(f"{func.attr} at line {node.lineno}")
        elif isinstance(func, ast.Name) and func.id == "isinstance" and len(node.args) == 2:
            named = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            if named & STORE_TYPES:
                found.append(f"isinstance at line {node.lineno}")
    return sorted(found, key=lambda where: int(where.rpartition(" ")[2]))


def test_no_use_case_opens_a_transaction_or_asks_what_it_was_given() -> None:
    """SPEC section 37: a use case takes its unit of work as a parameter; only the conversation's road (and the
    shells' composition roots) open one."""
    services = PACKAGES["taskcore"] / "services"
    found = {str(path.relative_to(services)): [where.partition(" ")[0] for where in found]
             for path in sorted(services.rglob("*.py")) if (found := unit_taken_or_asked(path))}
    assert found == {"conversation/road.py": ["unit"]}


def test_the_unit_gate_finds_a_transaction_and_a_question(tmp_path: Path) -> None:
    (tmp_path / "case.py").write_text("def f(db, uow):\n    with db.write() as conn:\n        pass\n"
                                      "    if isinstance(uow, SqlUnit):\n        pass\n")
    assert unit_taken_or_asked(tmp_path / "case.py") == ["write at line 2", "isinstance at line 4"]


ADAPTERS = ("taskcore.gateway.evolution", "taskcore.gateway.waha")
ADAPTER_USERS = ("taskcore/gateway/evolution/", "taskcore/gateway/waha/", "tasksvc_run/gateways/",
                 "tasksvc_run/devgateway/")


def test_each_gateway_is_named_only_by_its_adapter_and_the_composition_root() -> None:
    """SPEC section 36: nothing past the adapter knows which gateway is behind it."""
    found = set()
    for package in ("taskcore", "tasksvc_run"):
        for path in modules(package):
            relative = f"{package}/{path.relative_to(PACKAGES[package])}"
            if not relative.startswith(ADAPTER_USERS):
                found |= {(relative, name) for name in imported(path) if name.startswith(ADAPTERS)}
    assert sorted(found) == []


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
    assert found == set()
