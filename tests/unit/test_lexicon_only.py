"""SPEC sections 29 and 37: every word the product reads from a person is in the lexicons (``taskcore/words``), only
their readers parse a date, a time of day, a time range, a weekday, a day and month or a period, and only their
registry lists the languages. This test reads every other module of the installed packages and fails when one holds
a table of people's words of any kind the lexicons know (``tests/word_tables.py`` compares its literal collections
with the lexicons' words by meaning), a pattern that reads one of those kinds, or a second list of the languages.
A table of each kind planted in a copy fails it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import taskcore
import tasksvc_run
from taskcore.words import KINDS, LANGUAGES, lookup
from tests.word_tables import Table, language_lists, tables

PACKAGES = [Path(taskcore.__file__).parent, Path(tasksvc_run.__file__).parent]
LEXICONS = Path(taskcore.__file__).parent / "words"
SAMPLES = ("8:30", "08:30", "8:5", "23h", "23h30", "11pm", "2026-11-28", "26-11-28", "30/11", "30/11/2026",
           "22:00-07:30", "23h-7h")
"""One of each kind the readers read: a pattern that matches any of them is a reader of that kind (unless it matches
any word at all, as a tokeniser does)."""
NOT_A_KIND = ("word", "x", "@Ana")


def modules() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted(package.rglob("*.py")):
            if LEXICONS not in path.parents:
                yield path


def word_lists() -> list[str]:
    """``module:line: kind [words]`` for each table of people's words outside the lexicons."""
    return [f"{path.name}:{table}" for path in modules() for table in tables(path.read_text(encoding="utf-8"))]


def second_language_lists() -> list[str]:
    """``module:line: [codes]`` for each list of the languages outside the lexicons' registry."""
    return [f"{path.name}:{found}" for path in modules()
            for found in language_lists(path.read_text(encoding="utf-8"), LANGUAGES)]


def _is_pattern_call(node: ast.Call) -> bool:
    func = node.func
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "re"
            and func.attr in {"compile", "fullmatch", "match", "search", "split", "sub", "findall", "finditer"})


def kind_readers() -> list[str]:
    """``module:line: pattern`` for each regular expression outside the lexicons that reads one of the kinds."""
    found = []
    for path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        patterns = [(node.lineno, node.args[0].value) for node in ast.walk(tree)
                    if isinstance(node, ast.Call) and _is_pattern_call(node) and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)]
        answers = {id(node) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef) and cls.name.endswith("Out")
                   for node in ast.walk(cls)}  # an answer's schema describes what the service writes; it reads nothing
        patterns += [(node.lineno, kw.value.value) for node in ast.walk(tree)
                     if isinstance(node, ast.Call) and id(node) not in answers
                     for kw in node.keywords if kw.arg == "pattern" and isinstance(kw.value, ast.Constant)
                     and isinstance(kw.value.value, str)]
        for line, pattern in patterns:
            compiled = re.compile(pattern)
            hits = [sample for sample in SAMPLES if compiled.fullmatch(sample)]
            if hits and not any(compiled.fullmatch(other) for other in NOT_A_KIND):
                found.append(f"{path.name}:{line}: {pattern!r} reads {hits}")
    return found


def test_no_module_outside_the_lexicons_holds_a_table_of_people_s_words() -> None:
    assert word_lists() == []


def test_no_module_outside_the_lexicons_reads_a_date_a_time_or_a_range() -> None:
    assert kind_readers() == []


def test_no_module_but_the_registry_lists_the_languages() -> None:
    assert second_language_lists() == []


