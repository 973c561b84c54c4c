"""Exact-cover problems (Knuth's XCC with multiplicities and weights) and the solver front end.

``ExactCover`` describes a problem once; ``solve`` / ``iter_solutions`` / ``count_solutions`` /
``optimise`` answer it with the numba dancing-links backend (``dlx``), OR-Tools CP-SAT
(``cpsat``) or the plain-Python reference (``reference``, for tests). Backends are imported
lazily, so importing this module costs nothing heavy.

Semantics: primary items are covered exactly once, or between ``lo`` and ``hi`` times when
given bounds; secondary items at most once, except that options giving a secondary item the
same colour (> 0) may share it. A solution is a sorted list of option indices.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
import sys
from itertools import chain
from typing import TYPE_CHECKING, Hashable, Iterable, Iterator, Sequence

from ..errors import SolverError

if TYPE_CHECKING:
    import numpy as np

BACKENDS = ("auto", "dlx", "cpsat", "reference")
QUERIES = ("first", "all", "count", "optimise")


class ExactCover:
    """An XCC problem with optional multiplicities and option weights.

    Items are numbered ``0 .. n_primary-1`` (primary) then ``n_primary .. n_items-1``
    (secondary). ``options[o]`` is a tuple of distinct item numbers, ``colours[o]`` the matching
    colours (0 = none; only secondary entries may be coloured). ``bounds[i] = (lo, hi)`` lets
    primary item ``i`` be covered between lo and hi times (``hi=None``: no upper bound).
    """

    def __init__(
        self,
        n_primary: int,
        n_secondary: int,
        options: Sequence[Iterable[int]],
        colours: Sequence[Sequence[int]] | None = None,
        bounds: dict[int, tuple[int, int | None]] | None = None,
        weights: Sequence[float] | None = None,
        item_names: Sequence[Hashable] | None = None,
    ):
        if n_primary < 0 or n_secondary < 0:
            raise SolverError("item counts must be non-negative")
        self.n_primary = int(n_primary)
        self.n_secondary = int(n_secondary)
        # the options once as tuples (the Python API) and once in CSR arrays (the kernels);
        # small problems in a process without numpy are checked in plain Python and get their
        # arrays when a kernel asks (``csr``), so a small count need not load numpy at all
        opts = [tuple(map(int, opt)) for opt in options]
        if colours is not None:
            if len(colours) != len(opts):
                raise SolverError("colours must give one list per option")
            cols = [tuple(map(int, c)) for c in colours]
            for o, (t, c) in enumerate(zip(opts, cols)):
                if len(c) != len(t):
                    raise SolverError(f"option {o}: one colour per item expected")
        else:
            cols = None
        self.options = opts
        self._csr: tuple | None = None
        if "numpy" in sys.modules or sum(map(len, opts)) > 20_000:
            self._check_numpy(opts, cols)
        else:
            self._check_plain(opts, cols)
        self.colours = cols if cols is not None else [(0,) * len(t) for t in opts]
        # optional search order of the items for the first-cell kernel, and the cell graph
        # (n_cells, ptr, idx) of items 0 .. n_cells - 1 for region pruning (set by tilings)
        self.item_order: list[int] | None = None
        self._graph: tuple | None = None
        self.bounds: dict[int, tuple[int, int | None]] = {}
        for i, (lo, hi) in (bounds or {}).items():
            i = int(i)
            if not 0 <= i < self.n_primary:
                raise SolverError(f"bounds are for primary items; {i} is not one")
            if lo < 0 or (hi is not None and hi < 0):
                raise SolverError(f"item {i}: bounds must be non-negative")
            if (lo, hi) != (1, 1):
                self.bounds[i] = (int(lo), None if hi is None else int(hi))
        if weights is not None and len(weights) != len(opts):
            raise SolverError("weights must give one number per option")
        self.weights = None if weights is None else [float(w) for w in weights]
        self.item_names = list(item_names) if item_names is not None else None

    def _check_plain(self, opts, cols) -> None:
        n_items = self.n_items
        for o, t in enumerate(opts):
            if len(set(t)) != len(t):
                for i in t:
                    if not 0 <= i < n_items:
                        raise SolverError(f"option {o} names item {i}, outside 0..{n_items - 1}")
                raise SolverError(f"option {o} lists an item twice")
            for i in t:
                if not 0 <= i < n_items:
                    raise SolverError(f"option {o} names item {i}, outside 0..{n_items - 1}")
        coloured = False
        for o, (t, c) in enumerate(zip(opts, cols or ())):
            for i, v in zip(t, c):
                if v < 0:
                    raise SolverError(f"option {o}: colours are integers >= 0")
                if v:
                    if i < self.n_primary:
                        raise SolverError(f"option {o}: primary item {i} cannot have a colour")
                    coloured = True
        self._coloured = coloured

    def _check_numpy(self, opts, cols) -> None:
        import numpy as np

        n_items = self.n_items
        lens = np.fromiter(map(len, opts), dtype=np.int64, count=len(opts))
        ptr = np.zeros(len(opts) + 1, dtype=np.int64)
        np.cumsum(lens, out=ptr[1:])
        flat = np.fromiter(chain.from_iterable(opts), dtype=np.int64, count=int(ptr[-1]))
        if len(flat) and (flat.min() < 0 or flat.max() >= n_items):
            bad = int(np.nonzero((flat < 0) | (flat >= n_items))[0][0])
            o = int(np.searchsorted(ptr, bad, side="right")) - 1
            raise SolverError(f"option {o} names item {int(flat[bad])}, outside 0..{n_items - 1}")
        if len(flat):
            # an item twice in one option: equal neighbours after sorting within options
            owner = np.repeat(np.arange(len(opts), dtype=np.int64), lens)
            key = np.sort(owner * (n_items + 1) + flat)
            dup = np.nonzero(key[1:] == key[:-1])[0]
            if len(dup):
                raise SolverError(f"option {int(key[dup[0]] // (n_items + 1))} lists an item twice")
        if cols is None:
            cflat = np.zeros(len(flat), dtype=np.int64)
        else:
            cflat = np.fromiter(chain.from_iterable(cols), dtype=np.int64, count=len(flat))
            bad_c = np.nonzero((cflat < 0) | ((cflat > 0) & (flat < self.n_primary)))[0]
            if len(bad_c):
                o = int(np.searchsorted(ptr, bad_c[0], side="right")) - 1
                if cflat[bad_c[0]] < 0:
                    raise SolverError(f"option {o}: colours are integers >= 0")
                raise SolverError(f"option {o}: primary item {int(flat[bad_c[0]])} cannot have a colour")
        self._csr = (ptr, flat, cflat)
        self._coloured = bool(len(cflat) and cflat.max() > 0)

    @property
    def cell_graph(self) -> tuple[int, np.ndarray, np.ndarray] | None:
        """(n_cells, ptr, idx) of items 0 .. n_cells - 1 (set by tilings; arrays made on first use)."""
        g = self._graph
        if g is not None and not hasattr(g[1], "dtype"):
            import numpy as np

            g = self._graph = (g[0], np.asarray(g[1], dtype=np.int64), np.asarray(g[2], dtype=np.int64))
        return g

    @cell_graph.setter
    def cell_graph(self, graph) -> None:
        self._graph = graph

    @property
    def n_items(self) -> int:
        return self.n_primary + self.n_secondary

    @property
    def n_options(self) -> int:
        return len(self.options)

    @property
    def has_colours(self) -> bool:
        return self._coloured

    def bound(self, i: int) -> tuple[int, int | None]:
        """(lo, hi) for primary item ``i``; secondary items are (0, 1)."""
        if i >= self.n_primary:
            return (0, 1)
        return self.bounds.get(i, (1, 1))

    @classmethod
    def from_named(
        cls,
        options: Sequence[Iterable],
        primary: Sequence[Hashable] | None = None,
        secondary: Sequence[Hashable] = (),
        bounds: dict[Hashable, tuple[int, int | None]] | None = None,
        weights: Sequence[float] | None = None,
    ) -> "ExactCover":
        """Build from options naming items; a secondary entry may be ``(item, colour)``.

        Colours may be any hashable (``"red"``); without ``primary``, every item met in an
        option that is not secondary is primary, in order of first appearance.
        """
        secondary = list(secondary)
        sec_set = set(secondary)
        if primary is None:
            seen: dict[Hashable, None] = {}
            for opt in options:
                for e in opt:
                    name = e[0] if isinstance(e, tuple) else e
                    if name not in sec_set:
                        seen.setdefault(name, None)
            primary = list(seen)
        names = list(primary) + secondary
        index = {n: k for k, n in enumerate(names)}
        if len(index) != len(names):
            raise SolverError("an item is named twice")
        colour_ids: dict[Hashable, int] = {}
        opts, cols = [], []
        for o, opt in enumerate(options):
            t, c = [], []
            for e in opt:
                name, col = (e[0], e[1]) if isinstance(e, tuple) else (e, None)
                if name not in index:
                    raise SolverError(f"option {o} names unknown item {name!r}")
                t.append(index[name])
                c.append(0 if col is None else colour_ids.setdefault(col, len(colour_ids) + 1))
            opts.append(t)
            cols.append(c)
        b = None
        if bounds:
            b = {}
            for name, v in bounds.items():
                if name not in index:
                    raise SolverError(f"bounds name unknown item {name!r}")
                b[index[name]] = v
        return cls(len(primary), len(secondary), opts, cols, b, weights, names)

    def check(self, solution: Iterable[int]) -> bool:
        """Whether a set of option indices satisfies every item's rule."""
        sol = list(solution)
        if len(set(sol)) != len(sol) or any(not 0 <= o < self.n_options for o in sol):
            return False
        count = [0] * self.n_items
        colours: dict[int, set[int]] = {}
        for o in sol:
            for i, c in zip(self.options[o], self.colours[o]):
                count[i] += 1
                colours.setdefault(i, set()).add(c)
        for i in range(self.n_items):
            if i < self.n_primary:
                lo, hi = self.bound(i)
                if count[i] < lo or (hi is not None and count[i] > hi):
                    return False
            elif count[i] > 1 and (len(colours[i]) != 1 or 0 in colours[i]):
                return False
        return True

    def weight(self, solution: Iterable[int]) -> float:
        """Total weight (default weight of an option: its number of primary items)."""
        if self.weights is not None:
            return float(sum(self.weights[o] for o in solution))
        return float(sum(sum(1 for i in self.options[o] if i < self.n_primary) for o in solution))

    def csr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Options as (ptr, items, colours) arrays, made once (shared: do not modify them)."""
        if self._csr is None:
            import numpy as np

            ptr = np.zeros(self.n_options + 1, dtype=np.int64)
            np.cumsum([len(t) for t in self.options], out=ptr[1:])
            n = int(ptr[-1])
            items = np.fromiter(chain.from_iterable(self.options), dtype=np.int64, count=n)
            cols = np.fromiter(chain.from_iterable(self.colours), dtype=np.int64, count=n)
            self._csr = (ptr, items, cols)
        return self._csr


@dataclass
class Reduced:
    """A plain XCC problem (bounds only 1..1) equivalent to an ExactCover with multiplicities.

    ``origin[o]`` is the original option behind reduced option ``o`` (-1: a filler), so every
    solution of the reduced problem maps to exactly one original solution and back.
    """

    n_primary: int
    n_secondary: int
    ptr: np.ndarray
    items: np.ndarray
    colours: np.ndarray
    origin: np.ndarray
    infeasible: bool = False
    identity: bool = False  # same items and options as the problem

    def cells(self, problem: "ExactCover"):
        """The problem's cell graph (``ExactCover.cell_graph``) when it still applies."""
        return getattr(problem, "cell_graph", None) if self.identity else None

    def original(self, solution: Iterable[int]) -> list[int]:
        return sorted(int(self.origin[o]) for o in solution if self.origin[o] >= 0)


