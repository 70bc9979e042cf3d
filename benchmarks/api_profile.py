"""Where the web's CPU per `GET /api/me/tasks` goes (issue 55): the real web app (`make_web_app`, as `tasksvc web`
builds it) over a copy of the 100k-task dataset, in a child process under cProfile, asked for page 1 of the bench user
on one kept-alive connection; then the child's top functions by own time. A hello-world server answers the same
number of requests first, and both processes' CPU per request (from /proc, profiler off) is printed beside.

    python -m benchmarks.api_profile [--requests N] [--no-profile] [--path /api/me/tasks]

``TOP=N`` in the environment: that many functions (30). Another tree's code (the commit before) is measured by
putting its ``src`` first on PYTHONPATH: ``PYTHONPATH=tmp/bench/before-<commit>/src python -m benchmarks.api_profile``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import os
import pstats
import shutil
import sys
from pathlib import Path

from benchmarks import loadgen
from benchmarks.common import cpu_seconds, two_cpus
from benchmarks.common import pin as pin_self
from benchmarks.dataset import CACHE, build

SERVER_CPU, CLIENT_CPU = 0, 1
WARMUP = 300
_PROFILED = "--profiled"


async def _serve(db_path: str, profiled: bool) -> None:
    """Child: the web app on a free loopback port until stdin closes; with ``profiled``, its profile on stdout."""
    from aiohttp import web  # noqa: PLC0415 - the parent never serves

    from taskcore.settings import load_settings  # noqa: PLC0415
    from tasksvc_run.web import make_web_app  # noqa: PLC0415

    app = make_web_app(load_settings({"NODE_ENV": "production", "DB_PATH": db_path, "GROUP_GATING_MODE": "enforce",
                                      "LOG_LEVEL": "warning"}))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    print("PORT", runner.addresses[0][1], flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "go": the warm-up is over
    profile = cProfile.Profile() if profiled else None
    if profile is not None:
        profile.enable()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent closes stdin
    if profile is not None:
        profile.disable()
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(int(os.environ.get("TOP", "30")))
        sys.stderr.write(out.getvalue())
    await runner.cleanup()


class WebServer(loadgen.HelloServer):
    """The web app in its own process (pinned like the hello server)."""

    def __init__(self, cpu: int | None, db_path: Path, profiled: bool) -> None:
        self.command = ("-m", "benchmarks.api_profile", "--serve", str(db_path), *([_PROFILED] if profiled else []))
        super().__init__(cpu)

    def go(self) -> None:
        """Tell the child the warm-up is over."""
        if self.process.stdin is not None:
            self.process.stdin.write("go\n")
            self.process.stdin.flush()


def _database() -> Path:
    target = (CACHE / "api-profile.db").resolve()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(build().path, target)
    from taskcore.storage import migrator  # noqa: PLC0415
    from taskcore.storage.db import Database, sqlite_url  # noqa: PLC0415

    db = Database.from_url(sqlite_url(target))
    migrator.migrate(db)
    db.dispose()
    return target


def _cookie(db_path: Path) -> str:
    from benchmarks.web_bench import _session_cookie  # noqa: PLC0415 - also runs over an older tree (PYTHONPATH)

    return _session_cookie(db_path)


def measure(path: str, requests: int, profiled: bool) -> None:
    """Hello world's CPU per request, then the web's (with the profile printed when asked)."""
    if two_cpus():
        pin_self(CLIENT_CPU)
    cpu = SERVER_CPU if two_cpus() else None
    db_path = _database()
    asked = {"hello": loadgen.get("/api/me/tasks"), "web": loadgen.get(path, cookie=_cookie(db_path))}
    figures = {}
    for name, server in (("hello", loadgen.HelloServer(cpu)), ("web", WebServer(cpu, db_path, profiled))):
        request = asked[name]  # the hello server answers its own paths
        try:
            loadgen.run_load(server.port, [request] * WARMUP, 1)
            if isinstance(server, WebServer):
                server.go()
            before = cpu_seconds(server.process.pid)
            run = loadgen.run_load(server.port, [request] * requests, 1)
            figures[name] = ((cpu_seconds(server.process.pid) - before) / requests * 1e6,
                             sorted(run.latencies)[len(run.latencies) // 2])
        finally:
            server.stop()
    for name, (us, p50) in figures.items():
        print(f"{name}: {us:,.0f} µs CPU per request, p50 {p50:.3f} ms (1 connection)"
              + (" (under the profiler)" if profiled and name == "web" else ""))
    print(f"web / hello CPU: {figures['web'][0] / figures['hello'][0]:.2f}x")


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments; measure, or serve as the child."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.api_profile")
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--path", default="/api/me/tasks")
    parser.add_argument("--no-profile", action="store_true", help="only the CPU figures")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument(_PROFILED, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(_serve(args.serve, args.profiled))
        return 0
    measure(args.path, args.requests, not args.no_profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
