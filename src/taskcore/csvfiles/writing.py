"""The CSV export (SPEC section 35): RFC 4180 through the standard library's ``csv`` (CRLF line ends, fields with a
delimiter, a quote or a line break quoted, quotes doubled), UTF-8 with a byte-order mark so spreadsheet programs
read accents.

Choices the SPEC leaves open:

- The header is the SPEC's column names, in English whatever the reader's language (a file's columns are names
  programs read too; the import reads them back). Dates are ``YYYY-MM-DD``; instants ISO 8601 in the zone of the
  task's group with its offset (``2026-11-22T07:00:00-03:00``, SPEC section 39: a spreadsheet shows the hour the
  group lived; a personal task, or a group without a zone, in the reader's). ``state`` is ``open`` or
  ``completed``.
- ``?sep=semicolon`` (for spreadsheets set to a comma decimal, whose lists are separated by ``;``) writes ``;``
  between cells and a first line ``sep=;`` after the byte-order mark, which spreadsheet programs take as the
  delimiter's name; the import reads that line back.
- People by name, never by number (SPEC section 32): assignees joined by ``, ``, one unknown by the neutral label.
- ``recurrence`` in words of the reader's language (``cada lunes y jueves``, ``every Monday and Thursday``; a season
  too: ``every week from April to September, every 2 weeks the rest``).
- ``items``: the checklist's items joined by `` | `` (SPEC section 41), last, so the columns before keep their places.
- A text cell that a spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a
  carriage return) is written after a ``'``, the mark spreadsheets take for "text": a member's task cannot make the
  exporter's spreadsheet compute anything. The import drops that mark again.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from taskcore.checklists import joined_cell
from taskcore.model import Task
from taskcore.recurrence import rule_text
from taskcore.shown import shown_name

__all__ = ["BOM", "COLUMNS", "FORMULA_STARTS", "MEDIA_TYPE", "defused", "export_csv"]

COLUMNS = ("id", "description", "group", "due_date", "assignees", "state", "recurrence", "points", "created_at",
           "completed_at", "items")
BOM = "\ufeff"
MEDIA_TYPE = "text/csv"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
UTC_ZONE = ZoneInfo("UTC")


def defused(text: str) -> str:
    """``text`` as a cell a spreadsheet shows and never computes (module docstring)."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _instant(moment: datetime | None, zone: ZoneInfo) -> str:
    if moment is None:
        return ""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(zone).isoformat(timespec="seconds")


def _row(task: Task, zone: ZoneInfo) -> list[str | int]:
    names = ", ".join(shown_name(person.name) for person in task.assignees)
    return [
        task.id, defused(task.description), defused(task.group_name or ""),
        task.due_date.isoformat() if task.due_date else "", defused(names),
        "completed" if task.completed else "open", rule_text(task.recurrence) if task.recurrence else "",
        task.points, _instant(task.created_at, zone), _instant(task.completed_at, zone),
        defused(joined_cell([item.text for item in task.items])),
    ]


def export_csv(tasks: Iterable[Task], *, zone_of: Callable[[Task], ZoneInfo] = lambda _task: UTC_ZONE,
               semicolon: bool = False) -> bytes:
    """The tasks as a CSV file with its header, in the language in force: UTF-8 bytes, a byte-order mark first;
    ``zone_of``: the zone each task's instants are written in; ``semicolon``: the ``sep=;`` variant."""
    out = io.StringIO()
    writer = csv.writer(out, dialect="excel", delimiter=";" if semicolon else ",")  # RFC 4180: '"' doubled, CRLF
    if semicolon:
        out.write("sep=;\r\n")
    writer.writerow(COLUMNS)
    writer.writerows(_row(task, zone_of(task)) for task in tasks)
    return (BOM + out.getvalue()).encode("utf-8")
