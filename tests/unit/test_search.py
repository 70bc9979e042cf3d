"""LIKE escaping: a search term matches its characters literally."""

import sqlite3

from taskcore import escape_like
from taskcore.search import like_contains


def test_escape_like_escapes_backslash_percent_and_underscore() -> None:
    assert escape_like(r"50%_a\b") == r"50\%\_a\\b"


def test_escaped_pattern_matches_wildcards_literally_in_sqlite() -> None:
    db = sqlite3.connect(":memory:")
    db.execute("create table t (v text)")
    db.executemany("insert into t values (?)", [("100% done",), ("100 done",), ("a_b",), ("axb",), ("c\\d",)])
    def matches(term: str) -> list[str]:
        rows = db.execute("select v from t where v like ? escape '\\' order by v", (like_contains(term),))
        return [row[0] for row in rows]
    assert matches("0%") == ["100% done"]
    assert matches("a_") == ["a_b"]
    assert matches("\\") == ["c\\d"]
