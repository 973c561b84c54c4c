"""Tanglung solo solver: fewest moves, one optimal tour, optimal-tour count, no-revisit tours.

The search runs over (position, lit set) states packed as ``pos << 16 | lit``. The numba kernel
is a layered best-first search: states are bucketed by f = g + h, where g is the move count and
h the number of dark cards (a move lights at most one card, so h never overestimates and never
drops by more than 1 per move). Buckets are expanded by f, then by g, so every state is
expanded with its final distance and final count of shortest paths: the optimal-tour count is
exact. ``method="astar-deadend"`` adds 1 when some dark card can no longer be entered from a
dark card or the current cell (it then needs a move onto a lit card first): still consistent,
about half the states, but slower per state (measured 2.6 vs 2.1 ms CPU per layout), so the
default keeps the plain bound. With ``method="bfs"`` h is 0: a plain breadth-first search.
A tour that never moves onto a lit card exists exactly when the fewest moves equal the number
of dark cards; :func:`no_revisit_tour_cpsat` checks that independently with CP-SAT AddCircuit.

The first f-level of the default search (f = the dark cards at the start) holds exactly the
states reached by moves onto dark cards; when it holds a goal (about 98 % of standard layouts),
:func:`first_level_python` and the kernel ``first_level`` walk it layer by layer in the
search's own order, with no buckets and no moves onto lit cards, and give the same moves, tour
count, tour and states expanded (tests compare them on random layouts and options). A single
solve runs it in plain Python (a few ms to a few tens of ms), so ``tanglekit tanglung solo
solve`` does not load numba; :func:`solve_solo_many` solves many layouts in one kernel call
(``--batch``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...engines import kernel_ready
from ...errors import RuleError, SolverError, TanglekitError
from .cards import EMPTY, ROOSTER, CardSet, default_card_set
from .layout import N_CELLS, Layout, idx, rc
from .moves import solo_move_table
from .rules import TanglungOptions
from .solo import SoloGame, initial_lit

if TYPE_CHECKING:
    import numpy as np

from .solo_plain import (
    FMAX,
    PATH_CAP,
    PUSH_CAP,
    count_reachable_python,
    first_level_python,
    search_graph_python,
    unreachable_dark_python,
)
from .solo_reference import no_revisit_tour_cpsat, no_revisit_tour_dfs, search_graph_reference


def move_graph(layout: Layout, options: TanglungOptions | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Solo move graph as arrays: ``adj[p, :adjn[p]]`` are the cells reachable from ``p``."""
    import numpy as np

    table = solo_move_table(layout.cells, options or TanglungOptions())
    adj = np.zeros((N_CELLS, N_CELLS), dtype=np.int32)
    adjn = np.zeros(N_CELLS, dtype=np.int32)
    for p, dests in enumerate(table):
        adjn[p] = len(dests)
        adj[p, : len(dests)] = dests
    return adj, adjn


def noflip_mask(layout: Layout) -> int:
    """Cells whose card never flips dark when left (the Roosters)."""
    return sum(1 << i for i, ch in enumerate(layout.cells) if ch == ROOSTER)


# --- numba kernel ---------------------------------------------------------------------------
_KERNEL = None  # the kernel module, once loaded


def _get_kernel():
    """Compile (or load from cache) the search kernels on first use; the kernel module."""
    global _KERNEL
    if _KERNEL is None:
        from . import kernels as _tanglung_kernels  # loads numba (only when this runs)

        _KERNEL = _tanglung_kernels
    return _KERNEL


_WS: tuple | None = None


