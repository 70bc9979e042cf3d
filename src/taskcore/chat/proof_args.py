"""The commands of photo proof and approvals (SPEC section 34) and how they read: ``/t foto``, ``/t aprobar``,
``/t rechazar``; and the caption of a photo that names the task it proves (``hecho 12``).

Choices the SPEC leaves open:

- ``/t foto <id>`` makes the task need a photo, ``/t foto <id> no`` (``off``, ``não``) stops it; in a reply to a
  task's message the id may be left out.
- ``/t aprobar <id>`` approves a task's photo, ``/t aprobar canje <n>`` (``resgate``, ``request``) a reward
  request; ``/t rechazar <id> <motivo>`` needs the reason (the assignee is told it), ``/t rechazar canje <n>
  [<motivo>]`` does not. In a reply to a task's message the id may be left out.
- A photo's caption names its task when it is a done word (``hecho``, ``listo``, ``done``, ``/t x`` ...) and the
  task's number, in either order (``hecho 12``, ``#12 listo``, ``/t x 12``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from taskcore.chat.commands import Command
from taskcore.chat.new_task_args import Context, description, shown
from taskcore.chat.task_args import TASK_ID, read_id, task_and_rest
from taskcore.chat.usage import usage_error as _error
from taskcore.conversation import ConversationAction, classify_reply_word
from taskcore.i18n import _
from taskcore.words import meaning

__all__ = ["Approve", "PhotoRule", "Reject", "caption_task", "parse_approve", "parse_photo_rule", "parse_reject"]


@dataclass(frozen=True, slots=True)
class PhotoRule(Command):
    """``/t foto <id> [no]``: the task needs a photo to be done (``required``), or no longer."""

    name: ClassVar[str] = "foto"
    task_id: int
    required: bool


@dataclass(frozen=True, slots=True)
class Approve(Command):
    """``/t aprobar <id>`` (a task's photo) or ``/t aprobar canje <n>`` (a reward request): one of the two is set."""

    name: ClassVar[str] = "aprobar"
    task_id: int | None
    request_id: int | None


@dataclass(frozen=True, slots=True)
class Reject(Command):
    """``/t rechazar <id> <motivo>`` (a task's photo, sent back) or ``/t rechazar canje <n> [<motivo>]``."""

    name: ClassVar[str] = "rechazar"
    task_id: int | None
    request_id: int | None
    reason: str


def _is_off(word: str) -> bool:
    return meaning("quiet", word) == "off" or meaning("freq", word) == "off"


def parse_photo_rule(args: str, ctx: Context) -> PhotoRule:
    """``/t foto <id> [no]``."""
    words = args.split()
    if words and TASK_ID.fullmatch(words[0]):
        task_id, rest = read_id(words[0], "foto"), words[1:]
    elif ctx.quoted_task is not None:
        task_id, rest = ctx.quoted_task, words
    else:
        raise _error("foto", _("falta el id de la tarea") if not words else
                     _("id de tarea no válido: {token}", token=shown(words[0])), field="task_id")
    if len(rest) > 1 or (rest and not _is_off(rest[0])):
        raise _error("foto", _("sobran datos: {word}", word=shown(" ".join(rest))))
    return PhotoRule(task_id, required=not rest)


def _request(words: list[str], name: str) -> tuple[int, list[str]] | None:
    """``canje <n> ...``: the request's number and the words after it; None when the first word is no ``canje``."""
    if not words or meaning("approval", words[0]) != "request":
        return None
    if len(words) < 2:
        raise _error(name, _("falta el número del canje"), field="request_id")
    match = TASK_ID.fullmatch(words[1])
    if match is None or int(match.group(1)) == 0:
        raise _error(name, _("número de canje no válido: {token}", token=shown(words[1])), field="request_id")
    return int(match.group(1)), words[2:]


def parse_approve(args: str, ctx: Context) -> Approve:
    """``/t aprobar <id>`` or ``/t aprobar canje <n>``."""
    words = args.split()
    request = _request(words, "aprobar")
    if request is not None:
        number, rest = request
        if rest:
            raise _error("aprobar", _("sobran datos"))
        return Approve(None, number)
    task_id, rest = task_and_rest(words, "aprobar", ctx)
    if rest:
        raise _error("aprobar", _("sobran datos"))
    return Approve(task_id, None)


def parse_reject(args: str, ctx: Context) -> Reject:
    """``/t rechazar <id> <motivo>`` or ``/t rechazar canje <n> [<motivo>]``."""
    words = args.split()
    request = _request(words, "rechazar")
    if request is not None:
        number, rest = request
        return Reject(None, number, description(" ".join(rest), "rechazar") if rest else "")
    task_id, rest = task_and_rest(words, "rechazar", ctx)
    if not rest:
        raise _error("rechazar", _("falta el motivo: quien envió la foto lo leerá"), field="reason")
    return Reject(task_id, None, description(" ".join(rest), "rechazar"))


_LONGEST_CAPTION = 256  # a caption that names a task is a few words: a longer one is a caption, not a command


def caption_task(caption: str | None) -> int | None:
    """The task a photo's caption names with a done word (module docstring), None for any other caption."""
    if not caption or len(caption) > _LONGEST_CAPTION:
        return None
    words = caption.split()
    ids = [word for word in words if TASK_ID.fullmatch(word)]
    if len(ids) != 1 or int(ids[0].lstrip("#")) == 0:
        return None
    at = words.index(ids[0])
    rest = words[:at] + words[at + 1:]
    if rest and meaning("family", rest[0]) == "task":  # /t x 12
        rest = rest[1:]
    said = " ".join(rest)
    done = classify_reply_word(said) is ConversationAction.COMPLETE or meaning("task", said) == "x"
    return int(ids[0].lstrip("#")) if done else None
