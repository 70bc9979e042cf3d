"""SPEC section 29: every word the product reads from a person is in the lexicons (``taskcore/words``), and only
their readers parse a date, a time of day, a time range, a weekday, a day and month or a period. This test reads
every other module of the installed packages and fails when one holds a list of such words or a pattern that reads
one of those kinds."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import taskcore
import tasksvc_run
from taskcore.words import lookup, plain

PACKAGES = [Path(taskcore.__file__).parent, Path(tasksvc_run.__file__).parent]
LEXICONS = Path(taskcore.__file__).parent / "words"
PEOPLES_KINDS = ("weekday", "month", "date", "period", "freq", "lang", "unit")
"""The kinds whose words only the lexicons may list (a task's subcommand words are the registry's)."""
SAMPLES = ("8:30", "08:30", "8:5", "23h", "23h30", "11pm", "2026-11-28", "26-11-28", "30/11", "30/11/2026",
           "22:00-07:30", "23h-7h")
"""One of each kind the readers read: a pattern that matches any of them is a reader of that kind (unless it matches
any word at all, as a tokeniser does)."""
NOT_A_KIND = ("word", "x", "@Ana")
MESSAGE_CALLS = {"_", "N_"}


def modules() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted(package.rglob("*.py")):
            if LEXICONS not in path.parents:
                yield path


def _people_words() -> dict[str, str]:
    """The words of people's kinds, less those spelt as their meaning's name (``daily``, ``week``, ``es``): those
    are also the stored values and codes the program names."""
    return {word: kind for kind in PEOPLES_KINDS for word, said in lookup(kind).items() if word != said}


def _constants(tree: ast.AST) -> Iterator[ast.Constant]:
    """The module's string constants, less docstrings, the texts of the catalogs (``_``/``N_`` arguments) and the
    messages of the exceptions it raises (for programmers)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            skipped.update(id(inner) for inner in ast.walk(node.exc))
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MESSAGE_CALLS:
            skipped.update(id(arg) for arg in node.args)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            yield node


def word_lists() -> list[str]:
    """``module:line: words`` for each module holding two or more of people's words in its own strings, as strings
    made of nothing else (``"lunes"``, ``"lunes martes"``; a sentence that names a day is text, not a table)."""
    people = _people_words()
    found = []
    for path in modules():
        words: dict[str, int] = {}
        tree = ast.parse(path.read_text(encoding="utf-8"))
        patterns = {id(node.args[0]) for node in ast.walk(tree)
                    if isinstance(node, ast.Call) and _is_pattern_call(node) and node.args}
        for node in _constants(tree):
            if node.value.isupper() and len(node.value) <= 3:  # a code (a country's ``NO``), not a word people write
                continue
            tokens = [plain(token) for token in node.value.split()]
            if id(node) in patterns:  # a pattern's alternatives: (?:horas|hours)
                tokens = [plain(token) for token in re.findall(r"[^\W\d_]+", node.value)]
                tokens = [token for token in tokens if token in people]
            if tokens and all(token in people for token in tokens):
                for token in tokens:
                    words.setdefault(token, node.lineno)
        if len(words) >= 2:
            found.append(f"{path.name}:{min(words.values())}: {sorted(words)}")
    return found


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


def test_no_module_outside_the_lexicons_holds_a_list_of_people_s_words() -> None:
    assert word_lists() == []


def test_no_module_outside_the_lexicons_reads_a_date_a_time_or_a_range() -> None:
    assert kind_readers() == []


@pytest.mark.parametrize("source", [
    'WEEKDAYS = ("lunes", "martes", "miércoles")',
    'DAYS = {"monday": 0, "tuesday": 1}',
    '_TODAY = frozenset({"hoy", "amanhã"})',
    'x = re.compile(r"([0-9]+) (?:horas|hours)")',
])
def test_the_word_list_check_finds_a_table_of_words(source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) \
        -> None:
    (tmp_path / "copy.py").write_text(source, encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.PACKAGES", [tmp_path])
    assert len(word_lists()) == 1


@pytest.mark.parametrize("source", [
    '_TIME = re.compile(r"([0-9]{1,2}):([0-9]{2})")',
    'ok = re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text)',
    'at: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")',
])
def test_the_reader_check_finds_a_pattern_of_a_kind(source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) \
        -> None:
    (tmp_path / "copy.py").write_text(source, encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.PACKAGES", [tmp_path])
    assert len(kind_readers()) == 1


def test_a_message_or_a_docstring_may_name_the_words() -> None:
    tree = ast.parse('"""lunes martes"""\nx = _("cada lunes y martes")\nN_("hoy o mañana")\n')
    assert [node.value for node in _constants(tree)] == []
