"""Effort and fairness (SPEC section 25): a task's points and ``!reparto``, the rotation that gives each occurrence to
the mentioned person with the fewest points completed in the group over the last 30 days.

Choices the SPEC leaves open:

- ``!N`` is ``!`` and one or two ASCII digits, 1 to 10 (``!03`` is 3); ``!0``, ``!11`` or ``!1000`` are refused, not
  read as text. Other ``!`` words (``!todos``, ``!turnos``) are not points: ``is_points_token`` tells them apart.
- "The last 30 days" are the 30 × 24 hours before ``now``; a completion exactly 30 days old no longer counts.
- Ties go by turn order counted from the person after the previous holder (so equal people take turns), and the
  away are skipped unless everyone is away (then nobody is skipped).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from taskcore.chores.clock import require_aware
from taskcore.chores.rows import CompletionRow
from taskcore.chores.turns import turn_order_after
from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _

MIN_POINTS = 1
MAX_POINTS = 10
DEFAULT_POINTS = 1
FAIRNESS_WINDOW = timedelta(days=30)

_TOKEN = re.compile(r"![0-9]+")
_POINTS = re.compile(r"![0-9]{1,2}")


def is_points_token(token: str) -> bool:
    """True when the chat word is meant as points: ``!`` followed by digits only."""
    return _TOKEN.fullmatch(token) is not None


def parse_points(token: str) -> int:
    """``!N`` with N from 1 to 10 -> N; InvalidChoreSetting (field ``points``) otherwise."""
    if _POINTS.fullmatch(token) is None:
        message = _("los puntos van de !{low} a !{high}", low=MIN_POINTS, high=MAX_POINTS)
        raise InvalidChoreSetting(message, field="points")
    return check_points(int(token[1:]))


def check_points(points: object) -> int:
    """An integer from 1 to 10 (``/t puntos``, the API) -> itself; InvalidChoreSetting (field ``points``) otherwise."""
    if isinstance(points, bool) or not isinstance(points, int) or not MIN_POINTS <= points <= MAX_POINTS:
        message = _("los puntos van de {low} a {high}", low=MIN_POINTS, high=MAX_POINTS)
        raise InvalidChoreSetting(message, field="points")
    return points


def points_since(rows: Iterable[CompletionRow], now: datetime) -> dict[str, int]:
    """Points per person over the fairness window before ``now`` (rows of one group)."""
    since = require_aware(now, "now") - FAIRNESS_WINDOW
    totals: dict[str, int] = {}
    for row in rows:
        if since < row.completed_at <= now:
            totals[row.user_id] = totals.get(row.user_id, 0) + row.points
    return totals


def balanced_pick(
    order: Sequence[str], points_30d: Mapping[str, int], away: Collection[str], *, after: str | None = None,
) -> str:
    """The present person of ``order`` with the fewest points (missing: 0); ties by turn order after ``after``."""
    ahead = turn_order_after(order, after)
    present = [person for person in ahead if person not in away] or ahead
    return min(present, key=lambda person: points_30d.get(person, 0))  # min keeps the first of equals
