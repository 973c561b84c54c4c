"""QANGO solver front end: exact value, best move, plies to the end and proof trees for a position.

Iterative deepening over the numba kernel ``wins_within``: the first r with "mover wins within r"
(odd r) or "every move lets the opponent win within r-1" (even r) gives the exact distance with the
winner taking the shortest and the loser the longest line; if neither holds up to the end of the
game the position is a draw. A time limit makes the answer "unknown", never a guess.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import SolverError
from ..games.qango.board import Board
from ..games.qango.position import Position, popcount


@dataclass
class SolveResult:
    """Value for the side to move, a best move, plies to the end with best play, nodes searched."""

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


AUTO_ID_NODES = 20_000_000  # iterative-deepening budget of method "auto" before df-pn takes over


class QangoSolver:
    """Holds the kernel arrays (patterns, transposition table) for one board and opening."""

    def __init__(self, board: Board, allowed_first=None, tt_bits: int = 22, use_symmetry: bool = True,
                 sym_counters: int = 12):
        from . import qango_kernels as K  # numba: imported lazily

        self.K = K
        self.board = board
        self.pats = np.array(board.pattern_masks, dtype=np.int64)
        per_cell = [[k for k, p in enumerate(board.patterns) if c in p] for c in range(board.n_cells)]
        width = max(1, max(len(v) for v in per_cell))
        self.cell_pats = np.full((board.n_cells, width), -1, dtype=np.int32)
        for c, v in enumerate(per_cell):
            self.cell_pats[c, : len(v)] = v
        self.mask = np.int64(board.mask)
        cells = board.cells if allowed_first is None else allowed_first
        self.first = np.int64(sum(1 << c for c in cells))
        self.limit = board.limit
        self.ncells = board.n_cells
        self.tt_bits = tt_bits
        self._tt = None  # bounded-search table, allocated on first use (df-pn alone does not need it)
        self.mbuf = np.zeros((K.MAX_LEVELS, 64), dtype=np.int32)
        self.sbuf = np.zeros((K.MAX_LEVELS, 64), dtype=np.int64)
        self.stats = np.zeros(4, dtype=np.int64)  # nodes, node limit, aborted, df-pn nodes
        self.deadline = float("inf")
        self.killer = np.full(K.MAX_LEVELS, -1, dtype=np.int32)
        perms = board.symmetries if use_symmetry else board.symmetries[:1]
        self.symtab, self.perm, self.inv = K.symmetry_tables(perms, board.n_cells)
        self.sym_n = sym_counters
        self._pns = None  # df-pn table, allocated on first use
        self._pns_colour = None  # colour of the attacker the df-pn table was filled for
        self._vcf = None  # continuous-threat failure cache
        self._vcf_stack = None  # frames and line of the in-kernel continuous-threat search
        self.progress = None  # called with the solver between df-pn slices (long runs log here)
        self._line = None  # continuous-threat line buffer

    # --- kernel calls --------------------------------------------------------------------------
    def _tables(self):
        if self._tt is None:
            size = 1 << self.tt_bits
            self._tt = (np.full(size, -1, dtype=np.int64), np.full(size, -1, dtype=np.int64),
                        np.full(size, self.K.NO_WIN, dtype=np.int8), np.zeros(size, dtype=np.int8),
                        np.full(size, -1, dtype=np.int8))
        return self._tt

    tt_a = property(lambda self: self._tables()[0])
    tt_b = property(lambda self: self._tables()[1])
    tt_w = property(lambda self: self._tables()[2])
    tt_n = property(lambda self: self._tables()[3])
    tt_m = property(lambda self: self._tables()[4])

    def _check(self):
        if self.stats[2]:
            raise _Timeout()

    def wins(self, me: int, opp: int, r: int) -> bool:
        """Mover wins within r plies (exact; raises _Timeout when the time budget runs out)."""
        out = self.K.wins_within(np.int64(me), np.int64(opp), r, 0, self.pats, self.cell_pats, self.mask, self.first,
                                 self.limit, self.ncells, self.tt_a, self.tt_b, self.tt_w, self.tt_n, self.tt_m,
                                 self.stats, self.deadline, self.mbuf, self.sbuf, self.symtab, self.perm, self.inv,
                                 self.sym_n, self.killer)
        self._check()
        return bool(out)

    def move_wins(self, me: int, opp: int, c: int, r: int) -> bool:
        out = self.K.move_wins_within(np.int64(me), np.int64(opp), c, r, 0, self.pats, self.cell_pats, self.mask,
                                      self.first, self.limit, self.ncells, self.tt_a, self.tt_b, self.tt_w,
                                      self.tt_n, self.tt_m, self.stats, self.deadline, self.mbuf, self.sbuf,
                                      self.symtab, self.perm, self.inv, self.sym_n, self.killer)
        self._check()
        return bool(out)

    def moves(self, me: int, opp: int) -> list[int]:
        occ = me | opp
        empty = self.board.mask & ~occ
        if occ == 0:
            empty &= int(self.first)
        return [c for c in range(self.ncells) if empty >> c & 1]

    def loses(self, me: int, opp: int, r: int) -> bool:
        """Every mover move lets the opponent win within r-1 plies (and the mover cannot win first)."""
        if popcount(me | opp) >= self.limit or not self.board.mask & ~(me | opp):
            return False
        for c in self._loss_order(me, opp):
            bit = 1 << c
            if any(p & (me | bit) == p for p in self.board.pattern_masks):
                return False
            if not self.wins(opp, me | bit, r - 1):
                return False
        return True

    def _loss_order(self, me, opp):
        # try first the moves most likely to hold out: blocks of enemy threats
        t = int(self.K.threats(np.int64(opp), np.int64(me), self.pats))
        ms = self.moves(me, opp)
        return sorted(ms, key=lambda c: (not (t >> c & 1),))

    # --- solving -------------------------------------------------------------------------------
    def solve(self, pos: Position, time_limit: float | None = None, max_plies: int | None = None,
              node_limit: int | None = None, method: str = "id") -> SolveResult:
        """Exact value of ``pos`` for the side to move: ``unknown`` if the time or node limit hits first
        or no result is found within ``max_plies``. ``method``: ``id`` iterative deepening (exact
        plies), ``pns`` df-pn (value only, plies None), ``auto`` iterative deepening for up to
        AUTO_ID_NODES nodes, then df-pn for the rest of the time."""
        if method not in ("id", "pns", "auto"):
            raise SolverError(f"unknown method {method!r} (id, pns or auto)")
        if method == "pns":
            return self.solve_pns(pos, time_limit, node_limit)
        if method == "auto":
            t0 = time.perf_counter()
            res = self.solve(pos, time_limit, max_plies, AUTO_ID_NODES if node_limit is None else
                             min(node_limit, AUTO_ID_NODES), "id")
            if res.value != "unknown" or (time_limit is not None and time.perf_counter() - t0 >= time_limit):
                return res
            left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
            out = self.solve_pns(pos, left, node_limit)
            out.nodes += res.nodes
            out.seconds = time.perf_counter() - t0
            out.depth_reached = res.depth_reached
            return out
        t0, me, opp, remaining, over = self._begin(pos, time_limit, node_limit)
        if over is not None:
            return over
        horizon = remaining if max_plies is None else min(remaining, max_plies)
        done = 0
        try:
            for r in range(1, horizon + 1):
                if r % 2 == 1:
                    if self.wins(me, opp, r):
                        return self._result("win", self._win_move(me, opp, r), r, t0)
                elif self.loses(me, opp, r):
                    return self._result("loss", self._delay_move(me, opp, r), r, t0)
                done = r
        except _Timeout:
            res = self._result("unknown", None, None, t0)
            res.depth_reached = done
            return res
        if horizon < remaining:
            res = self._result("unknown", None, None, t0)
            res.depth_reached = done
            return res
        return self._result("draw", self._draw_move(me, opp, remaining), remaining, t0)

    def _begin(self, pos: Position, time_limit, node_limit):
        """Reset counters and deadline for one solve; (t0, me, opp, plies left, result if the
        game is already over, else None)."""
        t0 = time.perf_counter()
        self.stats[:] = 0
        self.stats[1] = node_limit or 0
        self.deadline = t0 + time_limit if time_limit else float("inf")
        b = self.board
        me, opp = pos.sides()
        if any(p & opp == p for p in b.pattern_masks):
            return t0, me, opp, 0, SolveResult("loss", None, 0, 0, time.perf_counter() - t0, b)
        remaining = min(b.limit - popcount(me | opp), popcount(b.mask & ~(me | opp)))
        if remaining <= 0:
            return t0, me, opp, 0, SolveResult("draw", None, 0, 0, time.perf_counter() - t0, b)
        return t0, me, opp, remaining, None

    def _result(self, value, move, plies, t0) -> SolveResult:
        return SolveResult(value, move, plies, int(self.stats[0]), time.perf_counter() - t0, self.board)

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
            bit = 1 << c
            if remaining - 1 <= 0 or not self.wins(opp, me | bit, remaining - 1):
                return c
        raise SolverError("internal error: a proven draw has no drawing move")

    # --- df-pn ---------------------------------------------------------------------------------
    def _pns_tables(self, bits: int | None, start_bits: int = 16):
        """The df-pn table: kept between calls (a proof is read from the search that built it);
        a new one starts at ``2**start_bits`` entries and ``prove`` grows it up to ``2**bits``."""
        if self._pns is None:
            size = 1 << min(start_bits, bits or 23)  # two-way buckets: slots i and i + 1 (i even)
            self._pns = (np.full(size, -1, dtype=np.int64), np.full(size, -1, dtype=np.int64),
                         np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
                         np.zeros(size, dtype=np.int64),
                         np.zeros((64, 64), dtype=np.int32), np.zeros((64, 64), dtype=np.int64),
                         np.zeros((64, 64), dtype=np.int64), np.zeros((64, 64), dtype=np.int64),
                         np.zeros((64, 10), dtype=np.int64))
            self._pns_filled = 0
        return self._pns

    def _grow_pns(self, bits: int) -> None:
        """Rehash the df-pn table into one four times larger (at most ``2**bits`` entries)."""
        old = self._pns
        size = min(old[0].shape[0] * 4, 1 << bits)
        new = (np.full(size, -1, dtype=np.int64), np.full(size, -1, dtype=np.int64), np.zeros(size, dtype=np.int64),
               np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64))
        self.K.dfpn_rehash(*old[:5], *new)
        self._pns = new + old[5:]

    def _vcf_tables(self):
        if self._vcf is None:
            self._vcf = (np.full(1 << 20, -1, dtype=np.int64), np.full(1 << 20, -1, dtype=np.int64),
                         np.zeros(2, dtype=np.int64))
        if self._vcf_stack is None:
            self._vcf_stack = (np.zeros(64, dtype=np.int64), np.zeros(64, dtype=np.int64),
                               np.zeros(64, dtype=np.int64), np.zeros(128, dtype=np.int64))
        return self._vcf + self._vcf_stack

    def prove(self, att: int, dfd: int, attacker_to_move: bool, oracle_plies: int = 3, pns_bits: int = 23,
              eps16: int = 4, order: int = 2, vcf_nodes: int = 20_000, inner: bool = True) -> bool:
        """df-pn: True when the attacker can force a win (no depth bound), False when it cannot
        (the defender wins or draws); raises _Timeout past the deadline or node limit.
        ``oracle_plies``: bound of the exact tactical search run at every expanded node (3: answered
        inside the kernel unless ``inner`` is False). The table starts small and grows up to ``2**pns_bits`` entries."""
        P = self.K

        self._pns_tables(pns_bits)
        # a key holds the attacker's and the defender's counters: with equal counts it reads "X to
        # move" whichever colour attacks, so a table filled for one attacking colour is cleared
        # before searching for the other
        na, nd = popcount(att), popcount(dfd)
        colour = "X" if na > nd or (na == nd and attacker_to_move) else "O"
        if self._pns_colour not in (None, colour):
            self._pns[0][:] = -1
            self._pns[1][:] = -1
            self._pns_filled = 0
        self._pns_colour = colour
        maxb = 23 if pns_bits is None else pns_bits
        va, vb, vs, fme, fop, fcand, line = self._vcf_tables()
        inner = 1 if inner and oracle_plies == 3 else 0
        io = np.zeros(8, dtype=np.int64)
        fr = self._pns[9]
        P.dfpn_start(np.int64(att), np.int64(dfd), attacker_to_move, fr, io)
        while True:
            size = self._pns[0].shape[0]
            if self._pns_filled > size // 2 and size < 1 << maxb:
                self._grow_pns(maxb)
            pk_a, pk_b, p_pn, p_dn, p_w, cb, cpn, cdn, osc, fr = self._pns
            before = int(self.stats[3])
            code = P.dfpn_run(oracle_plies, eps16, before + 20_000, self.pats, self.cell_pats, self.mask,
                              self.first, self.limit, self.ncells, pk_a, pk_b, p_pn, p_dn, p_w, cb, cpn, cdn, osc,
                              fr, io, self.stats, self.sym_n, self.symtab, order, inner, vcf_nodes, va, vb, vs,
                              fme, fop, fcand, line)
            self._pns_filled += int(self.stats[3]) - before
            if code == 0:
                pn, dn = int(io[2]), int(io[3])
                if pn == 0:
                    return True
                if dn == 0:
                    return False
                raise SolverError("internal error: df-pn stopped with an open root")
            if code == 1:  # the tactical oracles, called from Python (see dfpn_run)
                a, d = int(io[5]), int(io[6])
                if io[4]:  # attacker to move: a win by continuous threats or within the bound
                    io[7] = 1 if (vcf_nodes and self.vcf(a, d, vcf_nodes)) or self.wins(a, d, oracle_plies) else 0
                else:
                    io[7] = self._null_move_zone(a, d, oracle_plies, vcf_nodes)
            elif time.perf_counter() > self.deadline or (self.stats[1] and self.stats[0] > self.stats[1]):
                raise _Timeout()
            if self.progress is not None:
                self.progress(self)

    def _null_move_zone(self, att: int, dfd: int, plies: int, vcf_nodes: int) -> int:
        """Defender to move: the cells where its reply can matter. If the attacker wins within
        ``plies`` after a pass, replies outside the patterns either side can complete in that time
        act as a pass; if it wins by continuous threats after a pass, replies outside that line's
        zone (``vcf_zone``) leave the line winning. Otherwise every empty cell."""
        K = self.K
        occ = att | dfd
        empty = self.board.mask & ~occ
        n = popcount(occ)
        if n + plies + 1 <= self.limit and self.wins(att, dfd, plies):
            k = (plies + 1) // 2
            return int(K.live_cells(np.int64(att), np.int64(dfd), np.int64(empty), k, self.pats)
                       | K.live_cells(np.int64(dfd), np.int64(att), np.int64(empty), k, self.pats))
        if vcf_nodes:
            if self._line is None:
                self._line = (np.zeros(128, dtype=np.int64), np.zeros(2, dtype=np.int64))
            line, vs = self._line
            vs[0] = 0
            vs[1] = vcf_nodes
            k = int(K.vcf_line(np.int64(att), np.int64(dfd), self.pats, self.mask, self.limit, self.ncells, line, 0, vs))
            self.stats[0] += vs[0]
            if k and n + 2 * k + 3 <= self.limit:
                return int(K.vcf_zone(np.int64(att), np.int64(dfd), line, k, self.pats)) & empty
        return empty

    def _vcf_first_move(self, me: int, opp: int, max_nodes: int) -> int:
        """First move of a continuous-threat win of the mover, or -1."""
        if self._line is None:
            self._line = (np.zeros(128, dtype=np.int64), np.zeros(2, dtype=np.int64))
        line, vs = self._line
        vs[0] = 0
        vs[1] = max_nodes
        k = int(self.K.vcf_line(np.int64(me), np.int64(opp), self.pats, self.mask, self.limit, self.ncells, line, 0, vs))
        return int(line[0]) if k else -1

    def vcf(self, me: int, opp: int, max_nodes: int = 20_000) -> bool:
        """Mover wins by continuous threats (any depth; False also when ``max_nodes`` runs out)."""
        va, vb, vs = self._vcf_tables()[:3]
        vs[0] = 0
        vs[1] = max_nodes
        ok = self.K.vcf(np.int64(me), np.int64(opp), self.pats, self.mask, self.limit, self.ncells, va, vb, vs)
        self.stats[0] += vs[0]
        return bool(ok) and vs[0] <= max_nodes

    def pns_status(self, att: int, dfd: int) -> int:
        """1 proven, 2 disproven, 0 unknown, from the df-pn table."""
        P = self.K

        if self._pns is None:
            return 0
        pk_a, pk_b, p_pn, p_dn = self._pns[:4]
        pn, dn = P.node_value(np.int64(att), np.int64(dfd), pk_a, pk_b, p_pn, p_dn, self.sym_n, self.symtab)
        return 1 if pn == 0 else 2 if dn == 0 else 0

    def solve_pns(self, pos: Position, time_limit: float | None = None, node_limit: int | None = None,
                  oracle_plies: int = 3, pns_bits: int = 23, **kw) -> SolveResult:
        """Exact value by df-pn: first "can the mover force a win?", then (if not) "can the
        opponent?"; neither means a draw. ``plies`` is left None (df-pn does not minimise length)."""
        t0, me, opp, _, over = self._begin(pos, time_limit, node_limit)
        if over is not None:
            return over
        try:
            if self.prove(me, opp, True, oracle_plies, pns_bits, **kw):
                return self._pns_result("win", self._pns_win_move(me, opp, oracle_plies, pns_bits, **kw), t0)
            if self.prove(opp, me, False, oracle_plies, pns_bits, **kw):
                return self._pns_result("loss", None, t0)
            return self._pns_result("draw", None, t0)
        except _Timeout:
            return self._pns_result("unknown", None, t0)

    def _pns_result(self, value, move, t0) -> SolveResult:
        res = SolveResult(value, move, None, int(self.stats[0] + self.stats[3]), time.perf_counter() - t0, self.board)
        return res

    def _pns_win_move(self, me, opp, oracle_plies, pns_bits, **kw) -> int:
        moves = self.moves(me, opp)
        w = int(self.K.threats(np.int64(me), np.int64(opp), self.pats))
        if w:
            return (w & -w).bit_length() - 1
        t = int(self.K.threats(np.int64(opp), np.int64(me), self.pats))
        if t:
            moves = [c for c in moves if t >> c & 1]
        for c in moves:  # the table usually still holds the proven child
            if self.pns_status(me | 1 << c, opp) == 1:
                return c
        for c in moves:
            if any(p & (me | 1 << c) == p for p in self.board.pattern_masks):
                return c
            if self.prove(me | 1 << c, opp, False, oracle_plies, pns_bits, **kw):
                return c
        raise SolverError("internal error: a proven win has no winning move")

    # --- proofs --------------------------------------------------------------------------------
    def proof_tree(self, me: int, opp: int, r: int, max_nodes: int = 2_000_000):
        """Attacker node for a proven win within r: ``[move]`` if it wins at once, else
        ``[move, [[reply, node], ...]]`` listing every legal reply."""
        counter = [0]

        def attack(me, opp, r):
            counter[0] += 1
            if counter[0] > max_nodes:
                raise SolverError(f"proof larger than {max_nodes} nodes")
            t = int(self.K.threats(np.int64(me), np.int64(opp), self.pats))
            if t:
                return [(t & -t).bit_length() - 1]
            for c in self._proof_order(me, opp):
                if self.move_wins(me, opp, c, r):
                    return [c, defend(me | 1 << c, opp, r - 1)]
            raise SolverError("internal error: proof search lost the win")

        def defend(me, opp, r):
            out = []
            empty = self.board.mask & ~(me | opp)
            for y in range(self.ncells):
                if empty >> y & 1:
                    out.append([y, attack(me, opp | 1 << y, r - 1)])
            return out

        tree = attack(me, opp, r)
        return tree, counter[0]

    def pns_proof_tree(self, me: int, opp: int, max_nodes: int = 2_000_000, oracle_plies: int = 3,
                       pns_bits: int | None = None, **kw):
        """Proof tree (format of ``proof_tree``) for a win of the mover proven by df-pn, built from
        the continuous-threat search, the bounded search and the df-pn table (re-proving any
        subtree the table lost). Returns (tree, nodes, depth in plies)."""
        counter = [0]
        pats = self.board.pattern_masks
        K = self.K
        vcf_nodes = kw.get("vcf_nodes", 20_000)

        def thr(a, b):
            return int(K.threats(np.int64(a), np.int64(b), self.pats))

        def attack(me, opp):
            counter[0] += 1
            if counter[0] > max_nodes:
                raise SolverError(f"proof larger than {max_nodes} nodes")
            t = thr(me, opp)
            if t:
                return [(t & -t).bit_length() - 1], 1
            ot = thr(opp, me)
            moves = [c for c in self.moves(me, opp) if not ot or ot >> c & 1]
            for r in range(3, oracle_plies + 1, 2):  # the bounded search, shortest bound first
                if self.wins(me, opp, r):
                    sub, _ = self.proof_tree(me, opp, r, max_nodes)
                    return sub, _tree_depth(sub)
            c = self._vcf_first_move(me, opp, vcf_nodes)  # continuous threats
            if c >= 0:
                return after(me, opp, c)
            for c in moves:  # the df-pn table
                if self.pns_status(me | 1 << c, opp) == 1:
                    return after(me, opp, c)
            # the table lost this subtree: re-prove the node itself (df-pn goes for the most
            # promising move, where re-proving each child in turn could first have to disprove
            # losing moves), then read the proven child from the table
            if self.prove(me, opp, True, oracle_plies, pns_bits, **kw):
                for c in moves:
                    if self.pns_status(me | 1 << c, opp) == 1:
                        return after(me, opp, c)
            for c in moves:
                if not any(p & (me | 1 << c) == p for p in pats) and self.prove(
                        me | 1 << c, opp, False, oracle_plies, pns_bits, **kw):
                    return after(me, opp, c)
            raise SolverError(f"internal error: proof extraction lost the win at me={me} opp={opp}")

        def after(me, opp, c):
            me2 = me | 1 << c
            if any(p & me2 == p for p in pats):
                return [c], 1
            out, depth = [], 0
            empty = self.board.mask & ~(me2 | opp)
            for y in range(self.ncells):
                if empty >> y & 1:
                    sub, d = attack(me2, opp | 1 << y)
                    out.append([y, sub])
                    depth = max(depth, d)
            return [c, out], depth + 2

        self.deadline = float("inf")
        self.stats[1] = 0
        tree, depth = attack(me, opp)
        return tree, counter[0], depth

    def pns_hold_tree(self, att: int, dfd: int, attacker_to_move: bool, max_nodes: int = 5_000_000,
                      oracle_plies: int = 3, pns_bits: int | None = None, **kw):
        """Strategy for the defender showing that the attacker cannot force a win (df-pn disproved
        it): attacker nodes ``[[move, node], ...]`` list every legal move, defender nodes are
        ``[move]`` (the move completes a pattern) or ``[move, node]``, and a finished game (board
        full or counter limit) is ``[]`` at an attacker node, ``None`` at a defender node.
        Returns (tree, attacker nodes, plies of the longest line)."""
        K = self.K
        pats = self.board.pattern_masks
        counter = [0]
        self.deadline = float("inf")
        self.stats[1] = 0

        def thr(a, b):
            return int(K.threats(np.int64(a), np.int64(b), self.pats))

        def over(a, b):
            return popcount(a | b) >= self.limit or not self.board.mask & ~(a | b)

        def att_node(a, d):
            if over(a, d):
                return [], 0
            counter[0] += 1
            if counter[0] > max_nodes:
                raise SolverError(f"strategy larger than {max_nodes} nodes")
            out, depth = [], 0
            # attacker moves ordered as the table saw them (forced blocks first)
            for c in self._attacker_moves(a, d):
                a2 = a | 1 << c
                if any(p & a2 == p for p in pats):
                    raise SolverError("internal error: the attacker wins in a disproven position")
                sub, dd = def_node(a2, d)
                out.append([c, sub])
                depth = max(depth, dd + 1)
            return out, depth

        def def_node(a, d):
            if over(a, d):
                return None, 0
            t = thr(d, a)
            if t:
                return [(t & -t).bit_length() - 1], 1
            at = thr(a, d)
            moves = self.moves(d, a)
            if at:
                moves = [c for c in moves if at >> c & 1]
            # a reply decided at once or one the table disproves; else re-disprove the node itself
            # (df-pn leaves the disproven reply in the table), then try the replies in turn
            for c in moves:
                if int(K.quick_status(np.int64(a), np.int64(d | 1 << c), True, self.pats, self.mask,
                                      self.limit)) == 2:
                    sub, dd = att_node(a, d | 1 << c)
                    return [c, sub], dd + 1
            for rep in range(2):
                for c in moves:
                    if self.pns_status(a, d | 1 << c) == 2:
                        sub, dd = att_node(a, d | 1 << c)
                        return [c, sub], dd + 1
                if rep == 0 and self.prove(a, d, False, oracle_plies, pns_bits, **kw):
                    raise SolverError("internal error: a disproven position is proven")
            for c in moves:
                if not self.prove(a, d | 1 << c, True, oracle_plies, pns_bits, **kw):
                    sub, dd = att_node(a, d | 1 << c)
                    return [c, sub], dd + 1
            raise SolverError(f"internal error: strategy extraction lost the hold at att={a} dfd={d}")

        if attacker_to_move:
            tree, depth = att_node(att, dfd)
        else:
            tree, depth = def_node(att, dfd)
        return tree, counter[0], depth

    def _attacker_moves(self, a, d):
        occ = a | d
        empty = self.board.mask & ~occ
        if occ == 0:
            empty &= int(self.first)
        t = int(self.K.threats(np.int64(d), np.int64(a), self.pats))
        cells = [c for c in range(self.ncells) if empty >> c & 1]
        return sorted(cells, key=lambda c: not (t >> c & 1))

    def _proof_order(self, me, opp):
        ms = self.moves(me, opp)
        t = int(self.K.threats(np.int64(opp), np.int64(me), self.pats))
        if t:
            return [c for c in ms if t >> c & 1]
        return sorted(ms, key=lambda c: -popcount(int(self.K.threats(np.int64(me | 1 << c), np.int64(opp), self.pats))))


