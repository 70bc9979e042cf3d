"""`python -m benchmarks`: the one-table report of SPEC section 14 (benchmarks/report.py).

``python -m benchmarks all`` runs every ``*_bench.py`` module's ``main()`` instead, and ``python -m benchmarks web``
(any prefix of a module name) only those named, each printing its own table.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import benchmarks


def _modules(selected: list[str]) -> list[str]:
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.endswith("_bench"))
    if selected:
        names = [n for n in names if any(n.startswith(s) for s in selected)]
    return names


def run(selected: list[str]) -> int:
    """Import and run the selected benchmark modules in turn."""
    for name in _modules(selected):
        started = time.perf_counter()
        print(f"\n== {name} ==", flush=True)
        importlib.import_module(f"benchmarks.{name}").main()
        print(f"({name} took {time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if not arguments or arguments[0].startswith("-"):
        from benchmarks import report

        sys.exit(report.main(arguments))
    sys.exit(run([] if arguments == ["all"] else arguments))
