"""Benchmark: exact-cover solvers on polyform puzzles, ours (dlx kernels, CP-SAT) beside the
PyPI packages xcover (numba, dancing cells) and exact-cover-py (numba, dancing links).

Run ``python benchmarks/exact_cover.py [--quick]``. Every solver gets the same 0/1 matrix.
Problems: the 12 pentominoes in 6x10 (first solution; every raw solution, 9356; and the
matrix with the X pentomino fixed to one quarter of the rectangle, 2339) and the 12
hexiamonds in the 6x6 rhombus (624 raw, 156 with one piece fixed) and the 4x9 parallelogram.
"cold" is the first call in this process (numba compile or cache load included), "warm" the
best later call, both in CPU seconds; the ratio is warm time over our dlx's warm time on the
same row. CP-SAT counting is capped by a (wall-clock) time limit and reported as a lower
bound when it hits it.
``--quick`` (about 20 s) keeps only the fixed-piece 6x10 and 6x6 matrices and caps CP-SAT
at 2 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable

import numpy as np


def _matrices(quick: bool):
    """(name, ExactCover, expected count, queries) for each benchmark problem."""
    from tanglekit.solver.tiling import TilingProblem, _dropping, parse_region, piece_set

    specs = [
        ("rect:10x6", "pentominoes", "6x10 pentominoes", 9356, 2339),
        ("parallelogram:6x6", "hexiamonds", "6x6 rhombus hexiamonds", 624, 156),
        ("parallelogram:4x9", "hexiamonds", "4x9 parallelogram hexiamonds", 148, 74),
    ]
    out = []
    for region, pieces, label, raw, up in specs:
        if quick and "4x9" in region:
            continue
        prob = TilingProblem(parse_region(region), piece_set(pieces))
        fp = prob.fundamental_piece()
        sub = _dropping(prob.exact_cover, prob.option_piece, fp[0], set(fp[1]))
        first = ["first"] if "pentominoes" in pieces else []
        if not quick:
            out.append((f"{label}, all", prob.exact_cover, raw, first + ["count"]))
        out.append((f"{label}, one piece fixed", sub, up, (first if quick else []) + ["count"]))
    return out


def _dense(ec) -> np.ndarray:
    m = np.zeros((ec.n_options, ec.n_items), dtype=bool)
    for o, t in enumerate(ec.options):
        m[o, list(t)] = True
    return m


def _solvers(cpsat_cap: float) -> dict[str, Callable]:
    """name -> f(ExactCover, query) returning (count or None, complete)."""
    from tanglekit.solver.exact_cover import count_solutions, first_solution

    def ours(kernel, memo=True):
        def run(ec, query):
            if query == "first":
                return (1 if first_solution(ec, "dlx", kernel=kernel) else 0), True
            return count_solutions(ec, "dlx", kernel=kernel, memo=memo)

        return run

    def cpsat(ec, query):
        if query == "first":
            return (1 if first_solution(ec, "cpsat", time_limit=cpsat_cap) else 0), True
        return count_solutions(ec, "cpsat", time_limit=cpsat_cap)

    solvers = {
        "tanglekit dlx (bitset)": ours("bitset"),
        "tanglekit dlx (bitset, no memo)": ours("bitset", memo=False),
        "tanglekit dlx (links)": ours("links"),
        "tanglekit cpsat": cpsat,
    }
    try:
        import xcover

        def xc(ec, query):
            gen = xcover.covers_bool(_dense(ec))
            if query == "first":
                return (1 if next(gen, None) is not None else 0), True
            return sum(1 for _ in gen), True

        solvers["xcover " + getattr(xcover, "__version__", "")] = xc
    except ImportError:
        pass
    try:
        import exact_cover_py

        def ecp(ec, query):
            m = _dense(ec)
            if ec.n_options + m.sum() + ec.n_items + 2 >= 2**15:
                raise OverflowError("exact-cover-py uses int16 node indices")
            gen = exact_cover_py.exact_covers(m)
            if query == "first":
                return (1 if next(gen, None) is not None else 0), True
            return sum(1 for _ in gen), True

        solvers["exact-cover-py " + getattr(exact_cover_py, "__version__", "")] = ecp
    except ImportError:
        pass
    return solvers


def _time(fn, *args):
    """Result and CPU seconds of this process (every solver here runs on one thread, and
    CPU time is not skewed by other jobs sharing the machine)."""
    t = time.process_time()
    r = fn(*args)
    return r, time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="about 20 s: skip the raw 6x10 count")
    ap.add_argument("--cpsat-cap", type=float, default=None, help="CP-SAT time limit (s)")
    args = ap.parse_args(argv)
    cap = args.cpsat_cap if args.cpsat_cap is not None else (2.0 if args.quick else 30.0)
    warm_runs = 1 if args.quick else 2
    problems = _matrices(args.quick)
    solvers = _solvers(cap)
    rows = []
    for pname, ec, expected, queries in problems:
        for query in queries:
            base = None
            for sname, fn in solvers.items():
                if query == "first" and "no memo" in sname:
                    continue  # the memo only serves counting
                if args.quick and ("links" in sname or "no memo" in sname) and query == "count":
                    continue
                try:
                    (n, complete), cold = _time(fn, ec, query)
                    warm = cold
                    if "cpsat" not in sname:
                        warm = min(_time(fn, ec, query)[1] for _ in range(warm_runs))
                except OverflowError as e:
                    rows.append((pname, query, sname, f"n/a ({e})", None, None, None))
                    continue
                if query == "first":
                    result = "found" if n else "none"
                else:
                    result = f"{n}" if complete else f">= {n} (stopped at {cap:g} s)"
                    if complete and n != expected:
                        result += f" WRONG (expected {expected})"
                if base is None:
                    base = warm
                ratio = warm / base if base else None
                rows.append((pname, query, sname, result, cold, warm, ratio))
                print(f"  {pname} / {query} / {sname}: {result}, cold {cold:.3f} s, "
                      f"warm {warm:.3f} s", file=sys.stderr, flush=True)
    print("| problem | query | solver | result | cold CPU s | warm CPU s | warm / ours |")
    print("|---|---|---|---|---:|---:|---:|")
    for pname, query, sname, result, cold, warm, ratio in rows:
        f = (lambda v, d=3: "" if v is None else f"{v:.{d}f}")
        print(f"| {pname} | {query} | {sname} | {result} | {f(cold)} | {f(warm)} | {f(ratio, 2)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
