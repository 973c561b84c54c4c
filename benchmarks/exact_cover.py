"""Benchmark: exact-cover solvers on polyform puzzles, ours (dlx kernels, CP-SAT) beside the
PyPI packages xcover (numba, dancing cells), exact-cover-py (numba, dancing links) and exact-cover
(C, dancing links); install them with ``pip install ".[bench]"`` (a missing one is left out).

Run ``python benchmarks/exact_cover.py [--quick]``. Every solver gets the same 0/1 matrix.
Problems: the 12 pentominoes in 6x10 (first solution; every raw solution, 9356; and the
matrix with the X pentomino fixed to one quarter of the rectangle, 2339) and the 12
hexiamonds in the 6x6 rhombus (624 raw, 156 with one piece fixed) and the 4x9 parallelogram,
the pentominoes in 5x12 (4040 raw), and a colour (XCC) problem: a seeded 6x6 edge-matching
puzzle (36 square tiles, 5 colours, 4 rotations, edge colours as coloured secondary items; only the
solvers with colours run it).
"cold" is the first call in this process (numba compile or cache load included), "warm" the
best later call, both in CPU seconds; the ratio is warm time over our dlx's warm time on the
same row. "auto" picks the first-cell bitboard kernel for plain tiling counts (cells along the
short side) and the MRV bitset kernel otherwise. CP-SAT counting is capped by a (wall-clock) time limit: such a row is marked
"time-limited", reported as a lower bound and gets no ratio.
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
        ("rect:12x5", "pentominoes", "5x12 pentominoes", 4040, None),
    ]
    out = []
    for region, pieces, label, raw, up in specs:
        if quick and ("4x9" in region or "12x5" in region):
            continue
        prob = TilingProblem(parse_region(region), piece_set(pieces))
        fp = prob.fundamental_piece()
        sub = _dropping(prob.exact_cover, prob.option_piece, fp[0], set(fp[1]))
        first = ["first"] if "pentominoes" in pieces else []
        if not quick:
            out.append((f"{label}, all", prob.exact_cover, raw, first + ["count"]))
        if up is not None:
            out.append((f"{label}, one piece fixed", sub, up, (first if quick else []) + ["count"]))
    w, k = (5, 4) if quick else (6, 5)
    ec, n = edge_matching(w, w, k, seed=1)
    out.append((f"{w}x{w} edge matching, {k} colours (XCC)", ec, n, ["first", "count"]))
    return out


def edge_matching(w: int, h: int, k: int, seed: int = 1):
    """A seeded w x h edge-matching puzzle as an XCC problem, and its solution count.

    Tiles are cut from a random colouring of the inner edges (border edges colour 0); an option
    puts tile t, turned r quarter turns, on cell c: primary items cell c and tile t, secondary
    items the cell's inner edges coloured with the tile's edge colours."""
    import random

    from tanglekit.solver.exact_cover import ExactCover, count_solutions

    rng = random.Random(seed)
    horiz = {(x, y): rng.randint(1, k) for x in range(w - 1) for y in range(h)}  # edge right of (x, y)
    vert = {(x, y): rng.randint(1, k) for x in range(w) for y in range(h - 1)}  # edge below (x, y)

    def sides(x, y):  # N, E, S, W colours (0 on the border)
        return (vert.get((x, y - 1), 0), horiz.get((x, y), 0), vert.get((x, y), 0), horiz.get((x - 1, y), 0))

    tiles = [sides(x, y) for y in range(h) for x in range(w)]
    n_cells = w * h
    edge_id = {}
    for key in horiz:
        edge_id[("h",) + key] = len(edge_id)
    for key in vert:
        edge_id[("v",) + key] = len(edge_id)
    opts, cols = [], []
    for t, tile in enumerate(tiles):
        seen = set()
        for r in range(4):
            turned = tile[-r:] + tile[:-r] if r else tile
            if turned in seen:
                continue
            seen.add(turned)
            for y in range(h):
                for x in range(w):
                    want = sides(x, y)
                    if any((a == 0) != (b == 0) for a, b in zip(turned, want)):
                        continue  # border sides must face the border
                    items = [y * w + x, n_cells + t]
                    colours = [0, 0]
                    for side, key in enumerate(
                            (("v", x, y - 1), ("h", x, y), ("v", x, y), ("h", x - 1, y))):
                        if key in edge_id:
                            items.append(2 * n_cells + edge_id[key])
                            colours.append(turned[side])
                    opts.append(items)
                    cols.append(colours)
    ec = ExactCover(2 * n_cells, len(edge_id), opts, cols)
    return ec, count_solutions(ec, "dlx")[0]


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
        "tanglekit dlx (auto kernel)": ours("auto"),
        "tanglekit dlx (bitset, MRV)": ours("bitset"),
        "tanglekit dlx (bitset, no memo)": ours("bitset", memo=False),
        "tanglekit dlx (links)": ours("links"),
        "tanglekit cpsat": cpsat,
    }
    try:
        import xcover

        def xc(ec, query):
            if ec.has_colours:
                names = [f"i{i}" for i in range(ec.n_items)]
                options = [[names[i] + (f":{c}" if c else "") for i, c in zip(o, cs)]
                           for o, cs in zip(ec.options, ec.colours)]
                gen = xcover.covers(options, primary=names[:ec.n_primary], secondary=names[ec.n_primary:],
                                    colored=True)
            else:
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
    try:
        import exact_cover as exc

        def ec_c(ec, query):
            m = _dense(ec).astype(np.int32)
            if query == "first":
                try:
                    return (1 if len(exc.get_exact_cover(m)) else 0), True
                except exc.error.NoSolution:
                    return 0, True
            return int(exc.get_solution_count(m)), True

        try:
            from importlib.metadata import version

            v = version("exact-cover")
        except Exception:  # noqa: BLE001
            v = ""
        solvers[f"exact-cover {v}".strip()] = ec_c
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
                if ec.has_colours and ("bitset" in sname or "exact-cover" in sname or "exact_cover" in sname):
                    continue  # no colours in these
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
                    result = f"{n}" if complete else f">= {n} (time-limited: stopped at {cap:g} s)"
                    if complete and n != expected:
                        result += f" WRONG (expected {expected})"
                if base is None:
                    base = warm
                ratio = warm / base if base and complete else None  # no ratio for a stopped run
                rows.append((pname, query, sname, result, cold, warm, ratio))
                print(f"  {pname} / {query} / {sname}: {result}, cold {cold:.3f} s, "
                      f"warm {warm:.3f} s", file=sys.stderr, flush=True)
    print("| problem | query | solver | result | cold CPU s | warm CPU s | warm / ours (auto) |")
    print("|---|---|---|---|---:|---:|---:|")
    for pname, query, sname, result, cold, warm, ratio in rows:
        f = (lambda v, d=3: "" if v is None else f"{v:.{d}f}")
        print(f"| {pname} | {query} | {sname} | {result} | {f(cold)} | {f(warm)} | {f(ratio, 2)} |")
    print("\ncold = first call in this process (numba compile or cache load included); warm = best later "
          "call; CPU seconds of this process. A time-limited row gets no ratio.")
    if args.quick:
        print("--quick: only the one-piece-fixed 6x10 and 6x6 matrices and a 5x5 colour problem; no links or "
              "no-memo count rows; CP-SAT capped at 2 s; one warm run.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
