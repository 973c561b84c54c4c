"""Benchmark: exact cover, tanglekit beside the PyPI packages xcover (numba, dancing cells),
exact-cover-py (numba, dancing links) and exact-cover (C, dancing links); install them with
``pip install ".[bench]"`` (a missing one is left out, a problem a tool cannot take is marked
n/a with the reason).

Run ``python -m tanglekit.benchmarks.exact_cover [--quick]`` or ``tanglekit bench exact_cover``.
Problems (every tool gets the same 0/1 matrix, or the same XCC options):

* 6x10 pentominoes: the 12 free pentominoes in a 6x10 rectangle, 9356 tilings (2339 up to
  symmetry);
* 5x12 pentominoes: 4040 tilings (1010 up to symmetry);
* 6x6 rhombus hexiamonds: the 12 free hexiamonds in the 6x6 rhombus (``parallelogram:6x6``, 72
  triangles; O'Beirne's hexiamond puzzle), 624 tilings (156 up to symmetry);
* a colour (XCC) problem: a seeded 6x6 edge-matching puzzle (36 square tiles, 5 colours, 4
  rotations; cells and tiles primary, inner edges secondary items coloured by the tile
  sides), 8 solutions;
* a large heptiamond region: the 24 free heptiamonds in the 7x12 parallelogram
  (``parallelogram:12x7``, 168 triangles, 192 items, 13,158 options); its count is far beyond
  reach, so every tool counts for the same wall-clock time and the row is marked time-limited
  (with the solutions found per CPU second);
* small problems whose first solution costs little more than the call itself, and their counts
  (``benchmarks/_xc_problems.py``): N-queens (8 and 10: 92 and 724 solutions, OEIS A000170;
  ranks and files primary, diagonals secondary), Langford pairs (n = 7, 8, 11: 26, 150 and
  17,792, OEIS A014552), two 9x9 sudoku (one solution each; the givens' items removed), a seeded
  random instance with planted covers (40 items, 232 options) and colour (XCC) double word
  squares (4x4 over a seeded 150-word dictionary).

Every measurement runs in a fresh process (``--child``): the problem and each tool's input
(dense matrix, option lists, xcover's arrays) are built untimed, then "cold" is the first call
(numba compile or cache load included, imports excluded) and "warm" the best of the later
calls, in CPU seconds of that process (a call under 5 ms is repeated until 5 ms have passed and
timed as the mean); "peak MiB" is the most memory a warm call added to the process (its
high-water mark over the resident size before it). tanglekit's later calls reuse the problem
compiled by the first (``ExactCover.compile``: a query resets only the search state); xcover's
reuse its input arrays (``xcover.dancing_cells.algorithm_c``, which ``covers`` and
``covers_bool`` call after converting their input). A call that reaches the time limit is
marked and gets no ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from tanglekit.benchmarks import _xc_problems as xp
from tanglekit.solver.exact_cover import ExactCover, count_solutions, first_solution
from tanglekit.solver.tiling import TilingProblem, parse_region, piece_set

# key: (label, region, pieces, raw count); the colour problem and its count are built apart
_TILINGS = {
    "6x10": ("6x10 pentominoes", "rect:10x6", "pentominoes", 9356),
    "5x12": ("5x12 pentominoes", "rect:12x5", "pentominoes", 4040),
    "hex6x6": ("6x6 rhombus hexiamonds", "parallelogram:6x6", "hexiamonds", 624),
    "hepta": ("7x12 parallelogram heptiamonds", "parallelogram:12x7", "heptiamonds", None),
}
_EDGE = {"edge6": ("6x6 edge matching, 5 colours (XCC)", 6, 5, 8),
         "edge5": ("5x5 edge matching, 4 colours (XCC)", 5, 4, 336)}
# key: label (the builders and their counts: benchmarks/_xc_problems.py)
_SMALL = {"queens8": "8 queens", "queens10": "10 queens", "langford7": "Langford pairs n = 7",
          "langford8": "Langford pairs n = 8", "langford11": "Langford pairs n = 11",
          "sudoku-easy": "sudoku 9x9 easy (30 givens)", "sudoku-hard": "sudoku 9x9 hard (21 givens)",
          "random40": "random planted, 40 items, 232 options",
          "words4": "4x4 double word squares, 150 words (XCC)"}
SMALL_CAP = 20.0  # wall s a call of these rows may take (the slowest tools' counts stop there)
TOOLS = ("tanglekit", "tanglekit bitset", "tanglekit links", "xcover", "exact-cover-py", "exact-cover")
OTHERS = ("xcover", "exact-cover-py", "exact-cover")


def edge_matching(w: int, h: int, k: int, seed: int = 1, count: bool = True):
    """A seeded w x h edge-matching puzzle as an XCC problem, and its solution count (None
    unless ``count``).

    Tiles are cut from a random colouring of the inner edges (border edges colour 0); an option
    puts tile t, turned r quarter turns, on cell c: primary items cell c and tile t, secondary
    items the cell's inner edges coloured with the tile's edge colours."""
    import random

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
    return ec, (count_solutions(ec, "dlx")[0] if count else None)


def problem(key: str):
    """(label, ExactCover, expected count or None) of a benchmark problem."""
    if key in _EDGE:
        label, w, k, n = _EDGE[key]
        return label, edge_matching(w, w, k, seed=1, count=False)[0], n
    if key in _SMALL:
        return (_SMALL[key],) + small_problem(key)

    label, region, pieces, n = _TILINGS[key]
    return label, TilingProblem(parse_region(region), piece_set(pieces)).exact_cover, n


def small_problem(key: str):
    """(ExactCover, count) of one of the small rows."""

    if key.startswith("queens"):
        n = int(key[6:])
        return xp.n_queens(n), xp.QUEENS[n]
    if key.startswith("langford"):
        n = int(key[8:])
        return xp.langford(n), xp.LANGFORD[n]
    if key.startswith("sudoku-"):
        return xp.sudoku(xp.SUDOKU[key[7:]])[0], 1
    if key == "random40":
        return xp.random_planted(40, 200, seed=1), RANDOM40_COUNT
    if key == "words4":
        return xp.word_squares(xp.random_words(4, 150, "abcde", seed=1)), WORDS4_COUNT
    raise KeyError(key)


# counts of the seeded instances (tests/test_xc_problems.py checks them against xcover)
RANDOM40_COUNT = 115101
WORDS4_COUNT = 1323600


def _dense(ec):
    import numpy as np

    ptr, items, _ = ec.csr()
    m = np.zeros((ec.n_options, ec.n_items), dtype=bool)
    m[np.repeat(np.arange(ec.n_options), np.diff(ptr)), items] = True
    return m


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:  # noqa: BLE001
        return "?"


# What each idea tried on the kernels gained (warm CPU on this 2-core machine, same-process
# comparisons; printed with the tables so that a regenerated RESULTS.md keeps it).
IDEAS = """\
### ideas measured

