"""taskcore for other programs (SPEC section 40): every error it raises is a ``TaskcoreError`` (the validation ones a
``ValueError`` too), its messages are in English unless a language is given, and it says its version."""

from __future__ import annotations

import ast
import builtins
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest

import taskcore
from taskcore import TaskcoreError, TokenBucket, normalize_group_id, normalize_user_id, reminder_due_slot

PACKAGE = Path(taskcore.__file__).parent
BUILTIN_ERRORS = {name for name, value in vars(builtins).items()
                  if isinstance(value, type) and issubclass(value, Exception)}
# Where a builtin error is what the caller needs: a module's __getattr__ raises AttributeError by Python's rule;
# pydantic reads a validator's ValueError as the variable's message (the caller gets a ConfigError, a TaskcoreError).
ALLOWED = {"__init__.py", "config_types.py", "settings.py"}


def builtin_raises(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name):
            name = node.exc.func.id
            if name in BUILTIN_ERRORS and name != "AssertionError":  # an unreachable branch, not an error to catch
                found.append(f"{name} at line {node.lineno}")
    return found


def test_no_module_raises_a_builtin_error() -> None:
    raising = {str(path.relative_to(PACKAGE)): found for path in sorted(PACKAGE.rglob("*.py"))
               if (found := builtin_raises(path)) and str(path.relative_to(PACKAGE)) not in ALLOWED}
    assert raising == {}


def test_the_gate_finds_a_builtin_error(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("def f(x):\n    if not x:\n        raise ValueError('no x')\n")
    assert builtin_raises(tmp_path / "broken.py") == ["ValueError at line 3"]


@pytest.mark.parametrize("fails", [
    lambda: normalize_group_id("casa"),
    lambda: normalize_user_id("nadie"),
    lambda: TokenBucket(0, 1),
    lambda: reminder_due_slot("daily", "07:00", now=datetime(2026, 12, 6), tz="UTC", grace_minutes=5),
    lambda: reminder_due_slot("daily", "07:00", now=datetime(2026, 12, 6, tzinfo=UTC), tz="Mars/Olympus",
                              grace_minutes=5),
], ids=["group id", "user id", "bucket", "naive now", "unknown zone"])
def test_a_refused_value_is_a_taskcore_error_and_a_value_error(fails: object) -> None:
    with pytest.raises(TaskcoreError) as caught:
        fails()  # type: ignore[operator]
    assert isinstance(caught.value, ValueError)


def test_a_program_that_imports_the_library_reads_english_unless_it_gives_a_language() -> None:
    program = textwrap.dedent("""
        from datetime import date
        import taskcore
        from taskcore.i18n import speaking
        try:
            taskcore.parse_due_date("5/12", today=date(2026, 12, 6))
        except taskcore.InvalidDate as exc:
            print(exc)
        with speaking("es"):
            try:
                taskcore.sanitize_description("   ")
            except taskcore.InvalidDescription as exc:
                print(exc)
        print(taskcore.__version__)
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True)  # noqa: S603
    english, spanish, version = done.stdout.splitlines()
    assert english == "invalid date: '5/12'; use YYYY-MM-DD, YY-MM-DD, today or tomorrow"
    assert spanish == "la descripción está vacía"
    assert version not in ("", "unknown")
    assert version[0].isdigit()


def test_the_version_is_the_installed_distribution_s() -> None:
    from importlib.metadata import version  # noqa: PLC0415

    assert taskcore.__version__ == version("tasksvc")