def reduce_multiplicities(problem: ExactCover, fast: bool = True) -> Reduced:
    """Rewrite bounds as plain items, one solution for one solution.

    Item with (1,1): primary; (0,1): secondary; (0, >= its options): dropped (an option left
    with no primary item gets a private primary item and a "not taken" filler). Otherwise the item
    becomes ``b`` slot items, filled in increasing option order: option ``p`` in slot ``j``
    covers boundary items z[j, t] for t <= p and z[j-1, t] for t >= p, so consecutive slots
    need increasing options; slots past ``lo`` may be taken by a filler that blocks the rest.
    """
    import numpy as np

    n_p = problem.n_primary
    plain = _reduce_plain(problem) if fast else None
    if plain is not None:
        return plain
    col_opts: list[list[int]] = [[] for _ in range(problem.n_items)]
    for o, t in enumerate(problem.options):
        for i in t:
            col_opts[i].append(o)
    infeasible = False
    new_index: dict[int, int] = {}  # old item -> new item for kept plain items
    primaries: list[int] = []
    secondaries: list[int] = []
    expand: dict[int, tuple[int, int]] = {}  # item -> (lo, b)
    for i in range(problem.n_items):
        lo, hi = problem.bound(i)
        m = len(col_opts[i])
        hi_eff = m if hi is None else min(hi, m)
        if lo > hi_eff:
            infeasible = True
            hi_eff = lo
        if i >= n_p:
            secondaries.append(i)
        elif (lo, hi_eff) == (1, 1):
            primaries.append(i)
        elif hi_eff == 0:
            pass  # no option with this item may be chosen: handled below
        elif lo == 0 and hi_eff == 1:
            secondaries.append(i)
        elif lo == 0 and hi_eff >= m:
            pass  # unconstrained: drop it
        else:
            expand[i] = (lo, hi_eff)
    forbidden = {
        o
        for i in range(n_p)
        if problem.bound(i)[1] == 0
        for o in col_opts[i]
    }
    n_new = 0
    for i in primaries:
        new_index[i] = n_new
        n_new += 1
    slot_items: dict[int, list[int]] = {}
    for i, (lo, b) in expand.items():
        slot_items[i] = []
        for j in range(b):
            if j < lo:
                slot_items[i].append(n_new)
                n_new += 1
    # secondary slots are primary too (a filler covers an unused one), so number them now
    for i, (lo, b) in expand.items():
        for j in range(lo, b):
            slot_items[i].append(n_new)
            n_new += 1
    # an option left without a primary item could never be branched on: give it its own
    # primary "choice" item, which a filler covers when the option is not taken
    prim_set = set(primaries) | set(expand)
    choice: dict[int, int] = {}
    for o, t in enumerate(problem.options):
        if o not in forbidden and not any(i in prim_set for i in t):
            choice[o] = n_new
            n_new += 1
    n_primary_new = n_new
    for i in secondaries:
        new_index[i] = n_new
        n_new += 1
    zbase: dict[int, int] = {}
    rank: dict[int, dict[int, int]] = {}
    for i, (lo, b) in expand.items():
        m = len(col_opts[i])
        zbase[i] = n_new
        n_new += (b - 1) * m
        rank[i] = {o: r for r, o in enumerate(col_opts[i])}
    out_items: list[list[int]] = []
    out_cols: list[list[int]] = []
    origin: list[int] = []
    import itertools

    for o, (t, c) in enumerate(zip(problem.options, problem.colours)):
        if o in forbidden:
            continue
        base_items, base_cols, exp = [], [], []
        for i, ci in zip(t, c):
            if i in new_index:
                base_items.append(new_index[i])
                base_cols.append(ci)
            elif i in expand:
                exp.append(i)
        if o in choice:
            base_items.append(choice[o])
            base_cols.append(0)
            out_items.append([choice[o]])
            out_cols.append([0])
            origin.append(-1)
        choices = [range(expand[i][1]) for i in exp]
        for slots in itertools.product(*choices):
            its, cs = list(base_items), list(base_cols)
            for i, j in zip(exp, slots):
                _, b = expand[i]
                m = len(col_opts[i])
                p = rank[i][o]
                its.append(slot_items[i][j])
                cs.append(0)
                if j < b - 1:  # z[j, t] for t <= p
                    its.extend(zbase[i] + j * m + tt for tt in range(p + 1))
                    cs.extend(0 for _ in range(p + 1))
                if j > 0:  # z[j-1, t] for t >= p
                    its.extend(zbase[i] + (j - 1) * m + tt for tt in range(p, m))
                    cs.extend(0 for _ in range(p, m))
            out_items.append(its)
            out_cols.append(cs)
            origin.append(o)
    for i, (lo, b) in expand.items():
        m = len(col_opts[i])
        for j in range(lo, b):
            its = [slot_items[i][j]]
            if j < b - 1:
                its.extend(zbase[i] + j * m + tt for tt in range(m))
            out_items.append(its)
            out_cols.append([0] * len(its))
            origin.append(-1)
    ptr = np.zeros(len(out_items) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(t) for t in out_items])
    flat = np.array([i for t in out_items for i in t], dtype=np.int64)
    cflat = np.array([c for t in out_cols for c in t], dtype=np.int64)
    return Reduced(
        n_primary_new, n_new - n_primary_new, ptr, flat, cflat,
        np.array(origin, dtype=np.int64), infeasible,
    )


