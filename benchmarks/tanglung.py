"""Tanglung benchmark: solo layouts solved per second (kernel vs plain-Python BFS), search states
per second, no-revisit tours (kernel vs CP-SAT AddCircuit), two-player search nodes per second.

Run: python -m tanglekit.benchmarks.tanglung [--quick]; prints a Markdown table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time


def _row(task: str, method: str, items: int, seconds: float, extra: str = "") -> str:
    rate = items / seconds if seconds > 0 else float("inf")
    per = 1000 * seconds / max(items, 1)
    return f"| {task} | {method} | {items} | {seconds:.2f} s | {rate:,.1f}/s | {per:.2f} ms | {extra} |"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer layouts, for a fast look")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    from ..games.tanglung import TanglungOptions, random_layout
    from ..games.tanglung.duel import DuelGame
    from ..games.tanglung.moves import solo_move_table
    from ..games.tanglung.solo import initial_lit
    from ..solver.tanglung_duel import solve_position
    from ..solver.tanglung_solo import no_revisit_tour, no_revisit_tour_cpsat, solve_solo, solve_solo_reference

    n_fast = 60 if args.quick else 400
    n_ref = 2 if args.quick else 6
    n_cp = 10 if args.quick else 40
    rng = random.Random(args.seed)
    layouts = [random_layout(rng) for _ in range(n_fast)]
    opts = TanglungOptions()
    solve_solo(layouts[0])  # compile / load the kernel outside the timing
    rows = []

    for method in ("astar", "astar-deadend", "bfs"):
        t = time.perf_counter()
        cpu = time.process_time()
        expanded = 0
        times = []
        for lay in layouts:
            t1 = time.perf_counter()
            s = solve_solo(lay, options=opts, method=method)
            times.append(time.perf_counter() - t1)
            expanded += s.expanded
        dt = time.perf_counter() - t
        cpu_ms = 1000 * (time.process_time() - cpu) / len(layouts)
        med = 1000 * statistics.median(times)
        rows.append(_row("solo solve, better Rooster (fewest + tour count)", f"numba kernel ({method})",
                         len(layouts), dt, f"median {med:.2f} ms, CPU {cpu_ms:.2f} ms/layout; "
                         f"{expanded / dt:,.0f} states/s*"))
    t = time.perf_counter()
    for lay in layouts[:n_ref]:
        solve_solo_reference(lay, options=opts)
    dt = time.perf_counter() - t
    rows.append(_row("solo solve, better Rooster (fewest + tour count)", "plain-Python BFS reference", n_ref, dt))

    lit = TanglungOptions(literal_blocking=True)
    t = time.perf_counter()
    for lay in layouts[: n_fast // 2]:
        solve_solo(lay, options=lit)
    rows.append(_row("solo solve, literal_blocking", "numba kernel (astar)", n_fast // 2, time.perf_counter() - t))

    cp_layouts = layouts[:n_cp]
    t = time.perf_counter()
    k_res = [no_revisit_tour(lay, 0 if lay[0] == "C" else 3, opts) is not None for lay in cp_layouts]
    rows.append(_row("no-revisit tour from one Rooster", "numba kernel", n_cp, time.perf_counter() - t))
    t = time.perf_counter()
    c_res = []
    for lay in cp_layouts:
        s = 0 if lay[0] == "C" else 3
        c_res.append(no_revisit_tour_cpsat(solo_move_table(lay.cells, opts), 16, s, initial_lit(lay, opts)) is not None)
    rows.append(_row("no-revisit tour from one Rooster", "CP-SAT AddCircuit", n_cp, time.perf_counter() - t,
                     "agree" if k_res == c_res else "DISAGREE"))

    # two-player: alpha-beta nodes per second on mid-game positions
    prng = random.Random(args.seed + 1)
    positions = []
    for seed in range(4 if args.quick else 12):
        g = DuelGame(seed=seed)
        while not g.is_over() and len(g.match.dark_cells()) > 6:
            g.play(prng.choice(g.legal_actions()))
        if not g.is_over():
            positions.append(g.match)
    nodes = 0
    t = time.perf_counter()
    for m in positions:
        r = solve_position(m, max_depth=3, node_limit=None)
        nodes += r.nodes
    dt = time.perf_counter() - t
    rows.append(_row("two-player alpha-beta, depth 3", "Python + transposition table", len(positions), dt,
                     f"{nodes / dt:,.0f} nodes/s"))

    print("| task | method | items | time | rate | per item | notes |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)
    import os

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print("\n*states expanded per second. Target: a solo layout fully solved (fewest moves + "
          f"optimal-tour count) in under 5 ms on one core. Load average during the run: {load:.1f}.")


if __name__ == "__main__":
    main()
