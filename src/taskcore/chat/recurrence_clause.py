"""The chat's words for recurring tasks and time zones (SPEC sections 20 and 21), apart from ``grammar.py``, which
only calls them: the ``cada <regla>`` clause and the ``!turnos`` flag of ``/t nueva``, and ``/t zona``.

Choices the SPEC leaves open:

- A ``cada`` (or ``every``) outside quotes starts the clause only when the next word can start a rule (a number, a
  unit, a weekday, ``laborable``): ``revisar cada habitación`` stays plain text. Once started, a malformed rule
  rejects the command with the accepted forms (``cada 0 días``, ``cada 100 días``, ``cada lunes martes``).
- The rule ends at the first word that does not continue it; the words after it go back to the description
  (``regar cada lunes las plantas`` is "regar las plantas" every Monday). One clause per task.
- ``!turnos`` (also ``!turns``) may stand anywhere outside quotes; it needs a rule.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from taskcore.chat.commands import SetZone, ShowZone
from taskcore.chat.usage import usage_error
from taskcore.errors import InvalidRecurrence, InvalidTimeZone
from taskcore.i18n import _
from taskcore.recurrence import Recurrence, is_intro, opens_rule, pieces, read_rule
from taskcore.words import meaning
from taskcore.words.read import flag
from taskcore.zones import zone_by_city

Chunk = tuple[str, str | None]
"""A chunk of ``/t nueva``'s arguments: its text and, for a quoted chunk, the text inside the quotes."""



@dataclass(frozen=True, slots=True)
class Clause:
    """The chunks left for the description, dates and mentions; the rule read, and whether people take turns."""

    rest: list[Chunk]
    recurrence: Recurrence | None
    rotation: bool
    balanced: bool = False


def take_clause(chunks: Sequence[Chunk], accepted: Collection[str] = ("rotation", "balanced")) -> Clause:
    """Take the ``cada <regla>`` clause and the ``!turnos`` flag out of ``/t nueva``'s chunks (the flags among
    ``accepted``: the command's)."""
    flags = [said if quoted is None and (said := flag(text)) in accepted else None for text, quoted in chunks]
    balanced = "balanced" in flags
    rotation = balanced or "rotation" in flags
    rest = [chunk for chunk, said in zip(chunks, flags, strict=True) if said not in ("rotation", "balanced")]
    start = _clause_start(rest, 0)
    recurrence = None
    if start is not None:
        recurrence, rest = _read_clause(rest, *start)
        if _clause_start(rest, start[0]) is not None:
            raise usage_error("nueva", _("solo cabe una regla «cada» por tarea"), field="recurrence", rules=True)
    if rotation and recurrence is None:
        refusal = _("!reparto va con una regla «cada»") if balanced else _("!turnos va con una regla «cada»")
        raise usage_error("nueva", refusal, field="rotation", rules=True)
    return Clause(rest, recurrence, rotation, balanced)


def _clause_start(chunks: Sequence[Chunk], first: int) -> tuple[int, int] | None:
    """Where the first clause at or after ``first`` starts (outside quotes) and where its rule starts: a ``cada``
    (``a cada``, ``every``) that a rule word follows, or a ``toda``/``todo`` before a rule word."""
    for at in range(first, len(chunks) - 1):
        (word, quoted), (after, after_quoted) = chunks[at], chunks[at + 1]
        if quoted is None and after_quoted is None and is_intro(word) and opens_rule(word, pieces(after)[0]):
            return (at - 1 if at > first and _opens_with(chunks[at - 1], word) else at), at + 1
    return None


def _opens_with(chunk: Chunk, word: str) -> bool:
    """Whether ``chunk`` and ``word`` make one rule's first words (Portuguese ``a cada``: the lexicons' phrase)."""
    return chunk[1] is None and is_intro(f"{chunk[0]} {word}")


def _read_clause(chunks: Sequence[Chunk], start: int, rule_start: int) -> tuple[Recurrence, list[Chunk]]:
    """Read the rule at ``rule_start`` after the clause's first word at ``start``; the chunks without the clause
    (a chunk the rule ends inside keeps its unread part, as in ``lunes,limpiar``)."""
    words: list[tuple[int, str]] = []  # (chunk index, piece) of the unquoted chunks after "cada"
    for at in range(rule_start, len(chunks)):
        if chunks[at][1] is not None:
            break
        words += [(at, piece) for piece in pieces(chunks[at][0])]
    try:
        recurrence, used = read_rule([piece for _, piece in words])
    except InvalidRecurrence as exc:
        raise usage_error("nueva", str(exc), field="recurrence", rules=True) from exc
    last = words[used - 1][0]
    leftover = "".join(piece for at, piece in words[used:] if at == last).lstrip(",")
    kept = [(leftover, None)] if leftover else []
    return recurrence, [*chunks[:start], *kept, *chunks[last + 1 :]]


def parse_zone(args: str) -> ShowZone | SetZone:
    """``/t zona``: show it; ``/t zona <ciudad|IANA>``: choose it (``new york``, ``Bogotá``, ``America/Bogota``);
    ``/t zona sin``: back to the default. An unknown or ambiguous city names up to three close zones."""
    words = args.split()
    if not words:
        return ShowZone()
    if len(words) == 1 and meaning("zone", words[0]) == "default":
        return SetZone(None)
    try:
        return SetZone(zone_by_city(" ".join(words)).key)
    except InvalidTimeZone as exc:
        raise usage_error("zona", str(exc), field="tz") from exc