def _reduce_plain(problem: ExactCover) -> Reduced | None:
    """The common case at array speed: no bounds other than 1..1 and a primary item in every
    option, so the reduction is the identity (same items, options and colours). None otherwise."""
    import numpy as np

    n_p = problem.n_primary
    if any(b != (1, 1) for b in problem.bounds.values()):
        return None
    ptr, flat, cflat = problem.csr()
    n_opt = len(ptr) - 1
    if n_opt == 0:
        return None
    from .dlx_bitset import csr_summary

    empty, no_primary, uncovered, _ = csr_summary(ptr, flat, n_p, problem.n_items)
    if empty or no_primary:
        return None  # an option without a primary item needs the general reduction
    infeasible = n_p > 0 and bool(uncovered)
    return Reduced(n_p, problem.n_secondary, ptr, flat, cflat,
                   np.arange(n_opt, dtype=np.int64), infeasible, identity=True)


@dataclass
class Result:
    """Answer of ``solve``: solutions (sorted option lists), count, and how it was obtained.

    ``complete`` is False when a limit (solution limit or time limit) stopped the search, so
    ``count`` is then a lower bound. For ``optimise``, ``objective`` holds the best value and
    ``optimal`` says whether CP-SAT proved it.
    """

    query: str
    backend: str
    solutions: list[list[int]] = field(default_factory=list)
    count: int | None = None
    complete: bool = True
    seconds: float = 0.0
    objective: float | None = None
    optimal: bool | None = None


