"""The chat's commands as typed values: what ``parse_command`` (``chat.grammar``) returns, and its syntax error."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from taskcore.access import GroupStatus
from taskcore.completion import CompletionMode
from taskcore.conversation import ConversationAction
from taskcore.errors import ValidationError
from taskcore.recurrence import Recurrence
from taskcore.reminders import ReminderFreq


class Command:
    """A chat command as a typed value (SPEC section 5): what a command's parser returns, and whose class names the
    use case that carries it out (the conversation's registry). ``name`` is what its replies and outcome call it."""

    __slots__ = ()
    name: ClassVar[str]
    reads_only: ClassVar[bool] = False  # it only shows something: a list, the help, a preview (SPEC section 38)

    @property
    def changes(self) -> bool:
        """Whether carrying it out changes something: then its reply is always sent, even in a spell of the
        per-person cap (SPEC section 38)."""
        return not self.reads_only


class CommandSyntaxError(ValidationError):
    """A message that is a command but not a well-formed one: ``str()`` says why, in the language in force, as a
    sentence. The reply adds the accepted form, where the error is caught (``chat.usage.refusal``): the command's
    usage line, and the date forms (``dates``) or the recurrence rules (``rules``) when they are what was wrong; and
    last, ``hint``: the 💡 line with the command that was written, the date it most likely meant in it."""

    def __init__(self, reason: str, *, command: str | None, field: str | None = None, dates: bool = False,
                 rules: bool = False, hint: str = "") -> None:
        super().__init__(reason[:1].upper() + reason[1:], field=field)  # a sentence (SPEC section 23)
        self.command = command
        self.dates = dates
        self.rules = rules
        self.hint = hint

    @property
    def admin(self) -> bool:
        """True for an ``/admin`` command: only administrators may get this reply (A4)."""
        return self.command is not None and self.command.partition(" ")[0] == "admin"


@dataclass(frozen=True, slots=True)
class Help(Command):
    """``/t`` or ``/t ayuda``: the help text."""

    name: ClassVar[str] = "ayuda"
    reads_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class NewTask(Command):
    """``/t nueva``: create a task; ``mentions`` are the digits of the assignees (mentions, typed numbers), in order;
    ``each`` (``!todos``): every assignee completes their own part. With ``recurrence`` (``cada <regla>``) the task
    repeats; ``rotation`` (``!turnos``) makes the mentioned people take turns. ``names`` are the typed ``@Name`` words
    of a group command (SPEC section 23), to be told apart among the group's members."""

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
    items: tuple[str, ...] = ()  # its checklist, after a colon (SPEC section 41)


@dataclass(frozen=True, slots=True)
class ListTasks(Command):
    """``/t ver``: list open tasks."""

    name: ClassVar[str] = "ver"
    reads_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Complete(Command):
    """``/t x``: complete one or more tasks."""

    name: ClassVar[str] = "x"
    task_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TaskInfo(Command):
    """``/t info``: everything about one task, in one message."""

    name: ClassVar[str] = "info"
    reads_only: ClassVar[bool] = True
    task_id: int


@dataclass(frozen=True, slots=True)
class Claim(Command):
    """``/t tomar``: the sender becomes an assignee."""

    name: ClassVar[str] = "tomar"
    task_id: int


@dataclass(frozen=True, slots=True)
class Unassign(Command):
    """``/t soltar``: the sender stops being an assignee."""

    name: ClassVar[str] = "soltar"
    task_id: int


@dataclass(frozen=True, slots=True)
class SetDue(Command):
    """``/t fecha``: set the due date, or clear it (``due is None``)."""

    name: ClassVar[str] = "fecha"
    task_id: int
    due: date | None


@dataclass(frozen=True, slots=True)
class Edit(Command):
    """``/t editar``: replace the description."""

    name: ClassVar[str] = "editar"
    task_id: int
    description: str


@dataclass(frozen=True, slots=True)
class SetMode(Command):
    """``/t modo``: switch an open group task between one completion for all and each their part."""

    name: ClassVar[str] = "modo"
    task_id: int
    completion: CompletionMode


@dataclass(frozen=True, slots=True)
class StopSeries(Command):
    """``/t parar``: the task stops repeating (this occurrence stays open)."""

    name: ClassVar[str] = "parar"
    task_id: int


@dataclass(frozen=True, slots=True)
class ShowZone(Command):
    """``/t zona``: the sender's time zone and where it comes from."""

    name: ClassVar[str] = "zona"
    reads_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class SetZone(Command):
    """``/t zona <IANA>``: choose a time zone (``tz`` is its canonical name), or with ``sin`` (``tz is None``) go
    back to the default."""

    name: ClassVar[str] = "zona"
    tz: str | None


@dataclass(frozen=True, slots=True)
class SetReminders(Command):
    """``/t recordatorios``: reminder preference; ``time is None`` keeps the saved time."""

    name: ClassVar[str] = "recordatorios"
    freq: ReminderFreq
    time: str | None


@dataclass(frozen=True, slots=True)
class SetLanguage(Command):
    """``/t idioma``: with ``code`` (``es``, ``pt``, ``en``) choose the sender's language, wherever it is written;
    ``group`` (``/t idioma grupo <code>``) the group's instead (SPEC section 39); ``code is None`` (bare ``/t
    idioma``) shows the language in force."""

    name: ClassVar[str] = "idioma"
    code: str | None
    group: bool = False

    @property
    def changes(self) -> bool:
        """Only a code chooses a language; bare, it shows the one in force."""
        return self.code is not None


@dataclass(frozen=True, slots=True)
class WebLink(Command):
    """``/t web``: a login link, sent by direct message."""

    name: ClassVar[str] = "web"
    reads_only: ClassVar[bool] = True  # its link is made only when it is sent (SPEC section 38)


@dataclass(frozen=True, slots=True)
class CalendarLink(Command):
    """``/t calendario``: a new address of the sender's calendar feed (the previous one stops working), sent by
    direct message."""

    name: ClassVar[str] = "calendario"
    reads_only: ClassVar[bool] = True  # its link is made only when it is sent (SPEC section 38)


@dataclass(frozen=True, slots=True)
class CalendarRevoke(Command):
    """``/t calendario borrar``: revoke the sender's calendar feed."""

    name: ClassVar[str] = "calendario"


@dataclass(frozen=True, slots=True)
class AdminHelp(Command):
    """``/admin``: the admin help text."""

    name: ClassVar[str] = "admin"
    reads_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class AdminListGroups(Command):
    """``/admin grupos``: groups, optionally only those in ``status`` (pending, allowed, blocked)."""

    name: ClassVar[str] = "admin grupos"
    reads_only: ClassVar[bool] = True
    status: GroupStatus | None


@dataclass(frozen=True, slots=True)
class AdminAllow(Command):
    """``/admin permitir``: allow a group; ``None`` is the current chat."""

    name: ClassVar[str] = "admin permitir"
    group_id: str | None


@dataclass(frozen=True, slots=True)
class AdminBlock(Command):
    """``/admin bloquear``: block a group; ``None`` is the current chat."""

    name: ClassVar[str] = "admin bloquear"
    group_id: str | None


@dataclass(frozen=True, slots=True)
class AdminSync(Command):
    """``/admin sync``: synchronise groups now."""

    name: ClassVar[str] = "admin sync"


@dataclass(frozen=True, slots=True)
class ForgetMe(Command):
    """``/t borrarme``: erase everything kept about the sender (SPEC section 32), once ``confirmed`` (``sí``)."""

    name: ClassVar[str] = "borrarme"
    confirmed: bool

    @property
    def changes(self) -> bool:
        """Only the confirmed one erases anything."""
        return self.confirmed


@dataclass(frozen=True, slots=True)
class AdminUnreachable(Command):
    """``/admin inalcanzables``: who the bot cannot write to in private, and since when (SPEC section 31)."""

    name: ClassVar[str] = "admin inalcanzables"
    reads_only: ClassVar[bool] = True


def command_for(action: ConversationAction, task_id: int) -> Complete | Claim:
    """The command a reply word or a reaction on a message linked to ``task_id`` stands for."""
    return Complete((task_id,)) if action is ConversationAction.COMPLETE else Claim(task_id)
