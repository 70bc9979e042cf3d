"""Limit clamps and pages."""

import pytest

from taskcore import clamp_limit
from taskcore.pagination import Page, offset_of


@pytest.mark.parametrize("value", [None, "", "abc", "1.5", True])
def test_missing_or_unparsable_limit_takes_the_default(value: object) -> None:
    assert clamp_limit(value, default=20, maximum=100) == 20


@pytest.mark.parametrize(
    ("value", "expected"), [(0, 1), (-5, 1), ("0", 1), (100, 100), (101, 100), ("500", 100), (7, 7)]
)
def test_limit_is_clamped_between_one_and_the_maximum(value: object, expected: int) -> None:
    assert clamp_limit(value, default=20, maximum=100) == expected


def test_pages_are_one_based() -> None:
    assert offset_of(1, 20) == 0
    assert offset_of(3, 20) == 40
    assert offset_of(0, 20) == 0


def test_has_more_is_true_only_when_rows_follow() -> None:
    assert Page(items=[1] * 20, page=1, limit=20, total=21).has_more
    assert not Page(items=[1], page=2, limit=20, total=21).has_more
    assert not Page(items=[], page=5, limit=20, total=21).has_more
