"""The lexicon gate's scanner (tests/unit/test_lexicon_only.py): finds word tables in Python source by meaning.

Every literal collection of a module (a tuple, list, set or dict, nested ones flattened; a ``"a b".split()``; the
strings compared in one condition or one ``case``; the alternatives of a regular expression; a string made of
several words) is read as the lexicons read words (``taskcore.words.plain``) and compared with the words of each
kind. It is a table of a kind when it holds two or more different words of that kind that are not spelled as their
meaning's name (``daily``, ``week``, ``es``, ``nueva`` name stored values, codes and commands: the program's own
vocabulary), and the words of that kind make most of it (three in four of its strings: a record's keys such as
``{"id", "points", "data", "profile"}`` or a list of job labels name fields that happen to be English words; a
pattern's alternatives count whatever else the pattern holds).

Not read: docstrings, the texts of the catalogs (``_``, ``N_``, ``ngettext``), exception messages (for programmers),
``__all__`` (names of Python objects) and codes in capitals of up to three letters (a country's ``LS``).

``language_lists`` finds the other list the registry keeps: two or more of ``taskcore.words.LANGUAGES``' codes in
one collection (``Literal["es", "pt", "en"]``, ``choices=("es", "pt", "en")``, a dict keyed by them) or written in a
row in one string (``es|pt|en``, ``es, pt o en``), catalog texts included.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from taskcore.words import KINDS, key, lookup, plain

MESSAGE_CALLS = frozenset({"_", "N_", "ngettext"})
PATTERN_CALLS = frozenset({"compile", "fullmatch", "match", "search", "split", "sub", "subn", "findall", "finditer"})
MOSTLY = 0.75
"""The share of a collection's strings that must be words of one kind for it to be a table of that kind."""
_REGEX_GROUP = re.compile(r"\(\?(?:[:=!>]|P<\w+>|<[=!])")
_REGEX_SPACE = re.compile(r"\\s[*+?]?|\\ ")
_REGEX_ESCAPE = re.compile(r"\\(.)")
_REGEX_SYNTAX = re.compile(r"[|()\[\]{}?*+^$]")


@dataclass(frozen=True, slots=True)
class Table:
    """A word table found in a module: the line it starts on, the kind, the words of that kind it holds."""

    line: int
    kind: str
    words: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.line}: {self.kind} {list(self.words)}"


@cache
def _kinds() -> Mapping[str, Mapping[str, str]]:
    return {kind: lookup(kind) for kind in sorted(KINDS)}


def _skipped(tree: ast.AST) -> set[int]:
    """The ids of the nodes whose strings are no words people write: docstrings, catalog texts, exception
    messages, ``__all__``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            skipped.update(id(inner) for inner in ast.walk(node.exc))
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MESSAGE_CALLS:
            skipped.update(id(inner) for arg in node.args for inner in ast.walk(arg))
        if isinstance(node, ast.Assign | ast.AnnAssign) and "__all__" in _targets(node):
            skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


def _targets(node: ast.Assign | ast.AnnAssign) -> set[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return {target.id for target in targets if isinstance(target, ast.Name)}


def _strings(node: ast.AST, skipped: set[int]) -> Iterator[ast.Constant]:
    """The string constants of a collection, nested collections included (not those inside calls or
    expressions: a call's arguments are the call's)."""
    children: Iterable[ast.AST | None]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        children = node.elts
    elif isinstance(node, ast.Dict):
        children = [*node.keys, *node.values]
    else:
        children = ()
    for child in children:
        if child is None or id(child) in skipped:
            continue
        if isinstance(child, ast.Constant) and isinstance(child.value, str):
            yield child
        else:
            yield from _strings(child, skipped)


def _compared(node: ast.BoolOp) -> Iterator[ast.AST]:
    """The strings one condition compares a value with (``word == "hoy" or word == "mañana"``)."""
    for value in node.values:
        if isinstance(value, ast.Compare):
            yield from (part for part in (value.left, *value.comparators) if isinstance(part, ast.Constant))


def _is_pattern_call(node: ast.Call) -> bool:
    func = node.func
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "re"
            and func.attr in PATTERN_CALLS)


def alternatives(pattern: str) -> list[str]:
    """The literal pieces of a regular expression (``(?:horas|hours)``: ``horas``, ``hours``; ``a\\.m\\.``:
    ``a.m.``)."""
    text = _REGEX_ESCAPE.sub(r"\1", _REGEX_SPACE.sub(" ", _REGEX_GROUP.sub("(", pattern)))
    return [piece.strip() for piece in _REGEX_SYNTAX.split(text) if piece.strip()]


ITEMS, PATTERN, WORDS = "items", "pattern", "words"
"""How a collection was written: a literal's items, a pattern's pieces, a string's words."""