class _Timeout(Exception):
    pass


def _tree_depth(node) -> int:
    """Plies of the longest line in an attacker node of a proof tree."""
    if len(node) == 1:
        return 1
    return 2 + max((_tree_depth(sub) for _, sub in node[1]), default=0)


def solve_position(pos: Position, time_limit: float | None = None, tt_bits: int = 22) -> SolveResult:
    """Solve one position with a fresh solver (see ``QangoSolver.solve``)."""
    return QangoSolver(pos.board, pos.allowed_first, tt_bits).solve(pos, time_limit)


def move_values(pos: Position, time_limit_per_move: float | None = None, solver: QangoSolver | None = None) -> list[dict]:
    """Every legal move with its exact value for the mover (win/draw/loss/unknown) and plies, the
    move included; wins first (shortest), then draws, then losses (longest)."""
    solver = solver or QangoSolver(pos.board, pos.allowed_first)
    flip = {"win": "loss", "loss": "win", "draw": "draw", "unknown": "unknown"}
    out = []
    for c in pos.legal_moves():
        child = pos.play(c)
        if child.winner() is not None:
            value, plies = "win", 1
        else:
            res = solver.solve(child, time_limit=time_limit_per_move)
            value, plies = flip[res.value], None if res.plies is None else res.plies + 1
        out.append({"move": list(pos.board.rc(c)), "cell": c, "value": value, "plies": plies})
    rank = {"win": 0, "draw": 1, "unknown": 2, "loss": 3}
    out.sort(key=lambda d: (rank[d["value"]], (d["plies"] or 0) * (1 if d["value"] == "win" else -1), d["cell"]))
    return out


