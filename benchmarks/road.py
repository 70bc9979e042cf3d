"""The road of one group message, counted honestly (SPEC sections 29 and 37): calls, the files it enters, its
distinct file-to-file edges and its layer inversions, from the webhook's aiohttp handler to the commit of its unit of
work.

The bot's application (``make_bot_app``, as ``tasksvc bot`` builds it) serves on 127.0.0.1 on a fresh SQLite file;
three warm-up messages make the statements compiled and the person and the group known, then one ``/t nueva tarea N
mañana`` from a known member of a known group (``benchmarks.bot_bench``'s events) is posted and traced
(``sys.setprofile`` on the event loop's thread and on the webhook's worker thread) from the moment the handler is
entered until its answer is in (it answers once the unit of work is committed). A call counts when it goes from a
file of ``taskcore`` or ``tasksvc_run`` into another such file (through any library in between); a coroutine resumed
by the loop is not a new call. A return is a call into a file the road had already left; an edge is a pair of files
one calls into the other (repeated calls to a helper are one edge); an inversion is a call from a lower layer into a
higher one (``LAYERS``: the shells above the use cases, the use cases above storage and the core's rules).

    python -m benchmarks.road [--list]
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from aiohttp import ClientSession, web

from benchmarks.bot_bench import event
from taskcore.settings import load_settings
from taskcore.storage import migrator
from taskcore.storage.db import Database
from tasksvc_run import keys
from tasksvc_run.bot.app import make_bot_app

ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
PACKAGES = ("/taskcore/", "/tasksvc_run/")
HANDLER = ("tasksvc_run/bot/webhook.py", "webhook")
MAX_FILES = 38
MAX_EDGES = 60
MAX_INVERSIONS = 0
LAYERS = (("tasksvc_run/", 3), ("taskcore/services/", 2), ("taskcore/storage/", 1), ("taskcore/", 0))
"""Each file's layer by its path (the first prefix that matches): a call may go down or across, never up."""


def layer_of(path: str) -> int:
    """The layer of a file of the road (``LAYERS``)."""
    return next(rank for prefix, rank in LAYERS if path.startswith(prefix))


@dataclass(frozen=True)
class Count:
    """Calls from file to file along the road, the files they enter, and the returns to a file left before."""

    calls: list[tuple[str, str, str]]

    @property
    def files(self) -> int:
        """Files on the road (the handler's included)."""
        return len(self.file_names)

    @property
    def file_names(self) -> list[str]:
        """The files on the road, in the order it first enters them."""
        names = [HANDLER[0]] + [callee for _, callee, _ in self.calls]
        return list(dict.fromkeys(names))

    @property
    def returns(self) -> int:
        """Calls into a file the road had already left."""
        seen: set[str] = {HANDLER[0]}
        count = 0
        for caller, callee, _ in self.calls:
            if callee in seen and callee != caller:
                count += 1
            seen.update((caller, callee))
        return count

    @property
    def edges(self) -> list[tuple[str, str]]:
        """The distinct file-to-file edges, in the order the road first takes them."""
        return list(dict.fromkeys((caller, callee) for caller, callee, _ in self.calls))

    @property
    def inversions(self) -> list[tuple[str, str]]:
        """The edges that go from a lower layer into a higher one."""
        return [(caller, callee) for caller, callee in self.edges if layer_of(caller) < layer_of(callee)]

    def line(self) -> str:
        """One line of the report."""
        return (f"{len(self.calls)} calls in {self.files} files, {len(self.edges)} distinct edges, "
                f"{len(self.inversions)} inversions, {self.returns} returns")


def named_modules(text: str | None = None) -> set[str]:
    """Every module docs/architecture.md names, in any table or sentence."""
    page = text if text is not None else ARCHITECTURE.read_text(encoding="utf-8")
    return set(re.findall(r"`((?:taskcore|tasksvc_run)/[\w/]+\.py)`", page))


def _relative(path: str) -> str | None:
    for marker in PACKAGES:
        if marker in path:
            return marker.strip("/") + "/" + path.split(marker, 1)[1]
    return None


