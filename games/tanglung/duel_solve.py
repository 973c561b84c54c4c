"""The exact duel solver's front end: the numba kernel (floats) or the plain solver (exact
fractions), with time and node limits, action values and the optimal choice.

:func:`solve_match` answers for the player to move of a live engine ``Match``; a
:class:`KernelSolver` keeps its transposition table between calls (the perfect bot and the
fairness table reuse it). See ``duel_exact`` for the value, the state encoding and the
repetition rule.
"""

from __future__ import annotations

import time

import numpy as np

from ...errors import SolverError
from .duel_exact import (
    B_BITS,
    CHANCE,
    WIN,
    Abort,
    ActionValue,
    Entry,
    ExactResult,
    PlainSolver,
    chance_outcomes,
    check_options,
    choose,
    encode_match,
    expand,
    move_tables,
)
from .rules import TanglungOptions

KINDS = {0: "win", 1: "level", 2: "progress", 3: "chance"}
#: expansions per kernel call between time checks
SLICE = 20_000
#: default cap on the positions of one solve's table (about 3.5 GB at most)
MAX_STATES = 40_000_000
#: expansions the exact solver may try first in ``auto`` before the kernel takes over
QUICK = 20_000


class KernelSolver:
    """The numba solver with a growing transposition table (kept between calls)."""

    def __init__(self, options: TanglungOptions | None = None, capacity: int = 1 << 20,
                 max_entries: int | None = None) -> None:
        from . import duel_kernels as K  # numba: loaded only when the kernel is used

        self.K = K
        self.options = options or TanglungOptions()
        check_options(self.options)
        t = move_tables(self.options)
        self.tables = tuple(np.array(x, np.int64) for x in t[:6]) + (np.int64(t[6]), np.int64(t[7]))
        self.max_entries = max_entries
        self._alloc(capacity)
        self.ar_a = np.zeros(1 << 16, np.int64)
        self.ar_b = np.zeros(1 << 16, np.int64)
        self.fr_start = np.zeros(4096, np.int64)
        self.fr_node = np.zeros(4096, np.int64)
        self.fr_act = np.zeros(4096, np.int64)
        self.meta = np.zeros(5, np.int64)  # entries, arena top, frames, components, expansions

    def _alloc(self, cap: int) -> None:
        self.tab = (np.zeros(cap, np.int64), np.full(cap, -1, np.int64), np.zeros(cap, np.int8),
                    np.zeros(cap, np.float64), np.zeros(cap, np.int32), np.zeros(cap, np.int32),
                    np.zeros(cap, np.int64), np.zeros(cap, np.int64))

    @property
    def entries(self) -> int:
        return int(self.meta[0])

    @property
    def expanded(self) -> int:
        return int(self.meta[4])

    def memory_bytes(self) -> int:
        return sum(a.nbytes for a in self.tab)

    def _grow(self) -> None:
        old = self.tab
        cap = len(old[1]) * 2
        if self.max_entries is not None and cap * 3 // 4 > 2 * self.max_entries:
            raise SolverError("state limit")
        self._alloc(cap)
        self.K.rehash(*old, *self.tab)

    def reset_search(self) -> None:
        """Drop a search left unfinished (positions of its open levels leave the table)."""
        if self.meta[2] == 0:
            return
        old = self.tab
        self._alloc(len(old[1]))
        self.meta[0] = self.K.rehash(*old, *self.tab, True)
        self.meta[1] = 0
        self.meta[2] = 0

    def lookup(self, a: int, b: int) -> Entry | None:
        tab_a, tab_b, tab_st, tab_v, tab_layer, tab_plies, tab_comp, _ = self.tab
        s = self.K.find_slot(tab_a, tab_b, np.int64(a), np.int64(b))
        if tab_b[s] == -1 or tab_st[s] != 1:
            return None
        return Entry(float(tab_v[s]), int(tab_layer[s]), int(tab_plies[s]), int(tab_comp[s]))

    def solve(self, a: int, b: int, deadline: float | None = None, node_limit: int | None = None) -> Entry | None:
        """Solve position (a, b); None when the deadline or node limit stops it (the open
        search is dropped, everything finished stays in the table)."""
        e = self.lookup(a, b)
        if e is not None:
            return e
        K = self.K
        tab_a, tab_b = self.tab[0], self.tab[1]
        s = K.find_slot(tab_a, tab_b, np.int64(a), np.int64(b))
        K._push(tab_a, tab_b, self.tab[2], self.tab[7], self.meta, self.ar_a, self.ar_b,
                self.fr_start, self.fr_node, self.fr_act, s, np.int64(a), np.int64(b))
        done_work = 0
        while True:
            budget = SLICE
            if node_limit is not None:
                budget = min(budget, node_limit - done_work)
                if budget <= 0:
                    self.reset_search()
                    return None
            if deadline is not None and time.perf_counter() > deadline:
                self.reset_search()
                return None
            code = K.run(*self.tab, self.meta, self.ar_a, self.ar_b, self.fr_start, self.fr_node, self.fr_act,
                         *self.tables, np.int64(budget))
            done_work += budget if code == K.PAUSED else 0
            if code == K.DONE:
                break
            if code == K.TABLE_FULL:
                if self.max_entries is not None and self.entries > self.max_entries:
                    self.reset_search()
                    raise SolverError("state limit")
                self._grow()
            elif code == K.ARENA_FULL:
                self.ar_a = np.concatenate([self.ar_a, np.zeros(len(self.ar_a), np.int64)])
                self.ar_b = np.concatenate([self.ar_b, np.zeros(len(self.ar_b), np.int64)])
            elif code == K.FRAMES_FULL:
                for name in ("fr_start", "fr_node", "fr_act"):
                    arr = getattr(self, name)
                    setattr(self, name, np.concatenate([arr, np.zeros(len(arr), np.int64)]))
        return self.lookup(a, b)

    def action_values(self, a: int, b: int, deadline: float | None = None) -> list[ActionValue] | None:
        """The value of every legal action of a solved position (None when the deadline stops
        the solving of a child: a position with an immediate win leaves its others unsolved)."""
        n_max = 128
        out_a = [[0] * n_max for _ in range(5)]
        n = expand(a, b, *move_tables(self.options), *out_a)
        for j in range(n):
            t, ca, cb, cd = out_a[1][j], out_a[2][j], out_a[3][j], out_a[4][j]
            if t == WIN:
                continue
            kids = [(x, y) for _, x, y in chance_outcomes(ca, cb, cd)] if t == CHANCE else [(ca, cb)]
            for x, y in kids:
                if self.lookup(x, y) is None and self.solve(x, y, deadline) is None:
                    return None
        tab_a, tab_b, _, tab_v, tab_layer, tab_plies, tab_comp, _ = self.tab
        act = np.empty(128, np.int64)
        v = np.empty(128, np.float64)
        p = np.empty(128, np.int64)
        kind = np.empty(128, np.int64)
        rank = np.empty(128, np.int64)
        n = self.K.action_values(tab_a, tab_b, tab_v, tab_layer, tab_plies, tab_comp, np.int64(a), np.int64(b),
                                 *self.tables, act, v, p, kind, rank)
        out = []
        for j in range(n):
            av = ActionValue(int(act[j]), float(v[j]), int(p[j]), KINDS[int(kind[j])])
            av.child = int(rank[j]) if kind[j] == 1 else None
            out.append(av)
        return out


