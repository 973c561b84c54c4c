"""Benchmark: simulated Zinga games per second, numba kernel vs the plain rules engine (same games).

Run: python -m tanglekit.benchmarks.zinga [--quick] [--players 4] [--seed 0]
Prints a Markdown table (benchmarks/_table.py layout); the target is 100,000 four-player games
per minute of CPU on one core.
"""

from __future__ import annotations

import argparse

from ..games.zinga.sheet import load_sheets
from ._table import UNITS, rate, row
from ._table import measure as measure_row
from ._table import table as md_table


def measure(players: int = 4, plain_games: int = 200, kernel_games: int = 100_000, seed: int = 0,
                 bot: str = "casual") -> dict:
    """Time both implementations (each in a forked child, the kernel loaded before); the plain
    engine's games are checked against the kernel's."""
    import time

    import numpy as np

    from ..games.zinga.sim import simulate_games, simulate_games_plain  # loads numba (only when this runs)

    sheets = (load_sheets() * 2)[:players]
    bots = [bot] * players
    t0 = time.process_time()
    simulate_games(sheets, bots, 1, seed=seed)  # compile (or load the cache) before timing
    load_s = time.process_time() - t0
    simulate_games_plain(sheets, bots, 1, seed=seed)
    plain = measure_row(simulate_games_plain, sheets, bots, plain_games, seed=seed)
    fast = measure_row(simulate_games, sheets, bots, kernel_games, seed=seed)
    same = bool(np.array_equal(plain.value.winners, fast.value.winners[:plain_games])
                and np.array_equal(plain.value.stats, fast.value.stats[:plain_games]))
    return {
        "players": players, "bot": bot, "seed": seed, "load_s": load_s,
        "plain_games": plain_games, "plain": plain, "kernel_games": kernel_games, "kernel": fast,
        "mean_rolls": float(fast.value.turns.mean()), "same_games": same,
    }


def table(r: dict) -> str:
    plain_rate = rate(r["plain_games"], r["plain"])
    kernel_rate = rate(r["kernel_games"], r["kernel"])
    task = f"Zinga games, {r['players']} players, bot {r['bot']}"
    per_min = kernel_rate * 60
    lines = [
        f"Seed {r['seed']}, {r['mean_rolls']:.1f} rolls per game; the first {r['plain_games']} games of both "
        f"are identical: {r['same_games']}.",
        "",
        md_table([
            row(task, "plain engine (games/zinga)", r["plain_games"], r["plain"]),
            row(task, "numba kernel (games/zinga/sim)", r["kernel_games"], r["kernel"],
                ratio=kernel_rate / plain_rate, notes="vs plain engine"),
        ]),
        "",
        f"Target 100,000 games per CPU minute on one core: {'met' if per_min >= 100_000 else 'NOT met'} "
        f"({per_min:,.0f}; the kernel was loaded before timing, {r['load_s']:.3f} CPU s, not counted).",
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
    print(UNITS + "\n")
    print(table(r))
    if a.quick:
        print("\n--quick: 30 plain-engine games and 10,000 kernel games instead of 300 and 200,000; "
              "every row is warmed as in the full run.")
    return 0 if r["same_games"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
