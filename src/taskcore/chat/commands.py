"""The chat's commands as typed values: what ``parse_command`` (``chat.grammar``) returns, and its syntax error."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import ClassVar, TypeAlias

from taskcore.access import GroupStatus
from taskcore.chat.chore_commands import (
    Back,
    PassTurn,
    SetAway,
    SetNag,
    SetPoints,
    SetQuiet,
    SetWeeklySummary,
    ShowSummary,
)
from taskcore.completion import CompletionMode
from taskcore.conversation import ConversationAction
from taskcore.errors import ValidationError
from taskcore.i18n import _
from taskcore.recurrence import Recurrence
from taskcore.reminders import ReminderFreq


class CommandSyntaxError(ValidationError):
    """A message that is a command but not a well-formed one; str() is the reply, in the language in force."""

    def __init__(self, reason: str, *, command: str | None, accepted: str, field: str | None = None) -> None:
        reason = reason[:1].upper() + reason[1:]  # a sentence (SPEC section 23), whatever the reason starts with
        super().__init__(_("{reason}.\nUso: {accepted}", reason=reason, accepted=accepted), field=field)
        self.command = command
        self.accepted = accepted

    @property
    def admin(self) -> bool:
        """True for an ``/admin`` command: only administrators may get this reply (A4)."""
        return self.command is not None and self.command.partition(" ")[0] == "admin"


@dataclass(frozen=True, slots=True)
class Help:
    """``/t`` or ``/t ayuda``: the help text."""

    name: ClassVar[str] = "ayuda"


@dataclass(frozen=True, slots=True)
class NewTask:
    """``/t nueva``: create a task; ``mentions`` are the digits of the assignees, in order; ``each`` (``!todos``):
    every assignee completes their own part. With ``recurrence`` (``cada <regla>``) the task repeats; ``rotation``
    (``!turnos``) makes the mentioned people take turns. ``names`` are the typed ``@Name`` words of a group command
    (SPEC section 23), to be told apart among the group's members."""

    name: ClassVar[str] = "nueva"
    description: str
    due: date | None
    mentions: tuple[str, ...]
    each: bool = False
    recurrence: Recurrence | None = None
    rotation: bool = False
    names: tuple[str, ...] = ()
    nag: bool = False
    points: int = 1  # !N (SPEC section 25)
    balanced: bool = False  # !reparto: a rotation by the fewest points (``rotation`` is True too)
    name_at: tuple[int, ...] = ()  # for each of ``names``, the word of the description its surname would start at
    photo: bool = False  # !foto: done only with a photo, once approved (SPEC section 34)


@dataclass(frozen=True, slots=True)
class ListTasks:
    """``/t ver``: list open tasks."""

    name: ClassVar[str] = "ver"


@dataclass(frozen=True, slots=True)
class Complete:
    """``/t x``: complete one or more tasks."""

    name: ClassVar[str] = "x"
    task_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Claim:
    """``/t tomar``: the sender becomes an assignee."""

    name: ClassVar[str] = "tomar"
    task_id: int


@dataclass(frozen=True, slots=True)
class Unassign:
    """``/t soltar``: the sender stops being an assignee."""

    name: ClassVar[str] = "soltar"
    task_id: int


@dataclass(frozen=True, slots=True)
class SetDue:
    """``/t fecha``: set the due date, or clear it (``due is None``)."""

    name: ClassVar[str] = "fecha"
    task_id: int
    due: date | None


@dataclass(frozen=True, slots=True)
class Edit:
    """``/t editar``: replace the description."""

    name: ClassVar[str] = "editar"
    task_id: int
    description: str


@dataclass(frozen=True, slots=True)
class SetMode:
    """``/t modo``: switch an open group task between one completion for all and each their part."""

    name: ClassVar[str] = "modo"
    task_id: int
    completion: CompletionMode


@dataclass(frozen=True, slots=True)
class StopSeries:
    """``/t parar``: the task stops repeating (this occurrence stays open)."""

    name: ClassVar[str] = "parar"
    task_id: int


@dataclass(frozen=True, slots=True)
class ShowZone:
    """``/t zona``: the sender's time zone and where it comes from."""

    name: ClassVar[str] = "zona"