def pick_backend(backend: str, query: str) -> str:
    if backend not in BACKENDS:
        raise SolverError(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    if query not in QUERIES:
        raise SolverError(f"unknown query {query!r}: expected one of {', '.join(QUERIES)}")
    if query == "optimise":
        if backend in ("dlx", "reference"):
            raise SolverError("optimise needs the cpsat backend (or auto)")
        return "cpsat"
    return "dlx" if backend == "auto" else backend


def iter_solutions(
    problem: ExactCover,
    backend: str = "auto",
    limit: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    kernel: str = "auto",
) -> Iterator[list[int]]:
    """Stream solutions (sorted lists of option indices), at most ``limit`` of them.

    ``kernel`` (dlx backend only): "links" (dancing links), "bitset" or "auto" (bitsets for
    small colourless problems, which is faster there).
    """
    backend = pick_backend(backend, "all")
    if limit is not None and limit <= 0:
        return
    if backend == "dlx":
        from .dlx import dlx_solutions, make_matrix

        red = reduce_multiplicities(problem)
        if red.infeasible:
            return
        # region pruning pays for its tables (~0.1 ms) in enumerations, not for one solution
        cells = red.cells(problem) if limit is None or limit > 1 else None
        m = make_matrix(red.n_primary, red.n_secondary, red.ptr, red.items, red.colours, kernel, cells=cells)
        for s in dlx_solutions(m, limit=limit, time_limit=time_limit):
            yield red.original(s)
    elif backend == "cpsat":
        from .cpsat_xc import cpsat_solutions

        yield from cpsat_solutions(problem, limit=limit, time_limit=time_limit, workers=workers)
    else:
        from .xc_reference import reference_solutions

        n = 0
        for s in reference_solutions(problem):
            yield s
            n += 1
            if limit is not None and n >= limit:
                return


def first_solution(problem: ExactCover, backend: str = "auto", **kw) -> list[int] | None:
    """One solution, or None when there is none."""
    for s in iter_solutions(problem, backend=backend, limit=1, **kw):
        return s
    return None


def count_solutions(
    problem: ExactCover,
    backend: str = "auto",
    limit: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    kernel: str = "auto",
    memo: bool = True,
) -> tuple[int, bool]:
    """(number of solutions, complete); complete is False if a limit cut the count short.

    ``memo``: on the bitset kernel, reuse the count below nodes that cover the same items.
    ``workers``: CP-SAT search workers, or for dlx the processes a full count is split over
    (``solver.parallel``; the same count as one process).
    """
    backend = pick_backend(backend, "count")
    if backend == "dlx" and kernel == "auto":
        from ..engines import plain_budget, plain_first
        from .xc_small import PLAIN_NODES, count_small, plain_ok

        # a small count in plain Python (no numba, no numpy), the kernel past a node budget
        if plain_first() and plain_ok(problem, limit):
            out = count_small(problem, plain_budget(PLAIN_NODES), time_limit)
            if out is not None:
                return out
    if backend == "dlx":
        from .dlx import dlx_count, make_matrix

        red = reduce_multiplicities(problem)
        if red.infeasible:
            return 0, True
        if _use_firstcell(problem, red, kernel, limit):
            return _firstcell_count(problem, red, time_limit, workers)
        m = make_matrix(red.n_primary, red.n_secondary, red.ptr, red.items, red.colours, kernel,
                        cells=red.cells(problem))
        if workers is not None and workers > 1 and limit is None and not problem.bounds:
            # a first slice of the search in this process; only a count it does not finish
            # is split over a process pool (the pool costs ~0.1 s to start)
            t0 = time.perf_counter()
            n, done = dlx_count(m, time_limit=0.0, memo=memo)
            if done:
                return n, True
            from .parallel import count_parallel

            left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t0))
            return count_parallel(problem, workers, left, kernel, memo)
        return dlx_count(m, limit=limit, time_limit=time_limit, memo=memo)
    if backend == "cpsat":
        from .cpsat_xc import cpsat_count

        return cpsat_count(problem, limit=limit, time_limit=time_limit, workers=workers)
    n = 0
    for _ in iter_solutions(problem, backend="reference", limit=limit):
        n += 1
    return n, limit is None or n < limit


