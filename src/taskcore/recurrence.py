"""Recurring tasks (SPEC section 20): the rule a person types, as an RFC 5545 RRULE, and the dates of its series.

Values in, values out: ``today`` is always an argument. The dates are computed by python-dateutil's ``rrule`` over
plain dates (midnight, no zone), so a change of daylight saving time can never move an occurrence to another day.

Choices the SPEC leaves open:

- Rule words are read ignoring case and accents (``miércoles``, ``miercoles``, ``MIÉRCOLES``), Spanish, Portuguese
  and English mixed (``cada monday e jueves``; the words are ``taskcore.words``'s); weekdays are joined by ``y``,
  ``e``, ``and`` or commas.
- ``parse_recurrence`` keeps a rule as typed (``FREQ=WEEKLY`` for ``cada semana``); ``pinned`` fixes it to its first
  date when a task is created (``FREQ=WEEKLY;BYDAY=WE``), so the series keeps its weekday, and its day of the month:
  a monthly series on the 29th to 31st falls on the last day of shorter months (``BYMONTHDAY=28,29,30,31;BYSETPOS=-1``
  for the 31st) instead of skipping them, as a bare RRULE would.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from taskcore import seasons
from taskcore.errors import InvalidRecurrence
from taskcore.i18n import N_, SOURCE, _, current_language, speaking, weekday_name
from taskcore.occurrences import first_occurrence, next_occurrence
from taskcore.words import join_phrases, key, meaning
from taskcore.words.lexicon import is_rule_intro

__all__ = ["ACCEPTED_RULES", "MAX_INTERVAL", "Recurrence", "describe", "first_occurrence", "is_intro",
           "next_occurrence", "opens_rule", "parse_recurrence", "pieces", "pinned", "read_rule", "rule_text",
           "starts_rule"]

MAX_INTERVAL = 99
ACCEPTED_RULES = N_(
    "cada día|semana|mes, cada lunes (varios: cada lunes, miércoles y viernes), cada laborable, "
    "cada N días|semanas|meses (N de 1 a 99); en inglés: every day|week|month|monday…; con temporada: cada semana "
    "de abril a septiembre[, cada 2 semanas el resto]"
)
"""The accepted forms, as the chat's replies show them."""

_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_UNITS = ("DAILY", "WEEKLY", "MONTHLY")
_PIECE = re.compile(r",|[^\s,]+")
_RULE_KINDS = ("rule", "weekday", "season")


def _unit(word: str) -> str | None:
    """DAILY, WEEKLY or MONTHLY for a unit word in any language (``día``, ``weeks``, ``mês``), else None."""
    said = meaning("rule", word)
    return said if said in _UNITS else None


def _weekday(word: str) -> int | None:
    """The weekday (Monday is 0) a word names in any language (``lunes``, ``monday``, ``segunda-feira``)."""
    said = meaning("weekday", word)
    return None if said is None else int(said)


def _is_workdays(word: str) -> bool:
    return meaning("rule", word) == "workdays"


def _is_joiner(word: str) -> bool:
    return word == "," or meaning("rule", word) == "joiner"


@dataclass(frozen=True, slots=True)
class Recurrence:
    """A recurrence rule: ``rule`` is the RFC 5545 RRULE value (``FREQ=WEEKLY;BYDAY=MO,TH``), ``text`` its Spanish
    reading for people (``cada lunes y jueves``)."""

    rule: str
    text: str


is_intro = is_rule_intro
"""``cada``, ``every`` (or ``a cada`` as one token), or ``toda``/``todo``: a word a rule may follow (the lexicons')."""


def opens_rule(intro: str, after: str) -> bool:
    """``intro`` followed by ``after`` opens a rule: ``cada``/``every`` before anything that can begin one,
    ``toda``/``todo`` only before a rule word (``todo dia``, ``toda segunda``; ``todo 3 kg`` is text)."""
    said = meaning("rule", intro)
    if said == "intro":
        return starts_rule(after)
    return said == "intro_if_rule" and _is_rule_word(after)


def starts_rule(token: str) -> bool:
    """The token can begin a rule: a number, a unit, a weekday or ``laborable``."""
    word = key(token)
    return (word.isascii() and word.isdigit()) or _is_rule_word(word)


def _is_rule_word(word: str) -> bool:
    return _unit(word) is not None or _weekday(word) is not None or _is_workdays(word)


def pieces(text: str) -> list[str]:
    """The words of a rule, commas apart: ``lunes,jueves`` is three pieces."""
    return _PIECE.findall(text)


