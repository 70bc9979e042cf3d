"""A CSV file to import as a group's tasks (SPEC section 35), read line by line into tasks and errors.

Choices the SPEC leaves open:

- The file is UTF-8 (a byte-order mark is dropped); anything else is refused whole (``UnreadableFile``), naming
  how to save it, rather than guessed.
- The delimiter is the one of ``,``, ``;`` and tab found most often, outside quotes, in the first line (the header);
  none of them: one column.
- The first line that is not blank is the header; each cell is a column's name in any language of the lexicons
  (``column.*``: ``descripción``, ``descrição``, ``description``...), read ignoring case, accents and punctuation
  around it. Unknown columns are ignored (an export's ``id``, ``state``...). Without a description column the file
  is refused, naming the names accepted.
- A date is ``YYYY-MM-DD``, or ``DD/MM/YYYY`` or ``MM/DD/YYYY`` as the file's cells and its uploader's language tell
  (``csvfiles.dates``, SPEC section 39; ``words.read.table_date``).
- A first line ``sep=;`` (what spreadsheets write to name their delimiter, and the export's ``?sep=semicolon``)
  names the delimiter and is no header.
- Assignees are member names separated by commas, semicolons, ``/``, ``+``, ``&`` or a joining word (``y``, ``e``,
  ``and``), each matched as a typed ``@Name`` is (``names.match_members``); a name that is nobody's or several
  people's makes the line an error (never a task for the wrong person).
- A recurrence is a rule in the chat's words, with or without ``cada``/``every`` (``cada lunes``, ``every week``),
  optionally with ``!turnos`` or ``!reparto``, which need two assignees or more; points are 1 to 10 (``3`` or
  ``!3``). Items are joined by ``|`` (``encimera | horno``, SPEC section 41), at most 20.
- A blank line is skipped and not counted; more than ``MAX_LINES`` data lines refuse the file whole
  (``TooManyLines``). A line's number is the file's line it starts on (the header is line 1).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TypeVar

from taskcore.checklists import check_count, item_texts, split_cell
from taskcore.chores.points import DEFAULT_POINTS, check_points, is_points_token, parse_points
from taskcore.csvfiles.dates import DateOrder, DatesRead, read_order
from taskcore.csvfiles.writing import FORMULA_STARTS
from taskcore.errors import ValidationError
from taskcore.i18n import _
from taskcore.names import match_members
from taskcore.recurrence import Recurrence, parse_recurrence
from taskcore.text import Description
from taskcore.words import lookup, meaning, plain
from taskcore.words.read import flag, table_date

__all__ = ["MAX_BYTES", "MAX_LINES", "LineError", "Row", "Sheet", "TooManyLines", "UnreadableFile", "read_sheet"]

MAX_LINES = 500
MAX_BYTES = 1024 * 1024
DELIMITERS = (",", ";", "\t")
_SEPARATORS = re.compile(r"[,;/+&]")
Members = Sequence[tuple[str, str | None]]
T = TypeVar("T")


class UnreadableFile(ValidationError):
    """The body is not a CSV file this service reads: not UTF-8, or malformed (400)."""


class TooManyLines(ValidationError):
    """More than ``MAX_LINES`` data lines (413)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One line that makes a task: its assignees' user ids and names, in the order written."""

    line: int
    description: str
    due: date | None
    assignees: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    recurrence: Recurrence | None = None
    rotation: bool = False
    balanced: bool = False
    points: int = 1
    items: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LineError:
    """Why one line makes no task, in the language in force."""

    line: int
    message: str


@dataclass(frozen=True, slots=True)
class Sheet:
    """What a file holds: the lines that make tasks and those that do not, and how its dates were read."""

    rows: tuple[Row, ...]
    errors: tuple[LineError, ...]
    dates: DatesRead = field(default_factory=lambda: DatesRead(DateOrder.DAY_FIRST))


def decode(raw: bytes) -> str:
    """The file's text; UnreadableFile unless it is UTF-8 (with or without a byte-order mark)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(_("el archivo no está en UTF-8: guárdalo como «CSV UTF-8»"), field="body") from exc


def _named_delimiter(text: str) -> tuple[str | None, str]:
    """The delimiter a first line ``sep=X`` names, and the text after that line (None and the text without one)."""
    head, _newline, rest = text.partition("\n")
    head = head.rstrip("\r")
    if len(head) == len("sep=;") and head[:4].lower() == "sep=":
        return head[4], rest
    return None, text


def delimiter(text: str) -> str:
    """The delimiter of the file's first line (module docstring)."""
    named, _rest = _named_delimiter(text)
    if named is not None:
        return named
    first, quoted = [], False
    for char in text.lstrip("\r\n"):
        if char == '"':
            quoted = not quoted
        elif char in "\r\n" and not quoted:
            break
        elif not quoted:
            first.append(char)
    counts = {mark: first.count(mark) for mark in DELIMITERS}
    best = max(DELIMITERS, key=lambda mark: counts[mark])
    return best if counts[best] else ","


def _cell(text: str) -> str:
    """A cell as written, without the export's formula mark (``'=x`` is ``=x``)."""
    text = text.strip()
    return text[1:] if len(text) > 1 and text[0] == "'" and text[1] in FORMULA_STARTS else text


def _lines(text: str) -> Iterator[tuple[int, list[str]]]:
    """Each line that is not blank, with the number of the file's line it starts on."""
    mark, body = _named_delimiter(text)
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=mark or delimiter(text))
    start = 1 if mark is None else 2
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                yield start, cells
            start = reader.line_num + (1 if mark is None else 2)
    except csv.Error as exc:
        raise UnreadableFile(_("la línea {line} no se puede leer como CSV",
                               line=reader.line_num + (1 if mark is None else 2)), field="body") from exc