def make_proof(pos: Position, result: SolveResult | None = None, solver: QangoSolver | None = None,
               max_nodes: int = 2_000_000) -> dict:
    """A proof document for a won or lost position (see ``games/qango/proof.py`` for the format)."""
    solver = solver or QangoSolver(pos.board, pos.allowed_first)
    result = result or solver.solve(pos)
    me, opp = pos.sides()
    doc = {
        "format": "tanglekit-qango-proof",
        "version": 1,
        "board": pos.board.to_json(),
        "allowed_first": None if pos.allowed_first is None else sorted(pos.allowed_first),
        "position": pos.to_text(),
        "claim": result.value,
        "plies": result.plies,
    }
    solver.deadline = float("inf")
    solver.stats[:] = 0
    if result.value == "draw":
        return make_draw_proof(pos, solver, max_nodes=max_nodes)
    if result.value == "win" and result.plies is None:  # df-pn: the tree's longest line is the bound
        doc["tree"], doc["nodes"], doc["plies"] = solver.pns_proof_tree(me, opp, max_nodes)
    elif result.value == "win":
        doc["tree"], doc["nodes"] = solver.proof_tree(me, opp, result.plies, max_nodes)
    elif result.value == "loss":
        if result.plies == 0:
            doc["tree"], doc["nodes"] = [], 0
        else:
            replies, total, depth = [], 0, 0
            for c in solver.moves(me, opp):
                if result.plies is None:
                    sub, k, d = solver.pns_proof_tree(opp, me | 1 << c, max_nodes)
                    depth = max(depth, d + 1)
                else:
                    sub, k = solver.proof_tree(opp, me | 1 << c, result.plies - 1, max_nodes)
                replies.append([c, sub])
                total += k
            doc["tree"], doc["nodes"] = replies, total
            if result.plies is None:
                doc["plies"] = depth
    else:
        raise SolverError(f"only won or lost positions have proofs (this one is {result.value})")
    return doc


