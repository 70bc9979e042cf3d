"""Online backup of the SQLite file: consistent while bot and web keep writing (WAL included)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def backup_sqlite(source: Path, destination: Path) -> int:
    """Copy ``source`` to ``destination`` page by page with SQLite's backup API; the number of pages copied."""
    if not source.exists():
        raise FileNotFoundError(f"no database at {source}")
    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(destination.name + ".partial")
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as src, sqlite3.connect(partial) as dst:
        src.execute("PRAGMA busy_timeout=5000")
        src.backup(dst, pages=1024)
        pages = int(dst.execute("PRAGMA page_count").fetchone()[0])
        dst.execute("PRAGMA journal_mode=DELETE")
    partial.replace(destination)
    return pages
