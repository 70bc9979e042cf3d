"""Every text a person reads, in their language (SPEC section 24): gettext catalogs, one per language.

The message ids are the Spanish texts (Spanish is the seed's language and the default); each language's catalog,
``locales/<lang>/LC_MESSAGES/<domain>.po``, translates them, and its compiled ``.mo`` ships in the wheel. Babel
extracts the messages from the code and templates, updates and compiles the catalogs (``nox -s catalogs``), and
``tests/unit/test_catalogs.py`` fails when a message lacks a translation or a translation drops a placeholder.

Placeholders are named, ``{name}``, filled after the lookup: ``_("Tarea #{id} creada", id=7)``.

The languages are the lexicons' registry's (``taskcore.words.LANGUAGES``): a language has its lexicon and its
catalogs. The language a text is written in is the one in force where it is composed: ``speaking(lang)`` sets it
for a block (the conversation road sets the reply's, a direct message its reader's), like a locale override.
Outside any block it is the process's default: English for a program that imports the library (SPEC section 40: the
messages of its errors in English unless a language is given), Spanish in the service, whose processes say so at
start (``speak_by_default``). Code that writes for someone else than the current reader opens its own block.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime, time
from functools import cache, lru_cache
from pathlib import Path

__all__ = ["LIBRARY_LANGUAGE", "N_", "SOURCE", "_", "clock_time", "current_language", "current_locale", "date_and_time",
           "day_and_month", "month_first", "month_name", "ngettext", "speak_by_default", "speaking", "translations",
           "weekday_name"]

SOURCE = "es"
"""The language the message ids are written in."""
LIBRARY_LANGUAGE = "en"
"""The language outside any ``speaking`` block for a program that imports taskcore."""
DOMAIN = "taskcore"
LOCALES = Path(__file__).parent / "locales"

_current: ContextVar[str | None] = ContextVar("taskcore_language", default=None)
_region: ContextVar[str | None] = ContextVar("taskcore_region", default=None)
_default = {"lang": LIBRARY_LANGUAGE}  # this process's language outside any block (speak_by_default)


@cache
def translations(lang: str, domain: str = DOMAIN, locales: Path = LOCALES) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` for ``domain``; an unknown language reads as the source texts."""
    if not _spoken(lang):
        return _gettext.NullTranslations()
    with open(locales / lang / "LC_MESSAGES" / f"{domain}.mo", "rb") as mo:
        return _gettext.GNUTranslations(mo)


@lru_cache(maxsize=64)
def _spoken(lang: str) -> bool:
    """Whether ``lang`` is one of the registry's languages (read on first use: the lexicons mark their texts with
    this module's ``N_``, so it cannot import them first)."""
    from taskcore.words.registry import LANGUAGES  # noqa: PLC0415

    return lang in LANGUAGES


def current_language() -> str:
    """The language texts are composed in here."""
    return _current.get() or _default["lang"]


def speak_by_default(lang: str) -> None:
    """Make ``lang`` this process's language outside any ``speaking`` block (the service: Spanish, its source)."""
    _default["lang"] = lang if _spoken(lang) else SOURCE


@contextmanager
def speaking(lang: str, *, region: str | None = None) -> Iterator[str]:
    """Compose texts in ``lang`` inside the block (an unknown code: the source language); ``region``, the reader's
    country (ISO code, from their phone number) when one reader is known, decides how dates and times are written
    (``6 Dec`` or ``Dec 6``); None keeps the enclosing block's."""
    token = _current.set(lang if _spoken(lang) else SOURCE)
    place = _region.set(region) if region is not None else None
    try:
        yield current_language()
    finally:
        if place is not None:
            _region.reset(place)
        _current.reset(token)


@lru_cache(maxsize=64)
def _locale_of(lang: str, region: str | None) -> str:
    from babel.localedata import exists  # noqa: PLC0415 - CLDR data loads only when a date is written

    return f"{lang}_{region}" if region is not None and exists(f"{lang}_{region}") else lang


def current_locale() -> str:
    """The CLDR locale texts are composed for: the language in force and, when Babel knows it, the reader's country
    (``en_GB``, ``en_US``; ``en`` alone writes as the United States)."""
    return _locale_of(current_language(), _region.get())