- First-cell kernel, byte look-up tables (which of the <= 64 candidates at the first empty cell
  fit: ~5 table look-ups instead of ~35 tests per node): 6x10 count 1.56 -> 0.60 s, 5x12
  0.44 -> 0.19 s, 6x6 hexiamonds 0.22 -> 0.12 s (the same 25.8 M, 8.4 M, 4.7 M placements). Kept.
- Option-bitset Algorithm C (live options one bitset per depth, kill sets per item and per
  (item, colour), no undo) instead of item bitsets with live lists, and instead of dancing
  links for colours: colour count 0.86 -> 0.22 s, 5x12 first solution 4.1 -> 3.1 ms of kernel.
  Same tree, so the same solutions in the same order. Kept.
- Live counts updated a word of removed options at a time (vectorised popcounts over the
  transposed kill rows) instead of one decrement per removed option and item: 2x (5x12 first
  2.3 -> 0.9 ms of kernel, 5x12 MRV count 1.7 -> 0.65 s), colour count -20 %. Kept.
- Setup: CSR arrays built with the ExactCover (an np.fromiter over the option tuples cost
  ~1 ms per query), one numba packer, bundle classes worked out once: 6x10 first solution
  2.4 ms -> 0.2-0.3 ms for the whole call. Kept.
- Memo of subtree counts keyed by the claims (covered items, (item, colour) pairs): within
  +-10 % on the benchmark rows, 1.8x on the 6x6 4-colour edge matching (227,808 solutions,
  49 -> 27 s). Kept for counts.
