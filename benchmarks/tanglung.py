"""Tanglung benchmark: solo layouts solved per second (kernel vs plain-Python BFS), search states
per second, no-revisit tours (kernel vs CP-SAT AddCircuit), two-player search nodes per second,
census layouts per second (per-layout path vs batch kernel).

Run: python -m tanglekit.benchmarks.tanglung [--quick] [--census-only]; prints a Markdown table.
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
    ap.add_argument("--census-only", action="store_true", help="only the census rows")
    args = ap.parse_args(argv)
    if args.census_only:
        _print(census_rows(args.quick, args.seed))
        return

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

    rows += census_rows(args.quick, args.seed)
    _print(rows)


def census_rows(quick: bool, seed: int) -> list[str]:
    """Census chunks (contiguous rank ranges, as the full census runs them) through the
    per-layout path (unrank + Layout.canonical + solve_solo) and the batch kernel."""
    from ..games.tanglung.cards import default_card_set
    from ..games.tanglung.layout import count_standard_layouts
    from ..games.tanglung.rules import TanglungOptions
    from ..generators.tanglung import census_chunk, census_chunk_reference

    cs = default_card_set()
    total = count_standard_layouts(cs)
    rng = random.Random(seed)
    width = 2000
    starts = [rng.randrange(total - width) for _ in range(4 if quick else 16)]
    rows = []
    for name, opts in (("default", TanglungOptions()), ("literal_blocking", TanglungOptions(literal_blocking=True))):
        tasks = [("b", range(a, a + width), opts.to_json(), cs.to_json()) for a in starts]
        census_chunk(("w", range(0, 10), opts.to_json(), cs.to_json()))  # load the kernels
        census_chunk_reference(("w", [20_000_000], opts.to_json(), cs.to_json()))
        rates = {}
        for label, fn in (("per-layout solve_solo", census_chunk_reference), ("batch kernel", census_chunk)):
            t = time.perf_counter()
            cpu = time.process_time()
            parts = [fn(task) for task in tasks]
            dt = time.perf_counter() - t
            cpu = time.process_time() - cpu
            n = sum(p["layouts"] for p in parts)
            rates[label] = (n / cpu, parts)
            extra = f"{len(tasks) * width:,} ranks; CPU {1000 * cpu / max(n, 1):.3f} ms/layout"
            if label == "batch kernel":
                same = parts == rates["per-layout solve_solo"][1]
                ratio = rates[label][0] / rates["per-layout solve_solo"][0]
                extra += f"; {ratio:.1f}x the per-layout path (CPU); summaries {'equal' if same else 'DIFFER'}"
            rows.append(_row(f"census chunk, {name} (canonical layouts solved)", label, n, dt, extra))
    return rows


def _print(rows: list[str]) -> None:
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