def _workspace() -> tuple:
    """(SoloWork, LevelWork) bundles reused across solves (the kernels reset what they touch)."""
    global _WS
    if _WS is None:
        import numpy as np

        from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)

        K = _get_kernel()
        size = N_CELLS << 16
        pop = np.zeros(1 << 16, dtype=np.int8)
        for b in range(16):
            pop[1 << b : 1 << (b + 1)] = pop[: 1 << b] + 1
        work = kernel_bundle(
            K.SoloWork, dist=np.full(size, -1, dtype=np.int16), bhead=np.full(FMAX * FMAX, -1, dtype=np.int32),
            pop=pop, fmax=FMAX,
            shapes={"cnt": size, "parent": size, "touched": size, "bstate": PUSH_CAP, "bnext": PUSH_CAP,
                    "path": PATH_CAP, "stats": K.N_STATS, "cov": 1 << 16},
        )
        level = kernel_bundle(K.LevelWork, shapes={"cnt": K.LEVEL_STATES, "order": K.LEVEL_STATES,
                                                   "par": K.LEVEL_STATES, "seen": K.LEVEL_STATES // 64})
        _WS = (work, level)
    return _WS


_LEVELS = {"bfs": 0, "astar": 1, "astar-deadend": 2}


def search_graph(
    adj: np.ndarray,
    adjn: np.ndarray,
    noflip: int,
    n: int,
    start: int,
    lit0: int,
    method: str = "astar",
) -> tuple[int, int, list[int], int]:
    """Kernel call on a bare move graph of ``n <= 16`` cells.

    Returns (fewest moves or -1, number of optimal tours, one optimal tour as cells from the
    start, states expanded).
    """
    if not 1 <= n <= N_CELLS or not 0 <= start < n:
        raise SolverError("move graph must have 1..16 cells and a start inside it")
    if method not in _LEVELS:
        raise SolverError(f"unknown search method {method!r} (astar, astar-deadend or bfs)")
    from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)

    K = _get_kernel()
    work, level = _workspace()
    problem = kernel_bundle(K.SoloProblem, adj=adj, adjn=adjn, noflip=noflip, n=n, start=start, lit0=lit0,
                            use_h=_LEVELS[method])
    if K.solve_one(problem, level, work) == K.OUT_OF_SPACE:
        raise SolverError("solo search ran out of bucket space")
    stats = work.stats
    moves, tours, expanded = int(stats[K.STAT_MOVES]), int(stats[K.STAT_TOURS]), int(stats[K.STAT_EXPANDED])
    path = [int(x) for x in work.path[: moves + 1]] if moves >= 0 else []
    return moves, tours, path, expanded




# A process's first solve runs the first level in Python and, when no start has a tour there,
# tries the full Python search with this many expansions per start (about 0.1 s) before it
# loads the numba kernel; later solves and batches use the kernel, unless it would compile first
# (then every solve goes Python first, with the larger budget below).
PYTHON_BUDGET = 20_000
PYTHON_BUDGET_COLD = 400_000  # ... while the kernel would compile first (seconds): about 2 s


_SOLVES = [0]


SEARCH_KERNEL = (__name__.rsplit(".", 1)[0] + ".kernels", "solve_one")


def _engine(requested: str) -> str:
    """``kernel`` or ``python-first`` for ``engine="auto"``: Python first for the first solve
    of a process (numba's import alone costs about 0.3 s of CPU), and for every solve while the
    search kernel would compile first (not in the kernel cache yet: ``engines.plain_first``);
    otherwise the kernel (a process solving many layouts), or with TANGLEKIT_ENGINE=kernel."""
    if requested != "auto":
        return requested
    _SOLVES[0] += 1
    if os.environ.get("TANGLEKIT_ENGINE") == "kernel":
        return "kernel"
    if _KERNEL is None and _SOLVES[0] == 1:
        return "python-first"
    return "kernel" if kernel_ready(SEARCH_KERNEL) else "python-first"


def _search(table, adj_cache, layout, options, nf, s, lit0, method, engine):
    levels = {"bfs": 0, "astar": 1, "astar-deadend": 2}
    if method not in levels:
        raise SolverError(f"unknown search method {method!r} (astar, astar-deadend or bfs)")
    if engine in ("python", "python-first"):
        budget = PYTHON_BUDGET if kernel_ready(SEARCH_KERNEL) else PYTHON_BUDGET_COLD
        r = search_graph_python(table, nf, N_CELLS, s, lit0, levels[method], None if engine == "python" else budget)
        if r is not None:
            return r
    elif engine != "kernel":
        raise SolverError(f"unknown engine {engine!r} (auto, kernel or python)")
    if not adj_cache:
        adj_cache.extend(move_graph(layout, options))
    adj, adjn = adj_cache
    return search_graph(adj, adjn, nf, N_CELLS, s, lit0, method)




# --- layout level API -----------------------------------------------------------------------
@dataclass
class SoloSolution:
    """Result of solving a solo layout from one start (cells as indices)."""

    layout: str
    start: int
    moves: int | None
    optimal_tours: int
    path: list[int] = field(default_factory=list)
    dark_cards: int = 14
    expanded: int = 0

    @property
    def solvable(self) -> bool:
        return self.moves is not None

    @property
    def no_revisit(self) -> bool:
        """A tour that never moves onto a lit card exists (fewest moves = dark cards)."""
        return self.moves is not None and self.moves == self.dark_cards

    def to_json(self) -> dict:
        """The CLI's JSON form: path includes the start cell, moves = path steps."""
        return {
            "solvable": self.solvable,
            "moves": self.moves,
            "start": list(rc(self.start)),
            "path": [list(rc(p)) for p in self.path],
            "optimal_tours": self.optimal_tours,
        }


def _prepare(layout, options, card_set) -> tuple[Layout, TanglungOptions]:
    if isinstance(layout, str):
        layout = Layout.parse(layout)
    options = options or TanglungOptions()
    layout.validate(card_set or default_card_set(), options)
    return layout, options


def _start_cells(layout: Layout, start) -> list[int]:
    roosters = layout.roosters()
    if start is None:
        if not roosters:
            raise RuleError(f"layout {layout} has no Rooster to start from")
        return roosters
    if isinstance(start, (tuple, list)):
        if len(start) != 2 or not all(0 <= int(v) < 4 for v in start):
            raise RuleError(f"start must be a row,col pair in 0..3, not {start!r}")
        start = idx(int(start[0]), int(start[1]))
    if start not in roosters:
        r, c = rc(start)
        raise RuleError(f"the matchbox starts on a Rooster card; cell {r},{c} holds {layout[start]!r}")
    return [start]


def solve_solo(
    layout: Layout | str,
    start: int | tuple[int, int] | None = None,
    options: TanglungOptions | None = None,
    card_set: CardSet | None = None,
    method: str = "astar",
    engine: str = "auto",
) -> SoloSolution:
    """Fewest moves, one optimal tour and the optimal-tour count of a solo layout.

    ``start`` is a Rooster cell (index or (row, col)); None tries every Rooster and keeps the
    one with fewest moves (ties: the first in reading order). ``method``: ``astar`` (default;
    bound = dark cards), ``astar-deadend`` (plus the dead-end term) or ``bfs``; same answers.
    ``engine``: ``kernel`` (numba), ``python`` (the same search in Python) or ``auto`` (Python
    for a small first solve, see ``_engine``); all give identical solutions.
    """
    layout, options = _prepare(layout, options, card_set)
    table = solo_move_table(layout.cells, options)
    adj_cache: list = []
    eng = _engine(engine)
    nf = noflip_mask(layout)
    starts = _start_cells(layout, start)
    lit0 = initial_lit(layout, options)
    if method == "astar" and eng in ("python", "python-first"):
        # The search's first level, start by start: the first start with a tour of as many
        # moves as dark cards is the answer (no start needs fewer; a later start must beat an
        # earlier one strictly). Most layouts end here, in a few ms of plain Python.
        for s in starts:
            r = first_level_python(table, N_CELLS, s, lit0)
            if r is not None:
                return SoloSolution(str(layout), s, r[0], r[1], r[2], N_CELLS - bin(lit0).count("1"), r[3])
    best: SoloSolution | None = None
    for s in starts:
        if method == "astar" and eng in ("python", "python-first") and unreachable_dark_python(table, N_CELLS, s, lit0):
            if best is not None:
                continue  # no tour from here, and an earlier start's answer is kept
            count = count_reachable_python(table, nf, N_CELLS, s, lit0)
            if count is not None:
                best = SoloSolution(str(layout), s, None, 0, [], N_CELLS - bin(lit0).count("1"), count)
                continue
        moves, tours, path, expanded = _search(table, adj_cache, layout, options, nf, s, lit0, method, eng)
        sol = SoloSolution(
            str(layout), s, None if moves < 0 else moves, tours, path,
            N_CELLS - bin(lit0).count("1"), expanded,
        )
        if best is None or (sol.moves is not None and (best.moves is None or sol.moves < best.moves)):
            best = sol
        if best.moves == best.dark_cards:
            break  # no start can need fewer moves than there are dark cards; ties keep the first
    assert best is not None
    return best


_MASKS: dict = {}  # (options, card, cell) -> move mask on a grid without empty spaces


def _move_masks(cells, options: TanglungOptions) -> list[int]:
    """solo_move_table as one bit mask per cell (cached per card and cell when no space is empty:
    only empty spaces make a solo move depend on the other cards)."""
    if EMPTY in cells:
        return [sum(1 << q for q in row) for row in solo_move_table(cells, options)]
    out = []
    for p, ch in enumerate(cells):
        m = _MASKS.get((options, ch, p))
        if m is None:
            one = [ch if i == p else "C" for i in range(N_CELLS)]
            m = _MASKS[(options, ch, p)] = sum(1 << q for q in solo_move_table(one, options)[p])
        out.append(m)
    return out


def solve_solo_many(
    layouts: list,
    start: int | tuple[int, int] | None = None,
    options: TanglungOptions | None = None,
    card_set: CardSet | None = None,
    method: str = "astar",
) -> list:
    """:func:`solve_solo` of many layouts (same start, options and card set) in one kernel call:
    per layout its SoloSolution, identical to solve_solo's, or the TanglekitError solve_solo
    would raise for it (a bad layout or start)."""
    if method not in _LEVELS:
        raise SolverError(f"unknown search method {method!r} (astar, astar-deadend or bfs)")
    import numpy as np

    from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)

    options = options or TanglungOptions()
    out: list = [None] * len(layouts)
    todo = []
    for i, lay in enumerate(layouts):
        try:
            lay, _ = _prepare(lay, options, card_set)
            todo.append((i, lay, _start_cells(lay, start)))
        except TanglekitError as e:
            out[i] = e
    n = len(todo)
    if n == 0:
        return out
    K = _get_kernel()
    outmask = np.zeros((n, N_CELLS), dtype=np.int64)
    noflip = np.zeros(n, dtype=np.int64)
    lit0 = np.zeros(n, dtype=np.int64)
    starts = np.zeros((n, N_CELLS), dtype=np.int64)
    nstarts = np.zeros(n, dtype=np.int64)
    rows = []
    for _, lay, cells in todo:
        rows.append(_move_masks(lay.cells, options))
    outmask[:] = rows
    for k, (_, lay, cells) in enumerate(todo):
        noflip[k] = noflip_mask(lay)
        lit0[k] = initial_lit(lay, options)
        starts[k, : len(cells)] = cells
        nstarts[k] = len(cells)
    batch = kernel_bundle(K.SoloBatch, outmask=outmask, noflip=noflip, lit0=lit0, starts=starts, nstarts=nstarts,
                          use_h=_LEVELS[method])
    res = kernel_bundle(K.SoloBatchOut, shapes={"moves": n, "tours": n, "expanded": n, "start": n,
                                                "path": (n, PATH_CAP), "status": n})
    work, level = _workspace()
    K.solve_batch(batch, level, work, res)
    moves, tours, expanded, first = (res.moves.tolist(), res.tours.tolist(), res.expanded.tolist(),
                                     res.start.tolist())
    for k, (i, lay, _) in enumerate(todo):
        if res.status[k] == K.OUT_OF_SPACE:
            out[i] = SolverError("solo search ran out of bucket space")
            continue
        mv = moves[k]
        path = res.path[k, : mv + 1].tolist() if mv >= 0 else []
        out[i] = SoloSolution(str(lay), first[k], None if mv < 0 else mv, tours[k], path,
                              N_CELLS - int(lit0[k]).bit_count(), expanded[k])
    return out


