"""The proxy alone (issue 20): this proxy (on uvloop, as `tasksvc proxy` runs it, and on asyncio's own loop) and the
aiohttp proxy it replaced, in front of the same aiohttp upstream serving a fixed 5 KB JSON page, all pinned to CPU 0,
the load from CPU 1. Prints req/s direct and through each
proxy and each proxy's own CPU per request (from /proc), as medians of interleaved rounds; without the database, so
it shows the hop's cost alone in a few seconds. ``python -m benchmarks.proxy_bench --profile DIR`` runs both proxies
under cProfile and writes their top functions to DIR.
"""

from __future__ import annotations

import argparse
import asyncio
import pstats
import statistics
import sys
from pathlib import Path

from benchmarks import loadgen
from benchmarks.common import cpu_seconds, pin, two_cpus

SERVER_CPU, CLIENT_CPU = 0, 1
ROUNDS, REQUESTS, CONNECTIONS = 5, 4000, 16
PAGE = loadgen.aiohttp_script("""
ITEM = {"id": 1, "description": "Comprar pan y leche para la reunión del viernes", "group_name": "Grupo de prueba",
        "due_date": "2026-11-25", "completed": False, "assignees": [{"user_id": "34600000001", "name": "Ana"}]}
BODY = json.dumps({"items": [dict(ITEM, id=i) for i in range(20)], "total": 100, "page": 1}).encode()

async def page(_):
    return web.Response(body=BODY, content_type="application/json")
""", [("GET", "/api/me/tasks", "page")])


class Page(loadgen.HelloServer):
    """The upstream: an aiohttp app answering GET /api/me/tasks with a fixed page."""

    command = ("-c", PAGE)


async def serve(url: str) -> None:
    """Child process: this proxy in front of ``url`` (as bot and web) on a free port, until stdin closes."""
    from taskcore.settings import load_settings  # noqa: PLC0415 - only the child serves
    from tasksvc_run.proxy.app import make_proxy  # noqa: PLC0415

    proxy = make_proxy(load_settings({"NODE_ENV": "test"}), bot_url=url, web_url=url)
    print("PORT", await proxy.start("127.0.0.1", 0), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await proxy.close()


class Proxy(loadgen.HelloServer):
    """This proxy in front of ``url`` on ``loop`` ("uvloop" or "asyncio"); ``profile``: under cProfile, kept there."""

    def __init__(self, cpu: int | None, url: str, profile: Path | None = None, loop: str = "uvloop") -> None:
        module = ("-m", "benchmarks.proxy_bench", "serve")
        self.command = ("-m", "cProfile", "-o", str(profile), *module) if profile else module
        super().__init__(cpu, url, loop)


class OldProxy(loadgen.HelloServer):
    """The aiohttp proxy of benchmarks/aiohttp_proxy.py in front of ``url``."""

    def __init__(self, cpu: int | None, url: str, profile: Path | None = None) -> None:
        module = ("-m", "benchmarks.aiohttp_proxy")
        self.command = ("-m", "cProfile", "-o", str(profile), *module) if profile else module
        super().__init__(cpu, url, url)


def measure(profile: Path | None = None) -> dict[str, dict[str, float]]:
    """Median req/s and median CPU µs per request (the proxy's own, and the upstream's) for each way in."""
    cpu = SERVER_CPU if two_cpus() else None
    pin(CLIENT_CPU)
    page = Page(cpu)
    url = f"http://127.0.0.1:{page.port}"
    proxies = {"this proxy": Proxy(cpu, url, profile and profile / "proxy.prof"),
               "this proxy on asyncio's loop": Proxy(cpu, url, profile and profile / "proxy_asyncio.prof", "asyncio"),
               "aiohttp proxy": OldProxy(cpu, url, profile and profile / "aiohttp_proxy.prof")}
    ways = {"direct": (page.port, 0), **{name: (p.port, p.process.pid) for name, p in proxies.items()}}
    rates: dict[str, list[float]] = {name: [] for name in ways}
    proxy_us: dict[str, list[float]] = {name: [] for name in ways}
    upstream_us: dict[str, list[float]] = {name: [] for name in ways}
    request = loadgen.get("/api/me/tasks", cookie="tasksvc_session=bench")
    try:
        for port, _ in ways.values():
            loadgen.run_load(port, [request] * 300, 1)
        for _ in range(ROUNDS):
            for name, (port, pid) in ways.items():
                before = (cpu_seconds(page.process.pid), cpu_seconds(pid) if pid else 0.0)
                rates[name].append(loadgen.run_load(port, [request] * REQUESTS, CONNECTIONS).rate)
                upstream_us[name].append((cpu_seconds(page.process.pid) - before[0]) / REQUESTS * 1e6)
                proxy_us[name].append(((cpu_seconds(pid) - before[1]) if pid else 0.0) / REQUESTS * 1e6)
    finally:
        for proxy in proxies.values():
            proxy.stop()
        page.stop()
    return {name: {"rate": statistics.median(rates[name]), "proxy": statistics.median(proxy_us[name]),
                   "upstream": statistics.median(upstream_us[name])} for name in ways}


def table(figures: dict[str, dict[str, float]]) -> str:
    """The markdown table, with the ratios to direct and between the proxies."""
    lines = ["| way in | req/s | / direct | proxy CPU µs/req | upstream CPU µs/req |", "|---|---:|---:|---:|---:|"]
    direct = figures["direct"]["rate"]
    for name, row in figures.items():
        lines.append(f"| {name} | {row['rate']:,.0f} | {row['rate'] / direct:.2f} | {row['proxy']:.0f} | "
                     f"{row['upstream']:.0f} |")
    old, new = figures["aiohttp proxy"]["proxy"], figures["this proxy"]["proxy"]
    plain = figures["this proxy on asyncio's loop"]["proxy"]
    lines.append(f"\nProxy CPU per request, aiohttp proxy / this proxy: {old / max(new, 1e-9):.2f}x, this proxy on "
                 f"asyncio's loop / on uvloop: {plain / max(new, 1e-9):.2f}x; medians of "
                 f"{ROUNDS} interleaved rounds of {REQUESTS} GETs over {CONNECTIONS} connections.")
    return "\n".join(lines)


def summarise(profile: Path) -> None:
    """The top functions of each proxy's profile, by own time, written beside it."""
    for path in profile.glob("*.prof"):
        with path.with_suffix(".txt").open("w") as out:
            pstats.Stats(str(path), stream=out).sort_stats("tottime").print_stats(30)


def main(argv: list[str] | None = None) -> None:
    """Print the table (and with --profile, write both proxies' profiles)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.proxy_bench")
    parser.add_argument("--profile", type=Path, help="run both proxies under cProfile and write their profiles here")
    args = parser.parse_args(argv or [])
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    print(table(measure(args.profile)), flush=True)
    if args.profile:
        summarise(args.profile)
        print(f"profiles: {args.profile}/*.txt")


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        from tasksvc_run.proxy.app import new_loop  # the loop `tasksvc proxy` runs on

        with asyncio.Runner(loop_factory=new_loop if sys.argv[3] == "uvloop" else asyncio.new_event_loop) as runner:
            runner.run(serve(sys.argv[2]))
    else:
        main(sys.argv[1:])
