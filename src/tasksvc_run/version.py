"""Which release this is (SPEC section 33): the version setuptools-scm read from the repository's tags when the
package was built, and the commit it was built from.

The build writes ``tasksvc_run/_version.py`` (not kept in git); a source tree that was never built or installed has
none, and says ``unknown``. ``importlib.metadata`` (5 MB) is imported only when that file is missing."""

from __future__ import annotations

import importlib


def version_and_commit() -> tuple[str, str | None]:
    """The version (``0.2.0``, ``0.2.1.dev3+gabc1234``) and the short commit id (``gabc1234``) or None."""
    try:
        built = importlib.import_module("tasksvc_run._version")
    except ImportError:
        from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

        try:
            return version("tasksvc"), None
        except PackageNotFoundError:  # a source tree without an install
            return "unknown", None
    commit = getattr(built, "COMMIT", None)
    return str(built.VERSION), str(commit) if commit else None


def describe() -> str:
    """``tasksvc 0.2.0 (commit 1a2b3c4)``: what `tasksvc --version` prints."""
    found, commit = version_and_commit()
    return f"tasksvc {found}" + (f" (commit {commit.removeprefix('g')})" if commit else "")
