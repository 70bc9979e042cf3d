"""promtool (Debian's `prometheus` package, installed by .ci/run): its path, or a failure in CI, where it must run."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def promtool() -> str:
    """The promtool binary; in CI (CI=true) its absence fails the test, elsewhere it skips it."""
    found = shutil.which("promtool")
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("promtool is missing: .ci/run installs Debian's prometheus package")
    pytest.skip("promtool is not installed (apt-get install prometheus)")


def check(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``promtool check <args>`` from the repository root, bounded."""
    return subprocess.run([promtool(), "check", *args], input=stdin, capture_output=True, text=True,  # noqa: S603
                          timeout=60, cwd=ROOT, check=False)


def check_tests(path: str) -> subprocess.CompletedProcess[str]:
    """Run ``promtool test rules <path>`` (alert unit tests), bounded."""
    return subprocess.run([promtool(), "test", "rules", path], capture_output=True, text=True,  # noqa: S603
                          timeout=60, cwd=ROOT, check=False)