def make_hold_proof(pos: Position, side: str, solver: QangoSolver | None = None, time_limit: float | None = None,
                    max_nodes: int = 5_000_000) -> dict | None:
    """A "no-win" certificate: ``side`` ("X" or "O") cannot force a win from ``pos`` (a strategy of
    the other side, see ``games/qango/proof.py``), or None when df-pn does not disprove the win in
    time or the side can win."""
    solver = solver or QangoSolver(pos.board, pos.allowed_first)
    t0, me, opp, _, over = solver._begin(pos, time_limit, None)
    att, dfd = (me, opp) if pos.to_move == side else (opp, me)
    atm = pos.to_move == side
    if over is None:
        try:
            if solver.prove(att, dfd, atm):
                return None
        except _Timeout:
            return None
    tree, nodes, depth = solver.pns_hold_tree(att, dfd, atm, max_nodes)
    return {
        "format": "tanglekit-qango-proof",
        "version": 2,
        "board": pos.board.to_json(),
        "allowed_first": None if pos.allowed_first is None else sorted(pos.allowed_first),
        "position": pos.to_text(),
        "claim": "no-win",
        "side": side,
        "plies": depth,
        "nodes": nodes,
        "tree": tree,
    }


def make_draw_proof(pos: Position, solver: QangoSolver | None = None, max_nodes: int = 5_000_000) -> dict:
    """A draw certificate: a "no-win" strategy tree for each side (see ``games/qango/proof.py``)."""
    solver = solver or QangoSolver(pos.board, pos.allowed_first)
    trees, nodes, plies = {}, 0, 0
    for side in ("X", "O"):
        doc = make_hold_proof(pos, side, solver, max_nodes=max_nodes)
        if doc is None:
            raise SolverError(f"no draw: {side} can force a win or df-pn did not disprove it")
        trees[side] = doc["tree"]
        nodes += doc["nodes"]
        plies = max(plies, doc["plies"])
    return {"format": "tanglekit-qango-proof", "version": 2, "board": pos.board.to_json(),
            "allowed_first": None if pos.allowed_first is None else sorted(pos.allowed_first),
            "position": pos.to_text(), "claim": "draw", "plies": plies, "nodes": nodes, "trees": trees}
