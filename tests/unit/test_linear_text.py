"""Every text rule runs in time linear in its input (SPEC section 16): 64 KiB of any text costs at most 6 times what
16 KiB costs. Measured here without a clock, by counting work.

``Metered`` is a ``str`` that counts the characters its own methods go through (``find`` and ``rfind`` count what
they scan; ``split``, ``strip``, slicing and the character tests count their length; each call counts one more) and
hands metered strings back, so work that is repeated on copies of the text (splitting the rest of it again for every
leading mention) shows up too. The rules' scanners work through these methods; the regular expressions they keep
are fixed-width or anchored and run over each character once. The timings themselves are in ``nox -s bench``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any, SupportsIndex

import pytest

from taskcore.chat.commands import CommandSyntaxError
from taskcore.chat.grammar import command_family, parse_command
from taskcore.services.conversation.registry import SYNTAX
from taskcore.text import strip_tags

HOSTILE = ["<a", "<", "<a b", "<!", "@1 "]  # the patterns of the benchmark row
RATIO_LIMIT = 6
KIB = 1024
TODAY = date(2026, 1, 5)


class Meter:
    """The work counted so far."""

    def __init__(self) -> None:
        self.work = 0


class Metered(str):
    """A str that adds the characters each of its methods goes through to a Meter."""

    meter: Meter

    def __new__(cls, value: str, meter: Meter) -> Metered:
        made = super().__new__(cls, value)
        made.meter = meter
        return made

    def _charge(self, amount: int) -> None:
        self.meter.work += 1 + max(amount, 0)

    def _wrap(self, value: str) -> Metered:
        return Metered(value, self.meter)

    def _span(self, start: SupportsIndex | None, end: SupportsIndex | None) -> tuple[int, int]:
        lo, hi, _ = slice(start, end).indices(len(self))
        return lo, hi

    def find(self, sub: str, start: SupportsIndex | None = None, end: SupportsIndex | None = None) -> int:
        found = super().find(sub, start, end)
        lo, hi = self._span(start, end)
        self._charge((found + len(sub) if found >= 0 else hi) - lo)
        return found

    def rfind(self, sub: str, start: SupportsIndex | None = None, end: SupportsIndex | None = None) -> int:
        found = super().rfind(sub, start, end)
        lo, hi = self._span(start, end)
        self._charge(hi - (found if found >= 0 else lo))
        return found

    def __getitem__(self, key: SupportsIndex | slice) -> Metered:  # type: ignore[override]
        piece = super().__getitem__(key)
        self._charge(len(piece))
        return self._wrap(piece)

    def __iter__(self) -> Iterator[str]:
        self._charge(len(self))
        return (self._wrap(ch) for ch in super().__iter__())

    def split(self, sep: str | None = None, maxsplit: SupportsIndex = -1) -> list[str]:  # type: ignore[override]
        self._charge(len(self))
        return [self._wrap(part) for part in super().split(sep, maxsplit)]

    def strip(self, chars: str | None = None) -> Metered:  # type: ignore[override]
        self._charge(len(self))
        return self._wrap(super().strip(chars))

    def lower(self) -> Metered:  # type: ignore[override]
        self._charge(len(self))
        return self._wrap(super().lower())

    def isspace(self) -> bool:
        self._charge(len(self))
        return super().isspace()

    def isascii(self) -> bool:
        self._charge(len(self))
        return super().isascii()


def cost(rule: Callable[[str], Any], text: str) -> int:
    """The work ``rule`` does on ``text``."""
    meter = Meter()
    with contextlib.suppress(CommandSyntaxError):  # a refused command costs what it cost
        rule(Metered(text, meter))
    return meter.work


def of_size(pattern: str, size: int, prefix: str = "", suffix: str = "") -> str:
    return prefix + pattern * ((size - len(prefix) - len(suffix)) // len(pattern)) + suffix


def ratio(rule: Callable[[str], Any], pattern: str, *, prefix: str = "", suffix: str = "") -> float:
    small = cost(rule, of_size(pattern, 16 * KIB, prefix, suffix))
    large = cost(rule, of_size(pattern, 64 * KIB, prefix, suffix))
    assert small > 0, "the rule did not read its input through the metered methods"
    return large / small


def parse(text: str) -> Any:
    return parse_command(text, SYNTAX, today=TODAY, mentioned=["1"])


@pytest.mark.parametrize("pattern", HOSTILE)
def test_stripping_tags_costs_at_most_6_times_more_for_4_times_the_text(pattern: str) -> None:
    assert ratio(strip_tags, pattern) <= RATIO_LIMIT


@pytest.mark.parametrize("pattern", HOSTILE)
def test_stripping_tags_reads_each_character_a_bounded_number_of_times(pattern: str) -> None:
    text = of_size(pattern, 64 * KIB) + ">"  # a closing ">" at the very end: every "<" has one to look for
    assert cost(strip_tags, text) <= 6 * len(text)


@pytest.mark.parametrize("pattern", HOSTILE)
def test_the_command_grammar_costs_at_most_6_times_more_for_4_times_the_text(pattern: str) -> None:
    assert ratio(parse, pattern, prefix="/t nueva ") <= RATIO_LIMIT


@pytest.mark.parametrize("pattern", HOSTILE)
def test_leading_mentions_cost_at_most_6_times_more_for_4_times_the_text(pattern: str) -> None:
    assert ratio(parse, pattern, suffix=" /t ver") <= RATIO_LIMIT
    assert ratio(command_family, pattern, suffix=" /t ver") <= RATIO_LIMIT


def test_the_meter_sees_work_repeated_on_copies_of_the_text() -> None:
    """The check above can fail: splitting the rest again per leading mention (what parse_command did) is caught."""

    def split_per_mention(text: str) -> None:
        head, rest = text.split(maxsplit=1)
        while head.startswith("@"):
            parts = rest.split(maxsplit=1)
            head, rest = parts[0], parts[1] if len(parts) > 1 else ""

    assert ratio(split_per_mention, "@1 ", suffix=" /t ver") > RATIO_LIMIT
