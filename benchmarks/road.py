"""The road of one chat event, counted: calls, files and returns, as docs/architecture.md draws it and file by file.

One ``/t nueva comprar pan mañana`` from a known member of a known group (``benchmarks.bot_bench``'s events), on a
warm SQLite database set up as ``tasksvc bot`` sets it up, is traced (``sys.setprofile``) from the runner's
``run_arrived`` (what the webhook's group commit calls) to the queued reply and the inbox row. A call counts when it
goes from one file of ``taskcore`` or ``tasksvc_run`` into another; "as drawn" keeps only the calls between the
modules the first table of docs/architecture.md names. A return is a call into a file the road had left before.

    python -m benchmarks.road [--list]
"""

from __future__ import annotations

import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from benchmarks.bot_bench import event
from benchmarks.inbox_profile import _runner, arrived

ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
PACKAGES = ("/taskcore/", "/tasksvc_run/")


@dataclass(frozen=True)
class Count:
    """Calls from file to file along the road, the files they enter, and the returns to a file left before."""

    calls: list[tuple[str, str, str]]

    @property
    def files(self) -> int:
        """Files on the road (the first caller's included)."""
        return len({callee for _, callee, _ in self.calls} | {self.calls[0][0]}) if self.calls else 0

    @property
    def returns(self) -> int:
        """Calls into a file the road had already left."""
        seen: set[str] = {self.calls[0][0]} if self.calls else set()
        count = 0
        for caller, callee, _ in self.calls:
            if callee in seen and callee != caller:
                count += 1
            seen.update((caller, callee))
        return count

    def line(self, label: str) -> str:
        """One line of the report."""
        return f"{label}: {len(self.calls)} calls in {self.files} files, {self.returns} returns"


def drawn_modules(text: str | None = None) -> set[str]:
    """The steps' modules: the "module" column of the chat event's table in docs/architecture.md."""
    page = text if text is not None else ARCHITECTURE.read_text(encoding="utf-8")
    table = page.split("## A chat event", 1)[1].split("| step |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| ") and "`" in line]
    return {found for row in rows for found in re.findall(r"`((?:taskcore|tasksvc_run)/[\w/]+\.py)`", row[2])}


def named_modules(text: str | None = None) -> set[str]:
    """Every module docs/architecture.md names, in any table or sentence."""
    page = text if text is not None else ARCHITECTURE.read_text(encoding="utf-8")
    return set(re.findall(r"`((?:taskcore|tasksvc_run)/[\w/]+\.py)`", page))


def _relative(path: str) -> str | None:
    for marker in PACKAGES:
        if marker in path:
            return marker.strip("/") + "/" + path.split(marker, 1)[1]
    return None


def trace_one_event() -> list[tuple[str, str, str]]:
    """The file-to-file calls of one event's road (caller, callee, function), in order."""
    runner, _ = _runner(Path(tempfile.mkdtemp(prefix="road-")))
    for n in range(3):  # warm: statements compiled, the person and the group known
        warm = arrived(event(n))
        runner.run_arrived([(warm, warm.parsed)], None)
    traced = arrived(event(1_000))  # the same person and group as event(0)
    calls: list[tuple[str, str, str]] = []

    def profile(frame: FrameType, what: str, _arg: Any) -> None:
        if what != "call":
            return
        callee = _relative(frame.f_code.co_filename)
        if callee is None or frame.f_code.co_name.startswith("<"):
            return
        back = frame.f_back
        while back is not None and _relative(back.f_code.co_filename) is None:
            back = back.f_back
        caller = _relative(back.f_code.co_filename) if back is not None else None
        if caller is not None and caller != callee:
            calls.append((caller, callee, frame.f_code.co_name))

    sys.setprofile(profile)
    try:
        runner.run_arrived([(traced, traced.parsed)], None)
    finally:
        sys.setprofile(None)
    return calls


def counts() -> tuple[Count, Count]:
    """The road as drawn and file by file."""
    calls = trace_one_event()
    drawn = drawn_modules()
    return Count([c for c in calls if c[0] in drawn and c[1] in drawn]), Count(calls)


def main(argv: list[str]) -> int:
    """Print both counts (``--list``: the drawn calls one by one too)."""
    as_drawn, every_file = counts()
    if "--list" in argv:
        for caller, callee, name in as_drawn.calls:
            print(f"  {caller} -> {callee}: {name}")
    print(as_drawn.line("as drawn"))
    print(every_file.line("every file"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
