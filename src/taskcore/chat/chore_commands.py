"""The commands of SPEC section 25 (chores that run themselves): nagging, missed turns, points, summaries, quiet
hours and away. ``chat.commands`` names them among every command."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from taskcore.chat.commands import Command
from taskcore.chores.quiet import QuietHours
from taskcore.chores.summary import Period
from taskcore.chores.weekly import WeeklyMoment


@dataclass(frozen=True, slots=True)
class SetNag(Command):
    """``/t insistir <id> [cada N h]``: the task nags its pending assignees every ``every_hours`` once overdue;
    ``every_hours is None`` (``/t insistir <id> no``) stops it (SPEC section 25)."""

    name: ClassVar[str] = "insistir"
    task_id: int
    every_hours: int | None


@dataclass(frozen=True, slots=True)
class PassTurn(Command):
    """``/t pasar <id>``: the current holder of a rotation's occurrence hands it to the next person in turn."""

    name: ClassVar[str] = "pasar"
    task_id: int


@dataclass(frozen=True, slots=True)
class SetPoints(Command):
    """``/t puntos <id> N``: a task's effort, 1 to 10 (SPEC section 25)."""

    name: ClassVar[str] = "puntos"
    task_id: int
    points: int


@dataclass(frozen=True, slots=True)
class ShowSummary(Command):
    """``/t resumen [semana|mes]``: per member, done and points in the period and their overdue tasks."""

    name: ClassVar[str] = "resumen"
    reads_only: ClassVar[bool] = True
    period: Period


@dataclass(frozen=True, slots=True)
class SetWeeklySummary(Command):
    """``/t resumen semanal <día> HH:MM``: post the week's summary in the group then; ``moment is None`` stops it."""

    name: ClassVar[str] = "resumen"
    moment: WeeklyMoment | None


@dataclass(frozen=True, slots=True)
class SetQuiet(Command):
    """``/t silencio HH:MM-HH:MM``: the sender's quiet hours; ``window is None`` (``/t silencio no``) removes them."""

    name: ClassVar[str] = "silencio"
    window: QuietHours | None


@dataclass(frozen=True, slots=True)
class SetAway(Command):
    """``/t ausente <fecha>``: the sender is away through ``until``."""

    name: ClassVar[str] = "ausente"
    until: date


@dataclass(frozen=True, slots=True)
class Back(Command):
    """``/t vuelvo``: the sender is no longer away."""

    name: ClassVar[str] = "vuelvo"
