"""Chores that run themselves (SPEC section 25), the pure rules: quiet hours, away, nagging, missed turns, points and
fairness, summaries and the weekly summary's moment. Values in, values out: ``now``, ``today`` and zones are
arguments; the results are values and enums, never sentences."""

from __future__ import annotations

from taskcore.chores.away import away_people, check_away_until, is_away
from taskcore.chores.nagging import (
    Nag,
    NagAction,
    NagKind,
    first_nag_at,
    group_notice,
    nag_due,
    next_nag_at,
    should_escalate,
)
from taskcore.chores.points import balanced_pick, check_points, is_points_token, parse_points, points_since
from taskcore.chores.quiet import (
    HeldBundle,
    HeldMessage,
    QuietHours,
    format_quiet,
    held_until,
    is_quiet,
    merge_held,
    parse_quiet,
)
from taskcore.chores.rows import CompletionRow, OpenRow
from taskcore.chores.summary import (
    MemberSummary,
    Period,
    Span,
    parse_period,
    period_span,
    span_instants,
    summarise,
    weekly_span,
)
from taskcore.chores.turns import auto_pass_due, next_in_turn, turn_order_after
from taskcore.chores.weekly import WeeklyMoment, next_weekly, parse_weekly

__all__ = [
    "CompletionRow", "HeldBundle", "HeldMessage", "MemberSummary", "Nag", "NagAction", "NagKind", "OpenRow", "Period",
    "QuietHours", "Span", "WeeklyMoment", "auto_pass_due", "away_people", "balanced_pick", "check_away_until",
    "check_points", "first_nag_at", "format_quiet", "group_notice", "held_until", "is_away", "is_points_token",
    "is_quiet", "merge_held", "nag_due", "next_in_turn", "next_nag_at", "next_weekly", "parse_period", "parse_points",
    "parse_quiet", "parse_weekly", "period_span", "points_since", "should_escalate", "span_instants", "summarise",
    "turn_order_after", "weekly_span",
]
