"""Checklists inside a task (SPEC section 41), pure: what an item may be, how many a task holds, how a list of
items is written (``encimera, horno, nevera``) and joined in a CSV cell (``encimera | horno | nevera``).

Choices the SPEC leaves open (docs/decisions.md, "Checklists"):

- An item is plain text of 1 to 200 characters, sanitised as a description is; a comma separates items, so an
  item holds none (in a CSV cell, `` | `` separates them and an item holds no ``|``).
- Removing an item numbers the later ones down (``/t quitar 12 2``: item 3 becomes 2), as a list shows them.
- Ticking is for an open task; the task is done when its last item is ticked, by who ticked it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from taskcore.errors import ValidationError
from taskcore.i18n import _
from taskcore.text import clean_text

__all__ = ["CSV_SEPARATOR", "MAX_ITEMS", "MAX_ITEM_LENGTH", "InvalidItem", "check_count", "item_texts",
           "joined_cell", "list_after_colon", "split_cell", "split_list"]

MAX_ITEMS = 20
MAX_ITEM_LENGTH = 200
CSV_SEPARATOR = " | "


class InvalidItem(ValidationError):
    """An item refused: empty, too long, one too many, or a number the task does not have (``field`` ``items``)."""


def item_texts(texts: Sequence[str]) -> tuple[str, ...]:
    """Each item's text sanitised; InvalidItem naming the first that is empty or too long."""
    found = []
    for at, text in enumerate(texts, start=1):
        cleaned = clean_text(text)
        if not cleaned:
            raise InvalidItem(_("el elemento {n} está vacío", n=at), field="items")
        if len(cleaned) > MAX_ITEM_LENGTH:
            raise InvalidItem(_("el elemento {n} pasa de {limit} caracteres", n=at, limit=MAX_ITEM_LENGTH),
                              field="items")
        found.append(cleaned)
    return tuple(found)


def check_count(had: int, adding: int) -> None:
    """A task with ``had`` items may take ``adding`` more: at most MAX_ITEMS in all (InvalidItem otherwise)."""
    if had + adding > MAX_ITEMS:
        raise InvalidItem(_("una tarea tiene como mucho {limit} elementos (esta tendría {count})", limit=MAX_ITEMS,
                            count=had + adding), field="items")


def split_list(text: str) -> list[str]:
    """A comma list as written after a colon or ``/t añadir 12``: ``encimera, horno`` -> ``["encimera", "horno"]``."""
    return [part.strip() for part in text.split(",")]


_COLON = re.compile(r":(?=\s|$)")  # a colon that ends a word: ``cocina:`` (``10:30`` and ``https://`` are no list)


def list_after_colon(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` before the first colon that ends a word outside quotes, and the items of the comma list after it
    (none when there is no such colon): ``limpiar la cocina: encimera, horno``. InvalidItem as ``item_texts``."""
    for found in _COLON.finditer(text):
        if sum(text.count(mark, 0, found.start()) for mark in '"“”') % 2 == 0:
            texts = split_list(text[found.end():])
            check_count(0, len(texts))
            return text[:found.start()], item_texts(texts)
    return text, ()


def joined_cell(texts: Sequence[str]) -> str:
    """Items as one CSV cell: ``encimera | horno | nevera``."""
    return CSV_SEPARATOR.join(texts)


def split_cell(cell: str) -> list[str]:
    """A CSV cell's items (``joined_cell``'s inverse); an empty cell has none."""
    return [part.strip() for part in cell.split("|")] if cell.strip() else []
