"""The exact-cover problem (Knuth's XCC with multiplicities and weights) and its compiled form.

``ExactCover`` describes a problem once. ``ExactCover.compile`` builds it into the state of the
dancing-links kernels once - the reduction to plain XCC, the CSR arrays, the kernel's tables
and work arrays - and returns a ``CompiledCover`` that answers ``first`` / ``solutions`` /
``count`` as many times as asked, resetting only the search state between calls (a few
microseconds), so a small problem asked again costs its search and little else. The compiled
form is kept on the problem (one per kernel), so ``exact_cover.first_solution`` and
``count_solutions`` reuse it too.

This module is the bottom of the exact-cover engine: the front end (``exact_cover``) and the
other backends (``xc_small``, ``xc_reference``, ``cpsat_xc``, ``parallel``) import it, and it
imports none of them. numpy and the numba kernels (``dlx``, ``dlx_bitset``, ``dlx_firstcell``)
are imported inside the functions that need them, so that building and checking a small
problem, or a plain-Python count, loads neither.

Semantics: primary items are covered exactly once, or between ``lo`` and ``hi`` times when
given bounds; secondary items at most once, except that options giving a secondary item the
same colour (> 0) may share it. A solution is a sorted list of option indices.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from itertools import chain, product
from typing import TYPE_CHECKING, Hashable, Iterable, Iterator, Sequence

from ..errors import SolverError

if TYPE_CHECKING:
    import numpy as np

KERNELS = ("auto", "links", "bitset", "firstcell")


class ExactCover:
    """An XCC problem with optional multiplicities and option weights.

    Items are numbered ``0 .. n_primary-1`` (primary) then ``n_primary .. n_items-1``
    (secondary). ``options[o]`` is a tuple of distinct item numbers, ``colours[o]`` the matching
    colours (0 = none; only secondary entries may be coloured). ``bounds[i] = (lo, hi)`` lets
    primary item ``i`` be covered between lo and hi times (``hi=None``: no upper bound).

    The problem is fixed once made (options, colours, bounds); ``item_order`` and
    ``cell_graph`` may be set afterwards, which drops the compiled forms made so far.
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
        self._compiled: dict[str, CompiledCover] = {}  # kernel -> compiled form (``compile``)
        self._reduced: Reduced | None = None
        if "numpy" in sys.modules or sum(map(len, opts)) > 20_000:
            self._check_numpy(opts, cols)
        else:
            self._check_plain(opts, cols)
        self.colours = cols if cols is not None else [(0,) * len(t) for t in opts]
        # optional search order of the items for the first-cell kernel, and the cell graph
        # (n_cells, ptr, idx) of items 0 .. n_cells - 1 for region pruning (set by tilings)
        self._order: list[int] | None = None
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
        import numpy as np  # only for problems that need it (start-up: small ones are checked without)

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
            import numpy as np  # the graph is given as lists; arrays when a kernel asks (start-up)

            g = self._graph = (g[0], np.asarray(g[1], dtype=np.int64), np.asarray(g[2], dtype=np.int64))
        return g

    @cell_graph.setter
    def cell_graph(self, graph) -> None:
        self._graph = graph
        self._compiled = {}

    @property
    def item_order(self) -> list[int] | None:
        """Search order of the items for the first-cell kernel and the plain count (tilings:
        cells along the region's short side); None: item order."""
        return self._order

    @item_order.setter
    def item_order(self, order) -> None:
        self._order = None if order is None else list(order)
        self._compiled = {}

    def __getstate__(self) -> dict:
        # what a worker process needs: the problem, not the kernel state made in this one
        state = dict(self.__dict__)
        state["_compiled"] = {}
        state["_reduced"] = None
        return state

    def compile(self, kernel: str = "auto") -> "CompiledCover":
        """The problem built into kernel state once (kept on the problem, one per kernel):
        ``first`` / ``solutions`` / ``count`` on it reuse the state. ``kernel``: "auto" (option
        bitsets for small problems, dancing links for large ones; the first-cell kernel for
        counts of plain problems with an item order), "bitset", "links", or "firstcell"
        (counts of plain problems only)."""
        c = self._compiled.get(kernel)
        if c is None:
            c = self._compiled[kernel] = CompiledCover(self, kernel)
        return c

    def reduced(self) -> "Reduced":
        """The problem as plain XCC (``reduce_multiplicities``), made once."""
        if self._reduced is None:
            self._reduced = reduce_multiplicities(self)
        return self._reduced

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
            import numpy as np  # arrays are made when a kernel asks (start-up)

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
        if self.identity:
            return sorted(solution)
        return sorted(int(self.origin[o]) for o in solution if self.origin[o] >= 0)