def _rank_entry(rank: int) -> Entry:
    return Entry(0.0, rank & 0xFFFFFFFF, -1, rank >> 32)


def solve_match(match, time_limit: float | None = None, node_limit: int | None = None, engine: str = "auto",
                pool: list[str] | None = None, solver: KernelSolver | None = None,
                exact_limit: int = 100_000, max_states: int | None = MAX_STATES) -> ExactResult:
    """The exact value of a live ``Match`` position for its player to move, with the value of
    every legal action and the optimal choice. ``engine``: ``kernel`` (floats), ``exact``
    (plain Python, ``Fraction``), ``auto`` (the exact solver up to ``QUICK`` expansions,
    else the kernel and, when that needed at most ``exact_limit`` expansions, the exact
    solver again for the fractions). ``time_limit`` / ``node_limit`` stop it: ``complete`` is then
    false with a reason. ``max_states`` caps the kernel's table (about 70 bytes a position,
    the table doubling as it fills): past it the answer is incomplete ("state limit")."""
    if engine not in ("auto", "kernel", "exact"):
        raise SolverError(f"unknown engine {engine!r} (auto, kernel or exact)")
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    a, b = encode_match(match, pool)
    if time_limit == 0 or node_limit == 0:
        return ExactResult(None, None, [], -1, 0, 0, False, "time limit" if time_limit == 0 else "node limit", 0.0)
    if engine == "exact":
        return _solve_exact(match, a, b, deadline, node_limit, t0)
    if engine == "auto" and solver is None:  # a small position: exact, without loading numba
        r = _solve_exact(match, a, b, deadline, min(QUICK, node_limit or QUICK), t0)
        if r.complete or r.reason == "time limit":
            return r
    ks = solver or KernelSolver(match.options, max_entries=max_states)
    try:
        here = ks.solve(a, b, deadline, node_limit)
    except SolverError as e:
        return ExactResult(None, None, [], -1, ks.entries, ks.expanded, False, str(e), time.perf_counter() - t0, "kernel")
    if here is None:
        reason = "time limit" if deadline is not None and time.perf_counter() > deadline else "node limit"
        return ExactResult(None, None, [], -1, ks.entries, ks.expanded, False, reason, time.perf_counter() - t0, "kernel")
    if engine == "auto" and ks.expanded <= exact_limit and solver is None:
        r = _solve_exact(match, a, b, deadline, 4 * exact_limit, t0)
        if r.complete:
            return r
    vals = ks.action_values(a, b, deadline)
    if vals is None:
        return ExactResult(here.value, None, [], here.plies, ks.entries, ks.expanded, False, "time limit",
                           time.perf_counter() - t0, "kernel")
    pick = choose(vals, here, _rank_entry)
    return ExactResult(here.value, pick.action, vals, here.plies, ks.entries, ks.expanded, True, "",
                       time.perf_counter() - t0, "kernel")


def _solve_exact(match, a, b, deadline, node_limit, t0) -> ExactResult:
    ps = PlainSolver(match.options, True, node_limit, deadline)
    try:
        here = ps.entry(a, b)
        vals = ps.action_values(a, b)
    except Abort as e:
        return ExactResult(None, None, [], -1, len(ps.memo), ps.expanded, False, str(e),
                           time.perf_counter() - t0, "exact")
    pick = choose(vals, here, lambda k: ps.memo[k])
    return ExactResult(here.value, pick.action, vals, here.plies, len(ps.memo), ps.expanded, True, "",
                       time.perf_counter() - t0, "exact")


__all__ = ["B_BITS", "KernelSolver", "solve_match"]