- Isolated-region pruning in the MRV kernel (flood the uncovered cells next to the placed
  piece; a region whose size is no multiple of the piece size is dead): nodes -45 % (5x12
  count 2.25 M -> 0.93 M), heptiamond enumeration 2x the solutions per second; for one first
  solution its tables (~0.1 ms) and floods cost what they save. Kept for counts and listings.
- The same in the first-cell kernel: a single isolated cell check gained 3 % (6x10) to 35 %
  (4x9 hexiamonds); floods of regions below the piece size or up to twice it lost. Not kept.
- Memo in the first-cell kernel (board as key): nodes -60 % on 6x10 but the table probes cost
  more (1.6 -> 1.7-3.3 s). A list of non-empty live words per depth, and split count banks
  against store-forwarding chains: no gain. Not kept.
- Busche's switch: first-cell search for the first 1-3 placements, then the MRV kernel (memo
  and pruning shared) from each board: 6x10 0.66 -> 1.3-2.7 s, 5x12 0.21 -> 0.4-1.1 s. Not
  kept; the MRV kernel already branches on a hole or a piece, whichever has fewer options.
- Compile once, ask many times (ExactCover.compile: the reduction, the kernel's tables and work
  arrays made once and kept on the problem; a query resets only the search state): per-call
  cost of a first solution of Knuth's 6-option example 39 -> 8 us, 8 queens 46 -> 11 us, a
  count of 8 queens 115 -> 75 us (same-process loops). Kept.
- Memo counts that give up the memo when under 1 in 64 of their first 1024 nodes are cache
  hits (sudoku, N-queens, word squares, the 5-colour edge matching: 0-0.4 % hits) and go on
  with the plain search from the same state: hard sudoku count 1.16 -> 0.84 ms, word squares
  1.03 -> 0.84 s, 6x6 edge matching 0.16 -> 0.14 s; tilings and Langford pairs (2-5 % hits)
  keep it. Kept.
