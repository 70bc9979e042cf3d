"""Hostile text (SPEC section 16): the sanitiser and the command grammar on 16 KiB and 64 KiB of each hostile pattern.

Linear time means 64 KiB costs about 4 times what 16 KiB costs; the target is at most 6. The figures are the CPU
time of the fastest of a few interleaved runs in this process (the garbage collector off while timing): on a shared
machine the fastest run is the one least disturbed by other work. ``python -m benchmarks text`` prints
this table alone; ``nox -s bench`` includes its rows.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable
from datetime import date
from functools import partial

from taskcore.chat.commands import CommandSyntaxError
from taskcore.chat.grammar import parse_command
from taskcore.services.conversation.registry import SYNTAX
from taskcore.text import clean_text

PATTERNS = ("<a", "<", "<a b", "<!", "@1 ")
SIZES_KIB = (16, 64)
RUNS = 15
RATIO_TARGET = 6.0
TODAY = date(2026, 1, 5)


def hostile(pattern: str, kib: int, prefix: str = "") -> str:
    """``prefix`` then ``pattern`` repeated up to ``kib`` KiB."""
    return prefix + pattern * ((kib * 1024 - len(prefix)) // len(pattern))


def best_ms(*works: Callable[[], object], runs: int = RUNS) -> list[float]:
    """For each of ``works``, the least CPU time of ``runs`` runs in milliseconds; the runs are interleaved (one of
    each in turn) so that a stretch of other work on the machine slows all of them alike. The collector is off."""
    times: list[list[float]] = [[] for _ in works]
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            for work, taken in zip(works, times, strict=True):
                started = time.process_time()
                work()
                taken.append((time.process_time() - started) * 1000)
    finally:
        gc.enable()
    return [min(taken) for taken in times]


def _parse(text: str) -> None:
    with contextlib.suppress(CommandSyntaxError):  # refused: a description over 1000 characters, or none at all
        parse_command(text, SYNTAX, today=TODAY, mentioned=["1"])


RULES: dict[str, tuple[Callable[[str], object], str]] = {
    "sanitiser": (clean_text, ""),
    "command grammar (`/t nueva ` + text)": (_parse, "/t nueva "),
}


def measure() -> list[tuple[str, str, float, float]]:
    """(rule, pattern, ms at 16 KiB, ms at 64 KiB) for every rule and pattern."""
    found = []
    for rule, (run, prefix) in RULES.items():
        for pattern in PATTERNS:
            small, large = best_ms(*(partial(run, hostile(pattern, kib, prefix)) for kib in SIZES_KIB))
            found.append((rule, pattern, small, large))
    return found


def rows() -> list[tuple[str, float]]:
    """(measure, 64/16 KiB ratio) per rule and pattern, the two times in the measure's text."""
    return [(f"{rule}: `{pattern!r}` × 64 KiB vs 16 KiB ({large:.1f} vs {small:.1f} ms)", large / small)
            for rule, pattern, small, large in measure()]


def main() -> None:
    """Print the table."""
    print("| measure | ratio | target | met |\n|---|---:|---|---|")
    for measure_text, ratio in rows():
        met = "yes" if ratio <= RATIO_TARGET else "**no**"
        print(f"| {measure_text} | {ratio:.2f} | ≤ {RATIO_TARGET:g} | {met} |")


if __name__ == "__main__":
    main()
