"""The chat's texts of effort and summaries (SPEC section 25), apart from ``replies.py``: a task's points, a summary
and the weekly summary's setting. Each function returns the text in the language in force."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from taskcore.chores.summary import MemberSummary, Period, Span
from taskcore.chores.weekly import WeeklyMoment
from taskcore.i18n import N_, _, clock_time, day_and_month, ngettext
from taskcore.shown import shown_name

WEEKLY_ONLY_IN_GROUPS = N_("El resumen semanal se programa en un grupo.")
WEEKLY_STOPPED = N_("Resumen semanal desactivado.")
NOTHING_TO_SUM = N_("Nada que resumir todavía.")
# "Every <weekday>", Monday first, one text each: a language may agree the word with the day (Portuguese says
# ``toda segunda-feira`` but ``todo domingo``: SPEC section 39).
EVERY_WEEKDAY = (N_("cada lunes"), N_("cada martes"), N_("cada miércoles"), N_("cada jueves"), N_("cada viernes"),
                 N_("cada sábado"), N_("cada domingo"))


def points_set(task_id: int, points: int) -> str:
    """/t puntos."""
    return ngettext("La tarea #{id} vale ahora {n} punto.", "La tarea #{id} vale ahora {n} puntos.", points, id=task_id)


def _heading(period: Period | str, span: Span) -> str:
    dates = f"{day_and_month(span.first)}–{day_and_month(span.last)}"
    if period == Period.MONTH:
        return _("Resumen del mes ({dates}):", dates=dates)
    return _("Resumen de la semana ({dates}):", dates=dates)


def member_line(name: str, line: MemberSummary) -> str:
    """One member's line: done, points, overdue tasks."""
    done = ngettext("{n} hecha", "{n} hechas", line.completed)
    points = ngettext("{n} punto", "{n} puntos", line.points)
    text = _("{name}: {done}, {points}", name=name, done=done, points=points)
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
    first, at = next_at.astimezone(zone), clock_time(moment.at)
    return _("Resumen semanal: {every} a las {time} ({zone}); el primero, el {date}.",
             every=_(EVERY_WEEKDAY[moment.weekday]), time=at, zone=zone.key, date=day_and_month(first.date()))


def group_zone_shown(zone: ZoneInfo | None, fallback: ZoneInfo, now: datetime) -> str:
    """/t zona in a group: the group's zone (what it schedules runs in it), or that it has none yet."""
    if zone is None:
        return _("El grupo aún no tiene zona horaria: lo que programa va en {zone}. Para elegirla: /t zona <ciudad>",
                 zone=fallback.key)
    return _("La zona horaria del grupo es {zone}; allí son las {time}. Para cambiarla: /t zona <ciudad>",
             zone=zone.key, time=clock_time(now.astimezone(zone)))


def group_zone_set(zone: ZoneInfo | None, fallback: ZoneInfo, now: datetime) -> str:
    """/t zona <lugar>|sin in a group."""
    if zone is None:
        return _("El grupo ya no tiene zona horaria propia: lo que programa va en {zone}.", zone=fallback.key)
    return _("La zona horaria del grupo es ahora {zone}; allí son las {time}. La tuya no cambia.", zone=zone.key,
             time=clock_time(now.astimezone(zone)))