def reduce_multiplicities(problem: ExactCover, fast: bool = True) -> Reduced:
    """Rewrite bounds as plain items, one solution for one solution.

    Item with (1,1): primary; (0,1): secondary; (0, >= its options): dropped (an option left
    with no primary item gets a private primary item and a "not taken" filler). Otherwise the item
    becomes ``b`` slot items, filled in increasing option order: option ``p`` in slot ``j``
    covers boundary items z[j, t] for t <= p and z[j-1, t] for t >= p, so consecutive slots
    need increasing options; slots past ``lo`` may be taken by a filler that blocks the rest.
    """
    import numpy as np  # the reduction makes the kernels' arrays (start-up: not for plain counts)

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
        for slots in product(*choices):
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


def csr_summary(ptr, items, n_primary: int, n_items: int) -> tuple[bool, bool, bool, int]:
    """(an option without items, an option without a primary item, a primary item in no
    option, most primary items in one option) of options in CSR form (numpy, no kernel: it runs
    once per problem, at array speed)."""
    import numpy as np  # see reduce_multiplicities

    if len(ptr) < 2:
        return False, False, n_primary > 0, 0
    lens = np.diff(ptr)
    prim = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(items < n_primary, out=prim[1:])
    per_option = prim[ptr[1:]] - prim[ptr[:-1]]
    seen = np.zeros(n_items + 1, dtype=bool)
    seen[items] = True
    return (bool((lens == 0).any()), bool((per_option == 0).any()), not bool(seen[:n_primary].all()),
            int(per_option.max()))


def _reduce_plain(problem: ExactCover) -> Reduced | None:
    """The common case at array speed: no bounds other than 1..1 and a primary item in every
    option, so the reduction is the identity (same items, options and colours). None otherwise."""
    import numpy as np  # see reduce_multiplicities

    n_p = problem.n_primary
    if any(b != (1, 1) for b in problem.bounds.values()):
        return None
    ptr, flat, cflat = problem.csr()
    n_opt = len(ptr) - 1
    if n_opt == 0:
        return None
    empty, no_primary, uncovered, _ = csr_summary(ptr, flat, n_p, problem.n_items)
    if empty or no_primary:
        return None  # an option without a primary item needs the general reduction
    infeasible = n_p > 0 and bool(uncovered)
    return Reduced(n_p, problem.n_secondary, ptr, flat, cflat,
                   np.arange(n_opt, dtype=np.int64), infeasible, identity=True)




def use_firstcell(problem: ExactCover, red: Reduced, kernel: str, limit: int | None) -> bool:
    """The first-cell bitboard kernel counts plain problems (primary items only, no colours or
    bounds, at most 128 items) without a solution limit; ``auto`` picks it when the problem
    carries an item order (tilings: cells along the region's short side)."""
    if kernel not in ("auto", "firstcell") or limit is not None:
        return False
    plain = (red.n_secondary == 0 and not problem.bounds and not problem.has_colours
             and red.n_primary <= 128 and red.n_primary == problem.n_items)
    if kernel == "firstcell" and not plain:
        raise SolverError("the firstcell kernel takes plain exact cover (primary items only, <= 128)")
    return plain and (kernel == "firstcell" or problem.item_order is not None)


NODE_SLICE = 1_000_000  # search nodes per kernel call: time limits and Ctrl-C are checked between calls
MEMO_TRIAL = 1024  # nodes a memo count runs before it checks that the memo pays