def _use_firstcell(problem: ExactCover, red: Reduced, kernel: str, limit: int | None) -> bool:
    """The first-cell bitboard kernel counts plain problems (primary items only, no colours or
    bounds, at most 128 items) without a solution limit; ``auto`` picks it when the problem
    carries an item order (tilings: cells along the region's short side)."""
    if kernel not in ("auto", "firstcell") or limit is not None:
        return False
    plain = (red.n_secondary == 0 and not problem.bounds and not problem.has_colours
             and red.n_primary <= 128 and red.n_primary == problem.n_items)
    if kernel == "firstcell" and not plain:
        raise SolverError("the firstcell kernel takes plain exact cover (primary items only, <= 128)")
    return plain and (kernel == "firstcell" or getattr(problem, "item_order", None) is not None)


def _firstcell_count(problem: ExactCover, red: Reduced, time_limit: float | None,
                     workers: int | None = None) -> tuple[int, bool]:
    from .dlx_firstcell import FirstCellMatrix, firstcell_count_parallel

    m = FirstCellMatrix(red.n_primary, red.ptr, red.items, getattr(problem, "item_order", None))
    if workers is not None and workers > 1 and time_limit is None:
        # a first slice here: a count that small is not worth a pool (about 0.1 s to start)
        m.count(max_nodes=2_000_000)
        if m.finished:
            return int(m.state[1]), True
        m = FirstCellMatrix(red.n_primary, red.ptr, red.items, getattr(problem, "item_order", None))
        return firstcell_count_parallel(m, workers), True
    t_end = None if time_limit is None else time.perf_counter() + time_limit
    while not m.finished:
        m.count(max_nodes=4_000_000)
        if t_end is not None and time.perf_counter() > t_end and not m.finished:
            return int(m.state[1]), False
    return int(m.state[1]), True