def solve_solo_reference(
    layout: Layout | str,
    start: int | tuple[int, int] | None = None,
    options: TanglungOptions | None = None,
    card_set: CardSet | None = None,
) -> SoloSolution:
    """Same answer as :func:`solve_solo` from the plain-Python BFS (slow; for tests/benchmarks)."""
    layout, options = _prepare(layout, options, card_set)
    table = solo_move_table(layout.cells, options)
    nf = noflip_mask(layout)
    best: SoloSolution | None = None
    for s in _start_cells(layout, start):
        lit0 = initial_lit(layout, options)
        moves, tours, path = search_graph_reference(table, nf, N_CELLS, s, lit0)
        sol = SoloSolution(
            str(layout), s, None if moves < 0 else moves, tours, path, N_CELLS - bin(lit0).count("1")
        )
        if best is None or (sol.moves is not None and (best.moves is None or sol.moves < best.moves)):
            best = sol
        if best.moves == best.dark_cards:
            break  # same rule as solve_solo
    assert best is not None
    return best


def no_revisit_tour(
    layout: Layout | str,
    start: int | tuple[int, int] | None = None,
    options: TanglungOptions | None = None,
    card_set: CardSet | None = None,
    method: str = "kernel",
    time_limit: float | None = None,
) -> list[int] | None:
    """One tour that never moves onto a lit card (cells, start first), or None.

    ``method``: ``kernel`` (the numba search: such a tour is an optimal one of length = dark
    cards), ``cpsat`` (AddCircuit model) or ``dfs`` (plain Python). Tries every Rooster when
    ``start`` is None.
    """
    layout, options = _prepare(layout, options, card_set)
    table = solo_move_table(layout.cells, options)
    lit0 = initial_lit(layout, options)
    for s in _start_cells(layout, start):
        if method == "kernel":
            adj, adjn = move_graph(layout, options)
            moves, _, path, _ = search_graph(adj, adjn, noflip_mask(layout), N_CELLS, s, lit0)
            if moves == N_CELLS - bin(lit0).count("1"):
                return path
        elif method == "cpsat":
            p = no_revisit_tour_cpsat(table, N_CELLS, s, lit0, 30.0 if time_limit is None else max(time_limit, 0.01))
            if p is not None:
                return p
        elif method == "dfs":
            p = no_revisit_tour_dfs(table, N_CELLS, s, lit0)
            if p is not None:
                return p
        else:
            raise SolverError(f"unknown method {method!r} (kernel, cpsat or dfs)")
    return None


def check_solo_tour(layout: Layout | str, path: list[int], options: TanglungOptions | None = None,
                    card_set: CardSet | None = None) -> bool:
    """Replay a tour (cells, start first) with the solo engine; True if it is legal and wins."""
    if isinstance(layout, str):
        layout = Layout.parse(layout)
    g = SoloGame(layout, options or TanglungOptions(), starts=(path[0],), card_set=card_set)
    for p in path[1:]:
        g.play(p)
    return g.is_won()