class CompiledCover:
    """An ``ExactCover`` built into kernel state once (``ExactCover.compile``).

    The reduction to plain XCC and each kernel's tables and work arrays are made on first use
    and kept; every query resets only the search state. A query that is still running (a
    ``solutions`` iterator not yet exhausted or closed) holds its kernel state, and another
    query meanwhile gets a state of its own, so interleaved queries do not disturb each other.
    """

    def __init__(self, problem: ExactCover, kernel: str = "auto"):
        if kernel not in KERNELS:
            raise SolverError(f"unknown kernel {kernel!r}: expected {', '.join(KERNELS)}")
        self.problem = problem
        self.kernel = kernel
        self._idle: dict[str, object] = {}  # "search" / "firstcell" -> a kernel state not in use
        self._firstcell: bool | None = None  # whether a full count runs on the first-cell kernel

    @property
    def reduced(self) -> Reduced:
        return self.problem.reduced()

    # --- kernel states, lent to one query at a time ----------------------------------------

    def _take(self, what: str):
        m = self._idle.pop(what, None)
        if m is not None:
            m.reset()
            return m
        red = self.reduced
        if what == "firstcell":
            from .dlx_firstcell import FirstCellMatrix  # numba: loaded only when a kernel runs (start-up)

            return FirstCellMatrix(red.n_primary, red.ptr, red.items, self.problem.item_order)
        if self.kernel == "firstcell":
            raise SolverError("the firstcell kernel only counts; use auto, bitset or links to list solutions")
        from .dlx import make_matrix  # numba: loaded only when a kernel runs (start-up)

        return make_matrix(red.n_primary, red.n_secondary, red.ptr, red.items, red.colours, self.kernel,
                           cells=red.cells(self.problem))

    def _give(self, what: str, m) -> None:
        self._idle.setdefault(what, m)

    # --- queries ------------------------------------------------------------------------------

    def first(self, time_limit: float | None = None) -> list[int] | None:
        """One solution (the first in the kernels' order), or None when there is none or the
        time limit passed first."""
        red = self.reduced
        if red.infeasible:
            return None
        m = self._take("search")
        t_end = None if time_limit is None else time.perf_counter() + time_limit
        try:
            while not m.finished:
                # isolated-region pruning pays for its floods in enumerations, not for one solution
                found, _, sols = m.run(limit=1, record=True, batch=1, max_nodes=NODE_SLICE, prune=False)
                if found:
                    return red.original(sols[0])
                if t_end is not None and time.perf_counter() > t_end:
                    return None
            return None
        finally:
            self._give("search", m)

    def solutions(self, limit: int | None = None, time_limit: float | None = None,
                  batch: int = 256) -> Iterator[list[int]]:
        """Stream solutions (sorted lists of option indices), at most ``limit`` of them."""
        if limit is not None and limit <= 0:
            return
        red = self.reduced
        if red.infeasible:
            return
        if limit == 1:
            s = self.first(time_limit)
            if s is not None:
                yield s
            return
        m = self._take("search")
        t_end = None if time_limit is None else time.perf_counter() + time_limit
        given = 0
        try:
            while not m.finished:
                want = batch if limit is None else min(batch, limit - given)
                if want <= 0:
                    return
                found, _, sols = m.run(limit=want, record=True, batch=want, max_nodes=NODE_SLICE)
                for s in sols:
                    yield red.original(s)
                given += found
                if t_end is not None and time.perf_counter() > t_end:
                    return
        finally:
            self._give("search", m)

    def uses_firstcell(self, limit: int | None = None) -> bool:
        """Whether a count (with this solution limit) runs on the first-cell kernel."""
        if limit is not None:
            return False
        if self._firstcell is None:
            self._firstcell = use_firstcell(self.problem, self.reduced, self.kernel, None)
        return self._firstcell

    def count(self, limit: int | None = None, time_limit: float | None = None, memo: bool = True,
              workers: int | None = None) -> tuple[int, bool]:
        """(number of solutions, complete); complete is False if a limit cut the count short.

        ``memo``: on the bitset kernel, reuse the count below nodes that cover the same items
        (within this count). ``workers``: the first-cell kernel's count over that many forked
        processes (``exact_cover.count_solutions`` splits the other kernels' counts)."""
        red = self.reduced
        if red.infeasible:
            return 0, True
        if limit is None and self.uses_firstcell():
            return self._count_firstcell(time_limit, workers)
        m = self._take("search")
        t_end = None if time_limit is None else time.perf_counter() + time_limit
        total = 0
        try:
            if m.has_memo and limit is None and memo:
                # the memo pays where branches meet often (tilings, edge matching: 2-5 % of the
                # first nodes are hits); below 1 in 64 it costs up to 40 % (sudoku, N-queens, word
                # squares), so after a trial the count goes on without it, from the same state
                total, nodes, hits = m.count_memo(max_nodes=MEMO_TRIAL)
                keep = hits * 64 >= nodes
                while keep and not m.finished:
                    total, _, _ = m.count_memo(max_nodes=NODE_SLICE)
                    if t_end is not None and time.perf_counter() > t_end and not m.finished:
                        return total, False
                if m.finished:
                    return total, True
            while not m.finished:
                want = 0 if limit is None else limit - total
                if limit is not None and want <= 0:
                    return total, False
                found, _, _ = m.run(limit=want, record=False, max_nodes=NODE_SLICE)
                total += found
                if t_end is not None and time.perf_counter() > t_end and not m.finished:
                    return total, False
            return total, True
        finally:
            self._give("search", m)

    def _count_firstcell(self, time_limit: float | None, workers: int | None) -> tuple[int, bool]:
        m = self._take("firstcell")
        try:
            if workers is not None and workers > 1 and time_limit is None:
                # a first slice here: a count that small is not worth a pool (about 0.1 s to start)
                m.count(max_nodes=2_000_000)
                if m.finished:
                    return int(m.state[1]), True
                from .dlx_firstcell import firstcell_count_parallel  # numba (start-up)

                m.reset()
                return firstcell_count_parallel(m, workers), True
            t_end = None if time_limit is None else time.perf_counter() + time_limit
            while not m.finished:
                m.count(max_nodes=4_000_000)
                if t_end is not None and time.perf_counter() > t_end and not m.finished:
                    return int(m.state[1]), False
            return int(m.state[1]), True
        finally:
            self._give("firstcell", m)


__all__ = ["KERNELS", "CompiledCover", "ExactCover", "Reduced", "reduce_multiplicities", "use_firstcell"]
