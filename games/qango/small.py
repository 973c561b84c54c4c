"""QANGO positions near the end of a game, solved in plain Python (start-up: no numba, no numpy).

``tanglekit qango solve`` of a position with a dozen empty cells searches a few hundred to a few
thousand nodes, far less than loading numba (about 0.3 s of CPU, numpy another 0.1-0.2 s).
``solve_small`` runs the iterative deepening of ``qango_solve.QangoSolver.solve`` (methods
``id`` and ``auto``, which finish there on such positions) over ``wins_within``, the bounded
"mover wins within r plies" search of ``qango_kernels``, step for step in plain Python: the same
pruning (immediate wins, forced blocks, double threats, live cells, the null-move cover of
irrelevant replies), the same move order (pattern and threat scores, table hints, killer
replies) and the same two-way transposition table with its replacement rule (kept as a dict of
the slots in use), keyed under the board symmetries while few counters are down. So it gives
the kernel's value, best move, plies and node count (``tests/test_qango_small.py`` compares
them on random near-end positions, and both with the plain minimax ``qango_reference``).

It takes positions with at most ``SMALL_EMPTY`` empty cells and gives up (None) past
``SMALL_NODES`` nodes; the caller then runs the kernel from the start, having lost only that.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ...errors import SolverError
from .board import Board
from .position import Position

NO_WIN = 127  # the table's "no win proven yet"
MAX_LEVELS = 160
M64 = (1 << 64) - 1
U1 = 0x9E3779B97F4A7C15
U2 = 0xC2B2AE3D27D4EB4F
AUTO_ID_NODES = 20_000_000  # qango_solve.AUTO_ID_NODES
SMALL_EMPTY = 16  # positions with more empty cells go to the kernels at once
SMALL_NODES = 3_000  # nodes a plain solve may take (about 0.1 s of CPU) before the kernel takes over
TT_START_BITS = 16  # the bounded search's table starts at 2^16 slots and grows with the search


def grown_table_bits(bits: int, max_bits: int, nodes: int) -> int:
    """The table size (log2) for the next deepening iteration: unchanged while the search so far
    (``nodes``) has used under an eighth of it, else about 32 slots per node searched so far (the
    next iteration usually costs several times the ones before), at least 4 times larger, at most
    2^max_bits. A small solve then never fills (and pays for) the full table."""
    if bits >= max_bits or nodes <= (1 << bits) >> 3:
        return bits
    return min(max_bits, max(bits + 2, (nodes * 32).bit_length()))


@dataclass
class SolveResult:
    """Value for the side to move, a best move, plies to the end with best play, nodes searched
    (of both QANGO solvers: this one and ``qango_solve.QangoSolver``; defined here, without numpy)."""

    value: str  # win | draw | loss | unknown
    best_move: int | None
    plies: int | None
    nodes: int
    seconds: float = 0.0
    board: Board | None = field(default=None, repr=False)
    depth_reached: int = 0  # deepest r fully decided (for unknown results)

    def to_json(self) -> dict:
        bm = None if self.best_move is None or self.board is None else list(self.board.rc(self.best_move))
        return {"value": self.value, "best_move": bm, "plies": self.plies, "nodes": int(self.nodes)}


class _Timeout(Exception):
    pass


class _Budget(Exception):
    pass


class MoveChoice:
    """Iterative deepening and the move a solved position calls for, shared by both QANGO solvers:
    they supply ``moves``, ``move_wins``, ``wins``, ``loses``, ``_loss_order`` (blocks of the
    opponent's threats first), ``_unlimited`` and ``_result``."""

    def _deepen(self, me, opp, remaining: int, horizon: int, t0: float) -> SolveResult:
        """Exact value by r = 1, 2, ... plies up to ``horizon`` (a win at odd r, a loss at even r;
        a draw when none within all ``remaining`` plies); unknown on a timeout or a short horizon."""
        done, stopped = 0, False
        try:
            for r in range(1, horizon + 1):
                bits = grown_table_bits(self.table_bits, self.tt_bits, self._nodes_so_far())
                if bits != self.table_bits:
                    self._resize_table(bits)  # empty, between iterations: results stay exact
                if r % 2 == 1:
                    if self.wins(me, opp, r):
                        self._unlimited()
                        return self._result("win", self._win_move(me, opp, r), r, t0)
                elif self.loses(me, opp, r):
                    self._unlimited()
                    return self._result("loss", self._delay_move(me, opp, r), r, t0)
                done = r
        except _Timeout:
            stopped = True
        if stopped or horizon < remaining:
            res = self._result("unknown", None, None, t0)
            res.depth_reached = done
            return res
        self._unlimited()
        return self._result("draw", self._draw_move(me, opp, remaining), remaining, t0)

    def _win_move(self, me, opp, r) -> int:
        for c in self.moves(me, opp):
            if self.move_wins(me, opp, c, r):
                return c
        raise SolverError("internal error: a proven win has no winning move")

    def _delay_move(self, me, opp, r) -> int:
        # a move after which the opponent needs the full r-1 plies
        for c in self._loss_order(me, opp):
            if r - 1 < 3 or not self.wins(opp, me | 1 << c, r - 3):
                return c
        return self.moves(me, opp)[0]

    def _draw_move(self, me, opp, remaining) -> int:
        for c in self._loss_order(me, opp):
            if remaining - 1 <= 0 or not self.wins(opp, me | 1 << c, remaining - 1):
                return c
        raise SolverError("internal error: a proven draw has no drawing move")


def _popcount(x: int) -> int:
    return bin(x).count("1")


class SmallSolver(MoveChoice):
    """``QangoSolver``'s iterative deepening and ``wins_within`` in plain Python, for one board
    and opening (a new solver per solve, as the command makes)."""

    def __init__(self, board: Board, allowed_first=None, tt_bits: int = 22, use_symmetry: bool = True,
                 sym_counters: int = 12, budget: int | None = SMALL_NODES):
        self.board = board
        self.pats = list(board.pattern_masks)
        self.cell_pats = [[k for k, p in enumerate(board.patterns) if c in p] for c in range(board.n_cells)]
        self.bmask = board.mask
        cells = board.cells if allowed_first is None else allowed_first
        self.first = sum(1 << c for c in cells)
        self.limit = board.limit
        self.ncells = board.n_cells
        self.tt_bits = tt_bits
        self.table_bits = min(tt_bits, TT_START_BITS)
        self.tmask = (1 << self.table_bits) - 1
        perms = board.symmetries if use_symmetry else board.symmetries[:1]
        self.perm = [list(p) for p in perms]
        self.inv = []
        for p in perms:
            inv = [0] * len(p)
            for c, d in enumerate(p):
                inv[d] = c
            self.inv.append(inv)
        # byte-wise images per symmetry, as the kernel's symtab
        self.symtab = []
        for p in perms:
            tab = []
            for b in range(8):
                row = []
                for v in range(256):
                    m = 0
                    for k in range(8):
                        c = 8 * b + k
                        if v >> k & 1 and c < self.ncells:
                            m |= 1 << p[c]
                    row.append(m)
                tab.append(row)
            self.symtab.append(tab)
        self.sym_n = sym_counters
        self.tt: dict[int, list[int]] = {}  # slot -> [a, b, w, n, m]; absent: [-1, -1, NO_WIN, 0, -1]
        self.killer = [-1] * MAX_LEVELS
        self.nodes = 0
        self.node_limit = 0
        self.aborted = False
        self.deadline = float("inf")
        self.budget = budget  # nodes over all the solver's searches (None: no budget)
        self.node_budget = budget  # what is left of it for the nodes counted since the last solve
        self.spent = 0  # nodes of the searches before the last solve

    # --- the kernels' helpers ------------------------------------------------------------------
    def threats(self, me: int, opp: int) -> int:
        t = 0
        for p in self.pats:
            if p & opp == 0:
                rest = p & ~me
                if rest and not rest & (rest - 1):
                    t |= rest
        return t

    def live_cells(self, me: int, opp: int, empty: int, moves: int) -> int:
        u = 0
        for p in self.pats:
            if p & opp == 0:
                e = p & ~me
                if _popcount(e) <= moves:
                    u |= e
        return u & empty

    def _slot(self, me: int, opp: int) -> int:
        h = ((me * U1) ^ (opp * U2)) & M64
        h ^= h >> 31
        h = (h * U1) & M64
        h ^= h >> 29
        return h & self.tmask & ~1

    def _transform(self, x: int, t: int) -> int:
        tab = self.symtab[t]
        y = 0
        b = 0
        while x:
            y |= tab[b][x & 255]
            x >>= 8
            b += 1
        return y

    def _cell_score(self, c: int, me: int, opp: int) -> int:
        s = 0
        pats = self.pats
        for k in self.cell_pats[c]:
            p = pats[k]
            if p & opp == 0:
                s += 1 << (3 * _popcount(p & me))
            if p & me == 0:
                s += (1 << (3 * _popcount(p & opp))) >> 1
        return s

    def _order(self, cand: int, me: int, opp: int, hint: int) -> list[int]:
        """The cells of ``cand``, best first (the kernel's insertion sort: stable, descending)."""
        scored = []
        for c in range(self.ncells):
            if (cand >> c) & 1:
                s = self._cell_score(c, me, opp)
                nt = _popcount(self.threats(me | (1 << c), opp))
                s += 4096 * (nt if nt < 3 else 3)
                if c == hint:
                    s += 1 << 30
                scored.append((s, c))
        scored.sort(key=lambda sc: -sc[0])
        return [c for _, c in scored]

    def _tt_store(self, me: int, opp: int, r: int, won: bool, move: int) -> None:
        tt = self.tt
        i = self._slot(me, opp)
        for s in (i, i + 1):
            e = tt.get(s)
            if e is not None and e[0] == me and e[1] == opp:
                if won:
                    if r < e[2]:
                        e[2] = r
                        e[4] = move
                elif r > e[3]:
                    e[3] = r
                    if e[4] < 0:
                        e[4] = move
                return
        e0 = tt.get(i) or [-1, -1, NO_WIN, 0, -1]
        e1 = tt.get(i + 1) or [-1, -1, NO_WIN, 0, -1]
        d0 = e0[3] if e0[2] == NO_WIN else max(e0[3], e0[2])
        d1 = e1[3] if e1[2] == NO_WIN else max(e1[3], e1[2])
        s = i if d0 <= d1 else i + 1
        tt[s] = [me, opp, r if won else NO_WIN, 0 if won else r, move]

    # --- the bounded search ----------------------------------------------------------------------
    def wins_within(self, me: int, opp: int, r: int, level: int) -> bool:
        """The kernel's ``wins_within``: the mover can force a win within ``r`` plies."""
        self.nodes += 1
        if self.budget is not None and self.nodes > self.node_budget:
            raise _Budget
        if (self.nodes & 8191) == 0:
            t = time.perf_counter()
            if t > self.deadline or (self.node_limit > 0 and self.nodes > self.node_limit):
                self.aborted = True
        if self.aborted or r <= 0:
            return False
        occ = me | opp
        empty = self.bmask & ~occ
        n = _popcount(occ)
        if n >= self.limit or empty == 0:
            return False
        if self.threats(me, opp):
            return True
        if r < 3:
            return False
        ot = self.threats(opp, me)
        if ot & (ot - 1):
            return False  # two enemy threats: one block cannot stop both
        if n + 3 > self.limit or _popcount(empty) < 3:
            return False
        ka, kb, sx = me, opp, 0
        if 0 < n <= self.sym_n:
            for t in range(1, len(self.symtab)):
                ta = self._transform(me, t)
                tb = self._transform(opp, t)
                if ta < ka or (ta == ka and tb < kb):
                    ka, kb, sx = ta, tb, t
        i0 = self._slot(ka, kb)
        hint = -1
        for s in (i0, i0 + 1):
            e = self.tt.get(s)
            if e is not None and e[0] == ka and e[1] == kb:
                if r >= e[2]:
                    return True
                if r <= e[3]:
                    return False
                if e[4] >= 0:
                    hint = self.inv[sx][e[4]]
        if ot:
            cand = ot
        elif n == 0:
            cand = empty & self.first
        else:
            cand = self.live_cells(me, opp, empty, (r + 1) // 2)
            if cand == 0:
                self._tt_store(ka, kb, r, False, -1)
                return False
        order = self._order(cand, me, opp, hint)
        perm = self.perm[sx]
        for c in order:
            bit = 1 << c
            me2 = me | bit
            empty2 = empty & ~bit
            at = self.threats(me2, opp)
            if at & (at - 1):
                self._tt_store(ka, kb, 3, True, perm[c])
                return True
            if r < 5:
                continue  # with 3 or 4 plies left only a double threat wins
            if at:
                ok = self.wins_within(me2, opp | at, r - 2, level + 2)
            else:
                replies = empty2
                ok = True
                if n + r + 1 <= self.limit:
                    rel = (self.live_cells(me2, opp, empty2, (r - 1) // 2)
                           | self.live_cells(opp, me2, empty2, r // 2))
                    if empty2 & ~rel:
                        replies = rel
                        ok = self.wins_within(me2, opp, r - 2, level + 2)
                if ok:
                    for y in self._order(replies, opp, me2, self.killer[level + 1]):
                        if not self.wins_within(me2, opp | (1 << y), r - 2, level + 2):
                            ok = False
                            self.killer[level + 1] = y
                            break
            if self.aborted:
                return False
            if ok:
                self._tt_store(ka, kb, r, True, perm[c])
                return True
        self._tt_store(ka, kb, r, False, perm[order[0]] if order else -1)
        return False

    def move_wins_within(self, me: int, opp: int, c: int, r: int, level: int) -> bool:
        """The kernel's ``move_wins_within``: the mover's move ``c`` forces a win within ``r``."""
        bit = 1 << c
        me2 = me | bit
        if any(p & me2 == p for p in self.pats):
            return r >= 1
        occ2 = me2 | opp
        empty2 = self.bmask & ~occ2
        if _popcount(occ2) >= self.limit or empty2 == 0 or r < 3:
            return False
        if self.threats(opp, me2):
            return False
        at = self.threats(me2, opp)
        cand = at if at else empty2
        if at & (at - 1):
            return _popcount(occ2) + 2 <= self.limit
        for y in range(self.ncells):
            if (cand >> y) & 1:
                if not self.wins_within(me2, opp | (1 << y), r - 2, level):
                    return False
        return True

    # --- QangoSolver's front end ---------------------------------------------------------------
    def wins(self, me: int, opp: int, r: int) -> bool:
        out = self.wins_within(me, opp, r, 0)
        if self.aborted:
            raise _Timeout
        return out

    def move_wins(self, me: int, opp: int, c: int, r: int) -> bool:
        out = self.move_wins_within(me, opp, c, r, 0)
        if self.aborted:
            raise _Timeout
        return out

    def moves(self, me: int, opp: int) -> list[int]:
        occ = me | opp
        empty = self.bmask & ~occ
        if occ == 0:
            empty &= self.first
        return [c for c in range(self.ncells) if empty >> c & 1]

    def _loss_order(self, me: int, opp: int) -> list[int]:
        t = self.threats(opp, me)
        return sorted(self.moves(me, opp), key=lambda c: (not (t >> c & 1),))

    def loses(self, me: int, opp: int, r: int) -> bool:
        if _popcount(me | opp) >= self.limit or not self.bmask & ~(me | opp):
            return False
        for c in self._loss_order(me, opp):
            bit = 1 << c
            if any(p & (me | bit) == p for p in self.pats):
                return False
            if not self.wins(opp, me | bit, r - 1):
                return False
        return True

    def solve(self, pos: Position, time_limit: float | None = None, node_limit: int | None = None,
              max_plies: int | None = None) -> SolveResult:
        """``QangoSolver.solve(..., method="id")``; raises ``_Budget`` past the node budget (of
        all this solver's searches together)."""
        t0 = time.perf_counter()
        self.spent += self.nodes
        self.nodes = 0
        if self.budget is not None:
            self.node_budget = self.budget - self.spent
        self.aborted = False
        self.node_limit = node_limit or 0
        self.deadline = t0 + time_limit if time_limit else float("inf")
        b = self.board
        me, opp = pos.sides()
        if any(p & opp == p for p in self.pats):
            return SolveResult("loss", None, 0, 0, time.perf_counter() - t0, b)
        remaining = min(b.limit - _popcount(me | opp), _popcount(b.mask & ~(me | opp)))
        if remaining <= 0:
            return SolveResult("draw", None, 0, 0, time.perf_counter() - t0, b)
        horizon = remaining if max_plies is None else min(remaining, max_plies)
        return self._deepen(me, opp, remaining, horizon, t0)

    def _unlimited(self) -> None:
        """No deadline or node limit for choosing the move of a position already solved."""
        self.deadline = float("inf")
        self.node_limit = 0

    def _nodes_so_far(self) -> int:
        return self.nodes

    def _resize_table(self, bits: int) -> None:
        """The kernel's table growth (``grown_table_bits``), kept in step: the same slots after it."""
        self.table_bits = bits
        self.tmask = (1 << bits) - 1
        self.tt.clear()

    def _result(self, value, move, plies, t0) -> SolveResult:
        return SolveResult(value, move, plies, self.nodes, time.perf_counter() - t0, self.board)


def small_enough(pos: Position) -> bool:
    """Whether ``solve_small`` takes the position (its empty cells; the node budget decides the rest)."""
    return _popcount(pos.empty_mask()) <= SMALL_EMPTY


def solve_small(pos: Position, time_limit: float | None = None, method: str = "auto",
                budget: int | None = SMALL_NODES) -> SolveResult | None:
    """``QangoSolver(pos.board, pos.allowed_first).solve(pos, time_limit, method=method)`` in
    plain Python for methods ``id`` and ``auto``, or None (another method, too many empty
    cells, or more than ``budget`` nodes: the kernels' job)."""
    if method not in ("id", "auto") or (budget is not None and not small_enough(pos)):
        return None
    t0 = time.perf_counter()
    s = SmallSolver(pos.board, pos.allowed_first, budget=budget)
    try:
        res = s.solve(pos, time_limit, AUTO_ID_NODES if method == "auto" else None)
    except _Budget:
        return None
    if method == "auto" and res.value == "unknown" and not (time_limit is not None
                                                             and time.perf_counter() - t0 >= time_limit):
        return None  # the id budget ran out: df-pn (the kernels) goes on
    return res


__all__ = ["SMALL_EMPTY", "SMALL_NODES", "SmallSolver", "SolveResult", "small_enough", "solve_small"]
