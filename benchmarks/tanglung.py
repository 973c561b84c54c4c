"""Tanglung benchmark: solo layouts solved per CPU second (numba kernel one by one and in one
batch call, plain-Python search, plain-Python BFS reference), no-revisit tours (kernel vs CP-SAT
AddCircuit), two-player search, census layouts (per-layout path vs batch kernel).

Run: python -m tanglekit.benchmarks.tanglung [--quick] [--census-only]; prints a Markdown table
(benchmarks/_table.py layout). Every kernel is loaded before it is timed.
"""

from __future__ import annotations

import argparse
import random

from ..games.tanglung import TanglungOptions, random_layout
from ..games.tanglung.cards import default_card_set
from ..games.tanglung.duel import DuelGame
from ..games.tanglung.duel_search import solve_position
from ..games.tanglung.generate import census_chunk, census_chunk_reference
from ..games.tanglung.layout import count_standard_layouts
from ..games.tanglung.moves import solo_move_table
from ..games.tanglung.solo import initial_lit
from ..games.tanglung.solo_reference import no_revisit_tour_cpsat
from ..games.tanglung.solo_search import no_revisit_tour, solve_solo, solve_solo_many, solve_solo_reference
from ._table import UNITS, rate, row
from ._table import measure as measure_row
from ._table import table as md_table


def _solve_all(layouts, opts, method="astar", engine="auto"):
    return sum(solve_solo(lay, options=opts, method=method, engine=engine).expanded for lay in layouts)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer layouts, for a fast look")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--census-only", action="store_true", help="only the census rows")
    args = ap.parse_args(argv)
    print(UNITS + "\n")
    if args.census_only:
        _print(census_rows(args.quick, args.seed), args.quick)
        return

    n_fast = 100 if args.quick else 2000
    n_py = 10 if args.quick else 100
    n_ref = 2 if args.quick else 6
    n_cp = 10 if args.quick else 40
    rng = random.Random(args.seed)
    layouts = [random_layout(rng) for _ in range(n_fast)]
    opts = TanglungOptions()
    lit = TanglungOptions(literal_blocking=True)
    task = "solo solve, better Rooster (fewest moves, tour count, one tour)"
    # load every kernel and build every cache outside the timing
    for method in ("astar", "astar-deadend", "bfs"):
        solve_solo(layouts[0], options=opts, method=method, engine="kernel")
    solve_solo_many(layouts[:2], options=opts)
    solve_solo(layouts[0], options=lit, engine="kernel")
    rows = []
    ref = measure_row(lambda: [solve_solo_reference(lay, options=opts) for lay in layouts[:n_ref]])
    base = rate(n_ref, ref)
    vs = "vs plain-Python BFS reference"
    for method, n in (("astar", n_fast), ("astar-deadend", n_fast // 4), ("bfs", n_fast // 4)):
        m = measure_row(_solve_all, layouts[:n], opts, method, "kernel")
        rows.append(row(task, f"numba kernel, one call per layout ({method})", n, m, ratio=rate(n, m) / base,
                        notes=f"{vs}; {m.value / m.cpu_s:,.0f} states expanded per CPU s"))
    m = measure_row(solve_solo_many, layouts, None, opts)
    rows.append(row(task, "numba batch kernel, one call (astar)", n_fast, m, ratio=rate(n_fast, m) / base,
                    notes=f"{vs}; solve_solo_many, as --batch runs it"))
    m = measure_row(_solve_all, layouts[:n_py], opts, "astar", "python")
    rows.append(row(task, "plain-Python search (astar, engine=python)", n_py, m, ratio=rate(n_py, m) / base,
                    notes=f"{vs}; what a single small solve runs before loading numba"))
    rows.append(row(task, "plain-Python BFS reference", n_ref, ref))
    m = measure_row(_solve_all, layouts[: n_fast // 4], lit, "astar", "kernel")
    rows.append(row("solo solve, literal_blocking", "numba kernel, one call per layout (astar)", n_fast // 4, m))

    cp_layouts = layouts[:n_cp]
    no_revisit_tour(cp_layouts[0], 0, opts)
    no_revisit_tour_cpsat(solo_move_table(cp_layouts[0].cells, opts), 16, 0, initial_lit(cp_layouts[0], opts))
    k = measure_row(lambda: [no_revisit_tour(lay, 0 if lay[0] == "C" else 3, opts) is not None for lay in cp_layouts])
    c = measure_row(lambda: [no_revisit_tour_cpsat(solo_move_table(lay.cells, opts), 16, 0 if lay[0] == "C" else 3,
                                                   initial_lit(lay, opts)) is not None for lay in cp_layouts])
    agree = "agree" if k.value == c.value else "DISAGREE"
    rows.append(row("no-revisit tour from one Rooster", "numba kernel", n_cp, k, ratio=rate(n_cp, k) / rate(n_cp, c),
                    notes=f"vs CP-SAT AddCircuit; answers {agree}"))
    rows.append(row("no-revisit tour from one Rooster", "CP-SAT AddCircuit", n_cp, c))

    # two-player: alpha-beta on mid-game positions
    prng = random.Random(args.seed + 1)
    positions = []
    for seed in range(4 if args.quick else 12):
        g = DuelGame(seed=seed)
        while not g.is_over() and len(g.match.dark_cells()) > 6:
            g.play(prng.choice(g.legal_actions()))
        if not g.is_over():
            positions.append(g.match)
    m = measure_row(lambda: sum(solve_position(p, max_depth=3, node_limit=None).nodes for p in positions))
    rows.append(row("two-player alpha-beta, depth 3", "Python + transposition table", len(positions), m,
                    notes=f"{m.value / m.cpu_s:,.0f} nodes per CPU s"))

    rows += census_rows(args.quick, args.seed)
    _print(rows, args.quick)


def census_rows(quick: bool, seed: int) -> list[str]:
    """Census chunks (contiguous rank ranges, as the full census runs them) through the
    per-layout path (unrank + Layout.canonical + solve_solo) and the batch kernel."""

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
        per = measure_row(lambda: [census_chunk_reference(t) for t in tasks])
        bat = measure_row(lambda: [census_chunk(t) for t in tasks])
        n = sum(p["layouts"] for p in bat.value)
        same = "equal" if per.value == bat.value else "DIFFER"
        task = f"census chunks, {name} ({len(tasks) * width:,} ranks; canonical layouts solved)"
        rows.append(row(task, "per-layout solve_solo", n, per))
        rows.append(row(task, "batch kernel", n, bat, ratio=rate(n, bat) / rate(n, per),
                        notes=f"vs per-layout solve_solo; summaries {same}"))
    return rows


def _print(rows: list[str], quick: bool) -> None:
    print(md_table(rows))
    print("\nTarget: a solo layout fully solved (fewest moves, optimal-tour count, one tour) in under 5 ms "
          "of CPU on one core.")
    if quick:
        print("--quick: 100 layouts (2,000 in the full run) for the kernel rows, 10 for the plain-Python "
              "search, 2 for the reference, 10 no-revisit tours, 4 two-player positions, 4 census chunks "
              "per option set (16); every kernel is loaded before its row as in the full run.")


if __name__ == "__main__":
    main()
