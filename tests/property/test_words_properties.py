"""A command means the same whatever language its words come from (SPEC section 24).

A command is drawn as a template: literal parts (ids, dates, times, descriptions, mentions) and meanings
(``task.nueva``, ``freq.daily``, ``weekday.3``) that each language's table says with its own words. The template is
written once in each language, and once with each word from a language drawn for it alone; the grammar must read
them all as the same command, and as the command the template stands for.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from taskcore.chat.commands import Command
from taskcore.chat.grammar import parse_command
from taskcore.services.conversation.registry import SYNTAX
from taskcore.words import TABLES

TODAY = date(2026, 11, 26)
LANGUAGES = tuple(TABLES)
MENTIONED = ("111", "222")


@dataclass(frozen=True, slots=True)
class Say:
    """A meaning of the tables, written with one of its words in some language (after ``prefix``: ``!`` for a
    flag such as ``!todos``)."""

    meaning: str
    prefix: str = ""


Part = str | Say


@dataclass(frozen=True, slots=True)
class Template:
    """A command as parts, and the name of the command it must parse to."""

    parts: tuple[Part, ...]
    name: str


DESCRIPTIONS = st.lists(st.sampled_from(["comprar", "pão", "leche", "bread", "regar", "plantas", "conta"]),
                        min_size=1, max_size=3)
IDS = st.integers(min_value=1, max_value=10**6).map(str)
DATES = st.one_of(st.sampled_from([Say("date.today"), Say("date.tomorrow")]),
                  st.dates(date(2020, 1, 1), date(2040, 12, 31)).map(date.isoformat))
UNITS = st.sampled_from([Say("rule.DAILY"), Say("rule.WEEKLY"), Say("rule.MONTHLY")])


def _weekdays(days: list[int]) -> tuple[Part, ...]:
    parts: list[Part] = [Say(f"weekday.{days[0]}")]
    for day in days[1:]:
        parts += [Say("rule.joiner"), Say(f"weekday.{day}")]
    return tuple(parts)


RULES = st.one_of(
    UNITS.map(lambda unit: (unit,)),
    st.tuples(st.integers(1, 99).map(str), UNITS),
    st.just((Say("rule.workdays"),)),
    st.lists(st.integers(0, 6), min_size=1, max_size=4, unique=True).map(_weekdays),
).map(lambda rule: (Say("rule.intro"), *rule))


@st.composite
def new_tasks(draw: st.DrawFn) -> Template:
    """``/t nueva`` with a description, maybe a rule, a date, mentions and ``!todos``."""
    rule = draw(st.one_of(st.just(()), RULES, RULES))
    due = draw(st.one_of(st.just(()), DATES.map(lambda due: (due,))))
    mentions = tuple(f"@{digits}" for digits in draw(st.lists(st.sampled_from(MENTIONED), max_size=2)))
    each = draw(st.sampled_from([(), (Say("flag.each", "!"),)]))
    return Template(("/t", Say("task.nueva"), *draw(DESCRIPTIONS), *rule, *due, *mentions, *each), "nueva")


def _one(name: str, *rest: st.SearchStrategy[tuple[Part, ...]]) -> st.SearchStrategy[Template]:
    """``/t <name>`` followed by what ``rest`` draws, one after the other."""
    return st.tuples(*rest).map(lambda parts: Template(("/t", Say(f"task.{name}"), *sum(parts, ())), name))


def _opt(strategy: st.SearchStrategy[tuple[Part, ...]]) -> st.SearchStrategy[tuple[Part, ...]]:
    return st.one_of(st.just(()), strategy)


def _say(*meanings: str) -> st.SearchStrategy[tuple[Part, ...]]:
    return st.sampled_from(meanings).map(lambda name: (Say(name),))


IDS_PART = IDS.map(lambda task_id: (task_id,))
FREQS = _say("freq.off", "freq.daily", "freq.weekdays", "freq.weekly")
TIMES = st.sampled_from(["08:30", "7:05", "21:00"]).map(lambda time: (time,))

TASK_COMMANDS = st.one_of(
    *(_one(name) for name in ("ayuda", "ver", "web", "zona", "calendario", "idioma")),
    _one("x", st.lists(IDS, min_size=1, max_size=3).map(tuple)),
    *(_one(name, IDS_PART) for name in ("tomar", "soltar", "parar")),
    _one("fecha", IDS_PART, st.one_of(DATES.map(lambda due: (due,)), _say("due.none"))),
    _one("editar", IDS_PART, DESCRIPTIONS.map(tuple)),
    _one("modo", IDS_PART, _say("mode.each", "mode.any")),
    _one("recordatorios", FREQS, _opt(TIMES)),
    _one("zona", _say("zone.default")),
    _one("calendario", _say("calendar.revoke")),
    _one("idioma", st.sampled_from(["es", "pt", "en", "english", "Português"]).map(lambda code: (code,))),
)
GROUPS: list[Part] = [Say("place.here"), "120363000000000000@g.us"]


def _group_command(pair: tuple[str, Part]) -> Template:
    name, group = pair
    return Template(("/admin", Say(f"admin.{name}"), group), f"admin {name}")


ADMIN_COMMANDS = st.one_of(
    st.just(Template(("/admin", Say("admin.ayuda")), "admin")),
    st.just(Template(("/admin", Say("admin.sync")), "admin sync")),
    _say("status.pending", "status.allowed", "status.blocked").map(
        lambda status: Template(("/admin", Say("admin.grupos"), *status), "admin grupos")),
    st.tuples(st.sampled_from(["permitir", "bloquear"]),
              st.sampled_from(GROUPS)).map(_group_command),
)
COMMANDS = st.one_of(TASK_COMMANDS, ADMIN_COMMANDS)


@st.composite
def written(draw: st.DrawFn, template: Template, language: str | None) -> str:
    """The template's text: each meaning said by a word of ``language`` (None: a language drawn per word)."""
    words = []
    for part in template.parts:
        if isinstance(part, Say):
            table = TABLES[language or draw(st.sampled_from(LANGUAGES))]
            words.append(part.prefix + draw(st.sampled_from(table[part.meaning])))
        else:
            words.append(part)
    return " ".join(words)


def parse(text: str) -> Command | None:
    return parse_command(text, SYNTAX, today=TODAY, mentioned=MENTIONED)


def means_the_same_in_every_language(template: Template, data: st.DataObject) -> None:
    """Written in Spanish, Portuguese, English and mixed, the template is one command, the one it names."""
    spanish = parse(data.draw(written(template, "es"), label="es"))
    assert spanish is not None
    assert spanish.name == template.name
    for language in LANGUAGES[1:]:
        assert parse(data.draw(written(template, language), label=language)) == spanish
    assert parse(data.draw(written(template, None), label="mixed")) == spanish


@given(COMMANDS, st.data())
def test_a_command_means_the_same_written_in_any_language_or_in_all_of_them(
    template: Template, data: st.DataObject
) -> None:
    means_the_same_in_every_language(template, data)


@given(new_tasks(), st.data())
def test_a_new_task_with_its_date_and_rule_means_the_same_in_any_language(
    template: Template, data: st.DataObject
) -> None:
    means_the_same_in_every_language(template, data)
