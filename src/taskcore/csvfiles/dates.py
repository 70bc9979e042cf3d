"""Dates as spreadsheets write them (SPEC section 39): a file's ``12/01/2026`` read day first or month first, and the
dates of a preview that look wrong.

Choices the SPEC leaves open:

- The order is the file's, decided once for all its date cells: a cell whose first number is above 12 can only be day
  first, one whose second is can only be month first. When the cells tell one order, it is taken (a British file is
  read day first even when an American uploads it); when none tells (every day 12 or less) or they disagree, the
  uploader's: month first where CLDR's short date of their locale starts with the month (``en`` of the United
  States, and English of no known country, which CLDR writes as the United States does), day first elsewhere. The
  cells that do not fit the order taken are error lines, as any date that is none.
- The preview says which order it took whenever a cell could be read both ways, with one of the file's own cells
  and the date it became, written in full in the reader's language (``12/01/2026 is December 1, 2026``).
- ``YYYY-MM-DD`` cells are never in doubt and decide nothing.
- A date before the uploader's today or more than 365 days after it is flagged on its line, shown in full, as the chat
  flags it (section 23); the line is still imported.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from taskcore.date_hints import AHEAD_LIMIT_DAYS
from taskcore.i18n import _, current_locale
from taskcore.words.read import day_month, table_date

__all__ = ["DateOrder", "DatesRead", "date_warning", "order_note", "read_order"]

_MONTHS = 12


class DateOrder(enum.StrEnum):
    """How a file's ``12/01/2026`` is read."""

    DAY_FIRST = "day_first"
    MONTH_FIRST = "month_first"


@dataclass(frozen=True, slots=True)
class DatesRead:
    """The order a file's dates are read in; ``example``, a cell that could be read both ways (None when none could:
    nothing to say)."""

    order: DateOrder
    example: str | None = None

    @property
    def month_first(self) -> bool:
        return self.order is DateOrder.MONTH_FIRST


def read_order(cells: Iterable[str], *, month_first: bool) -> DatesRead:
    """The order of a file's date cells (module docstring); ``month_first``: the uploader's own."""
    told: set[DateOrder] = set()
    example = None
    for cell in cells:
        written = day_month(cell)
        if written is None or written.year is None:
            continue
        if written.day > _MONTHS >= written.month:
            told.add(DateOrder.DAY_FIRST)
        elif written.month > _MONTHS >= written.day:
            told.add(DateOrder.MONTH_FIRST)
        elif written.day <= _MONTHS and written.month <= _MONTHS and example is None:
            example = cell.strip()
    own = DateOrder.MONTH_FIRST if month_first else DateOrder.DAY_FIRST
    order = told.pop() if len(told) == 1 else own
    return DatesRead(order, example)


def _long(day: date) -> str:
    from babel.dates import format_date  # noqa: PLC0415 - CLDR data loads only when a preview explains its dates

    return str(format_date(day, "long", locale=current_locale()))


def order_note(dates: DatesRead) -> str | None:
    """The preview's sentence on how a date that reads both ways was read, in the language in force; None when no
    cell reads both ways."""
    if dates.example is None:
        return None
    meant = table_date(dates.example, month_first=dates.month_first)
    if meant is None:
        return None
    if dates.month_first:
        return _("Las fechas se leen con el mes primero (MM/DD/AAAA): {cell} es el {date}. Si en tu hoja va el día "
                 "primero, escríbelas como AAAA-MM-DD.", cell=dates.example, date=_long(meant))
    return _("Las fechas se leen con el día primero (DD/MM/AAAA): {cell} es el {date}. Si en tu hoja va el mes "
             "primero, escríbelas como AAAA-MM-DD.", cell=dates.example, date=_long(meant))


def date_warning(due: date | None, today: date) -> str | None:
    """The ⚠️ flag of a line whose date is before ``today`` or more than a year after it, in the language in force."""
    if due is None:
        return None
    if due < today:
        return _("⚠️ La fecha {date} ya pasó: ¿es la que querías?", date=due.isoformat())
    if (due - today).days > AHEAD_LIMIT_DAYS:
        return _("⚠️ La fecha {date} está a más de un año: ¿es la que querías?", date=due.isoformat())
    return None
