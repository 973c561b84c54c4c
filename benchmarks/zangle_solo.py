"""Benchmark of the Zangle solo solver: deals decided per second, states per second, vs brute force.

Random seeded solo deals (5 piles; 6 piles with a state budget). The numba solver decides each
one; deals are grouped by outcome (solvable, unsolvable, unknown = budget hit). In the same run
the brute-force reference (plain exhaustive search over the SoloGame engine, no memo) runs on
4-pile deals and the first 5-pile deals with a node budget, beside the solver on the same
deals; every deal it decides must agree. Prints a Markdown
table. Target: a random 5-pile deal decided in under 50 ms on average.
"""

from __future__ import annotations

import argparse
import time


def run(quick: bool = False, seed: int = 1) -> tuple[list[dict], dict]:
    from ..games.zangle.rules import ZangleOptions
    from ..solver.zangle_solo import SoloDeal, reference_solve, solve_deal

    solve_deal(SoloDeal.from_seed(0))  # compile / load the kernels
    rows = []
    plan = ((5, 40 if quick else 400, 2_000_000), (6, 8 if quick else 60, 300_000))
    agree = True
    ref = {"deals": 0, "decided": 0, "seconds": 0.0, "solver_seconds": 0.0, "nodes": 0, "agree": True}
    for piles, n, budget in plan:
        opts = ZangleOptions(piles=piles)
        groups: dict[str, list] = {"solvable": [], "unsolvable": [], "unknown": []}
        total_t = 0.0
        deals = [SoloDeal.from_seed(seed * 100_000 + i, opts) for i in range(n)]
        for d in deals:
            t = time.perf_counter()
            r = solve_deal(d, max_states=budget)
            dt = time.perf_counter() - t
            total_t += dt
            key = "unknown" if r.solvable is None else ("solvable" if r.solvable else "unsolvable")
            groups[key].append((dt, r.states, r.solvable))
        for key, items in groups.items():
            secs = sum(x[0] for x in items)
            states = sum(x[1] for x in items)
            rows.append({"piles": piles, "outcome": key, "deals": len(items),
                         "ms_per_deal": 1000 * secs / len(items) if items else None,
                         "deals_per_s": len(items) / secs if secs else None,
                         "states_per_deal": states / len(items) if items else None,
                         "states_per_s": states / secs if secs else None})
        rows.append({"piles": piles, "outcome": "all", "deals": n, "ms_per_deal": 1000 * total_t / n,
                     "deals_per_s": n / total_t, "states_per_deal": None, "states_per_s": None})
    # brute force beside the solver on the same deals: 4-pile deals (it decides most within its
    # budget) and the first 5-pile ones
    for piles, n_ref, budget in ((4, 20 if quick else 60, 3000), (5, 5 if quick else 20, 20_000)):
        opts = ZangleOptions(piles=piles)
        for i in range(n_ref):
            d = SoloDeal.from_seed(seed * 100_000 + i, opts)
            t = time.perf_counter()
            ok, _, nodes = reference_solve(d, max_nodes=budget)
            ref["seconds"] += time.perf_counter() - t
            ref["deals"] += 1
            ref["nodes"] += nodes
            t = time.perf_counter()
            mine = solve_deal(d).solvable
            ref["solver_seconds"] += time.perf_counter() - t
            if ok is not None:
                ref["decided"] += 1
                if ok != mine:
                    ref["agree"] = agree = False
    return rows, ref


def markdown(rows: list[dict], ref: dict) -> str:
    def f(v, spec):
        return "-" if v is None else format(v, spec)

    out = ["| piles | outcome | deals | ms/deal | deals/s | states/deal | states/s |",
           "|---:|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['piles']} | {r['outcome']} | {r['deals']} | {f(r['ms_per_deal'], ',.2f')} "
                   f"| {f(r['deals_per_s'], ',.1f')} | {f(r['states_per_deal'], ',.0f')} | {f(r['states_per_s'], ',.0f')} |")
    out.append("")
    out.append("| same deals (4 and 5 piles) | deals | decided | ms/deal | nodes/s | agrees with solver |")
    out.append("|---|---:|---:|---:|---:|---|")
    secs = ref["seconds"] or 1e-9
    n = max(1, ref["deals"])
    out.append(f"| brute-force reference (engine DFS, no memo) | {ref['deals']} | {ref['decided']} "
               f"| {1000 * secs / n:,.1f} | {ref['nodes'] / secs:,.0f} | {'yes' if ref['agree'] else 'NO'} |")
    out.append(f"| numba solver | {ref['deals']} | {ref['deals']} | {1000 * ref['solver_seconds'] / n:,.2f} | - | - |")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer deals (a few seconds)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rows, ref = run(args.quick, args.seed)
    print(markdown(rows, ref))
    five = next(r for r in rows if r["piles"] == 5 and r["outcome"] == "all")["ms_per_deal"]
    print(f"\n5-pile target < 50 ms per deal on average: {'met' if five < 50 else 'NOT met'} ({five:.1f} ms)")
    return 0 if ref["agree"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