def _columns(header: Sequence[str]) -> dict[str, int]:
    """Each known column's meaning -> its position (the first such column counts)."""
    found: dict[str, int] = {}
    for at, cell in enumerate(header):
        said = meaning("column", plain(_cell(cell)))
        if said is not None:
            found.setdefault(said, at)
    if "description" not in found:
        names = ", ".join(sorted(word for word, said in lookup("column").items() if said == "description"))
        raise ValidationError(_("falta la columna de la descripción; su cabecera puede ser: {names}", names=names),
                              field="description")
    return found


def read_sheet(raw: bytes, members: Members, *, month_first: bool = False) -> Sheet:
    """The file's tasks and errors; ``members`` are the group's (user id, known name); ``month_first``: the
    uploader's language writes the month first (its dates' order when the file does not tell). UnreadableFile,
    TooManyLines, or ValidationError (an empty file, no description column) refuse it whole."""
    lines = list(_lines(decode(raw)))
    if not lines:
        raise ValidationError(_("el archivo está vacío"), field="body")
    columns = _columns(lines[0][1])
    data = lines[1:]
    if len(data) > MAX_LINES:
        raise TooManyLines(_("el archivo tiene {count} líneas; caben {limit} como mucho", count=len(data),
                             limit=MAX_LINES), field="body")
    rows: list[Row] = []
    errors: list[LineError] = []
    table = [(number, {name: _cell(cells[at]) if at < len(cells) else "" for name, at in columns.items()})
             for number, cells in data]
    dates = read_order((cells.get("due_date", "") for _number, cells in table), month_first=month_first)
    for number, cells in table:
        found = _row(number, cells, members, dates)
        if isinstance(found, Row):
            rows.append(found)
        else:
            errors += found
    return Sheet(tuple(rows), tuple(errors), dates)


def _row(line: int, cells: dict[str, str], members: Members, dates: DatesRead) -> Row | list[LineError]:
    problems: list[str] = []

    def read(name: str, reader: Callable[[str], T]) -> T | None:
        try:
            return reader(cells.get(name, ""))
        except ValidationError as exc:
            problems.append(str(exc))
            return None

    description = read("description", Description.of)
    due = read("due_date", lambda cell: _due(cell, dates))
    people = read("assignees", lambda cell: _people(cell, members))
    recurrence, rotation, balanced = read("recurrence", _rule) or (None, False, False)
    points = read("points", _points)
    items = read("items", _items) or ()
    if rotation and people is not None and len(people) < 2:
        problems.append(_("!turnos y !reparto necesitan dos responsables o más"))
    if problems or description is None:
        return [LineError(line, message[:1].upper() + message[1:]) for message in problems]
    people = people or []
    return Row(line, description, due, tuple(user for user, _name in people), tuple(name for _user, name in people),
               recurrence, rotation, balanced, points or DEFAULT_POINTS, items)


def _due(cell: str, dates: DatesRead) -> date | None:
    if not cell:
        return None
    found = table_date(cell, month_first=dates.month_first)
    if found is None:
        if dates.month_first:
            raise ValidationError(_("fecha no válida: «{value}»; usa AAAA-MM-DD o MM/DD/AAAA", value=cell[:40]),
                                  field="due_date")
        raise ValidationError(_("fecha no válida: «{value}»; usa AAAA-MM-DD o DD/MM/AAAA", value=cell[:40]),
                              field="due_date")
    return found


def _names(cell: str) -> list[str]:
    """The names of an assignees cell (module docstring)."""
    names: list[str] = []
    for part in _SEPARATORS.split(cell):
        current: list[str] = []
        for word in part.split():
            if meaning("rule", word) == "joiner":
                names.append(" ".join(current))
                current = []
            else:
                current.append(word)
        names.append(" ".join(current))
    return [name for name in names if name]


def _people(cell: str, members: Members) -> list[tuple[str, str]]:
    """(user id, name as known) of each name, in order, once each; ValidationError naming the first that is nobody's
    or several people's."""
    known = dict(members)
    found: dict[str, str] = {}
    for name in _names(cell):
        users = match_members(name, members) or match_members(name.replace(" ", ""), members)
        if len(users) != 1:
            if users:
                raise ValidationError(_("«{name}» puede ser varias personas del grupo", name=name[:40]),
                                      field="assignees")
            raise ValidationError(_("nadie del grupo se llama «{name}»", name=name[:40]), field="assignees")
        found.setdefault(users[0], known.get(users[0]) or name)
    return list(found.items())


def _rule(cell: str) -> tuple[Recurrence | None, bool, bool]:
    if not cell:
        return None, False, False
    words = cell.split()
    flags = [flag(word) for word in words]
    text = " ".join(word for word, said in zip(words, flags, strict=True) if said not in ("rotation", "balanced"))
    return parse_recurrence(text), "rotation" in flags or "balanced" in flags, "balanced" in flags


def _items(cell: str) -> tuple[str, ...]:
    """A checklist cell (``encimera | horno``): at most 20 items, none empty (SPEC section 41)."""
    texts = split_cell(cell)
    check_count(0, len(texts))
    return item_texts(texts)


def _points(cell: str) -> int | None:
    if not cell:
        return None
    if is_points_token(cell):
        return parse_points(cell)
    if not (cell.isascii() and cell.isdigit()) or len(cell) > 3:
        raise ValidationError(_("los puntos van de 1 a 10: «{value}»", value=cell[:12]), field="points")
    return check_points(int(cell))