def _collections(tree: ast.AST, skipped: set[int]) -> Iterator[tuple[int, list[str], str]]:
    """Each collection of strings in the module (nested ones too, each alone and within the outer one): its line,
    its strings, and how it was written (``ITEMS``, ``PATTERN``, ``WORDS``)."""
    patterns = {id(node.args[0]) for node in ast.walk(tree)
                if isinstance(node, ast.Call) and _is_pattern_call(node) and node.args}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict):
            yield node.lineno, [const.value for const in _strings(node, skipped)], ITEMS
        elif isinstance(node, ast.BoolOp):
            yield node.lineno, [part.value for part in _compared(node) if isinstance(part.value, str)], ITEMS
        elif isinstance(node, ast.MatchOr):
            yield node.lineno, [value.value.value for value in node.patterns if isinstance(value, ast.MatchValue)
                                and isinstance(value.value, ast.Constant) and isinstance(value.value.value, str)], \
                ITEMS
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in patterns:
                yield node.lineno, alternatives(node.value), PATTERN
            elif len(node.value.split()) > 1:  # "lunes martes miércoles" (or "...".split())
                yield node.lineno, node.value.split(), WORDS


def _table(line: int, strings: list[str], how: str) -> Table | None:
    texts = [text for text in strings if not (text.isupper() and len(text) <= 3)]
    if len(set(texts)) < 2:
        return None
    for kind, words in _kinds().items():
        bare = [_read(text, words) for text in texts]
        said = {word for word in bare if word in words}
        people = sorted(word for word in said if words[word] != word)
        share = sum(word in said or word in _names(kind) for word in bare) / len(bare)
        if len(people) >= 2 and (how == PATTERN or share >= MOSTLY):
            return Table(line, kind, tuple(people))
    return None


@cache
def _names(kind: str) -> frozenset[str]:
    """The names of the kind's meanings (``complete``, ``claim``): a table may map words to them."""
    return frozenset(lookup(kind).values())


def _read(text: str, words: Mapping[str, str]) -> str:
    """``text`` as a word of ``words`` if it is one, as written (``a.m.``) or bare (``«hoy»``)."""
    written = key(text)
    return written if written in words else plain(text)


def tables(source: str) -> list[Table]:
    """Every word table of the module whose source is ``source``, in order of lines."""
    tree = ast.parse(source)
    skipped = _skipped(tree)
    found = {table.line: table for table in (_table(*each) for each in _collections(tree, skipped)) if table}
    return [found[line] for line in sorted(found)]


def _skipped_for_codes(tree: ast.AST) -> set[int]:
    """What ``language_lists`` does not read: docstrings, exception messages and ``__all__`` (catalog texts it
    reads: a text that lists the codes is a second list too)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            skipped.update(id(inner) for inner in ast.walk(node.exc))
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
        if isinstance(node, ast.Assign | ast.AnnAssign) and "__all__" in _targets(node):
            skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


def _codes_in_a_row(codes: tuple[str, ...]) -> re.Pattern[str]:
    code = "(?:" + "|".join(map(re.escape, codes)) + ")"
    joiner = r"(?:\s*[|,/]\s*|\s+(?:o|or|ou|y|and|e)\s+)"
    return re.compile(rf"(?<![\w-]){code}(?:{joiner}{code})+(?![\w-])")


def language_lists(source: str, codes: tuple[str, ...]) -> list[str]:
    """``line: codes`` for each collection or string of the module that lists two or more of ``codes``."""
    tree = ast.parse(source)
    skipped = _skipped_for_codes(tree)
    in_a_row = _codes_in_a_row(codes)
    found: dict[int, list[str]] = {}
    for line, strings, how in _collections(tree, skipped):
        if how != ITEMS:  # a sentence that says "en" and "es" lists nothing
            continue
        listed = sorted({text for text in strings if text in codes})
        if len(listed) >= 2:
            found.setdefault(line, listed)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            row = in_a_row.search(node.value)
            if row is not None:
                found.setdefault(node.lineno, [row.group(0)])
    return [f"{line}: {found[line]}" for line in sorted(found)]
