"""Batch mode: many inputs checked by one `tanglekit ... --batch FILE` process on all CPUs, beside
one process per input (what a shell loop over the single command costs).

Inputs are seeded: random standard Tanglung layouts (Roosters on opposite corners) and random
5-pile Zangle solo deals as full deal IDs. The batch runs as a real subprocess; CPU is user +
system of it and its pool workers (getrusage of children). The single-process cost is measured on
a few inputs and multiplied out. Goal: 10,000 layouts or 10,000 5-pile deals in a few seconds.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time


def tanglung_inputs(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    rest = list("RBFHDFRBHFBRHD")
    out = []
    for _ in range(n):
        rng.shuffle(rest)
        s = "C" + "".join(rest) + "C"
        out.append("/".join(s[k:k + 4] for k in range(0, 16, 4)))
    return out


def zangle_inputs(n: int, seed: int) -> list[str]:
    from ..games.zangle.rules import ZangleOptions
    from ..solver.zangle_solo import SoloDeal

    opts = ZangleOptions(piles=5)
    return [SoloDeal.from_seed(seed * 1_000_003 + i, opts).share_id() for i in range(n)]


def _spawn(args: list[str], stdout_path: str) -> tuple[float, float, float, int]:
    """(wall s, cpu s incl. children, peak MiB of the largest process, exit code)."""
    cmd = [sys.executable, "-m", "tanglekit.cli"] + args
    t = time.perf_counter()
    pid = os.posix_spawn(cmd[0], cmd, os.environ, file_actions=[
        (os.POSIX_SPAWN_OPEN, 1, stdout_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    # wait4 reports the process with its waited-for children (the pool workers)
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1,000 inputs instead of 10,000")
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    n = args.n or (1000 if args.quick else 10_000)
    jobs = [
        ("tanglung solo solve", ["tanglung", "solo", "solve"], tanglung_inputs(n, args.seed), 3),
        ("zangle solo solve (5 piles)", ["zangle", "solo", "solve"], zangle_inputs(n, args.seed), 3),
    ]
    print(f"{n:,} inputs per command; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the "
          "start (a loaded machine inflates both wall and CPU time).\n")
    print("| command | inputs | errors | wall s | CPU s | inputs/s (wall) | CPU ms/input | peak MiB "
          "| one process per input: CPU ms/input | ratio (CPU) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="tanglekit-bench-batch-") as tmp:
        for label, cmd, inputs, n_single in jobs:
            src = os.path.join(tmp, "in.txt")
            out = os.path.join(tmp, "out.jsonl")
            with open(src, "w", encoding="utf-8") as fh:
                fh.write("\n".join(inputs) + "\n")
            _spawn(cmd + [inputs[0], "--json"], os.devnull)  # warm the disk and numba caches
            wall, cpu, peak, rc = _spawn(cmd + ["--batch", src], out)
            with open(out, encoding="utf-8") as fh:
                lines = fh.read().splitlines()
            errors = sum('"error"' in ln[:40] for ln in lines)
            if rc != 0 or len(lines) != len(inputs):
                print(f"| {label} | {len(inputs)} | FAILED (exit {rc}, {len(lines)} lines) | - | - | - | - | - | - | - |")
                continue
            single = [_spawn(cmd + [x, "--json"], os.devnull)[1] for x in inputs[1:1 + n_single]]
            one = sum(single) / len(single)
            print(f"| {label} | {len(inputs):,} | {errors} | {wall:.2f} | {cpu:.2f} | {len(inputs) / wall:,.0f} "
                  f"| {1000 * cpu / len(inputs):.2f} | {peak:.0f} | {1000 * one:.0f} "
                  f"| {one * len(inputs) / cpu:,.0f}x |")
    print(f"\nThe per-input process column is the mean CPU of {jobs[0][3]} single-input runs; its ratio is "
          "that times the inputs over the batch's CPU.")
    if args.quick:
        print(f"--quick: {n:,} inputs per command instead of 10,000.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
