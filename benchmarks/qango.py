"""QANGO benchmark: empty boards per opening rule (time, nodes) by df-pn with threat search and by
iterative deepening, a fixed set of mid-game positions (positions per second, both engines) and
near-end positions solved by the numba solver and by the plain-Python reference minimax in the same run.

Run: python -m tanglekit.benchmarks.qango [--quick] [--time-limit S]; prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from ..games.qango import Position, load_board
from ..games.qango.board import board_from_json
from ..games.qango.bots import make_bot
from ..games.qango.generate import random_position
from ..games.qango.proof import load_proof
from ..games.qango.reference import reference_solve
from ..games.qango.table import ROWS, proof_path
from ._table import UNITS, rate
from ._table import measure as measure_row
from ._table import row as table_row
from ._table import table as md_table


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer positions and short limits, for a fast look")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per empty board (default 60, quick 10)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cross-check", nargs="+", metavar="CERT",
                    help="re-decide random holds leaves of shipped certificates without the holds test")
    ap.add_argument("--leaves", type=int, default=1000, help="leaves per certificate for --cross-check")
    ap.add_argument("--split", action="store_true",
                    help="only the parallel root split of df-pn: one process against two")
    ap.add_argument("--rows", action="store_true",
                    help="only the solved-values table: value and shortest win of every board and opening by df-pn")
    ap.add_argument("--perfect", action="store_true",
                    help="only the perfect player: per-move time against a random player on every solved row")
    ap.add_argument("--dfpn-steps", action="store_true",
                    help="only the df-pn steps table: the oracle in Python or in the kernel, dead cells, holds")
    args = ap.parse_args(argv)
    if args.rows:
        return rows_table()
    if args.perfect:
        return perfect_table(args.seed)
    if args.split:
        return split_table()
    if args.cross_check:
        print("| certificate | holds leaves | checked | confirmed | undecided | contradicted | CPU s |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name in args.cross_check:
            cross_check(name, args.leaves, args.time_limit or 3.0, args.seed)
        return
    if args.dfpn_steps:
        return dfpn_steps(args.time_limit or (20.0 if args.quick else 120.0), args.seed, args.quick)

    from ..games.qango.solve import QangoSolver  # loads numpy (only when this runs)

    limit = args.time_limit or (10.0 if args.quick else 60.0)
    n_mid = 20 if args.quick else 100
    n_end = 10 if args.quick else 40
    b6 = load_board("6")
    QangoSolver(b6, None, tt_bits=12).solve(Position(b6))  # compile / load the kernels outside the timing
    QangoSolver(b6, None, tt_bits=12).solve(Position(b6), method="pns")

    def empty(bname, opening, method):
        b = load_board(bname)
        pos = Position(b, 0, 0, b.opening_cells(opening))
        s = QangoSolver(b, pos.allowed_first, tt_bits=24 if method == "pns" else 22)
        res = s.solve(pos, time_limit=limit, method=method)
        return res.value, res.plies, res.nodes, res.depth_reached

    variants = [("6", "standard"), ("6", "castle"), ("6", "tournament"), ("7", "castle"), ("7plus", "standard"),
                ("7plus", "edges")]
    if not args.quick:
        variants += [("7", "standard"), ("7", "professionals-1"), ("7", "professionals-2"), ("7plus", "tournament")]
    lines = []
    for bname, opening in variants:
        title = f"empty {load_board(bname).title}, {opening}"
        ms, notes = {}, {}
        for method in ("pns", "id"):
            m = ms[method] = measure_row(empty, bname, opening, method)
            value, plies, nodes, depth = m.value
            if value == "unknown":
                notes[method] = f"{nodes:,} nodes" + (f", decided to depth {depth}" if method == "id" else "")
            else:
                notes[method] = f"{value}" + (f" in {plies} plies" if plies else "") + f", {nodes:,} nodes"
        both = all(m.value[0] != "unknown" for m in ms.values())
        for method, label in (("pns", "df-pn + threat search + holds"), ("id", "iterative deepening")):
            m = ms[method]
            ratio = rate(1, m) / rate(1, ms["id"]) if method == "pns" and both else None
            lines.append(table_row(title, label, 1, m, ratio=ratio,
                             notes=notes[method] + (", vs iterative deepening" if ratio is not None else ""),
                             limited=f"time-limited ({limit:g} s wall)" if m.value[0] == "unknown" else False))

    rng = random.Random(args.seed)
    mids = [random_position(b6, rng, max_empty=28, min_counters=8, quiet=True) for _ in range(n_mid)]

    def mid(method):
        s = QangoSolver(b6, None, tt_bits=20)
        nodes, vals = 0, {}
        for p in mids:
            r = s.solve(p, time_limit=5.0, method=method)
            nodes += r.nodes
            vals[r.value] = vals.get(r.value, 0) + 1
        return nodes, ", ".join(f"{v} {k}" for k, v in sorted(vals.items()))

    task = "QANGO 6 quiet mid-game positions (8+ counters, 5 s limit each)"
    mi = measure_row(mid, "id")
    mp = measure_row(mid, "pns")
    lines.append(table_row(task, "df-pn + threat search + holds", n_mid, mp, ratio=rate(n_mid, mp) / rate(n_mid, mi),
                     notes=f"{mp.value[1]}; {mp.value[0]:,} nodes; vs iterative deepening"))
    lines.append(table_row(task, "iterative deepening", n_mid, mi, notes=f"{mi.value[1]}; {mi.value[0]:,} nodes"))

    ends = [random_position(b6, rng, max_empty=11, min_counters=25) for _ in range(n_end)]

    def near_end():
        s = QangoSolver(b6, None, tt_bits=20)
        return [(r.value, r.plies) for r in (s.solve(p) for p in ends)]

    me = measure_row(near_end, reps=3, min_cpu=0.2)
    mr = measure_row(lambda: [reference_solve(p, max_empty=11) for p in ends])
    agree = sum(a == b for a, b in zip(me.value, mr.value))
    task = "QANGO 6 near-end positions (9-11 empty)"
    lines.append(table_row(task, "numba solver", n_end * me.reps, me, ratio=rate(n_end * me.reps, me) / rate(n_end, mr),
                     notes="vs plain-Python reference minimax"))
    lines.append(table_row(task, "plain-Python reference minimax", n_end, mr, notes=f"agrees on {agree}/{n_end}"))
    print(UNITS)
    print()
    print(f"Empty boards: one solve each, stopped after {limit:g} s of wall time; nodes: df-pn expansions "
          "or iterative-deepening nodes. ratio of a df-pn row: its items/s over iterative deepening's.")
    print()
    print(md_table(lines))


def perfect_table(seed: int) -> None:
    """The ``perfect`` bot (exact search, the shipped certificates, df-pn) against a random player,
    one game as X and one as O, and against itself (which must reach the row's value), on every
    board and opening: the results and the bot's time per move."""
    c0 = time.process_time()
    perfect = make_bot("perfect")  # loads the kernels (once per process)
    warm = time.process_time() - c0
    print(f"Kernels loaded when the bot is made: {warm:.2f} CPU s (once per process).")
    print()
    print("| board | opening | perfect as X v random | perfect as O v random | perfect v perfect (counters) | "
          "moves | mean wall s | worst wall s | worst CPU s |")
    print("|---|---|---|---|---|---:|---:|---:|---:|")
    for bname, opening in [(r["board"], r["opening"]) for r in ROWS]:
        b = load_board(bname)
        rng = random.Random(seed)
        results, times = [], []
        for side in "XO":
            pos = Position(b, 0, 0, b.opening_cells(opening))
            while pos.outcome() is None:
                if pos.to_move == side:
                    w0, c0 = time.perf_counter(), time.process_time()
                    m = perfect(pos)
                    times.append((time.perf_counter() - w0, time.process_time() - c0))
                else:
                    m = rng.choice(pos.legal_moves())
                pos = pos.play(m)
            results.append("won" if pos.outcome() == side else "drew" if pos.outcome() == "draw" else "LOST")
        pos = Position(b, 0, 0, b.opening_cells(opening))  # and against itself: the row's value
        while pos.outcome() is None:
            w0, c0 = time.perf_counter(), time.process_time()
            m = perfect(pos)
            times.append((time.perf_counter() - w0, time.process_time() - c0))
            pos = pos.play(m)
        results.append({"X": "X won", "O": "O won", "draw": "draw"}[pos.outcome()] + f" in {pos.n_counters}")
        worst = max(times)
        print(f"| {b.title} | {opening} | {results[0]} | {results[1]} | {results[2]} | {len(times)} | "
              f"{sum(w for w, _ in times) / len(times):.3f} | {worst[0]:.3f} | {worst[1]:.3f} |", flush=True)


def rows_table() -> None:
    """Every empty board and opening with the default df-pn: the value (can X force a win? can O?),
    and for a win the two bounded searches that fix the shortest win L (a win within L plies, none
    within L - 2); CPU seconds on one core. The rows of ``qango table``."""
    from dataclasses import replace

    from ..games.qango.solve import QangoSolver  # loads numpy (only when this runs)

    b6 = load_board("6")
    QangoSolver(b6, None).solve_pns(Position(b6))  # compile / load outside the timing
    print("| board | opening | value | shortest win | can X win? CPU s (expansions) | can O win? CPU s | "
          "win within L: CPU s | none within L-2: CPU s |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for row in ROWS:
        b = load_board(row["board"])
        first = b.opening_cells(row["opening"])
        cells = []
        for att in ("X", "O"):
            s = QangoSolver(b, first)
            c0 = time.process_time()
            won = s.prove(0, 0, att == "X")
            cells.append((won, time.process_time() - c0, int(s.stats[s.K.ST_EXPANSIONS])))
            if won:
                break
        xs = f"{'yes' if cells[0][0] else 'no'} {cells[0][1]:.2f} ({cells[0][2]:,})"
        os_ = "-" if len(cells) < 2 else f"{'yes' if cells[1][0] else 'no'} {cells[1][1]:.2f} ({cells[1][2]:,})"
        value = "win" if cells[0][0] else "loss" if len(cells) > 1 and cells[1][0] else "draw"
        bounded = ["-", "-"]
        if value == "win":
            for k, r in enumerate((row["plies"], row["plies"] - 2)):
                s = QangoSolver(replace(b, max_counters=r), first)
                c0 = time.process_time()
                won = s.prove(0, 0, True)
                bounded[k] = f"{'yes' if won else 'no'} {time.process_time() - c0:.2f}"
        print(f"| {b.title} | {row['opening']} | {value} | {row['plies'] or '-'} | {xs} | {os_} | {bounded[0]} | "
              f"{bounded[1]} |", flush=True)


def cross_check(name: str, n: int, seconds: float, seed: int) -> None:
    """An outside check of the "holds" leaves of a shipped certificate: ``n`` leaves drawn at random
    from its no-win tables, each decided again by df-pn without the holds test and without dead-cell
    pruning (the engine of the previous release) within ``seconds``; prints how many it confirms,
    how many it leaves undecided, and how many it contradicts (which would make the leaf wrong)."""
    from importlib import resources

    from ..games.qango.solve import QangoSolver, _Timeout  # loads numpy (only when this runs)

    with resources.as_file(proof_path(name)) as p:
        doc = load_proof(p)
    board = board_from_json(doc["board"])
    tables = doc.get("strategies") or ({doc["side"]: doc["strategy"]} if doc.get("claim") == "no-win" else {})
    leaves = [(side, key) for side, t in tables.items() for key, v in t.items() if isinstance(v, dict)]
    rng = random.Random(seed)
    rng.shuffle(leaves)
    counts = {"confirmed": 0, "undecided": 0, "contradicted": 0}
    c0 = time.process_time()
    for side, key in leaves[:n]:
        x, o = (int(h, 16) for h in key.split(":"))
        x_to_move = bin(x).count("1") == bin(o).count("1")
        att, dfd = (x, o) if side == "X" else (o, x)
        s = QangoSolver(board, None, tt_bits=16)
        s.hold_budget, s.prune = 0, False
        s.deadline = time.perf_counter() + seconds
        try:
            counts["contradicted" if s.prove(att, dfd, x_to_move == (side == "X")) else "confirmed"] += 1
        except _Timeout:
            counts["undecided"] += 1
    print(f"| {name} | {len(leaves):,} | {min(n, len(leaves)):,} | {counts['confirmed']:,} | {counts['undecided']:,} | "
          f"{counts['contradicted']:,} | {time.process_time() - c0:.0f} |")


def split_table() -> None:
    """df-pn on one core and with the root (or, for a single class of first counters, the first
    reply) shared out over two forked processes: wall seconds and CPU seconds of all processes."""
    import resource

    from ..games.qango.solve import QangoSolver  # loads numpy (only when this runs)

    def cpu():
        a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime

    b6 = load_board("6")
    QangoSolver(b6, None).solve_pns(Position(b6))  # compile / load outside the timing
    print(f"Load average at the start: {os.getloadavg()[0]:.1f} (2 cores; a loaded machine hides the speed-up).")
    print()
    print("| root | question | answer | 1 process: wall s | CPU s | 2 processes: wall s | CPU s | wall speed-up |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for bname, opening, att in [("6", "tournament", "X"), ("7plus", "tournament", "X"), ("6", "tournament", "O"),
                                ("7", "professionals-1", "X"), ("7plus", "edges", "X")]:
        b = load_board(bname)
        first = b.opening_cells(opening)
        cells = []
        for w in (1, 2):
            s = QangoSolver(b, first)
            w0, c0 = time.perf_counter(), cpu()
            ans = s.prove_split(0, 0, att == "X", w)
            cells.append((ans, time.perf_counter() - w0, cpu() - c0))
        (a1, w1, c1), (a2, w2, c2) = cells
        assert a1 == a2
        print(f"| {b.title} {opening} | can {att} force a win? | {'yes' if a1 else 'no'} | {w1:.2f} | {c1:.2f} | "
              f"{w2:.2f} | {c2:.2f} | {w1 / w2:.2f}x |", flush=True)


STEPS = [  # (label, oracle inside the kernel, dead-cell pruning, pair tries of the holds test)
    ("oracle called from Python", False, False, 0),
    ("oracle in the kernel", True, False, 0),
    ("+ dead cells", True, True, 0),
    ("+ holds (pairs + potential)", True, False, 64),
    ("+ dead cells + holds (default)", True, True, 64),
]


def dfpn_steps(limit: float, seed: int, quick: bool = False) -> None:
    """df-pn step by step (each step's effect measured alone and together): the oracle called from
    Python or answered inside the kernel, dead-cell pruning, and the holds test (pairs + Erdős–Selfridge
    potential), on the hard rows and a mid-game set; prints a Markdown table (CPU seconds)."""
    from ..games.qango.solve import QangoSolver, _Timeout  # loads numpy (only when this runs)

    b6 = load_board("6")
    for _, inner, prune, hold in STEPS:  # compile / load outside the timing
        s = QangoSolver(b6, None)
        s.prune, s.hold_budget = prune, hold
        s.solve_pns(Position(b6), inner=inner)
    tasks = []
    spec = [("6", "castle", [], [], "X"), ("7plus", "edges", [], [], "X"), ("7", "professionals-1", [], [], "X"),
            ("6", "tournament", [0], [], "O"), ("6", "tournament", [], [], "O"), ("7plus", "tournament", [], [], "O"),
            ("6", "tournament", [2], [8], "X"), ("6", "tournament", [], [], "X"), ("7plus", "tournament", [], [], "X")]
    if quick:
        spec = [spec[0], spec[3], spec[6], spec[8]]
    for bname, opening, xs, os_, att in spec:
        b = load_board(bname)
        pos = Position(b, sum(1 << c for c in xs), sum(1 << c for c in os_), b.opening_cells(opening))
        first = "" if not xs else " after " + ", ".join(
            [f"X [{b.rc(c)[0]}, {b.rc(c)[1]}]" for c in xs] + [f"O [{b.rc(c)[0]}, {b.rc(c)[1]}]" for c in os_])
        tasks.append((f"{b.title} {opening}{first}: can {att} force a win?", b, pos, att))
    print(f"CPU seconds per task (one core), each stopped after {limit:g} s of wall time (`unknown`).")
    print()
    print("| task | step | answer | CPU s | df-pn expansions | oracle nodes |")
    print("|---|---|---|---:|---:|---:|")
    for label, b, pos, att in tasks:
        for name, inner, prune, hold in STEPS:
            s = QangoSolver(b, pos.allowed_first)
            s.prune, s.hold_budget = prune, hold
            me, opp = pos.sides()
            a, d = (me, opp) if pos.to_move == att else (opp, me)
            c0 = time.process_time()
            s.deadline = time.perf_counter() + limit
            try:
                ans = "yes" if s.prove(a, d, pos.to_move == att, inner=inner) else "no"
            except _Timeout:
                ans = "unknown"
            dt = time.process_time() - c0
            print(f"| {label} | {name} | {ans} | {dt:.2f} | {int(s.stats[s.K.ST_EXPANSIONS]):,} | "
                  f"{int(s.stats[s.K.ST_NODES]):,} |", flush=True)
    rng = random.Random(seed)
    mids = [random_position(b6, rng, max_empty=28, min_counters=8, quiet=True) for _ in range(20 if quick else 100)]
    for name, inner, prune, hold in STEPS:
        s = QangoSolver(b6, None, tt_bits=20)
        s.prune, s.hold_budget = prune, hold
        c0, exp, vals = time.process_time(), 0, {}
        for p in mids:
            r = s.solve_pns(p, time_limit=5.0, inner=inner)
            exp += int(s.stats[s.K.ST_EXPANSIONS])
            vals[r.value] = vals.get(r.value, 0) + 1
        print(f"| QANGO 6 quiet mid-game positions ({len(mids)}, 8+ counters), value by df-pn | {name} | "
              f"{', '.join(f'{v} {k}' for k, v in sorted(vals.items()))} | {time.process_time() - c0:.2f} | "
              f"{exp:,} | |", flush=True)


if __name__ == "__main__":
    main()
