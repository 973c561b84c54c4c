"""Tangle benchmark: legal-move generation and best-turn search on fixed mid-game positions.

Positions come from seeded self-play (builder v greedy with 30% random moves) on the default
board, taken at the first turn start past move 20 where the player to move can capture.
Legal moves: the engine's Python-int bitsets, the plain one-placement-at-a-time reference and
the numba kernel. Best turn: the memoised exact search beside the plain brute-force reference
(capped; ``>`` marks a cap hit). Run: ``python -m tanglekit.benchmarks.tangle [--quick]``.
"""

from __future__ import annotations

import argparse
import random
import time


def fixed_positions(n: int):
    from ..games.tangle import TangleGame
    from ..solver.tangle_bots import make_bot

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


def _time(fn, reps: int) -> float:
    fn()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t) / reps


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 positions, fewer repetitions")
    args = ap.parse_args(argv)
    from ..errors import SolverError
    from ..solver.tangle_movegen import legal_placements_fast, legal_placements_reference
    from ..solver.tangle_search import best_turn, brute_force_best_turn

    n = 3 if args.quick else 8
    reps = 20 if args.quick else 100
    cap = 2_000 if args.quick else 20_000
    positions = fixed_positions(n)
    legal_placements_fast(positions[0][1])  # compile / load the kernel outside the timing
    print("### Legal-move generation (default board, 2 players)\n")
    print("| position | moves played | legal | reference (µs) | engine (µs) | numba (µs) | numba speed-up v reference |")
    print("|---|---|---|---|---|---|---|")
    for seed, s in positions:
        a = _time(lambda: legal_placements_reference(s), reps)
        b = _time(lambda: s.legal_placements(), reps)
        c = _time(lambda: legal_placements_fast(s), reps * 5)
        k = len(s.legal_placements())
        print(f"| seed {seed} | {len(s.moves)} | {k} | {a * 1e6:.0f} | {b * 1e6:.0f} | {c * 1e6:.1f} | {a / c:.0f}x |")
    print("\n### Best turn (exact, points mode)\n")
    print("| position | points | chain | memo search nodes | memo search (ms) | safe mode (ms) | brute force (ms) | brute nodes cap |")
    print("|---|---|---|---|---|---|---|---|")
    for seed, s in positions:
        t = time.perf_counter()
        r = best_turn(s, "points")
        tm = time.perf_counter() - t
        t = time.perf_counter()
        best_turn(s, "safe")
        ts = time.perf_counter() - t
        t = time.perf_counter()
        try:
            bp, _ = brute_force_best_turn(s, "points", node_limit=cap)
            tb = f"{(time.perf_counter() - t) * 1e3:.0f}"
            if bp != r.points:
                tb += " (MISMATCH)"
        except SolverError:
            tb = f"> {(time.perf_counter() - t) * 1e3:.0f}"
        print(f"| seed {seed} | {r.points} | {len(r.placements)} | {r.nodes} | {tm * 1e3:.1f} | {ts * 1e3:.1f} | {tb} | {cap} |")


if __name__ == "__main__":
    main()
