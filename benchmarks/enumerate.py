"""Benchmark: counting fixed polyiamonds (n <= 16) and polyominoes (n <= 14), kernel vs reference.

Run ``python benchmarks/enumerate.py [--quick]`` (or ``tanglekit bench enumerate``). Prints a
Markdown table per lattice: count, whether it equals the published OEIS value, warm kernel
seconds, polyforms of size n per second, the same rate when every animal is visited (no bulk
count of the last level), and the plain-Python reference's time where it finishes in a few
seconds. The first call in the process (numba import and compile or cache load) is timed apart.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

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


def _timed(fn, *args):
    t = time.perf_counter()
    r = fn(*args)
    return r, time.perf_counter() - t


def _warm_seconds(fn, *args, min_total: float = 0.05, max_reps: int = 5, cpu: bool = False):
    """Best wall time (and best process CPU time if ``cpu``) over a few repeats."""
    best, best_cpu, total, reps, result = float("inf"), float("inf"), 0.0, 0, None
    while reps < max_reps and (reps < 1 or total < min_total):
        c = time.process_time()
        result, dt = _timed(fn, *args)
        best_cpu = min(best_cpu, time.process_time() - c)
        best, total, reps = min(best, dt), total + dt, reps + 1
    return (result, best, best_cpu) if cpu else (result, best)


def _cache_present() -> str:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return "unknown (NUMBA_CACHE_DIR set)"
    import tanglekit.shapes.enumerate as mod

    cache = Path(mod.__file__).resolve().parent / "__pycache__"
    # numba still recompiles if the source changed since (it keeps a hash of the source)
    return "yes" if any(cache.glob("enumerate._count_kernel*.nbi")) else "no"


def _fmt_rate(r: float) -> str:
    return f"{r / 1e6:,.1f} M" if r >= 1e5 else f"{r:,.0f}"


def _table(lattice: str, top: int, ref_seconds: float) -> list[str]:
    from tanglekit.shapes.enumerate import _run_count, count_polyforms, reference_count_polyforms
    from tanglekit.shapes.lattice import get_lattice

    lat = get_lattice(lattice)
    lines = [
        f"### {NAMES[lattice]}, n = 1..{top}",
        "",
        "| n | count | OEIS | kernel s | cpu s | polyforms/s | visit-all/s | reference s | ratio |",
        "|---:|---:|:---:|---:|---:|---:|---:|---:|---:|",
    ]
    ref_last = 0.0
    for n in range(1, top + 1):
        count, secs, cpu = _warm_seconds(count_polyforms, n, lattice, "fixed", cpu=True)
        _, secs_all = _warm_seconds(_run_count, lat, n, "fixed", False, False)
        known = OEIS_FIXED[lattice]
        ok = "n/a" if n > len(known) else ("yes" if count == known[n - 1] else "no")
        ref_cell, ratio_cell = "-", "-"
        # the reference grows every size up to n; size n costs roughly 4x size n - 1
        if ref_last * 4 <= ref_seconds:
            ref_count, ref_last = _timed(reference_count_polyforms, n, lattice, "fixed")
            if ref_count != count:
                ok = "no (reference differs)"
            ref_cell = f"{ref_last:.4f}"
            ratio_cell = f"{ref_last / secs:,.0f}x"
        else:
            ref_last = float("inf")
        lines.append(
            f"| {n} | {count} | {ok} | {secs:.6f} | {cpu:.6f} | {_fmt_rate(count / secs)} "
            f"| {_fmt_rate(count / secs_all)} | {ref_cell} | {ratio_cell} |"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    """Parse options, time the kernel and the reference, print Markdown tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--quick", action="store_true", help="smaller sizes, shorter reference budget (seconds)"
    )
    ap.add_argument("--tri", type=int, default=None, help="largest polyiamond size (default 16)")
    ap.add_argument("--sq", type=int, default=None, help="largest polyomino size (default 14)")
    ap.add_argument("--ref-seconds", type=float, default=None,
                    help="time budget for one reference count (default 3, quick 1)")
    args = ap.parse_args(argv)
    tri = args.tri if args.tri is not None else (14 if args.quick else 16)
    sq = args.sq if args.sq is not None else (12 if args.quick else 14)
    if tri < 1 or sq < 1:
        ap.error("sizes must be at least 1")
    ref_seconds = args.ref_seconds if args.ref_seconds is not None else (1.0 if args.quick else 3.0)

    cached = _cache_present()  # imports the module (numpy only; numba loads on the first call)
    from tanglekit.shapes.enumerate import count_polyforms, count_polyforms_by_size

    cold_count, cold = _timed(count_polyforms, tri, "triangle", "fixed")
    _, warm = _warm_seconds(count_polyforms, tri, "triangle", "fixed")
    out = [
        f"Cold first call count_polyforms({tri}, 'triangle', 'fixed') = {cold_count}: "
        f"{cold:.3f} s (numba import + compile or cache load; "
        f"numba cache present before: {cached}). "
        f"Warm: {warm:.6f} s.",
        "",
    ]
    for lattice, top in (("triangle", tri), ("square", sq)):
        sizes, secs = _timed(count_polyforms_by_size, top, lattice, "fixed")
        out.append(
            f"One run for all sizes 1..{top} ({lattice}, count_polyforms_by_size): {secs:.4f} s, "
            f"{sum(sizes) / secs / 1e6:,.1f} M polyforms/s over all sizes."
        )
    out.append("")
    for lattice, top in (("triangle", tri), ("square", sq)):
        out += _table(lattice, top, ref_seconds)
        out.append("")
    out += [
        "### one-sided and free counts (every fixed animal of size n checked against its images)",
        "",
        "| lattice | kind | n | count | OEIS | kernel s | fixed animals/s |",
        "|---|---|---:|---:|:---:|---:|---:|",
    ]
    for lattice, top in (("triangle", tri), ("square", sq)):
        fixed = count_polyforms(top, lattice, "fixed")
        for kind in ("one-sided", "free"):
            count, secs = _timed(count_polyforms, top, lattice, kind)
            known = OEIS_CLASSES[lattice, kind]
            ok = "n/a" if top > len(known) else ("yes" if count == known[top - 1] else "no")
            out.append(
                f"| {lattice} | {kind} | {top} | {count} | {ok} | {secs:.4f} "
                f"| {_fmt_rate(fixed / secs)} |"
            )
    out.append("")
    out.append(
        "kernel s: best warm wall time of count_polyforms(n) on one core (cpu s: best process CPU "
        "time, steadier on a shared machine); polyforms/s: size-n count / "
        "kernel s (the last level is counted in bulk from the untried-list lengths); visit-all/s: "
        "the same with every size-n animal visited; ratio: reference s / kernel s; one-sided / "
        "free rows time one warm call."
    )
    print("\n".join(out))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
