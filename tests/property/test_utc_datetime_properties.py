"""On SQLite a timestamp is converted in one step (``storage.utc``) where SQLAlchemy took two (our conversion to naive
UTC, then its DATETIME's text): the stored text and the value read back are the same as the two steps give."""

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import DateTime
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import processors

from taskcore.storage.schema import UtcDateTime, utc_from_db

SQLITE = sqlite.dialect()
FUSED_BIND = UtcDateTime()._cached_bind_processor(SQLITE)
FUSED_RESULT = UtcDateTime()._cached_result_processor(SQLITE, None)
SQLALCHEMY_TEXT = DateTime().dialect_impl(SQLITE).bind_processor(SQLITE)
zones = st.one_of(st.just(UTC), st.sampled_from([ZoneInfo("Europe/Madrid"), ZoneInfo("Australia/Lord_Howe")]),
                  st.builds(lambda m: timezone(timedelta(minutes=m)), st.integers(-23 * 60, 23 * 60)))
aware = st.datetimes(datetime(1900, 1, 2), datetime(9999, 12, 30), timezones=zones, allow_imaginary=True)


def two_steps(value: datetime) -> str:
    """What SQLAlchemy wrote before the fused processor: our naive UTC value, then its DATETIME's format."""
    text: str = SQLALCHEMY_TEXT(UtcDateTime().process_bind_param(value, SQLITE))
    return text


@settings(max_examples=500)
@given(aware)
def test_the_stored_text_is_what_sqlalchemy_wrote(value: datetime) -> None:
    assert FUSED_BIND is not None
    other = value + timedelta(microseconds=1)
    # Again, an equal copy, and between other values: the texts kept by identity never answer for another value.
    for each in (value, other, value, value.replace(), other - timedelta(microseconds=1), value):
        assert FUSED_BIND(each) == two_steps(each)


@settings(max_examples=500)
@given(aware)
def test_the_value_read_back_is_what_sqlalchemy_read(value: datetime) -> None:
    assert FUSED_RESULT is not None
    stored = two_steps(value)
    assert FUSED_RESULT(stored) == utc_from_db(processors.str_to_datetime(stored)) == value.astimezone(UTC)


@settings(max_examples=300)
@given(st.datetimes(datetime(1, 1, 1), datetime(9999, 12, 31)),
       st.sampled_from([" ", "T"]), st.sampled_from(["auto", "seconds", "milliseconds", "microseconds"]),
       st.sampled_from(["", "+00:00", "-05:00", "+05:30"]))
def test_any_other_stored_text_is_read_as_before(naive: datetime, sep: str, timespec: str, offset: str) -> None:
    assert FUSED_RESULT is not None
    text = naive.isoformat(sep, timespec) + offset
    assert FUSED_RESULT(text) == utc_from_db(processors.str_to_datetime(text))


def test_none_stays_none_and_a_naive_value_is_refused() -> None:
    assert FUSED_BIND is not None
    assert FUSED_RESULT is not None
    assert FUSED_BIND(None) is None
    assert FUSED_RESULT(None) is None
    with pytest.raises(ValueError, match="naive"):
        FUSED_BIND(datetime(2026, 11, 23, 8, 30))


def test_postgresql_keeps_sqlalchemys_processors() -> None:
    dialect = postgresql.dialect()
    bind = UtcDateTime()._cached_bind_processor(dialect)
    assert bind is not None
    assert bind(datetime(2026, 11, 23, 8, 30, tzinfo=ZoneInfo("Europe/Madrid"))) == datetime(2026, 11, 23, 7, 30)