def read_rule(words: Sequence[str]) -> tuple[Recurrence, int]:
    """The rule at the start of ``words`` (what follows ``cada``) and how many of them it took; InvalidRecurrence
    when they do not make one. A rule word right after the rule (``cada lunes martes``) is an error too. Phrases
    (``dias úteis``, ``segunda feira``) are read as one word."""
    terms = join_phrases(words, *_RULE_KINDS)
    found, used = _read_terms(terms)
    found, used = _seasons(found, terms, used)
    return found, sum(len(term.split()) for term in terms[:used])


def _seasons(found: Recurrence, terms: Sequence[str], at: int) -> tuple[Recurrence, int]:
    """The rule read with its window (``de abril a septiembre``) and a second rule for another window (``, cada 2
    semanas el resto``) when they follow it (SPEC section 41)."""
    window = seasons.read_window(terms, at)
    if window is None:
        return found, at
    months, width = window
    at += width
    gap = 1 if at < len(terms) and _is_joiner(key(terms[at])) else 0
    if at + gap + 1 >= len(terms) or not is_intro(terms[at + gap]) or not starts_rule(terms[at + gap + 1]):
        return _spanish(seasons.with_months(found.rule, months)), at
    other, used = _read_terms(terms[at + gap + 1:])
    end = at + gap + 1 + used
    if seasons.is_rest(terms, end):
        second, end = seasons.rest_of(months), end + 1
    elif (own := seasons.read_window(terms, end)) is not None:
        second, end = own[0], end + own[1]
        seasons.check_apart(months, second)
    else:
        raise InvalidRecurrence(_("la segunda regla necesita sus meses o «el resto»"), field="recurrence")
    parts = (seasons.with_months(found.rule, months),
             seasons.with_months(seasons.with_days_of(found.rule, other.rule), second))
    return _spanish(seasons.joined(parts)), end


def _read_terms(words: Sequence[str]) -> tuple[Recurrence, int]:
    if not words:
        raise InvalidRecurrence(_("falta la regla tras «cada»"), field="recurrence")
    first = key(words[0])
    if first.isascii() and first.isdigit():
        found, used = _every_n(first, words[1] if len(words) > 1 else None), 2
    elif (unit := _unit(first)) is not None:
        found, used = _interval(unit, 1), 1
    elif _is_workdays(first):
        found, used = _days(range(5)), 1
    elif _weekday(first) is not None:
        days, used = _weekday_list(words)
        found = _days(days)
    else:
        raise InvalidRecurrence(_("regla no válida: «{word}»", word=words[0][:40]), field="recurrence")
    if used < len(words) and _is_rule_word(key(words[used])):
        if _weekday(first) is not None:
            raise InvalidRecurrence(_("une los días con «y» o con comas (cada lunes y martes): «{word}»",
                                      word=words[used][:40]), field="recurrence")
        raise InvalidRecurrence(_("después de la regla sobra «{word}»", word=words[used][:40]), field="recurrence")
    return found, used


def _every_n(number: str, unit: str | None) -> Recurrence:
    digits = number.lstrip("0")
    if len(digits) > 2 or not digits:  # also refuses 5,000 digits before int() would
        raise InvalidRecurrence(_("el número de «cada N» va de 1 a {limit}: «{word}»", limit=MAX_INTERVAL,
                                  word=number[:12]), field="recurrence")
    freq = None if unit is None else _unit(unit)
    if freq is None:
        raise InvalidRecurrence(_("tras «cada N» van días, semanas o meses"), field="recurrence")
    return _interval(freq, int(digits))


def _spanish(rule: str) -> Recurrence:
    """The rule with its stored text: the Spanish ``describe`` of it (``cada lunes y jueves``)."""
    with speaking(SOURCE):
        return Recurrence(rule, describe(rule))


def _interval(freq: str, every: int) -> Recurrence:
    return _spanish(f"FREQ={freq}" if every == 1 else f"FREQ={freq};INTERVAL={every}")


def _weekday_list(words: Sequence[str]) -> tuple[list[int], int]:
    days, at = [_weekday(words[0]) or 0], 1
    while at + 1 < len(words) and _is_joiner(key(words[at])) and (day := _weekday(words[at + 1])) is not None:
        days.append(day)
        at += 2
    return days, at


def _days(days: Sequence[int] | range) -> Recurrence:
    ordered = sorted(set(days))
    return _spanish("FREQ=WEEKLY;BYDAY=" + ",".join(_CODES[d] for d in ordered))


