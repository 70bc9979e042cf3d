"""How ``/t nueva``'s arguments read (SPEC section 5, seed D1-D3), and what every command's parser is given: the
context of the message and the readers of a date and a description that raise the command's usage error."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, timedelta

from taskcore.chat.commands import NewTask
from taskcore.chat.recurrence_clause import Chunk, Clause, take_clause
from taskcore.chat.usage import command_word
from taskcore.chat.usage import usage_error as _error
from taskcore.checklists import InvalidItem, list_after_colon
from taskcore.chores.points import DEFAULT_POINTS, is_points_token, parse_points
from taskcore.date_hints import day_month_guess, day_month_words_guess, weekday_guess
from taskcore.errors import InvalidChoreSetting, ValidationError
from taskcore.i18n import _
from taskcore.text import Description
from taskcore.words import meaning, phrase_at
from taskcore.words.lexicon import any_rule_intro, flag, plain_dates_apart
from taskcore.words.lexicon import due_date as read_due_date
from taskcore.words.lexicon import is_date_like as is_due_word
from taskcore.words.read import day_month

__all__ = ["Context", "description", "due_date", "parse_new", "parse_new_chunks", "plain_words", "shown"]

_MENTION = re.compile(r"@([0-9]+)")
TYPED_NUMBER = 8  # digits of an ``@`` token WhatsApp did not mark as a mention that still names a person (SPEC 38)
# A typed name: letters only, or emoji and symbols only (a member called 🌸🌸); not a WhatsApp mention (digits).
_NAME = re.compile(r"@([^\W\d_]+|[^\w\s@\"“”,.;:!?]+)[,.;:!?]*")
_CHUNK = re.compile(r'["“”]([^"“”]*)["“”]?|[^\s"“”]+')
_NOT_PLAIN = re.compile(r'["“”@!]')  # what a chunk needs to be more than a word: quotes, mentions, flags


@dataclass(frozen=True, slots=True)
class Context:
    """What a command's parser knows besides its arguments: the day, who the message mentions, the quoted task."""

    today: date
    mentioned: frozenset[str]
    quoted_task: int | None = None
    in_group: bool = False
    flags: frozenset[str] = frozenset()
    """The flags the command takes (``each`` for ``!todos``...): its registry row's."""
    written: str = ""
    """The command as it was written (``/t due``, ``/tarefa fora``): what a suggestion repeats."""
    args: str = ""
    """Its arguments as they were written: a suggestion is them with the date it most likely meant (SPEC 39)."""


def shown(token: str) -> str:
    """A token as an error message quotes it (cut at 40 characters)."""
    return f"«{token[:40]}…»" if len(token) > 40 else f"«{token}»"


def due_date(token: str, name: str, today: date, *, task_id: int | None = None, ctx: Context | None = None) -> date:
    """A due date of command ``name`` (a date word of any language too), or its usage error naming the date
    forms; a date it does not accept but most likely means one (``pasado mañana``, ``31/12``, ``Dec 14``,
    ``sexta``) is refused naming it, with the 💡 line of the command that was written (``ctx``) that sets it."""
    try:
        return read_due_date(token, today=today)
    except ValidationError as exc:
        raise date_refusal(token, name, today, task_id=task_id, ctx=ctx) from exc


def date_refusal(token: str, name: str, today: date, *, task_id: int | None = None,
                 ctx: Context | None = None) -> ValidationError:
    """The usage error of command ``name`` refusing the date ``token`` (SPEC sections 23, 30 and 39)."""
    guess = meant_date(token, today)
    if meaning("date", token) == "after_tomorrow":
        reason = _("«{words}» no es una fecha que acepte", words=" ".join(token.split()))
    else:
        reason = _("fecha no válida: {word}", word=shown(token))
    hint = "" if guess is None else _("💡 Si querías el {date}: {command}", date=guess.isoformat(),
                                      command=_fix(name, token, guess, task_id, ctx))
    return _error(name, reason, field="due_date", dates=True, hint=hint)


def meant_date(token: str, today: date) -> date | None:
    """The date a refused date token most likely means: ``pasado mañana``'s day, a numeric day and month
    (``31/12``, ``30/11/2026``), a day and month in words (``Dec 14``, ``1 dic``) or a weekday (``sexta``,
    ``monday``, ``fri``); None when it means none."""
    if meaning("date", token) == "after_tomorrow":
        return today + timedelta(days=2)
    words = token.split()
    written = day_month(token)
    if written is not None and written.month > 12 >= written.day:  # 12/14: only month first makes a date
        token = f"{written.month}/{written.day}" + ("" if written.year is None else f"/{written.year}")
    return (day_month_guess(token, today) or day_month_words_guess(words, today)
            or (weekday_guess(words, today, short=True) if len(words) == 1 else None))


def _fix(name: str, token: str, day: date, task_id: int | None, ctx: Context | None) -> str:
    """The command that sets ``day``: the command that was written with the person's own words, the date in place
    of ``token`` (``/t fora 2026-11-27``, ``/t nova dentista 2026-11-30``); in the reader's words when it is not
    known how it was written."""
    if ctx is not None and ctx.written:
        written = re.sub(r"\s+".join(map(re.escape, token.split())), day.isoformat(), ctx.args, count=1)
        return " ".join(f"{ctx.written} {written}".split())
    if name == "fecha":
        return f"/t {command_word(name)} {task_id} {day.isoformat()}"
    return f"/t {command_word(name)} {day.isoformat()}"


