"""The duel's fairness table: the starting player's exact match value for every combination of
the visible cards of the set-up (the central 2x2 lit, the Roosters on two opposite corners;
everything else is chance), and over the whole deal.

Entries are the combinations up to the grid symmetries that keep the set-up (the Roosters'
corners and the lit centre); each is weighted by its probability (the centre's cards are drawn
from the lanterns of the card set) times its orbit. An entry is one exact solve of the set-up
position (``duel_solve``); the table runs its entries through the census executors
(``generators.executors.run_parts``: local processes, Ray or Dask) with a checkpoint, and with
a time limit per entry, so an entry the machine cannot finish is recorded with its cost
(``complete: false``) and the table says what is finished.

Reduced variants (tests, and a table that finishes): ``rows`` x ``cols`` grids in the top-left
corner of the 4x4 (``duel_reference.reduced_layout``), the lanterns given as letters.
"""

from __future__ import annotations

import time
from fractions import Fraction
from itertools import product
from math import prod

from ...errors import SolverError
from ...generators.executors import run_parts
from .cards import EMPTY, ROOSTER, CardSet, default_card_set
from .duel import CENTRE, Match
from .layout import Layout
from .rules import TanglungOptions


def _grid_cells(rows: int, cols: int) -> list[int]:
    return [r * 4 + c for r in range(rows) for c in range(cols)]


def setup_cells(rows: int = 4, cols: int = 4) -> tuple[tuple[int, int], list[int], list[int]]:
    """(Rooster cells, visible centre cells, dark cells) of the set-up of a rows x cols grid."""
    roosters = (0, (rows - 1) * 4 + cols - 1)
    cells = _grid_cells(rows, cols)
    centre = [i for i in CENTRE if i in cells and i not in roosters]
    dark = [i for i in cells if i not in roosters and i not in centre]
    return roosters, centre, dark


def symmetries(rows: int, cols: int) -> list[dict[int, int]]:
    """The symmetries of the rows x cols rectangle that keep the Roosters' corners (as a set)
    and the visible centre, as maps of cells."""
    roosters, centre, _ = setup_cells(rows, cols)
    R, C = rows - 1, cols - 1
    maps = [lambda r, c: (r, c), lambda r, c: (R - r, C - c), lambda r, c: (r, C - c), lambda r, c: (R - r, c)]
    if rows == cols:
        maps += [lambda r, c: (c, r), lambda r, c: (C - c, R - r), lambda r, c: (c, R - r), lambda r, c: (C - c, r)]
    out = []
    for f in maps:
        m = {}
        for i in _grid_cells(rows, cols):
            r, c = f(*divmod(i, 4))
            m[i] = r * 4 + c
        if {m[x] for x in roosters} == set(roosters) and {m[x] for x in centre} == set(centre):
            out.append(m)
    return out


def lantern_counts(rows: int, cols: int, lanterns: str | None, card_set: CardSet | None) -> dict[str, int]:
    if rows == 4 and cols == 4 and lanterns is None:
        cs = card_set or default_card_set()
        if cs.count(ROOSTER) != 2:
            raise SolverError("the duel set-up needs a card set with 2 Roosters")
        return {k: n for k, n in cs.as_dict().items() if k != ROOSTER}
    if lanterns is None:
        raise SolverError("a reduced grid needs its lanterns (letters, e.g. RBFHDRB)")
    s = lanterns.upper()
    if set(s) - set("RBFHD") or len(s) != rows * cols - 2:
        raise SolverError(f"a {rows}x{cols} grid needs {rows * cols - 2} lantern letters (R, B, F, H, D)")
    return {k: s.count(k) for k in "RBFHD" if s.count(k)}


def entries(rows: int = 4, cols: int = 4, lanterns: str | None = None, card_set: CardSet | None = None):
    """[(centre letters in CENTRE order, probability of its orbit as a Fraction, orbit size)]."""
    counts = lantern_counts(rows, cols, lanterns, card_set)
    _, centre, _ = setup_cells(rows, cols)
    total = sum(counts.values())
    syms = symmetries(rows, cols)
    seen: set = set()
    out = []
    kinds = sorted(counts)
    for combo in product(kinds, repeat=len(centre)):
        if any(combo.count(k) > counts[k] for k in kinds):
            continue
        assign = dict(zip(centre, combo))
        images = {tuple(assign[next(x for x in centre if m[x] == y)] for y in centre) for m in syms}
        if min(images) != combo or combo in seen:
            continue
        seen.add(combo)
        # probability of one ordered centre: falling factorials of the counts over the total
        left = dict(counts)
        num = 1
        for k in combo:
            num *= left[k]
            left[k] -= 1
        p = Fraction(num, prod(range(total - len(centre) + 1, total + 1)))
        out.append(("".join(combo), p * len(images), len(images)))
    return out


