"""Benchmark: counting fixed polyiamonds (n <= 16) and polyominoes (n <= 14), kernel vs reference.

Run ``python -m tanglekit.benchmarks.enumerate [--quick]`` (or ``tanglekit bench enumerate``).
Prints Markdown tables (benchmarks/_table.py layout) per lattice: for each size the count and
whether it equals the published OEIS value, the kernel's rate, the rate when every animal is
visited (no bulk count of the last level), and the plain-Python reference where it finishes in a
few seconds. The first call in a process (numba import and compile or cache load) is a row of
its own.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tanglekit.shapes.registry import get_lattice

from ._table import UNITS, rate, row
from ._table import measure as measure_row
from ._table import table as md_table

# A001420 (fixed polyiamonds) and A001168 (fixed polyominoes), n = 1.., from oeis.org.
OEIS_FIXED = {
    "triangle": [2, 3, 6, 14, 36, 94, 250, 675, 1838, 5053, 14016, 39169, 110194, 311751, 886160,
                 2529260],
    "square": [1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446, 135268, 505861, 1903890, 7204874],
}
NAMES = {"triangle": "fixed polyiamonds (A001420)", "square": "fixed polyominoes (A001168)"}
# One-sided and free counts (A006534, A000577, A000988, A000105) for the last table.
OEIS_CLASSES = {
    ("triangle", "one-sided"): [1, 1, 1, 4, 6, 19, 43, 120, 307, 866, 2336, 6588, 18373, 52119,
                                147700, 422016],
    ("triangle", "free"): [1, 1, 1, 3, 4, 12, 24, 66, 160, 448, 1186, 3334, 9235, 26166, 73983,
                           211297],
    ("square", "one-sided"): [1, 1, 2, 7, 18, 60, 196, 704, 2500, 9189, 33896, 126759, 476270,
                              1802312],
    ("square", "free"): [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655, 17073, 63600, 238591, 901971],
}


def _cache_present() -> str:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return "unknown (NUMBA_CACHE_DIR set)"
    import tanglekit.shapes.enumerate as mod  # loads numpy (only when this runs)

    cache = Path(mod.__file__).resolve().parent / "__pycache__"
    # numba still recompiles if the source changed since (it keeps a hash of the source)
    return "yes" if any(cache.glob("enumerate._count_kernel*.nbi")) else "no"


def _oeis(known: list[int], n: int, count: int) -> str:
    return "OEIS n/a" if n > len(known) else ("OEIS yes" if count == known[n - 1] else "OEIS NO")


def _table(lattice: str, top: int, ref_seconds: float) -> list[str]:
    from tanglekit.shapes.enumerate import (  # loads numpy (only when this runs)
        _run_count,
        count_polyforms,
        reference_count_polyforms,
    )

    lat = get_lattice(lattice)
    rows = []
    ref_last = 0.0
    for n in range(1, top + 1):
        count_polyforms(n, lattice, "fixed")  # warm: the grids of this size are built once
        kern = measure_row(count_polyforms, n, lattice, "fixed", min_cpu=0.05)
        count = kern.value
        every = measure_row(_run_count, lat, n, "fixed", False, False, min_cpu=0.05)
        task = f"{NAMES[lattice]}, n = {n}: {count:,}, {_oeis(OEIS_FIXED[lattice], n, count)}"
        ref = None
        # the reference grows every size up to n; size n costs roughly 4x size n - 1
        if ref_last * 4 <= ref_seconds:
            ref = measure_row(reference_count_polyforms, n, lattice, "fixed", min_cpu=0.05)
            ref_last = ref.cpu_s / ref.reps
            if ref.value != count:
                task += " (reference DIFFERS)"
        else:
            ref_last = float("inf")
        vs = {"ratio": rate(count * kern.reps, kern) / rate(count * ref.reps, ref),
              "notes": "vs plain-Python reference"} if ref else {}
        rows.append(row(task, "numba kernel (last level counted in bulk)", count * kern.reps, kern, **vs))
        vs = {"ratio": rate(count * every.reps, every) / rate(count * ref.reps, ref),
              "notes": "vs plain-Python reference"} if ref else {}
        rows.append(row(task, "numba kernel, every animal visited", count * every.reps, every, **vs))
        if ref:
            rows.append(row(task, "plain-Python reference (set growth)", count * ref.reps, ref))
    return rows


def main(argv: list[str] | None = None) -> None:
    """Parse options, time the kernel and the reference, print Markdown tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--quick", action="store_true", help="smaller sizes, shorter reference budget (seconds)"
    )
    ap.add_argument("--tri", type=int, default=None, help="largest polyiamond size (default 16)")
    ap.add_argument("--sq", type=int, default=None, help="largest polyomino size (default 14)")
    ap.add_argument("--ref-seconds", type=float, default=None,
                    help="CPU budget for one reference count (default 3, quick 1)")
    args = ap.parse_args(argv)
    tri = args.tri if args.tri is not None else (14 if args.quick else 16)
    sq = args.sq if args.sq is not None else (12 if args.quick else 14)
    if tri < 1 or sq < 1:
        ap.error("sizes must be at least 1")
    ref_seconds = args.ref_seconds if args.ref_seconds is not None else (1.0 if args.quick else 3.0)

    cached = _cache_present()  # imports the module (numpy only; numba loads on the first call)
    from tanglekit.shapes.enumerate import count_polyforms, count_polyforms_by_size  # loads numpy (only when this runs)

    # the cold row runs before anything loads numba in this process, in a forked child
    cold = measure_row(count_polyforms, tri, "triangle", "fixed")
    count_polyforms(tri, "triangle", "fixed")  # loads the kernels here, for every later row
    warm = measure_row(count_polyforms, tri, "triangle", "fixed", min_cpu=0.05)
    task = f"count_polyforms({tri}, 'triangle', 'fixed') = {cold.value:,}"
    runs = [
        row(task, "first call in a process (numba import, compile or cache load)", cold.value, cold,
            notes=f"numba cache present before: {cached}"),
        row(task, "later calls (kernels loaded)", cold.value * warm.reps, warm,
            ratio=rate(cold.value * warm.reps, warm) / rate(cold.value, cold), notes="vs first call"),
    ]
    for lattice, top in (("triangle", tri), ("square", sq)):
        count_polyforms_by_size(top, lattice, "fixed")
        m = measure_row(count_polyforms_by_size, top, lattice, "fixed", min_cpu=0.05)
        runs.append(row(f"every size 1..{top} in one run, fixed {lattice} ({sum(m.value):,} polyforms)",
                        "count_polyforms_by_size", sum(m.value) * m.reps, m))
    print(UNITS + "\n")
    print(md_table(runs, "whole runs"))
    print()
    for lattice, top in (("triangle", tri), ("square", sq)):
        print(md_table(_table(lattice, top, ref_seconds), f"{NAMES[lattice]}, n = 1..{top}"))
        print()
    classes = []
    for lattice, top in (("triangle", tri), ("square", sq)):
        fixed = count_polyforms(top, lattice, "fixed")
        for kind in ("one-sided", "free"):
            count_polyforms(top, lattice, kind)
            m = measure_row(count_polyforms, top, lattice, kind)
            task = (f"{kind} {lattice} n = {top}: {m.value:,}, {_oeis(OEIS_CLASSES[lattice, kind], top, m.value)}"
                    f" (items: the {fixed:,} fixed animals checked against their images)")
            classes.append(row(task, "numba kernel", fixed * m.reps, m))
    print(md_table(classes, "one-sided and free counts"))
    print()
    print("Items of a count are the polyforms counted (over all the calls of the row: a fast count is "
          "repeated until it takes 0.05 CPU s). The kernel row counts the last level in bulk from the "
          "untried-list lengths; 'every animal visited' visits each size-n animal.")
    if args.quick:
        print(f"--quick: sizes up to {tri} (triangle) and {sq} (square) instead of 16 and 14, and a 1 s "
              "reference budget instead of 3 s; every row is warmed as in the full run.")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
