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

from ..games.zangle.rules import ZangleOptions
from ..games.zangle.solo_search import SoloDeal
from ._table import UNITS, Measure, rate, row
from ._table import table as md_table


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
    print(UNITS.replace("of the forked child process that ran the row, a copy of the bench process with the "
                        "kernels already loaded", "of the command's process (for a batch, its largest process: "
                        "the parent or a pool worker)") + "\n")
    print(f"{n:,} inputs per command; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the "
          "start (a loaded machine inflates both wall and CPU time). CPU s of a batch is user + system of the "
          "batch process and its pool workers.\n")
    rows = []
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
            task = f"{label}, {len(inputs):,} seeded inputs"
            if rc != 0 or len(lines) != len(inputs):
                rows.append(row(task, "--batch FILE", len(inputs), None,
                                notes=f"FAILED (exit {rc}, {len(lines)} lines)"))
                continue
            single = [_spawn(cmd + [x, "--json"], os.devnull) for x in inputs[1:1 + n_single]]
            one = Measure(None, sum(s[1] for s in single) / n_single * len(inputs),
                          sum(s[0] for s in single) / n_single * len(inputs), max(s[2] for s in single), 1)
            batch = Measure(None, cpu, wall, peak, 1)
            rows.append(row(task, "one process per input (shell loop)", len(inputs), one,
                            notes=f"the mean of {n_single} single-input processes, times {len(inputs):,}"))
            rows.append(row(task, "--batch FILE (one process, pool on all CPUs)", len(inputs), batch,
                            ratio=rate(len(inputs), batch) / rate(len(inputs), one),
                            notes=f"vs one process per input; {errors} error lines"))
    print(md_table(rows))
    print("\nGoal: 10,000 Tanglung layouts or 5-pile Zangle solo deals checked in a few seconds.")
    if args.quick:
        print(f"--quick: {n:,} inputs per command instead of 10,000.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
