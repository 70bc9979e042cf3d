"""The chat's checklist commands (SPEC section 41) as typed values, and their parsers: ``/t añadir 12 horno``
(``adicionar``, ``add``), ``/t quitar 12 2`` (``remover``, ``remove``), ``/t x 12.2`` and a reply ``2 hecho`` to the
task's message; the items of ``/t nueva limpiar la cocina: encimera, horno, nevera`` are ``new_task_args``'.

Choices the SPEC leaves open:

- ``/t añadir`` takes a comma list too (``/t añadir 12 horno, nevera``); in a reply to the task's message the id may
  be left out (``/t añadir horno``), and so may ``quitar``'s (``/t quitar 2``).
- ``/t x 12.2 12.3`` ticks several items; ``/t x 12.2,3`` too. A command ticks items or completes tasks, not both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from taskcore.chat.commands import Command, Complete
from taskcore.chat.new_task_args import Context, shown
from taskcore.chat.task_args import parse_complete, read_id, task_and_rest
from taskcore.chat.usage import usage_error
from taskcore.checklists import InvalidItem, item_texts, split_list
from taskcore.i18n import _

__all__ = ["AddItems", "RemoveItem", "TickItems", "parse_add", "parse_complete_or_tick",
           "parse_remove"]

_TICK = re.compile(r"#?([0-9]{1,18})\.([0-9]{1,2}(?:,[0-9]{1,2})*)")


@dataclass(frozen=True, slots=True)
class AddItems(Command):
    """``/t añadir 12 horno, nevera``: items at the end of a task's checklist."""

    name: ClassVar[str] = "añadir"
    task_id: int
    texts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RemoveItem(Command):
    """``/t quitar 12 2``: item 2 of task 12 removed (the later ones numbered down)."""

    name: ClassVar[str] = "quitar"
    task_id: int
    n: int


@dataclass(frozen=True, slots=True)
class TickItems(Command):
    """``/t x 12.2`` or a reply ``2 hecho``: items of a task ticked; the last one completes it."""

    name: ClassVar[str] = "x"
    task_id: int
    numbers: tuple[int, ...]


def _texts(texts: list[str], name: str) -> tuple[str, ...]:
    try:
        return item_texts(texts)
    except InvalidItem as exc:
        raise usage_error(name, str(exc), field="items") from exc


def parse_add(args: str, ctx: Context) -> AddItems:
    """``/t añadir <id> <elemento>[, <elemento>...]``."""
    task_id, words = task_and_rest(args.split(), "añadir", ctx)
    if not words:
        raise usage_error("añadir", _("falta el elemento"), field="items")
    return AddItems(task_id, _texts(split_list(" ".join(words)), "añadir"))


def parse_remove(args: str, ctx: Context) -> RemoveItem:
    """``/t quitar <id> <n>`` (``/t quitar <n>`` in a reply to the task's message)."""
    words = args.split()
    if len(words) == 1 and ctx.quoted_task is not None:
        return RemoveItem(ctx.quoted_task, _number(words[0], "quitar"))
    if len(words) != 2:
        raise usage_error("quitar", _("faltan datos") if len(words) < 2 else _("sobran datos"))
    return RemoveItem(read_id(words[0], "quitar"), _number(words[1], "quitar"))


def _number(token: str, name: str) -> int:
    if not (token.isascii() and token.isdigit() and len(token) <= 2 and int(token) > 0):
        raise usage_error(name, _("número de elemento no válido: {token}", token=shown(token)), field="items")
    return int(token)


def parse_complete_or_tick(args: str, ctx: Context) -> Complete | TickItems:
    """``/t x 12 15`` completes tasks; ``/t x 12.2`` (``12.2,3``, ``12.2 12.3``) ticks items of one task."""
    tokens = [token.strip(",") for token in args.split() if token.strip(",")]  # ``12.2, 12.3`` too
    ticks = [_TICK.fullmatch(token) for token in tokens]
    if not tokens or not any(ticks):
        return parse_complete(args, ctx)
    if not all(ticks) or len({read_id(found[1], "x") for found in ticks if found}) > 1:
        bad = next((token for token, found in zip(tokens, ticks, strict=True) if not found), tokens[-1])
        raise usage_error("x", _("marca los elementos de una tarea a la vez (/t x 12.2 12.3): {token}",
                                 token=shown(bad)), field="items")
    task_id = read_id(tokens[0].partition(".")[0], "x")
    numbers = [_number(n, "x") for found in ticks if found for n in found[2].split(",")]
    return TickItems(task_id, tuple(dict.fromkeys(numbers)))