def description(text: str, name: str) -> Description:
    """A task's text of command ``name``, sanitised, or its usage error."""
    try:
        return Description.of(text)
    except ValidationError as exc:
        raise _error(name, str(exc), field="description") from exc


def parse_new(args: str, ctx: Context) -> NewTask:
    """``/t nueva``: the description, at most one date, mentions, ``!todos`` and a recurrence clause; after a colon,
    the items of its checklist (SPEC section 41: ``limpiar la cocina: encimera, horno, nevera``)."""
    if ":" not in args:
        return _parse_new(args, ctx)
    try:
        before, items = list_after_colon(args)
    except InvalidItem as exc:
        raise _error("nueva", str(exc), field="items") from exc
    task = _parse_new(before, ctx)
    return replace(task, items=items) if items else task


def _parse_new(args: str, ctx: Context) -> NewTask:
    parted = None if _NOT_PLAIN.search(args) else plain_dates_apart(args.split())
    if parted is None:  # quotes, mentions, flags or a rule: the chunks' reading
        return parse_new_chunks(args, ctx)
    parts, dates = parted
    return _new_task(parts, dates, [], ctx, each=False, clause=None)


def plain_words(args: str) -> list[str] | None:
    """The words of ``/t nueva``'s arguments when each can only be description or a date (no quote, ``@``, ``!``
    flag or ``cada``/``every``), as the chunks would read them; None otherwise. Most tasks are written so: this
    reading skips the chunks' pattern and the clause's search."""
    if _NOT_PLAIN.search(args):
        return None
    words = args.split()
    return None if any_rule_intro(words) else words


def parse_new_chunks(args: str, ctx: Context) -> NewTask:
    parts: list[str] = []
    dates: list[str] = []
    mentions: list[str] = []
    names: list[str] = []
    name_at: list[int] = []
    each = nag = photo = False
    points = DEFAULT_POINTS
    clause = take_clause([(match.group(0), match.group(1)) for match in _CHUNK.finditer(args)], ctx.flags)
    for chunk, quoted in _joined_dates(clause.rest):
        mention = _MENTION.fullmatch(chunk)
        said = flag(chunk) if quoted is None else None
        if quoted is not None:
            parts.append(quoted)
        elif said is not None and said in ctx.flags:
            each, nag, photo = each or said == "each", nag or said == "nag", photo or said == "photo"
        elif is_points_token(chunk):
            points = _points(chunk)
        elif is_due_word(chunk):
            dates.append(chunk)
        elif mention is not None and (mention.group(1) in ctx.mentioned or len(mention.group(1)) >= TYPED_NUMBER):
            mentions.append(mention.group(1))
        elif ctx.in_group and (name := _NAME.fullmatch(chunk)) is not None:
            names.append(name.group(1))
            name_at.append(sum(len(part.split()) for part in parts))  # where its surname would follow
        else:
            parts.append(chunk)
    task = _new_task(parts, dates, mentions, ctx, each=each, clause=clause, names=names)
    return replace(task, nag=nag, points=points, balanced=clause.balanced, name_at=_first_places(names, name_at),
                   photo=photo)


def _points(token: str) -> int:
    """``!N`` (1 to 10) of ``/t nueva``, or its usage error."""
    try:
        return parse_points(token)
    except InvalidChoreSetting as exc:
        raise _error("nueva", _("los puntos van de !1 a !10: {word}", word=shown(token)), field="points") from exc


def _joined_dates(chunks: list[Chunk]) -> list[Chunk]:
    """The chunks with each date phrase (``pasado mañana``) as one chunk; a quoted chunk never joins one."""
    texts = [text for text, _quoted in chunks]
    joined: list[Chunk] = []
    at = 0
    while at < len(chunks):
        width = phrase_at(texts, at, "date")
        joined.append(chunks[at] if width == 1 else (" ".join(texts[at:at + width]), None))
        at += width
    return joined


def _new_task(parts: list[str], dates: list[str], mentions: list[str], ctx: Context, *, each: bool,
              clause: Clause | None, names: list[str] | None = None) -> NewTask:
    if len(dates) > 1:
        raise _error("nueva", _("solo cabe una fecha por tarea"), field="due_date", dates=True)
    due = due_date(dates[0], "nueva", ctx.today, ctx=ctx) if dates else None
    return NewTask(description(" ".join(parts), "nueva"), due, tuple(dict.fromkeys(mentions)), each,
                   clause.recurrence if clause else None, clause.rotation if clause else False,
                   tuple(dict.fromkeys(names or ())))


def _first_places(names: list[str], places: list[int]) -> tuple[int, ...]:
    """Each distinct name's place (the first one's, as ``NewTask.names`` keeps the first of repeated names)."""
    first: dict[str, int] = {}
    for name, place in zip(names, places, strict=True):
        first.setdefault(name, place)
    return tuple(first.values())
