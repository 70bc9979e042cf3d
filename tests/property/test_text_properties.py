"""Properties of sanitising, dates and LIKE escaping."""

import sqlite3
from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from taskcore import InvalidDescription, escape_like, parse_due_date, sanitize_description

TODAY = date(2026, 11, 22)


@given(st.text())
def test_sanitising_is_idempotent_and_yields_clean_text(text: str) -> None:
    try:
        once = sanitize_description(text)
    except InvalidDescription:
        return
    assert sanitize_description(once) == once
    assert 1 <= len(once) <= 1000
    assert once == once.strip()
    assert "  " not in once
    assert not any(ch.isspace() and ch != " " for ch in once)


@given(st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=50).filter(lambda t: t.strip()))
def test_visible_words_survive_sanitising(word: str) -> None:
    cleaned = sanitize_description(f"x {word} y") if "<" not in word else None
    if cleaned is not None:
        assert cleaned.startswith("x ")
        assert cleaned.endswith(" y")


@given(st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31)))
def test_every_valid_date_round_trips_through_its_stored_form(day: date) -> None:
    assert parse_due_date(day.isoformat(), today=TODAY) == day
    assert parse_due_date(day.isoformat()[2:], today=TODAY) == day


@given(st.dates())
def test_hoy_and_manana_follow_today(today: date) -> None:
    assert parse_due_date("hoy", today=today) == today
    if today < date.max:
        assert parse_due_date("mañana", today=today) == today + timedelta(days=1)


# SQLite's LIKE reads a value only up to its first NUL; a sanitised description holds none (control characters are
# removed), and a search holding one matches nothing (docs/decisions.md, Search). A lone surrogate cannot be stored
# (UTF-8 cannot carry it) and a search holding one is answered before any query (text.may_occur_in_description).
_NO_NUL = st.text(alphabet=st.characters(exclude_characters="\x00", exclude_categories=("Cs",)))


@given(_NO_NUL, st.lists(_NO_NUL, max_size=5))
def test_escape_like_matches_itself_and_nothing_else(needle: str, others: list[str]) -> None:
    db = sqlite3.connect(":memory:")
    db.execute("create table t (v text)")
    values = list(dict.fromkeys([needle, *others]))
    db.executemany("insert into t values (?)", [(v,) for v in values])
    rows = db.execute("select v from t where v like ? escape '\\'", (escape_like(needle),)).fetchall()
    # SQLite's LIKE ignores case for ASCII letters only, so equality is judged the same way.
    db.close()
    expected = {v for v in values if _ascii_fold(v) == _ascii_fold(needle)}
    assert {r[0] for r in rows} == expected


def _ascii_fold(text: str) -> str:
    return "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in text)