- Live counts decremented option by option when few options are cleared against many items
  (sudoku's 200+ items): no gain beyond noise on sudoku, 5-10 % lost on word squares,
  N-queens and edge matching from the extra test. Not kept.
"""


WARM_MIN = 0.005  # CPU s: a warm call under this is repeated until this much has passed


class NotApplicable(Exception):
    """This tool cannot take this problem (the message says why)."""


def _tool(tool: str, ec, cap: float):
    """f(query) -> (count, complete) for one tool on one problem; inputs built here, untimed."""
    if tool.startswith("tanglekit"):
        import importlib

        for mod in ("dlx", "dlx_bitset", "dlx_firstcell"):  # the kernels' modules, imported untimed
            importlib.import_module(f"tanglekit.solver.{mod}")  # like the other tools' modules

        kernel = {"tanglekit": "auto", "tanglekit bitset": "bitset", "tanglekit links": "links"}[tool]

        def ours(query):
            if query == "first":
                return (1 if first_solution(ec, "dlx", kernel=kernel, time_limit=cap) else 0), True
            return count_solutions(ec, "dlx", kernel=kernel, time_limit=cap)

        return ours

    def drain(gen, query):
        if query == "first":
            return (1 if next(gen, None) is not None else 0), True
        n = 0
        t_end = time.perf_counter() + cap  # wall clock, like tanglekit's time_limit
        for _ in gen:
            n += 1
            if time.perf_counter() > t_end:
                return n, False
        return n, True

    if tool == "xcover":
        import numpy as np
        from xcover.dancing_cells import algorithm_c  # what covers / covers_bool run on their arrays

        ptr, items, colours = ec.csr()  # the arrays covers() makes: items, pointers, node colours
        args = (items.astype(np.uint32), ptr.astype(np.uint32), colours.astype(np.uint32),
                np.uint32(ec.n_items), np.uint32(ec.n_secondary))
        return lambda q: drain(algorithm_c(*args), q)
    if ec.has_colours or ec.n_secondary:
        raise NotApplicable("no secondary items or colours")
    m = _dense(ec)
    if tool == "exact-cover-py":
        import exact_cover_py

        if ec.n_options + int(m.sum()) + ec.n_items + 2 >= 2**15:
            raise NotApplicable("int16 node indices: matrix too large")
        return lambda q: drain(exact_cover_py.exact_covers(m), q)
    import exact_cover as exc

    mi = m.astype("int32")

    def ec_c(query):
        if query == "first":
            try:
                return (1 if len(exc.get_exact_cover(mi)) else 0), True
            except exc.error.NoSolution:
                return 0, True
        return int(exc.get_solution_count(mi)), True  # cannot be stopped: the parent's timeout

    return ec_c


def _rss_kib(field: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak() -> bool:
    """Set the high-water mark to the current RSS (Linux >= 4.0); False where that fails."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _child(argv: list[str]) -> None:
    """One (problem, query, tool) measured in this process; prints one JSON line. With query
    ``many`` the first argument lists ``key:query`` pairs, measured one after the other in this
    process (--quick), one JSON line each."""
    key, query, tool, warm_runs, cap = argv[0], argv[1], argv[2], int(argv[3]), float(argv[4])
    import warnings

    warnings.filterwarnings("ignore")  # xcover warns at import
    if query == "many":
        for pair in key.split(","):
            k, q = pair.split(":")
            _child([k, q, tool, str(warm_runs), str(cap)])
        return
    _, ec, _ = problem(key)
    out: dict = {}
    try:
        f = _tool(tool, ec, cap)
    except NotApplicable as e:
        print(json.dumps({"na": str(e)}), flush=True)
        return
    except ImportError:
        print(json.dumps({"na": "not installed"}), flush=True)
        return
    t = time.process_time()
    n, complete = f(query)
    out["cold"] = time.process_time() - t
    warm = []
    can_peak = _reset_peak()  # the working memory of the warm calls, not of loading code
    rss0 = _rss_kib("VmRSS")
    if complete:
        runs = warm_runs if out["cold"] < 10 else 1
        while len(warm) < runs:
            t = time.process_time()
            f(query)
            calls = 1
            while time.process_time() - t < WARM_MIN and calls < 10_000:  # fast calls: a mean
                f(query)
                calls += 1
            warm.append((time.process_time() - t) / calls)
            if calls > 1:
                runs = max(runs, 5)  # a fast call: more runs, its times vary more on a shared machine
    out.update(n=n, complete=complete, warm=min(warm) if warm else None)
    hwm = _rss_kib("VmHWM")
    out["peak_mib"] = ((hwm - rss0) / 1024 if warm and can_peak and hwm is not None and rss0 is not None
                       else None)
    print(json.dumps(out), flush=True)


def _measure_many(pairs: list[tuple[str, str]], tool: str, warm_runs: int, cap: float) -> dict:
    """Several (problem, query) pairs of one tool in one process: {(key, query): result}."""
    spec = ",".join(f"{k}:{q}" for k, q in pairs)
    limit = len(pairs) * (cap * (2 + warm_runs)) + 60
    try:
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", spec, "many", tool,
                            str(warm_runs), str(cap)], capture_output=True, text=True, timeout=limit)
        lines = [json.loads(ln) for ln in r.stdout.splitlines() if ln.startswith("{")]
    except subprocess.TimeoutExpired:
        lines = []
    out = {pair: res for pair, res in zip(pairs, lines)}
    for pair in pairs[len(lines):]:
        out[pair] = {"na": "failed or timed out"}
    return out


def _measure(key: str, query: str, tool: str, warm_runs: int, cap: float) -> dict:
    limit = cap * (2 + warm_runs) + 60  # the process's own wall-clock limit
    try:
        # this file as a script: the same measurement runs against any installed tanglekit
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", key, query, tool,
                            str(warm_runs), str(cap)], capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return {"killed": limit}
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if r.returncode != 0 or not lines:
        tail = (r.stderr.strip().splitlines() or ["no output"])[-1]
        return {"na": f"failed: {tail[:80]}"}
    return json.loads(lines[-1])