def month_first() -> bool:
    """Whether the reader writes a date's month before its day (CLDR's short date of their locale: ``en`` of the
    United States, and English of no known country, which CLDR writes so; not ``en_GB``, Spanish or Portuguese)."""
    from babel.dates import get_date_format  # noqa: PLC0415 - CLDR data loads only when a file's dates are read

    pattern = str(get_date_format("short", locale=current_locale()).pattern)
    return pattern.lstrip().startswith("M")


def day_and_month(day: date) -> str:
    """A day and month as the reader reads it (SPEC section 39): ``dd/MM`` in Spanish and Portuguese (D4); in English,
    the month by name in CLDR's order for the reader's country (``6 Dec`` in Britain, ``Dec 6`` in the United
    States), never a ``06/12`` one could read either way."""
    if current_language() != "en":
        return f"{day.day:02d}/{day.month:02d}"
    from babel.dates import format_skeleton  # noqa: PLC0415 - CLDR data loads only when a date is written

    return str(format_skeleton("MMMd", day, locale=current_locale()))


def date_and_time(moment: datetime) -> str:
    """A moment as pages write it: ``06/12/2026 18:05`` in Spanish and Portuguese; in English the month by name and
    the reader's clock (``6 Dec 2026 18:05``, ``Dec 6, 2026 6:05 PM``)."""
    if current_language() != "en":
        return f"{moment.day:02d}/{moment.month:02d}/{moment.year} {clock_time(moment)}"
    from babel.dates import format_skeleton  # noqa: PLC0415 - CLDR data loads only when a date is written

    return f"{format_skeleton('yMMMd', moment.date(), locale=current_locale())} {clock_time(moment)}"


def clock_time(moment: time | datetime) -> str:
    """A time of day as the reader reads it: ``18:05`` in Spanish and Portuguese; in English CLDR's short time of
    the reader's country (``6:05 PM`` in the United States, ``18:05`` in Britain), its narrow space a plain one."""
    at = moment.time() if isinstance(moment, datetime) else moment
    if current_language() != "en":
        return f"{at.hour:02d}:{at.minute:02d}"
    from babel.dates import format_time  # noqa: PLC0415 - CLDR data loads only when a time is written

    return str(format_time(at, "short", locale=current_locale())).replace("\u202f", " ")


def _(message: str, /, **params: object) -> str:
    """``message`` in the current language, its ``{name}`` placeholders filled from ``params``."""
    text = translations(current_language()).gettext(message)
    return text.format(**params) if params else text


def ngettext(singular: str, plural: str, n: int, /, **params: object) -> str:
    """The form of ``singular``/``plural`` that agrees with ``n`` in the current language (its catalog's plural rule:
    Portuguese says ``0 feita``), ``{n}`` and the other placeholders filled."""
    text = translations(current_language()).ngettext(singular, plural, n)
    return text.format(n=n, **params)


def N_(message: str, /) -> str:  # noqa: N802 - gettext's name for a marker
    """Marks ``message`` for extraction where it is defined; ``_`` translates it where it is shown."""
    return message


@cache
def _day_names(lang: str) -> tuple[str, ...]:
    from babel.dates import get_day_names  # noqa: PLC0415 - CLDR data loads only when a day is named

    names = get_day_names("wide", context="format", locale=lang)
    return tuple(names[day] for day in range(7))


def weekday_name(weekday: int) -> str:
    """Monday (0) to Sunday (6) as the language in force names it in a sentence (CLDR's, through Babel: ``lunes``,
    ``segunda-feira``, ``Monday``)."""
    return _day_names(current_language())[weekday]


@cache
def _month_names(lang: str) -> tuple[str, ...]:
    from babel.dates import get_month_names  # noqa: PLC0415 - CLDR data loads only when a month is named

    names = get_month_names("wide", context="format", locale=lang)
    return tuple(names[month] for month in range(1, 13))


def month_name(month: int) -> str:
    """January (1) to December (12) as the language in force names it in a sentence (CLDR's, through Babel:
    ``abril``, ``setembro``, ``April``)."""
    return _month_names(current_language())[month - 1]