@dataclass(frozen=True, slots=True)
class SetZone:
    """``/t zona <IANA>``: choose a time zone (``tz`` is its canonical name), or with ``sin`` (``tz is None``) go
    back to the default."""

    name: ClassVar[str] = "zona"
    tz: str | None


@dataclass(frozen=True, slots=True)
class SetReminders:
    """``/t recordatorios``: reminder preference; ``time is None`` keeps the saved time."""

    name: ClassVar[str] = "recordatorios"
    freq: ReminderFreq
    time: str | None


@dataclass(frozen=True, slots=True)
class SetLanguage:
    """``/t idioma``: with ``code`` (``es``, ``pt``, ``en``) choose the language, the sender's in a direct message
    and the group's in a group; ``code is None`` (bare ``/t idioma``) shows the language in force."""

    name: ClassVar[str] = "idioma"
    code: str | None


@dataclass(frozen=True, slots=True)
class WebLink:
    """``/t web``: a login link, sent by direct message."""

    name: ClassVar[str] = "web"


@dataclass(frozen=True, slots=True)
class CalendarLink:
    """``/t calendario``: a new address of the sender's calendar feed (the previous one stops working), sent by
    direct message."""

    name: ClassVar[str] = "calendario"


@dataclass(frozen=True, slots=True)
class CalendarRevoke:
    """``/t calendario borrar``: revoke the sender's calendar feed."""

    name: ClassVar[str] = "calendario"


@dataclass(frozen=True, slots=True)
class AdminHelp:
    """``/admin``: the admin help text."""

    name: ClassVar[str] = "admin"


@dataclass(frozen=True, slots=True)
class AdminListGroups:
    """``/admin grupos``: groups, optionally only those in ``status`` (pending, allowed, blocked)."""

    name: ClassVar[str] = "admin grupos"
    status: GroupStatus | None


@dataclass(frozen=True, slots=True)
class AdminAllow:
    """``/admin permitir``: allow a group; ``None`` is the current chat."""

    name: ClassVar[str] = "admin permitir"
    group_id: str | None


@dataclass(frozen=True, slots=True)
class AdminBlock:
    """``/admin bloquear``: block a group; ``None`` is the current chat."""

    name: ClassVar[str] = "admin bloquear"
    group_id: str | None


@dataclass(frozen=True, slots=True)
class AdminSync:
    """``/admin sync``: synchronise groups now."""

    name: ClassVar[str] = "admin sync"


@dataclass(frozen=True, slots=True)
class ForgetMe:
    """``/t borrarme``: erase everything kept about the sender (SPEC section 32), once ``confirmed`` (``sí``)."""

    name: ClassVar[str] = "borrarme"
    confirmed: bool


@dataclass(frozen=True, slots=True)
class AdminUnreachable:
    """``/admin inalcanzables``: who the bot cannot write to in private, and since when (SPEC section 31)."""

    name: ClassVar[str] = "admin inalcanzables"


AdminCommand: TypeAlias = AdminHelp | AdminListGroups | AdminAllow | AdminBlock | AdminSync | AdminUnreachable
"""The ``/admin`` commands, for administrators only (A4)."""
TaskCommand: TypeAlias = (
    Help | NewTask | ListTasks | Complete | Claim | Unassign | SetDue | Edit | SetMode | StopSeries
    | SetNag | PassTurn
)
"""The ``/t`` commands (with ``SetReminders``, ``ShowZone``, ``SetZone``, ``SetLanguage``, ``WebLink`` and the
calendar's), for anyone in an allowed chat."""
Command: TypeAlias = (
    TaskCommand | SetReminders | ShowZone | SetZone | SetLanguage | WebLink | CalendarLink | CalendarRevoke
    | AdminCommand | SetPoints | ShowSummary | SetWeeklySummary | SetQuiet | SetAway | Back
)
"""Every command ``parse_command`` can return."""


def command_for(action: ConversationAction, task_id: int) -> Complete | Claim:
    """The command a reply word or a reaction on a message linked to ``task_id`` stands for."""
    return Complete((task_id,)) if action is ConversationAction.COMPLETE else Claim(task_id)
