"""``/t plantilla [<nombre> [sí]]`` (SPEC section 35): list the starter sets, show what one would create, create it
once confirmed. The set's name is read by the use case (the sets are data files); this parser only parts the name
from the confirmation word."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from taskcore.chat.commands import Command
from taskcore.chat.new_task_args import Context
from taskcore.words import meaning


@dataclass(frozen=True, slots=True)
class Starter(Command):
    """``/t plantilla``: ``set_name`` None lists the sets; a name shows that set, and with ``confirmed`` (any
    language's yes) creates it."""

    name: ClassVar[str] = "plantilla"
    set_name: str | None = None
    confirmed: bool = False

    @property
    def changes(self) -> bool:
        """Only the confirmed one creates the set's chores; the others list the sets or preview one."""
        return self.confirmed


def parse_starter(args: str, ctx: Context) -> Starter:
    """The set's name (any number of words) and whether the last word is a yes."""
    words = args.split()
    confirmed = len(words) > 1 and meaning("confirm", words[-1]) == "yes"
    if confirmed:
        words = words[:-1]
    return Starter(" ".join(words) or None, confirmed)
