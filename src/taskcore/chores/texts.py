"""The chat's texts of effort and summaries (SPEC section 25), apart from ``replies.py``: a task's points, a summary
and the weekly summary's setting. Each function returns the text in the language in force."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from taskcore.chores.summary import MemberSummary, Period, Span
from taskcore.chores.weekly import WeeklyMoment
from taskcore.dates import format_due_date
from taskcore.i18n import N_, _
from taskcore.shown import shown_name

WEEKDAYS = (N_("lunes"), N_("martes"), N_("miércoles"), N_("jueves"), N_("viernes"), N_("sábado"), N_("domingo"))
WEEKLY_ONLY_IN_GROUPS = N_("El resumen semanal se programa en un grupo.")
WEEKLY_STOPPED = N_("Resumen semanal desactivado.")
NOTHING_TO_SUM = N_("Nada que resumir todavía.")


def points_note(points: int) -> str:
    """What ``/t nueva`` adds when the task is worth more (or less) than one point."""
    return "" if points == 1 else _(" · {points} puntos", points=points)


def points_set(task_id: int, points: int) -> str:
    """/t puntos."""
    return _("La tarea #{id} vale ahora {points} puntos.", id=task_id, points=points)


def _heading(period: Period | str, span: Span) -> str:
    dates = f"{format_due_date(span.first)}–{format_due_date(span.last)}"
    if period == Period.MONTH:
        return _("Resumen del mes ({dates}):", dates=dates)
    return _("Resumen de la semana ({dates}):", dates=dates)


def member_line(name: str, line: MemberSummary) -> str:
    """One member's line: done, points, overdue tasks."""
    text = _("{name}: {done} hechas, {points} puntos", name=name, done=line.completed, points=line.points)
    if line.overdue:
        text += _(" · vencidas: {ids}", ids=", ".join(f"#{task_id}" for task_id in line.overdue))
    return f"• {text}"


def summary_text(period: Period | str, span: Span, lines: Sequence[MemberSummary], names: Mapping[str, str]) -> str:
    """/t resumen and the weekly post: a heading and one line per member (``names``: id -> shown name)."""
    if not lines:
        return f"{_heading(period, span)}\n{_(NOTHING_TO_SUM)}"
    body = "\n".join(member_line(shown_name(names.get(line.user_id)), line) for line in lines)
    return f"{_heading(period, span)}\n{body}"


def weekly_set(moment: WeeklyMoment, next_at: datetime, zone: ZoneInfo) -> str:
    """/t resumen semanal <día> HH:MM."""
    first = next_at.astimezone(zone)
    return _("Resumen semanal: cada {day} a las {time} ({zone}); el primero, el {date}.",
             day=_(WEEKDAYS[moment.weekday]), time=f"{moment.at:%H:%M}", zone=zone.key,
             date=format_due_date(first.date()))
