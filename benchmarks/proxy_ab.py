"""Two proxies' CPU per proxied `GET /api/me/tasks` in front of the same real web (issue 20): this tree's and another
tree's (a git worktree of the commit to compare with), both pinned to CPU 0 beside the unit over the 100k dataset, the
load from CPU 1, in interleaved rounds. The regime of `nox -s bench`'s proxy row (the web is the bottleneck, so the
proxy wakes for nearly every event), with the old and the new code measured side by side rather than across runs.

``python -m benchmarks.proxy_ab OTHER_TREE [--rounds N] [--requests N]`` prints each proxy's median CPU per request
(user + system, from /proc), its user part, its latencies, and the median of the per-round ratios this / other.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import time
from collections import defaultdict
from pathlib import Path

from benchmarks import loadgen
from benchmarks.common import pin
from benchmarks.proxy_bench import Proxy
from benchmarks.report import API_CONNECTIONS, API_PATH, CACHE, CLIENT_CPU, SERVER_CPU, _session_cookie, _start_unit

HERE = Path(__file__).resolve().parent.parent


def cpu_ticks(pid: int) -> tuple[float, float]:
    """User plus system and user alone, in seconds, that a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, int(fields[11]) / tick


def proxy_of(tree: Path, url: str) -> Proxy:
    """The proxy of ``tree`` (its src, its benchmarks.proxy_bench) in front of ``url``, pinned to SERVER_CPU."""
    here, before = Path.cwd(), os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(tree / "src")
    os.chdir(tree)  # `python -m benchmarks.proxy_bench` resolves from the working directory first
    try:
        return Proxy(SERVER_CPU, url)
    finally:
        os.chdir(here)
        if before is None:
            os.environ.pop("PYTHONPATH")
        else:
            os.environ["PYTHONPATH"] = before


def percentile(values: list[float], p: int) -> float:
    """The ``p``-th percentile."""
    return statistics.quantiles(values, n=100)[p - 1]


def compare(other: Path, rounds: int, requests: int) -> None:
    """Start the unit and both proxies, run the interleaved rounds, print the figures."""
    pin(CLIENT_CPU)
    folder = (CACHE / "proxy_ab").resolve()
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    unit = _start_unit(folder)
    proxies: dict[str, Proxy] = {}
    try:
        time.sleep(2.0)
        request = loadgen.get(API_PATH, cookie=_session_cookie(Path(unit.env["DB_PATH"])))
        url = f"http://127.0.0.1:{unit.env['WEB_PORT']}"
        proxies = {"this": proxy_of(HERE, url), "other": proxy_of(other.resolve(), url)}
        cpu: dict[str, list[float]] = defaultdict(list)
        user: dict[str, list[float]] = defaultdict(list)
        latencies: dict[str, list[float]] = defaultdict(list)
        for proxy in proxies.values():
            loadgen.run_load(proxy.port, [request] * 300, API_CONNECTIONS)
        for turn in range(rounds):  # alternate which goes first: a busy spell hits both alike
            for name, proxy in sorted(proxies.items(), reverse=turn % 2 == 1):
                before = cpu_ticks(proxy.process.pid)
                latencies[name] += loadgen.run_load(proxy.port, [request] * requests, API_CONNECTIONS).latencies
                after = cpu_ticks(proxy.process.pid)
                cpu[name].append((after[0] - before[0]) / requests * 1e6)
                user[name].append((after[1] - before[1]) / requests * 1e6)
    finally:
        for proxy in proxies.values():
            proxy.stop()
        unit.stop()
    for name in proxies:
        print(f"{name}: {statistics.median(cpu[name]):.1f} µs CPU per request "
              f"(user {statistics.median(user[name]):.1f}); rounds {[round(v) for v in cpu[name]]}; "
              f"p50 {percentile(latencies[name], 50):.2f} ms, p99 {percentile(latencies[name], 99):.2f} ms "
              f"over {API_CONNECTIONS} connections")
    ratios = [mine / theirs for mine, theirs in zip(cpu["this"], cpu["other"], strict=True)]
    print(f"this / other, per round: median {statistics.median(ratios):.3f} {[round(r, 2) for r in ratios]}")


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and compare."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.proxy_ab")
    parser.add_argument("other", type=Path, help="a checkout of the commit to compare with (its src and benchmarks)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--requests", type=int, default=5000, help="requests per proxy and round")
    args = parser.parse_args(argv)
    compare(args.other, args.rounds, args.requests)


if __name__ == "__main__":
    main()
