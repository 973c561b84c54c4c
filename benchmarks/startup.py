"""Start-up cost: CPU and peak memory of whole `tanglekit` processes on small inputs, and the
modules that dominate their import time (`python -X importtime`).

Each command runs as a fresh process (warm disk, bytecode and numba caches: every command is
run once before it is timed, with ``PYTHONDONTWRITEBYTECODE`` unset so that run writes the
``.pyc`` files an installed package has); CPU is user + system of that process from getrusage,
the best of a few runs; peak memory is its maximum resident set. Target: a single small solve
at most 0.3 s CPU. The notes say which heavy libraries (numba, numpy, pydantic, rich, ortools)
the command loaded: the small instances run in plain Python (``tanglekit/engines.py``) and load
none of them.

The first-run section times commands whose kernels compile: each cold run gets an empty kernel
cache (a fresh ``NUMBA_CACHE_DIR``), the warm runs reuse the cache the cold run filled. Targets
(issue 26): a cold ``tanglekit demo`` within 3x the warm one; a cold QANGO 6 castle solve within
5 s.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
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
# (label, command with {tmp} for a scratch folder, cold/warm wall ratio target, cold wall target in s)
FIRST_RUN = [
    ("demo", ["demo", "--out", "{tmp}/demo"], 3.0, None),
    ("qango solve empty --board 6 --opening castle", ["qango", "solve", "empty", "--board", "6", "--opening",
                                                      "castle"], None, 5.0),
    ("qango solve empty --board 6 --opening castle --no-book (the search)", ["qango", "solve", "empty", "--board", "6",
                                                                             "--opening", "castle", "--no-book"],
     None, None),
    ("qango solve empty --board 6 --no-book", ["qango", "solve", "empty", "--board", "6", "--no-book"], None, None),
]
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


def _spawn(cmd: list[str], env: dict) -> dict:
    """CPU (user + system), wall and peak memory of one process running ``cmd``."""
    t = time.perf_counter()
    pid = os.posix_spawn(cmd[0], cmd, env, file_actions=[
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    _, status, ru = os.wait4(pid, 0)
    return {"cpu_s": ru.ru_utime + ru.ru_stime, "wall_s": time.perf_counter() - t,
            "peak_mib": ru.ru_maxrss / 1024.0, "ok": os.waitstatus_to_exitcode(status) == 0}


def first_run(args: list[str], cold: int, warm: int) -> tuple[list[dict], list[dict]]:
    """(cold runs, warm runs) of ``tanglekit args``: each cold run with an empty kernel cache of
    its own, the warm runs with the cache the last cold run filled."""
    colds, warms = [], []
    scratch = tempfile.mkdtemp(prefix="tanglekit-firstrun-")
    try:
        cmd = [sys.executable, "-m", "tanglekit.cli"] + [a.replace("{tmp}", scratch) for a in args]
        cache = None
        for _ in range(cold):
            if cache:
                shutil.rmtree(cache, ignore_errors=True)
            cache = tempfile.mkdtemp(prefix="numba-", dir=scratch)
            colds.append(_spawn(cmd, {**_env(), "NUMBA_CACHE_DIR": cache}))
        for _ in range(warm):
            warms.append(_spawn(cmd, {**_env(), "NUMBA_CACHE_DIR": cache}))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return colds, warms


def _spread(runs: list[dict], key: str) -> str:
    vals = sorted(r[key] for r in runs)
    return f"{vals[0]:.1f}" if len(vals) == 1 else f"{vals[0]:.1f}-{vals[-1]:.1f}"


def first_run_table(cold: int, warm: int) -> str:
    rows = []
    for label, cmd, ratio_target, cold_target in FIRST_RUN:
        load0 = os.getloadavg()[0]
        colds, warms = first_run(cmd, cold, warm)
        load1 = os.getloadavg()[0]
        med = {k: {q: statistics.median(r[q] for r in runs) for q in ("cpu_s", "wall_s", "peak_mib")}
               for k, runs in (("cold", colds), ("warm", warms))}
        wall_x = med["cold"]["wall_s"] / med["warm"]["wall_s"]
        cpu_x = med["cold"]["cpu_s"] / med["warm"]["cpu_s"]
        ok = "" if all(r["ok"] for r in colds + warms) else "; FAILED"
        verdict = ""
        if ratio_target is not None:
            verdict = f"; within {ratio_target:g}x: {'yes' if wall_x <= ratio_target else 'no'}"
        if cold_target is not None:
            verdict = f"; cold within {cold_target:g} s: {'yes' if med['cold']['wall_s'] <= cold_target else 'no'}"
        for k, runs in (("cold", colds), ("warm", warms)):
            m = Measure(None, med[k]["cpu_s"], med[k]["wall_s"], med[k]["peak_mib"], 1)
            notes = f"median of {len(runs)}; wall {_spread(runs, 'wall_s')} s, CPU {_spread(runs, 'cpu_s')} s"
            if k == "cold":
                notes += (f"; cold/warm: wall {wall_x:.1f}x, CPU {cpu_x:.1f}x{verdict}; load average "
                          f"{load0:.1f} at the start, {load1:.1f} at the end{ok}")
            method = "cold (empty kernel cache)" if k == "cold" else "warm (kernels cached)"
            rows.append(row(label, method, 1, m, notes=notes))
    table = md_table(rows, "first run: empty kernel cache (cold) against a filled one (warm)")
    head, body = table.split("\n\n", 1)
    intro = ("Each cold run is a fresh process with an empty kernel cache of its own (`NUMBA_CACHE_DIR` set to a "
             "new folder), so every kernel it calls compiles; the warm runs reuse the cache the last cold run "
             "filled. Rows give the median of the runs, notes the range (the machine may be shared: compare "
             "the load averages). Targets (issue 26): a cold `tanglekit demo` within 3x the warm one; a cold "
             "QANGO 6 castle solve within 5 s.")
    return f"{head}\n\n{intro}\n\n{body}"


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
    ap.add_argument("--quick", action="store_true", help="one timed run per command (default 5); one cold "
                    "and one warm first-run measure (default 2 and 3)")
    ap.add_argument("--first-run-only", action="store_true", help="only the first-run (cold/warm cache) table")
    args = ap.parse_args(argv)
    repeat = 1 if args.quick else 5
    print(UNITS.replace("of the forked child process that ran the row, a copy of the bench process with the "
                        "kernels already loaded", "of the command's own fresh process") + "\n")
    print(f"Each command runs as a fresh process (`python -m tanglekit.cli ...`), best CPU of {repeat} run(s) "
          f"after a warm-up run (disk, bytecode and numba caches warm); {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at the start (CPU time grows on a loaded machine). Target: a single small "
          f"solve within {TARGET_CPU} CPU s.\n")
    cold, warm = (1, 1) if args.quick else (2, 3)
    first = first_run_table(cold, warm)
    if args.first_run_only:
        print(first)
        return 0
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
    print()
    print(first)
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