@pytest.fixture
def plant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package holding only the module the test writes, read by the gate in place of the installed ones."""
    monkeypatch.setattr(f"{__name__}.PACKAGES", [tmp_path])
    return tmp_path / "copy.py"


PLANTED = {
    "reply words": ('_DONE = {"hecho", "listo", "feito", "done"}', "reply"),
    "reply words (claim)": ('CLAIM = ["yo", "eu", "mine"]', "reply"),
    "month abbreviations": ('MONTHS = ("ene", "feb", "mar", "abr")', "month_short"),
    "weekday abbreviations": ('DAYS = {"lun": 0, "mar": 1, "mié": 2}', "weekday_short"),
    "command words": ('_COMMANDS = {"nueva": "new", "nova": "new", "ver": "list", "lista": "list"}', "task"),
    "command words in a condition": ('def f(w):\n    return w in ("help", "ajuda", "ayuda")', "admin"),
    "yes words": ('_YES = frozenset({"sí", "si", "sim", "yes"})', "confirm"),
    "date words": ('def f(w):\n    if w == "hoy" or w == "amanhã":\n        return 1', "date"),
    "date words in a match": ('def f(w):\n    match w:\n        case "hoy" | "mañana":\n            return 1',
                              "date"),
    "weekday names": ('WEEKDAYS = ("lunes", "martes", "miércoles")', "weekday"),
    "weekday names in a string": ('W = "lunes martes miércoles".split()', "weekday"),
    "month names": ('M = [("enero", 1), ("febrero", 2)]', "month"),
    "frequencies": ('FREQS = {"diario": "daily", "diário": "daily", "semanal": "weekly"}', "freq"),
    "periods": ('P = {"semana": "week", "mês": "month", "mes": "month"}', "period"),
    "on/off words": ('OFF = ("apagado", "desligado", "off", "no")', "freq"),
    "time-of-day marks": ('MARKS = {"a.m.": 0, "p.m.": 12, "am": 0, "pm": 12}', "clock"),
    "time-of-day marks in a pattern": ('x = re.compile(r"([0-9]+)\\s*(a\\.m\\.|p\\.m\\.)")', "clock"),
    "range words": ('JOINERS = ("a", "até", "to", "-")', "range"),
    "range words in a pattern": ('_TO = re.compile(r"\\s+(?:a|até|hasta)\\s+")', "range"),
    "units in a pattern": ('x = re.compile(r"([0-9]+) (?:horas|hours)")', "unit"),
    "reaction emoji": ('REACTIONS = {"✅": "complete", "✔️": "complete", "☑️": "complete"}', "reaction"),
    "the bot's marks": ('MARKS = ("🤖", "⚠️")', "mark"),
    "language names": ('NAMES = {"español": "es", "português": "pt", "english": "en"}', "lang"),
}


@pytest.mark.parametrize(("source", "kind"), PLANTED.values(), ids=PLANTED)
def test_a_planted_table_of_each_kind_fails_the_gate(source: str, kind: str, plant: Path) -> None:
    plant.write_text(source, encoding="utf-8")
    found = word_lists()
    assert len(found) == 1
    assert f": {kind} [" in found[0]


def _plantable(kind: str) -> list[str]:
    """Up to four of the kind's words that are not spelled as their meaning's name (the program's values)."""
    words = lookup(kind)
    return sorted(word for word, said in words.items() if word != said)[:4]


@pytest.mark.parametrize("kind", sorted(kind for kind in KINDS if len(_plantable(kind)) >= 2))
def test_a_table_of_any_kind_the_lexicons_know_fails_the_gate(kind: str, plant: Path) -> None:
    """Not a list kept beside the lexicons: the gate compares with whatever kinds they hold."""
    plant.write_text(f"TABLE = {tuple(_plantable(kind))!r}\n", encoding="utf-8")
    assert [table.kind for table in tables(plant.read_text(encoding="utf-8"))] == [kind]
    assert len(word_lists()) == 1


@pytest.mark.parametrize("source", [
    'Freq = Literal["off", "daily", "weekly", "weekdays"]',  # stored values, spelled as their meaning's name
    'PENDING, DONE, FAILED = "pending", "done", "failed"',  # a job's states: two English words of three
    'LABELS = frozenset({"digest", "nag", "notice", "summary", "chore", "held"})',
    'def f(me, points, rows):\n    return {"profile": me, "points": points, "data": rows, "at": 1}',
    '__all__ = ["approve", "reject"]',
    '"""lunes martes"""\nx = _("cada lunes y martes")\nN_("hoy o mañana")\n',
    'ZONES = {"ES": "Europe/Madrid", "LS": "Africa/Maseru", "TZ": "Africa/Dar_es_Salaam"}',
    'log.info("the bot answers today and tomorrow")',
])
def test_values_records_and_texts_are_no_tables(source: str) -> None:
    assert tables(source) == []


def test_a_table_is_found_wherever_it_hides() -> None:
    nested = 'ROWS = {0: ("lunes", "segunda"), 1: ("martes", "terça")}\nS = {"x": 1, "y": {"hoy": 0, "hoje": 0}}'
    assert [(table.line, table.kind) for table in tables(nested)] == [(1, "weekday"), (2, "date")]
    assert tables('raise ValueError("lunes martes")') == []
    assert tables('x = 1\nDAYS = ("lunes", "martes")') == [Table(2, "weekday", ("lunes", "martes"))]


@pytest.mark.parametrize("source", [
    'Lang = Literal["es", "pt", "en"]',
    'parser.add_argument("--lang", choices=("es", "pt", "en"))',
    'PLURALS = {"es": 2, "pt": 2}',
    'HELP = "print the sheet in a language: --lang es|pt|en"',
    'x = _("Elige es, pt o en.")',
])
def test_a_second_list_of_the_languages_fails_the_gate(source: str, plant: Path) -> None:
    plant.write_text(source, encoding="utf-8")
    assert len(second_language_lists()) == 1


@pytest.mark.parametrize("source", [
    'DEFAULT = "es"',
    'x = _("Te escribo en {language}: es tuyo")',
    'LANGUAGE_LABELS = tuple((code, name(code)) for code in LANGUAGES)',
])
def test_one_language_or_a_sentence_is_no_list(source: str) -> None:
    assert language_lists(source, LANGUAGES) == []


@pytest.mark.parametrize("source", [
    '_TIME = re.compile(r"([0-9]{1,2}):([0-9]{2})")',
    'ok = re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text)',
    'at: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")',
])
def test_the_reader_check_finds_a_pattern_of_a_kind(source: str, plant: Path) -> None:
    plant.write_text(source, encoding="utf-8")
    assert len(kind_readers()) == 1
