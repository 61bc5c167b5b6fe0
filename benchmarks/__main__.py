"""Run the benchmarks: ``python -m benchmarks [--quick] [name ...]``.

Each ``benchmarks/bench_<name>.py`` module has a ``run(quick: bool)`` function that prints
``name: ours_s peer_s ratio`` lines (ratio = ours / peer, measured in the same run).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil

import benchmarks


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    args = parser.parse_args(argv)
    available = sorted(m.name[len("bench_"):] for m in pkgutil.iter_modules(benchmarks.__path__)
                       if m.name.startswith("bench_"))
    unknown = set(args.names) - set(available)
    if unknown:
        parser.error(f"unknown benchmark(s) {sorted(unknown)}; available: {available}")
    for name in args.names or available:
        print(f"# {name}", flush=True)
        importlib.import_module(f"benchmarks.bench_{name}").run(quick=args.quick)


if __name__ == "__main__":
    main()
