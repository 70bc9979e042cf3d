"""The chat's texts of checklists (SPEC section 41): the items under a task, and the replies of ``/t añadir``,
``/t quitar`` and of ticking (``/t x 12.2``, a reply ``2 hecho``)."""

from __future__ import annotations

from collections.abc import Sequence

from taskcore.chat.replies import short
from taskcore.i18n import _, ngettext
from taskcore.model import Item, Task

DONE, OPEN = "☑", "☐"


def mark(item: Item) -> str:
    """An item with its box and number: ``☑ 2 horno``."""
    return f"{DONE if item.done else OPEN} {item.n} {short(item.text, 60)}"


def items_block(items: Sequence[Item]) -> str:
    """A task's items, one a line (after a line break), as /t nueva, /t info and the replies show them."""
    return "".join(f"\n{mark(item)}" for item in items)


def items_inline(items: Sequence[Item]) -> str:
    """A task's items on the line of /t ver, after a line break: ``☑ 1 encimera · ☐ 2 horno (1/2)``."""
    if not items:
        return ""
    done = sum(item.done for item in items)
    return "\n   " + " · ".join(mark(item) for item in items) + f" ({done}/{len(items)})"


def new_items(texts: Sequence[str]) -> str:
    """The items of a task just created, under its reply."""
    return items_block([Item(n, text) for n, text in enumerate(texts, start=1)])


def added(task: Task, count: int) -> str:
    """/t añadir."""
    said = ngettext("Tarea #{id}: {count} elemento añadido.", "Tarea #{id}: {count} elementos añadidos.", count,
                    id=task.id, count=count)
    return said + items_block(task.items)


def removed(task: Task, n: int) -> str:
    """/t quitar."""
    said = _("Tarea #{id}: elemento {n} quitado.", id=task.id, n=n)
    return said + (items_block(task.items) if task.items else "\n" + _("Ya no tiene lista."))


def ticked(task: Task, numbers: Sequence[int], newly: Sequence[int]) -> str:
    """Items ticked on a task still open: which, and how many are done."""
    done = sum(item.done for item in task.items)
    lines = [_("Tarea #{id}: {done} de {total} hechos.", id=task.id, done=done, total=len(task.items))]
    already = [n for n in numbers if n not in newly]
    if already:
        lines.append(ngettext("El elemento {numbers} ya estaba marcado.", "Los elementos {numbers} ya estaban "
                              "marcados.", len(already), numbers=", ".join(map(str, already))))
    return "\n".join(lines) + items_block(task.items)


def waits_for_photo(task_id: int) -> str:
    """The last item ticked on a task that needs a photo to be done."""
    return _("Todos los elementos de la tarea #{id} están hechos; falta la foto para completarla.", id=task_id)