def optimise(
    problem: ExactCover,
    objective: str = "weight",
    exact: bool = False,
    time_limit: float | None = 10.0,
    workers: int | None = None,
) -> Result:
    """Best set of options by CP-SAT: maximise total weight, or the number of primary items
    covered (``objective="items"``). Unless ``exact``, primary items become at-most-once so a
    best partial cover exists even when no exact cover does.
    """
    from .cpsat_xc import cpsat_optimise

    t0 = time.perf_counter()
    sol, value, optimal = cpsat_optimise(problem, objective, exact, time_limit, workers)
    return Result(
        "optimise", "cpsat", [sol] if sol is not None else [], 1 if sol is not None else 0,
        True, time.perf_counter() - t0, value, optimal,
    )


def solve(
    problem: ExactCover,
    query: str = "first",
    backend: str = "auto",
    limit: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    objective: str = "weight",
) -> Result:
    """Answer one query (first / all / count / optimise) and time it."""
    chosen = pick_backend(backend, query)
    t0 = time.perf_counter()
    if query == "optimise":
        return optimise(problem, objective, time_limit=time_limit, workers=workers)
    if query == "count":
        n, complete = count_solutions(problem, chosen, limit, time_limit, workers)
        return Result(query, chosen, [], n, complete, time.perf_counter() - t0)
    lim = 1 if query == "first" else limit
    sols = list(iter_solutions(problem, chosen, lim, time_limit, workers))
    complete = query == "first" or lim is None or len(sols) < lim
    if time_limit is not None and time.perf_counter() - t0 > time_limit:
        complete = False
    return Result(query, chosen, sols, len(sols), complete, time.perf_counter() - t0)
