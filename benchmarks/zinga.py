"""Benchmark: simulated Zinga games per second, numba kernel vs the plain rules engine (same games).

Run: python -m tanglekit.benchmarks.zinga [--quick] [--players 4] [--seed 0]
Prints a Markdown table; the target is 100,000 four-player games per minute on one core.
"""

from __future__ import annotations

import argparse
import time


def measure(players: int = 4, plain_games: int = 200, kernel_games: int = 100_000, seed: int = 0,
            bot: str = "casual") -> dict:
    """Time both implementations; the plain engine's games are checked against the kernel's."""
    import numpy as np

    from ..games.zinga.sheet import load_sheets
    from ..solver.zinga_sim import simulate_games, simulate_games_plain

    sheets = (load_sheets() * 2)[:players]
    bots = [bot] * players
    t0 = time.perf_counter()
    simulate_games(sheets, bots, 1, seed=seed)  # compile (or load the cache)
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    plain = simulate_games_plain(sheets, bots, plain_games, seed=seed)
    plain_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    fast = simulate_games(sheets, bots, kernel_games, seed=seed)
    fast_s = time.perf_counter() - t0
    same = bool(np.array_equal(plain.winners, fast.winners[:plain_games])
                and np.array_equal(plain.stats, fast.stats[:plain_games]))
    return {
        "players": players, "bot": bot, "seed": seed, "compile_s": compile_s,
        "plain_games": plain_games, "plain_s": plain_s, "plain_per_s": plain_games / plain_s,
        "kernel_games": kernel_games, "kernel_s": fast_s, "kernel_per_s": kernel_games / fast_s,
        "mean_rolls": float(fast.turns.mean()), "same_games": same,
    }


def table(r: dict) -> str:
    ratio = r["kernel_per_s"] / r["plain_per_s"]
    per_min = r["kernel_per_s"] * 60
    lines = [
        f"Zinga simulation, {r['players']} players, bot {r['bot']}, seed {r['seed']} "
        f"({r['mean_rolls']:.1f} rolls per game; first {r['plain_games']} games identical: {r['same_games']})",
        "",
        "| implementation | games | seconds | games/s | games/min | ratio |",
        "|---|---:|---:|---:|---:|---:|",
        f"| plain engine (games/zinga) | {r['plain_games']} | {r['plain_s']:.2f} | {r['plain_per_s']:.0f} | "
        f"{r['plain_per_s'] * 60:,.0f} | 1.0 |",
        f"| numba kernel (solver/zinga_sim) | {r['kernel_games']} | {r['kernel_s']:.2f} | {r['kernel_per_s']:.0f} | "
        f"{per_min:,.0f} | {ratio:.0f} |",
        "",
        f"Target 100,000 games/min on one core: {'met' if per_min >= 100_000 else 'NOT met'} "
        f"(numba compile/cache load {r['compile_s']:.1f} s, not counted).",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small run (a few seconds)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bot", default="casual")
    a = ap.parse_args(argv)
    if a.quick:
        r = measure(a.players, 30, 10_000, a.seed, a.bot)
    else:
        r = measure(a.players, 300, 200_000, a.seed, a.bot)
    print(table(r))
    return 0 if r["same_games"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
