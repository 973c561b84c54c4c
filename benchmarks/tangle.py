"""Tangle benchmark: legal-move generation and best-turn search on fixed mid-game positions.

Positions come from seeded self-play (builder v greedy with 30% random moves) on the default
board, taken at the first turn start past move 20 where the player to move can capture.
Legal moves: the engine's Python-int bitsets, the plain one-placement-at-a-time reference and
the numba kernel. Best turn: the memoised exact search beside the plain brute-force reference
(capped by a node limit; a row that hits it is marked, with no ratio). Run: ``python -m tanglekit.benchmarks.tangle [--quick]``.
"""

from __future__ import annotations

import argparse
import random

from ..errors import SolverError
from ..games.tangle import TangleGame
from ._table import UNITS, rate, row
from ._table import measure as measure_row
from ._table import table as md_table


def fixed_positions(n: int):
    from ..games.tangle.bots import make_bot  # loads pydantic (only when this runs)

    g = TangleGame(players=2)
    out = []
    seed = 0
    while len(out) < n and seed < 200:
        rng = random.Random(seed)
        bots = [make_bot("builder", seed * 2), make_bot("greedy", seed * 2 + 1)]
        s = g.new_state()
        while not s.over:
            if s.turns_left == 1 and len(s.moves) >= 20 and s.capturing_placements():
                out.append((seed, s.copy_position()))
                break
            s.push(bots[s.to_move].choose(s) if rng.random() >= 0.3 else rng.choice(s.legal_moves()))
        seed += 1
    return out


def _brute(s, cap):
    from ..games.tangle.search import brute_force_best_turn  # loads pydantic (only when this runs)

    try:
        return brute_force_best_turn(s, "points", node_limit=cap)[0]
    except SolverError:
        return None  # the node cap was hit


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 positions, fewer repetitions")
    args = ap.parse_args(argv)
    from ..games.tangle.movegen import (  # loads numba (only when this runs)
        legal_placements_fast,
        legal_placements_reference,
    )
    from ..games.tangle.search import best_turn  # loads pydantic (only when this runs)

    n = 3 if args.quick else 8
    cap = 2_000 if args.quick else 20_000
    positions = fixed_positions(n)
    legal_placements_fast(positions[0][1])  # load the kernel outside the timing
    print(UNITS + "\n")
    rows = []
    for seed, s in positions:
        task = f"legal moves, seed {seed} ({len(s.moves)} moves played, {len(s.legal_placements())} legal)"
        ref = measure_row(legal_placements_reference, s, min_cpu=0.05)
        eng = measure_row(s.legal_placements, min_cpu=0.05)
        fast = measure_row(legal_placements_fast, s, min_cpu=0.05)
        base = rate(ref.reps, ref)
        rows.append(row(task, "plain reference (one placement at a time)", ref.reps, ref))
        rows.append(row(task, "engine (Python-int bitsets)", eng.reps, eng, ratio=rate(eng.reps, eng) / base,
                        notes="vs plain reference"))
        rows.append(row(task, "numba kernel", fast.reps, fast, ratio=rate(fast.reps, fast) / base,
                        notes="vs plain reference"))
    print(md_table(rows, "Legal-move generation (default board, 2 players; items: calls)"))
    print()
    rows = []
    for seed, s in positions:
        memo = measure_row(best_turn, s, "points")
        r = memo.value
        task = f"best turn, seed {seed} ({r.points} points, chain of {len(r.placements)})"
        safe = measure_row(best_turn, s, "safe")
        brute = measure_row(_brute, s, cap)
        capped = brute.value is None
        mismatch = "" if capped or brute.value == r.points else "; points MISMATCH"
        brute_name = f"plain brute force (node cap {cap:,})"
        rows.append(row(task, "memoised exact search (points)", 1, memo,
                        ratio=None if capped else rate(1, memo) / rate(1, brute),
                        notes=f"{r.nodes} search nodes" + ("" if capped else f"; vs {brute_name}")))
        rows.append(row(task, "memoised exact search (safe mode)", 1, safe))
        rows.append(row(task, brute_name, 1, brute, limited="node-limited" if capped else False,
                        notes=("node cap hit: points unknown" if capped else "") + mismatch))
    print(md_table(rows, "Best turn (exact; items: positions)"))
    if args.quick:
        print(f"\n--quick: {n} positions (8 in the full run) and a brute-force cap of {cap:,} nodes (20,000).")


if __name__ == "__main__":
    main()