def parse_recurrence(text: str) -> Recurrence:
    """Read a rule of SPEC section 20, with or without the leading ``cada``/``every``: ``cada lunes y jueves`` ->
    ``Recurrence("FREQ=WEEKLY;BYDAY=MO,TH", "cada lunes y jueves")``. Raises InvalidRecurrence (a ValueError)."""
    words = join_phrases(pieces(text), "rule")
    if words and is_intro(words[0]):
        words = pieces(" ".join(words[1:]))
    found, used = read_rule(words)
    if used < len(words):
        raise InvalidRecurrence(_("después de la regla sobra «{word}»", word=words[used][:40]), field="recurrence")
    return found


def pinned(recurrence: Recurrence, first: date) -> Recurrence:
    """The rule fixed to its first date: a weekly rule without days keeps that weekday, a monthly one that day of the
    month (the 29th to 31st fall on the last day of shorter months); each of a chore's seasons alike."""
    return Recurrence(seasons.joined(_pinned(part, first) for part in seasons.split(recurrence.rule)),
                      recurrence.text)


def _pinned(rule: str, first: date) -> str:
    parts = [part for part in rule.split(";") if not part.startswith("BYMONTH=")]
    months = [part for part in rule.split(";") if part.startswith("BYMONTH=")]  # kept last, as a season writes it
    keys = {part.partition("=")[0] for part in parts}
    if "FREQ=WEEKLY" in parts and "BYDAY" not in keys:
        parts.append(f"BYDAY={_CODES[first.weekday()]}")
    elif "FREQ=MONTHLY" in parts and "BYMONTHDAY" not in keys:
        day = first.day
        parts += [f"BYMONTHDAY={day}"] if day <= 28 else [
            "BYMONTHDAY=" + ",".join(str(d) for d in range(28, day + 1)), "BYSETPOS=-1"]
    return ";".join(parts + months)


class _Ruled(Protocol):
    @property
    def rule(self) -> str: ...

    @property
    def text(self) -> str: ...


def rule_text(recurrence: _Ruled) -> str:
    """A series' or a rule's rule as the reader reads it (SPEC sections 20 and 24): the stored text in Spanish (the
    words it was read from), else written from the RRULE in the language in force."""
    if current_language() == SOURCE and recurrence.text:
        return recurrence.text
    return describe(recurrence.rule)


_WORKDAYS = ["MO", "TU", "WE", "TH", "FR"]


def describe(rule: str) -> str:
    """An RRULE of section 20 in words, in the language in force (``FREQ=WEEKLY;BYDAY=MO,TH``: every Monday and
    Thursday); the days and months are CLDR's names. Seasons (SPEC section 41): ``every week from April to
    September, every 2 weeks the rest``."""
    first, *rest = seasons.split(rule) or [""]
    texts = [_windowed(first)]
    if rest:
        second = seasons.as_written(first, rest[0])
        months = seasons.months_of(first) or frozenset()
        texts.append(seasons.rest_text(_describe(second)) if seasons.months_of(second) == seasons.YEAR - months
                     else _windowed(second))
    return ", ".join(texts)


def _windowed(rule: str) -> str:
    months = seasons.months_of(rule)
    return _describe(rule) if months is None else f"{_describe(rule)} {seasons.window_text(months)}"


def _describe(rule: str) -> str:
    parts = dict(part.partition("=")[::2] for part in rule.split(";") if "=" in part)
    every = int(parts.get("INTERVAL", "1") or 1)
    days = [d for d in parts.get("BYDAY", "").split(",") if d in _CODES]
    freq = parts.get("FREQ", "")
    if freq == "WEEKLY" and days:
        return _weekly(days, every)
    if freq == "DAILY":
        return _("cada día") if every == 1 else _("cada {count} días", count=every)
    if freq == "MONTHLY":
        return _("cada mes") if every == 1 else _("cada {count} meses", count=every)
    return _("cada semana") if every == 1 else _("cada {count} semanas", count=every)


def _weekly(days: list[str], every: int) -> str:
    if days == _WORKDAYS and every == 1:
        return _("cada laborable")
    names = [weekday_name(_CODES.index(d)) for d in days]
    listed = names[0] if len(names) == 1 else _("{first} y {last}", first=", ".join(names[:-1]), last=names[-1])
    if every == 1:
        return _("cada {days}", days=listed)
    return _("cada {count} semanas: {days}", count=every, days=listed)