class _Tracer:
    """The profile function of both threads: records the file-to-file calls while the handler runs."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str]] = []
        self.on = False
        self.done = False  # the answer is in: nothing after it is the road's
        self._frames: list[FrameType] = []  # every frame entered: a coroutine resumed is the same frame again
        self._ids: set[int] = set()

    def __call__(self, frame: FrameType, what: str, _arg: Any) -> None:
        if what != "call" or self.done:
            return
        callee = _relative(frame.f_code.co_filename)
        if callee is None:
            return
        if not self.on:
            if (callee, frame.f_code.co_name) != HANDLER:
                return
            self.on = True
        if id(frame) in self._ids or frame.f_code.co_name.startswith("<"):
            return
        self._ids.add(id(frame))
        self._frames.append(frame)
        back = frame.f_back
        while back is not None and _relative(back.f_code.co_filename) is None:
            back = back.f_back
        caller = _relative(back.f_code.co_filename) if back is not None else None
        if caller is not None and caller != callee:
            self.calls.append((caller, callee, frame.f_code.co_name))


async def _trace(folder: Path) -> list[tuple[str, str, str]]:
    # As the unit runs in production and in development: metrics on (the test environment's default is off).
    settings = load_settings({"NODE_ENV": "test", "METRICS_ENABLED": "true", "RATE_LIMIT_PER_MIN": "1000000",
                              "SENDS_PER_PERSON_PER_MIN": "1000000",
                              "REACTIONS_ENABLED": "false", "DB_PATH": str(folder / "tasks.db"),
                              "GATEWAY_API_INSTANCE": "bench"})
    db = Database.from_url(settings.sqlalchemy_url)
    migrator.migrate(db)  # as `tasksvc bot` finds it: the supervisor migrates first
    app = make_bot_app(settings, db=db)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    tracer = _Tracer()
    pool = app[keys.EVENT_POOL]
    loop = asyncio.get_running_loop()
    try:
        async with ClientSession() as client:
            for n in range(3):  # warm: statements compiled, the person and the group known, the worker thread up
                async with client.post(f"http://127.0.0.1:{port}/webhook", data=event(n)) as answer:
                    answer.raise_for_status()
            await loop.run_in_executor(pool, sys.setprofile, tracer)
            sys.setprofile(tracer)
            try:
                async with client.post(f"http://127.0.0.1:{port}/webhook", data=event(1_000)) as answer:
                    tracer.done = True
                    answer.raise_for_status()
            finally:
                sys.setprofile(None)
                await loop.run_in_executor(pool, sys.setprofile, None)
    finally:
        await runner.cleanup()
        db.dispose()
    return tracer.calls


def trace_one_message() -> Count:
    """The file-to-file calls of one group message's road, in order."""
    folder = Path(tempfile.mkdtemp(prefix="road-"))
    found: list[list[tuple[str, str, str]] | BaseException] = []

    def run() -> None:
        try:
            found.append(asyncio.run(_trace(folder)))
        except BaseException as exc:
            found.append(exc)

    # A thread of its own: the caller may already run an event loop (pytest-asyncio), and the trace wants a quiet one.
    thread = threading.Thread(target=run, name="road")
    thread.start()
    thread.join(60)
    if not found:
        raise RuntimeError("the traced message did not complete within 60 s")
    if isinstance(found[0], BaseException):
        raise found[0]
    return Count(found[0])


def main(argv: list[str]) -> int:
    """Print the count (``--list``: the calls one by one, then the files)."""
    count = trace_one_message()
    if "--list" in argv:
        for caller, callee, name in count.calls:
            print(f"  {caller} -> {callee}: {name}")
        print("files:", *count.file_names, sep="\n  ")
    if "--list" in argv:
        print("inversions:", *(f"{a} -> {b}" for a, b in count.inversions), sep="\n  ")
    print(f"one group message, webhook handler to commit: {count.line()} "
          f"(gate: at most {MAX_FILES} files, {MAX_EDGES} edges and {MAX_INVERSIONS} inversions)")
    within = count.files <= MAX_FILES and len(count.edges) <= MAX_EDGES and len(count.inversions) <= MAX_INVERSIONS
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
