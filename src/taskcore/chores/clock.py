"""Wall time and instants in a person's zone, for the chores' rules: which instant a local wall time is, across
daylight saving time. A wall time the clock skips (spring forward) is the end of the gap, the first instant after it;
a repeated one (fall back) is its first pass unless ``fold=1`` asks for the second."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from taskcore.errors import ValidationError

_SECOND = timedelta(seconds=1)


def require_aware(instant: datetime, name: str) -> datetime:
    """``instant`` itself, or ValueError when it has no offset."""
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValidationError(f"{name} must be timezone-aware")
    return instant


def local_wall(instant: datetime, zone: ZoneInfo) -> datetime:
    """The naive wall time ``instant`` shows in ``zone``."""
    return require_aware(instant, "instant").astimezone(zone).replace(tzinfo=None)


def wall_instant(wall: datetime, zone: ZoneInfo, *, fold: int = 0) -> datetime:
    """The UTC instant of the naive wall time ``wall`` in ``zone``: a skipped one is the end of its gap."""
    instant = wall.replace(tzinfo=zone, fold=fold).astimezone(UTC)
    if local_wall(instant, zone) == wall:
        return instant
    return _gap_end(wall, zone)


def _offset(instant: datetime, zone: ZoneInfo) -> timedelta:
    offset = instant.astimezone(zone).utcoffset()
    return offset if offset is not None else timedelta(0)


def _gap_end(wall: datetime, zone: ZoneInfo) -> datetime:
    # In a gap, fold=1 reads the wall time with the offset after the jump (an instant before it) and fold=0 with the
    # offset before (an instant after it); bisect by seconds for the jump itself.
    before = wall.replace(tzinfo=zone, fold=1).astimezone(UTC)
    after = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    new_offset = _offset(after, zone)
    while after - before > _SECOND:
        middle = before + (after - before) // _SECOND // 2 * _SECOND
        if _offset(middle, zone) == new_offset:
            after = middle
        else:
            before = middle
    return after
