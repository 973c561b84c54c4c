"""Start-up cost: CPU and peak memory of whole `tanglekit` processes on small inputs, and the
modules that dominate their import time (`python -X importtime`).

Each command runs as a fresh process (warm disk, bytecode and numba caches: every command is
run once before it is timed, with ``PYTHONDONTWRITEBYTECODE`` unset so that run writes the
``.pyc`` files an installed package has); CPU is user + system of that process from getrusage,
the best of a few runs; peak memory is its maximum resident set. Target: a single small solve
at most 0.3 s CPU. The notes say which heavy libraries (numba, numpy, pydantic, rich, ortools)
the command loaded: the small instances run in plain Python (``tanglekit/engines.py``) and load
none of them.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time

from ._table import UNITS, Measure, row
from ._table import table as md_table

DEAL_ID = ("zangle:turn,players=3,all_can_go_out:2y3a0k02.1p042d190l142f0o2g342h061w0d1c1g1u1q180t1x2w1038050c0j17"
           "370r2l1b2x2u081v0h350n0v311n0e2e2a2o240i110m0x39071z2q1a0b1t1d36011h0z0u200f1e1f030w2n2t1m1s09232v2c27"
           "0q1o162j0y2b00.2p1l3b15.2s280g1r0a30.3329261i.2z1y2r1j2m25.2k212i13.1222320s1k0p")  # examples/deal.json
COMMANDS = [
    ("help", ["--help"]),
    ("tanglung solo solve (README layout)", ["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC", "--json"]),
    ("tanglung solo solve (a typical layout, 23 k states)", ["tanglung", "solo", "solve", "CDBR/HRFH/HBRD/BFFC",
                                                            "--json"]),
    ("zangle solo solve (5-pile deal)", ["zangle", "solo", "solve", "zangle:solo,piles=5:"
                                         "1l2v2r.03331n210m0u0p.1b.1x0n.1v230g.2d0t0224.082z172c2q", "--json"]),
    ("zangle find (examples/deal.json)", ["zangle", "find", DEAL_ID, "--json"]),
    ("qango solve (11 empty cells, a draw)", ["qango", "solve", "OXO.XO/OX.XOX/O.XOX./XOX.O./.XOX../X.O.OX",
                                              "--json"]),
    ("tile --count (rect:5x4, pentominoes at most once)", ["tile", "--region", "rect:5x4", "--pieces", "pentominoes",
                                                           "--each", "at-most", "--count", "--json"]),
    ("tile --first (pentominoes, 3x20)", ["tile", "--region", "rect:20x3", "--pieces", "pentominoes", "--first",
                                          "--json"]),
    ("shapes enumerate 8 --count", ["shapes", "enumerate", "8", "--count", "--json"]),
]
TARGET_CPU = 0.3
HEAVY = ("numba", "numpy", "pydantic", "rich", "ortools")


def _env() -> dict:
    """The environment of the timed processes: this one's, with bytecode caches written."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure(args: list[str], repeat: int) -> dict:
    """Best CPU of ``repeat`` runs (after one warm-up run), its wall time and peak memory."""
    best = None
    for k in range(repeat + 1):
        cmd = [sys.executable, "-m", "tanglekit.cli"] + args
        t = time.perf_counter()
        pid = os.posix_spawn(cmd[0], cmd, _env(), file_actions=[
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
        _, status, ru = os.wait4(pid, 0)
        wall = time.perf_counter() - t
        if k == 0:
            continue  # warm-up: loads the disk and numba caches
        cpu = ru.ru_utime + ru.ru_stime
        r = {"cpu_s": cpu, "wall_s": wall, "peak_mib": ru.ru_maxrss / 1024.0,
             "ok": os.waitstatus_to_exitcode(status) == 0}
        if best is None or cpu < best["cpu_s"]:
            best = r
    return best


def import_top(args: list[str], top: int = 6) -> tuple[list[tuple[str, float]], list[str]]:
    """The ``top`` slowest top-level imports (cumulative ms) of one run, from -X importtime, and
    which of the heavy libraries (HEAVY) the command imported at all."""
    cmd = [sys.executable, "-X", "importtime", "-m", "tanglekit.cli"] + args
    err = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=_env()).stderr
    rows = []
    seen = set()
    for ln in err.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)", ln)
        if not m:
            continue
        seen.add(m.group(4).split(".")[0])
        if len(m.group(3)) <= 2:  # the modules imported by the command itself (and site)
            rows.append((m.group(4), int(m.group(2)) / 1000.0))
    rows.sort(key=lambda r: -r[1])
    return rows[:top], [h for h in HEAVY if h in seen]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one timed run per command (default 5)")
    args = ap.parse_args(argv)
    repeat = 1 if args.quick else 5
    print(UNITS.replace("of the forked child process that ran the row, a copy of the bench process with the "
                        "kernels already loaded", "of the command's own fresh process") + "\n")
    print(f"Each command runs as a fresh process (`python -m tanglekit.cli ...`), best CPU of {repeat} run(s) "
          f"after a warm-up run (disk, bytecode and numba caches warm); {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at the start (CPU time grows on a loaded machine). Target: a single small "
          f"solve within {TARGET_CPU} CPU s.\n")
    rows = []
    tops = {}
    for label, cmd in COMMANDS:
        r = measure(cmd, repeat)
        top, heavy = import_top(cmd)
        tops[label] = top
        ok = "yes" if r["cpu_s"] <= TARGET_CPU else "no"
        if not r["ok"]:
            ok = "FAILED"
        notes = f"within {TARGET_CPU} s: {ok}; imports {', '.join(heavy) if heavy else 'none of ' + '/'.join(HEAVY)}"
        rows.append(row(label, f"best of {repeat}", 1, Measure(None, r["cpu_s"], r["wall_s"], r["peak_mib"], 1),
                        notes=notes))
    print(md_table(rows, "whole-process cost per command"))
    print("\n### slowest top-level imports per command (import ms: cumulative wall milliseconds from one "
          "`-X importtime` run)\n")
    print("| command | module | import ms |")
    print("|---|---|---:|")
    for label, top in tops.items():
        for mod, ms in top:
            print(f"| {label} | {mod} | {ms:.1f} |")
    print("\nAn editable install (`pip install -e`) adds its import finder to every start "
          "(`__editable___tanglekit_*_finder`, a few ms); a plain install does not.")
    if args.quick:
        print("--quick: one timed run per command instead of the best of 5.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