def _split_rows(keys: list[str]) -> list[tuple]:
    """Full counts split over 1 and 2 worker processes (wall s, CPU s incl. workers)."""
    code = ("import sys, time, resource, json, warnings; warnings.filterwarnings('ignore');"
            "from tanglekit.benchmarks.exact_cover import problem;"
            "from tanglekit.solver.exact_cover import count_solutions;"
            "_, ec, _ = problem(sys.argv[1]); w = int(sys.argv[2]);"
            "count_solutions(ec, 'dlx');"  # kernels loaded before the clock starts
            "ru = lambda: sum(resource.getrusage(k).ru_utime + resource.getrusage(k).ru_stime "
            "for k in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN));"
            "c, t = ru(), time.perf_counter(); n = count_solutions(ec, 'dlx', workers=w);"
            "print(json.dumps([n[0], time.perf_counter() - t, ru() - c]))")
    rows = []
    for key in keys:
        res = {}
        for w in (1, 2):
            r = subprocess.run([sys.executable, "-c", code, key, str(w)], capture_output=True, text=True)
            res[w] = json.loads(r.stdout.strip().splitlines()[-1])
        (n1, w1, c1), (n2, w2, c2) = res[1], res[2]
        rows.append((problem(key)[0], n1 if n1 == n2 else f"{n1} / {n2} DIFFER", w1, c1, w2, c2, w1 / w2))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="about a minute: tanglekit and xcover only, no 6x10 or heptiamond counts, a 5x5 colour problem")
    ap.add_argument("--cap", type=float, default=None, help="time limit of one call, wall s (default 120, quick 30)")
    ap.add_argument("--tools", default=None, help="comma-separated subset of: " + ", ".join(TOOLS))
    ap.add_argument("--no-split", action="store_true", help="leave out the worker-split table")
    ap.add_argument("--problems", default=None,
                    help="comma-separated subset of: " + ", ".join(list(_TILINGS) + list(_EDGE) + list(_SMALL)))
    ap.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child)
        return 0
    quick = args.quick
    cap = args.cap if args.cap is not None else (30.0 if quick else 120.0)
    warm_runs = 1 if quick else 2
    hepta_cap = 5.0 if quick else 10.0
    plan = [("6x10", ["first"] if quick else ["first", "count"]), ("5x12", ["first", "count"]),
            ("hex6x6", ["first", "count"]), ("edge5" if quick else "edge6", ["first", "count"]),
            ("hepta", ["first"] if quick else ["first", "count"])]
    small = ["queens8", "langford11", "sudoku-hard"] if quick else list(_SMALL)
    plan += [(k, ["first", "count"]) for k in small]
    # --quick: tanglekit and xcover only (exact-cover-py compiles in every fresh process, ~5 s)
    if args.problems:
        keep = args.problems.split(",")
        plan = [(k, ["first", "count"] if k != "hepta" else ["first"]) for k in keep
                if k in _TILINGS or k in _EDGE or k in _SMALL]
    tools = [t for t in TOOLS if not quick or t in ("tanglekit", "xcover")]
    if args.tools:
        tools = [t for t in TOOLS if t in args.tools.split(",")]
    names = {"xcover": f"xcover {_version('xcover')}", "exact-cover-py": f"exact-cover-py {_version('exact-cover-py')}",
             "exact-cover": f"exact-cover {_version('exact-cover')}"}
    rows, summary = [], []
    batch: dict = {}
    if quick:  # one process per tool for all rows: cold = first call on that problem there
        pairs = [(k, q) for k, qs in plan for q in qs]
        for tool in tools:
            for (k, q), r in _measure_many(pairs, tool, warm_runs, cap).items():
                batch[k, q, tool] = r
    for key, queries in plan:
        label, _, expected = problem(key)
        for query in queries:
            got: dict[str, dict] = {}
            for tool in tools:
                if tool == "tanglekit bitset" and query == "first":
                    continue  # auto is the bitset kernel there
                if key in _SMALL and tool in ("tanglekit bitset", "tanglekit links"):
                    continue  # the forced kernels: on the tilings only
                c = hepta_cap if (key == "hepta" and query == "count") else cap
                if key in _SMALL:
                    c = min(c, SMALL_CAP)
                if key == "hepta" and query == "count" and tool == "exact-cover":
                    got[tool] = {"na": "its count cannot be stopped at a time limit"}
                elif quick:
                    got[tool] = batch[key, query, tool]
                else:
                    got[tool] = _measure(key, query, tool, warm_runs, c)
                r = got[tool]
                print(f"  {label} / {query} / {tool}: {r}", file=sys.stderr, flush=True)
            ours = got.get("tanglekit", {})
            base = ours.get("warm") if ours.get("complete") else None
            for tool, r in got.items():
                name = names.get(tool, tool)
                if "na" in r:
                    rows.append((label, query, name, f"n/a ({r['na']})", None, None, None, None))
                    continue
                if "killed" in r:
                    rows.append((label, query, name, f"time-limited: no answer in {r['killed']:.0f} s",
                                 None, None, None, None))
                    continue
                if query == "first":
                    result = "found" if r["n"] else "none"
                elif r["complete"]:
                    result = f"{r['n']}"
                    if expected is not None and r["n"] != expected:
                        result += f" WRONG (expected {expected})"
                else:
                    rate = f", {r['n'] / r['cold']:,.0f}/CPU s" if r["cold"] > 0 else ""
                    result = f">= {r['n']} (time-limited: stopped after {c:g} s{rate})"
                ratio = r["warm"] / base if base and r.get("warm") is not None else None
                rows.append((label, query, name, result, r["cold"], r["warm"], r.get("peak_mib"), ratio))
            others = [(r["warm"], names[t]) for t, r in got.items()
                      if t in OTHERS and r.get("complete") and r.get("warm") is not None]
            if base is not None and others:
                w, who = min(others)
                summary.append((label, query, base, who, w, f"{w / base:.2f}x"))
            else:
                why = "time-limited" if ours.get("complete") is False or not others else "n/a"
                summary.append((label, query, base, "-", None, f"no ratio ({why})"))
    f = (lambda v, d=4: "" if v is None else f"{v:.{d if v >= 0.001 or d < 4 else 6}f}")
    print("### tanglekit against the strongest other tool (warm CPU s)\n")
    print("| problem | query | tanglekit s | strongest other tool | its s | tanglekit faster by |")
    print("|---|---|---:|---|---:|---:|")
    for label, query, base, who, w, ratio in summary:
        print(f"| {label} | {query} | {f(base)} | {who} | {f(w)} | {ratio} |")
    print("\n### every tool\n")
    print("| problem | query | tool | result | cold CPU s | warm CPU s | peak MiB | warm / tanglekit |")
    print("|---|---|---|---|---:|---:|---:|---:|")
    for label, query, name, result, cold, warm, peak, ratio in rows:
        print(f"| {label} | {query} | {name} | {result} | {f(cold)} | {f(warm)} | {f(peak, 1)} | {f(ratio, 2)} |")
    if not quick and not args.no_split:
        print("\n### full counts split over worker processes (`--workers`)\n")
        print("| problem | count | 1 worker wall s | 1 worker CPU s | 2 workers wall s | 2 workers CPU s "
              "| wall speed-up |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for label, n, w1, c1, w2, c2, sp in _split_rows(["6x10", "5x12", "edge6"]):
            print(f"| {label} | {n} | {w1:.3f} | {c1:.3f} | {w2:.3f} | {c2:.3f} | {sp:.2f}x |")
    print(f"\ncold = first call in a fresh process (numba compile or cache load included, imports "
          f"excluded); warm = best of {warm_runs} later call(s) (a call under {WARM_MIN * 1e3:g} ms repeated "
          f"until {WARM_MIN * 1e3:g} ms of CPU, the mean taken, best of 5 such); CPU seconds. tanglekit's later calls reuse the "
          "problem compiled by the first (ExactCover.compile), xcover's its input arrays (algorithm_c). "
          "tanglekit = the default (auto) kernel: first-cell look-up tables for plain tiling counts, option-bitset MRV "
          "otherwise; 'bitset' and 'links' force a kernel. peak MiB = most memory a warm call added to "
          "the process. A time-limited row gets no ratio; the heptiamond count is time-limited for every "
          f"tool ({hepta_cap:g} s of wall clock each; the result gives solutions per CPU second), the "
          f"small problems' calls (queens to word squares) stop after {min(cap, SMALL_CAP):g} s. Load average {os.getloadavg()[0]:.1f} at the end.")
    print("\n" + IDEAS)
    if quick:
        print("--quick: every tool measured in one process for all its rows (cold = its first call on "
              "that problem there, after the kernels were loaded by an earlier row); left out: "
              "exact-cover-py and exact-cover, the forced-kernel rows, the 6x10 and heptiamond counts, "
              "the 6x6 colour problem (5x5 with 4 colours instead), the worker split and the small problems but "
              "8 queens, Langford pairs n = 11 and the hard sudoku; one warm run each.")
    return 0


if __name__ == "__main__":
    # run as a script, this file's folder comes first on sys.path and would shadow the PyPI
    # package exact_cover: take it out
    _here = os.path.dirname(os.path.realpath(__file__))  # real paths: the package may be reached by a symlink
    sys.path = [p for p in sys.path if os.path.realpath(p or os.curdir) != _here]
    raise SystemExit(main())
