"""Start-up cost: CPU and peak memory of whole `tanglekit` processes on small inputs, and the
modules that dominate their import time (`python -X importtime`).

Each command runs as a fresh process (warm disk and numba caches: every command is run once
before it is timed); CPU is user + system of that process from getrusage, the best of a few
runs; peak memory is its maximum resident set. Target: a single small solve at most 0.3 s CPU.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time

COMMANDS = [
    ("help", ["--help"]),
    ("tanglung solo solve (small layout)", ["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC", "--json"]),
    ("zangle solo solve (5-pile deal)", ["zangle", "solo", "solve", "zangle:solo,piles=5:"
                                         "1l2v2r.03331n210m0u0p.1b.1x0n.1v230g.2d0t0224.082z172c2q", "--json"]),
    ("qango solve (2 counters left to a win)", ["qango", "solve", "XX..../O...../....../....../....../......",
                                                "--json"]),
    ("tile --first (pentominoes, 3x20)", ["tile", "--region", "rect:20x3", "--pieces", "pentominoes", "--first",
                                          "--json"]),
    ("shapes enumerate 8 --count", ["shapes", "enumerate", "8", "--count", "--json"]),
]
TARGET_CPU = 0.3


def measure(args: list[str], repeat: int) -> dict:
    """Best CPU of ``repeat`` runs (after one warm-up run), its wall time and peak memory."""
    best = None
    for k in range(repeat + 1):
        cmd = [sys.executable, "-m", "tanglekit.cli"] + args
        t = time.perf_counter()
        pid = os.posix_spawn(cmd[0], cmd, os.environ, file_actions=[
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
        _, status, ru = os.wait4(pid, 0)
        wall = time.perf_counter() - t
        if k == 0:
            continue  # warm-up: loads the disk and numba caches
        cpu = ru.ru_utime + ru.ru_stime
        row = {"cpu_s": cpu, "wall_s": wall, "peak_mib": ru.ru_maxrss / 1024.0,
               "ok": os.waitstatus_to_exitcode(status) == 0}
        if best is None or cpu < best["cpu_s"]:
            best = row
    return best


def import_top(args: list[str], top: int = 6) -> list[tuple[str, float]]:
    """The ``top`` slowest top-level imports (cumulative ms) of one run, from -X importtime."""
    cmd = [sys.executable, "-X", "importtime", "-m", "tanglekit.cli"] + args
    err = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
    rows = []
    for ln in err.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)", ln)
        if m and len(m.group(3)) <= 2:  # the modules imported by the command itself (and site)
            rows.append((m.group(4), int(m.group(2)) / 1000.0))
    rows.sort(key=lambda r: -r[1])
    return rows[:top]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one timed run per command (default 3)")
    args = ap.parse_args(argv)
    repeat = 1 if args.quick else 3
    print(f"Whole-process cost, best of {repeat} run(s) after a warm-up run; {os.cpu_count()} CPUs, load "
          f"average {os.getloadavg()[0]:.1f} at the start (CPU time grows on a loaded machine).\n")
    print("| command | CPU s | wall s | peak MiB | within 0.3 s CPU |")
    print("|---|---:|---:|---:|---|")
    tops = {}
    for label, cmd in COMMANDS:
        r = measure(cmd, repeat)
        ok = "yes" if r["cpu_s"] <= TARGET_CPU else "no"
        if not r["ok"]:
            ok = "FAILED"
        print(f"| {label} | {r['cpu_s']:.3f} | {r['wall_s']:.3f} | {r['peak_mib']:.0f} | {ok} |")
        tops[label] = import_top(cmd)
    print("\n### slowest top-level imports per command (cumulative ms, one -X importtime run)\n")
    print("| command | module | import ms |")
    print("|---|---|---:|")
    for label, rows in tops.items():
        for mod, ms in rows:
            print(f"| {label} | {mod} | {ms:.1f} |")
    if args.quick:
        print("\n--quick: one timed run per command instead of the best of 3.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