def start_position(rows: int, cols: int, centre_letters: str, lanterns: dict[str, int],
                   options: TanglungOptions | None = None) -> Match:
    """The set-up: Roosters lit on the corners, the centre lit with the given letters, the
    other cards dark (their letters are placeholders: the solver knows only their kinds as a
    multiset), player 0 to place first."""
    roosters, centre, dark = setup_cells(rows, cols)
    pool = dict(lanterns)
    for k in centre_letters:
        pool[k] -= 1
    rest = [k for k, n in sorted(pool.items()) for _ in range(n)]
    cells = [EMPTY] * 16
    for i in roosters:
        cells[i] = ROOSTER
    for i, k in zip(centre, centre_letters):
        cells[i] = k
    for i, k in zip(dark, rest):
        cells[i] = k
    m = Match(Layout(tuple(cells)), options or TanglungOptions(), 0, validate=False)
    return m


def table_part(item):
    """Worker: one entry of the table, solved with the kernel within its time limit."""
    key, task = item
    rows, cols, lanterns, options, time_limit, max_states, exact = task
    from .duel_solve import solve_match  # loads numpy (only when this runs)

    t0 = time.perf_counter()
    m = start_position(rows, cols, key, lanterns, TanglungOptions.from_dict(options))
    r = solve_match(m, time_limit=time_limit, engine="exact" if exact else "kernel", max_states=max_states)
    out = {"complete": r.complete, "states": r.states, "expanded": r.expanded,
           "seconds": round(time.perf_counter() - t0, 3)}
    if r.complete:
        out["value"] = float(r.value)
        if exact:
            out["value_fraction"] = str(r.value)
        out["actions"] = {str(a.action): float(a.value) for a in r.actions}
    else:
        out["reason"] = r.reason
    return key, out


def duel_probability(p: float) -> float:
    """P(the player who starts match 1 wins the first-to-2 game) when the starter of a match
    wins it with probability p and starters alternate (no drawn matches)."""
    return p * (1 - p) + p * p * p + (1 - p) * (1 - p) * p


def fairness_table(rows: int = 4, cols: int = 4, lanterns: str | None = None, card_set: CardSet | None = None,
                   options: TanglungOptions | None = None, executor: str = "local", workers: int = 1,
                   checkpoint=None, time_limit: float | None = None, entry_time_limit: float | None = 600.0,
                   on_progress=None, address: str | None = None, max_states: int | None = None,
                   exact: bool = False) -> dict:
    """The table (see the module doc): one row per entry and the summary over the deal."""
    options = options or TanglungOptions()
    counts = lantern_counts(rows, cols, lanterns, card_set)
    ents = entries(rows, cols, lanterns, card_set)
    problem = {"table": "tanglung-duel-fairness", "values": "real", "grid": f"{rows}x{cols}",
               "lanterns": "".join(k * n for k, n in sorted(counts.items())),
               "options": options.to_json(), "entry_time_limit": entry_time_limit}
    from .duel_solve import MAX_STATES  # loads numpy (only when a table is built)

    max_states = MAX_STATES if max_states is None else max_states
    problem["max_states"] = max_states
    if exact:
        problem["exact"] = True
    parts = [(combo, (rows, cols, counts, options.to_json(), entry_time_limit, max_states, exact))
             for combo, _, _ in ents]
    t0 = time.perf_counter()
    done, complete = run_parts(table_part, parts, problem, executor, workers, address, checkpoint,
                               time_limit, on_progress)
    rows_out = []
    solved_p = Fraction(0)
    acc = 0.0
    acc_exact = Fraction(0)
    cost = 0.0
    for combo, p, orbit in ents:
        r = done.get(combo)
        row = {"centre": combo, "orbit": orbit, "probability": str(p), "weight": float(p)}
        if r is not None:
            row.update(r)
            cost += r["seconds"]
            if r["complete"]:
                solved_p += p
                acc += float(p) * r["value"]
                if "value_fraction" in r:
                    acc_exact += p * Fraction(r["value_fraction"])
        rows_out.append(row)
    finished = [r for r in rows_out if r.get("complete")]
    out = {"grid": f"{rows}x{cols}", "lanterns": problem["lanterns"], "entries": len(ents),
           "finished": len(finished), "tried": sum(1 for r in rows_out if "complete" in r),
           "complete": complete and len(finished) == len(ents), "rows": rows_out,
           "cost_seconds": round(cost, 3), "wall_seconds": round(time.perf_counter() - t0, 1)}
    if finished:
        out["probability_finished"] = float(solved_p)
    if len(finished) == len(ents):
        v = acc
        if exact:
            out["value_fraction"] = str(acc_exact)
            v = float(acc_exact)
        p = (1 + v) / 2
        out["value"] = v
        out["starter_match_points"] = p
        out["should_start"] = "the first player" if v > 0 else "the second player" if v < 0 else "either"
        out["starter_duel_probability"] = duel_probability(p)
    return out
