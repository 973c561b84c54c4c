"""Benchmark of the Zangle solo solver: CPU ms per deal on fixed seeded deals, solvable and
unsolvable apart, warm and cold, beside the brute-force reference.

Deals are ``SoloDeal.from_seed(seed * 100_000 + i)`` (5 and 6 piles, default rules; the same
deals on every run), each decided by ``solve_deal`` with the default budget of 2,000,000 states
(``zangle solo solve``'s), its winning line named and replayed on the engine. Every time is CPU
time of this process (``time.process_time``) in milliseconds per deal. *Warm*: after every
kernel the rows time has been loaded (the solver's search, its playouts and the finder kernel
that names a line's Zangles). *Cold*: the first deal in a new Python process, kernels loaded
from numba's on-disk cache (import time apart). The brute-force reference (plain exhaustive
search over the ``SoloGame`` engine, no memo) runs beside the solver on 4-pile deals and the
first 5-pile deals with a node budget; every deal it decides must agree. Targets: a 5-pile deal
under 50 ms on average; a 6-pile deal at most 50 ms on average, unsolvable ones included.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from ..games.zangle.rules import ZangleOptions
from ..games.zangle.solo_search import SoloDeal, reference_solve, solve_deal

BUDGET = 2_000_000


def _warm(opts_list) -> None:
    """Load every kernel the rows time: search (first line and count), playouts, the finder."""
    for opts in opts_list:
        for seed in range(3):
            solve_deal(SoloDeal.from_seed(seed, opts))
        solve_deal(SoloDeal.from_seed(0, opts), count=True, line_cap=10, playouts=5)


def _cold() -> dict:
    """First solve in a new process: (ms of the import, ms of the first deal, ms of the second)."""
    code = (
        "import time, json\n"
        "t0 = time.process_time()\n"
        "from tanglekit.games.zangle.solo_search import SoloDeal, solve_deal\n"
        "from tanglekit.games.zangle.rules import ZangleOptions\n"
        "t1 = time.process_time()\n"
        "solve_deal(SoloDeal.from_seed(100000, ZangleOptions(piles=5)))\n"
        "t2 = time.process_time()\n"
        "solve_deal(SoloDeal.from_seed(100001, ZangleOptions(piles=5)))\n"
        "t3 = time.process_time()\n"
        "print(json.dumps([1000 * (t1 - t0), 1000 * (t2 - t1), 1000 * (t3 - t2)]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    imp, first, second = json.loads(out.strip().splitlines()[-1])
    return {"import_ms": imp, "first_ms": first, "second_ms": second}


def run(quick: bool = False, seed: int = 1) -> tuple[list[dict], dict, dict]:
    plan = ((5, 60 if quick else 400), (6, 30 if quick else 200))
    cold = _cold()
    _warm([ZangleOptions(piles=p) for p, _ in plan] + [ZangleOptions(piles=4)])
    rows = []
    for piles, n in plan:
        opts = ZangleOptions(piles=piles)
        groups: dict[str, list] = {"solvable": [], "unsolvable": [], "unknown": []}
        deals = [SoloDeal.from_seed(seed * 100_000 + i, opts) for i in range(n)]
        for d in deals:
            t = time.process_time()
            r = solve_deal(d, max_states=BUDGET)
            dt = 1000 * (time.process_time() - t)
            key = "unknown" if r.solvable is None else ("solvable" if r.solvable else "unsolvable")
            groups[key].append((dt, r.states))
        everything = [x for g in groups.values() for x in g]
        for key, items in list(groups.items()) + [("all", everything)]:
            if not items and key == "unknown":
                continue
            ms = [x[0] for x in items]
            states = [x[1] for x in items]
            rows.append({"piles": piles, "outcome": key, "deals": len(items),
                         "ms_mean": statistics.mean(ms) if ms else None,
                         "ms_median": statistics.median(ms) if ms else None,
                         "ms_max": max(ms) if ms else None,
                         "states_mean": statistics.mean(states) if states else None,
                         "states_max": max(states) if states else None,
                         "states_per_s": 1000 * sum(states) / sum(ms) if ms and sum(ms) else None})
    # brute force beside the solver on the same deals: 4-pile deals (it decides most within its
    # budget) and the first 5-pile ones
    ref = {"deals": 0, "decided": 0, "ms": 0.0, "solver_ms": 0.0, "nodes": 0, "agree": True}
    for piles, n_ref, budget in ((4, 20 if quick else 60, 3000), (5, 5 if quick else 20, 20_000)):
        opts = ZangleOptions(piles=piles)
        for i in range(n_ref):
            d = SoloDeal.from_seed(seed * 100_000 + i, opts)
            t = time.process_time()
            ok, _, nodes = reference_solve(d, max_nodes=budget)
            ref["ms"] += 1000 * (time.process_time() - t)
            ref["deals"] += 1
            ref["nodes"] += nodes
            t = time.process_time()
            mine = solve_deal(d).solvable
            ref["solver_ms"] += 1000 * (time.process_time() - t)
            if ok is not None:
                ref["decided"] += 1
                if ok != mine:
                    ref["agree"] = False
    return rows, ref, cold


def markdown(rows: list[dict], ref: dict, cold: dict) -> str:
    def f(v, spec):
        return "-" if v is None else format(v, spec)

    out = ["Warm: CPU ms per deal (default budget of 2,000,000 states; unknown = budget hit).", "",
           "| piles | outcome | deals | ms/deal mean | ms/deal median | ms/deal max | states/deal mean "
           "| states/deal max | states/s |",
           "|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['piles']} | {r['outcome']} | {r['deals']} | {f(r['ms_mean'], ',.2f')} "
                   f"| {f(r['ms_median'], ',.2f')} | {f(r['ms_max'], ',.1f')} | {f(r['states_mean'], ',.0f')} "
                   f"| {f(r['states_max'], ',')} | {f(r['states_per_s'], ',.0f')} |")
    out += ["", "Cold: a new Python process, kernels loaded from numba's on-disk cache (CPU ms).", "",
            "| step | ms |", "|---|---:|",
            f"| import tanglekit.games.zangle.solo_search | {cold['import_ms']:,.0f} |",
            f"| first 5-pile deal (kernels loaded) | {cold['first_ms']:,.0f} |",
            f"| second 5-pile deal | {cold['second_ms']:,.1f} |", ""]
    n = max(1, ref["deals"])
    out += ["Same deals (4 and 5 piles), CPU ms per deal.", "",
            "| solver | deals | decided | ms/deal | nodes/s | agrees with the numba solver |",
            "|---|---:|---:|---:|---:|---|",
            f"| brute-force reference (engine DFS, no memo) | {ref['deals']} | {ref['decided']} "
            f"| {ref['ms'] / n:,.1f} | {1000 * ref['nodes'] / max(ref['ms'], 1e-9):,.0f} "
            f"| {'yes' if ref['agree'] else 'NO'} |",
            f"| numba solver | {ref['deals']} | {ref['deals']} | {ref['solver_ms'] / n:,.2f} | - | - |"]
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="60 five-pile and 30 six-pile deals, 25 brute-force deals (a few seconds)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rows, ref, cold = run(args.quick, args.seed)
    print(markdown(rows, ref, cold))
    by = {(r["piles"], r["outcome"]): r["ms_mean"] for r in rows}
    five, six = by[(5, "all")], by[(6, "all")]
    print(f"\nTargets: 5-pile deals < 50 ms on average: {'met' if five < 50 else 'NOT met'} ({five:.1f} ms); "
          f"6-pile deals <= 50 ms on average: {'met' if six <= 50 else 'NOT met'} ({six:.1f} ms).")
    if args.quick:
        print("--quick: 60 five-pile and 30 six-pile deals (the full run: 400 and 200), 25 brute-force deals "
              "(full: 80); every kernel timed was loaded before the timed rows.")
    return 0 if ref["agree"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
