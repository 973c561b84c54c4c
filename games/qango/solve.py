"""QANGO solver front end: exact value, best move, plies to the end and proof trees for a position.

Iterative deepening over the numba kernel ``wins_within``: the first r with "mover wins within r"
(odd r) or "every move lets the opponent win within r-1" (even r) gives the exact distance with the
winner taking the shortest and the loser the longest line; if neither holds up to the end of the
game the position is a draw. A time limit makes the answer "unknown", never a guess.
"""

from __future__ import annotations

import time

import numpy as np

from ...errors import SolverError
from ...pools import PoolTimeout, WorkerPool
from .board import Board
from .position import Position, has_win, popcount
from .proof import canonical
from .small import TT_START_BITS, MoveChoice, SolveResult, _Timeout

AUTO_ID_NODES = 20_000_000  # iterative-deepening budget of method "auto" before df-pn takes over


class QangoSolver(MoveChoice):
    """Holds the kernel arrays (patterns, transposition table) for one board and opening."""

    def __init__(self, board: Board, allowed_first=None, tt_bits: int = 22, use_symmetry: bool = True,
                 sym_counters: int = 12):
        from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)
        from . import kernels as K  # numba: imported lazily

        self.K = K
        self.board = board
        self.pats = np.array(board.pattern_masks, dtype=np.int64)
        per_cell = [[k for k, p in enumerate(board.patterns) if c in p] for c in range(board.n_cells)]
        width = max(1, max(len(v) for v in per_cell))
        cell_pats = np.full((board.n_cells, width), -1, dtype=np.int32)
        for c, v in enumerate(per_cell):
            cell_pats[c, : len(v)] = v
        self.mask = np.int64(board.mask)
        cells = board.cells if allowed_first is None else allowed_first
        self._allowed_first = allowed_first
        self.first = np.int64(sum(1 << c for c in cells))
        self.limit = board.limit
        self.ncells = board.n_cells
        self.tt_bits = tt_bits  # the bounded-search table's largest size (log2)
        self.table_bits = min(tt_bits, TT_START_BITS)  # its size now: grown by MoveChoice._deepen
        perms = board.symmetries if use_symmetry else board.symmetries[:1]
        symtab, perm, inv = K.symmetry_tables(perms, board.n_cells)
        self.sym_n = sym_counters
        self.B = kernel_bundle(K.QBoard, pats=self.pats, cell_pats=cell_pats, symtab=symtab, perm=perm, inv=inv,
                               board=board.mask, first=int(self.first), limit=board.limit, ncells=board.n_cells,
                               sym_n=sym_counters)
        self._tt = None  # bounded-search table, allocated on first use (df-pn alone does not need it)
        self.work = kernel_bundle(K.IdWork, shapes={"mbuf": (K.MAX_LEVELS, 64), "sbuf": (K.MAX_LEVELS, 64)},
                                  killer=np.full(K.MAX_LEVELS, -1))
        self.stats = np.zeros(4, dtype=np.int64)  # ST_NODES, ST_NODE_LIMIT, ST_ABORTED, ST_EXPANSIONS
        self.deadline = float("inf")
        self._pns = None  # df-pn table (DfpnTable), allocated on first use
        self._pns_stack = None  # df-pn explicit stack (DfpnStack)
        self._pns_colour = None  # colour of the attacker the df-pn table was filled for
        self._vcf = None  # continuous-threat work space (VcfWork)
        self.progress = None  # called with the solver between df-pn slices (long runs log here)
        self._hold = None  # work space of the defender-holds test (pairing + potential)
        self.hold_budget = 64  # pair tries per df-pn node for that test (0: off)
        self.prune = True  # df-pn leaves out dead cells and stops when the attacker is out of time

    def allowed_first_cells(self):
        """The opening's cells allowed for the first counter (None: any)."""
        return self._allowed_first

    # --- kernel calls --------------------------------------------------------------------------
    def _tables(self):
        if self._tt is None:
            from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)

            size = 1 << self.table_bits
            self._tt = kernel_bundle(self.K.IdTable, tt_a=np.full(size, -1), tt_b=np.full(size, -1),
                                     tt_w=np.full(size, self.K.NO_WIN), shapes={"tt_n": size}, tt_m=np.full(size, -1))
        return self._tt

    def _nodes_so_far(self) -> int:
        return int(self.stats[self.K.ST_NODES])

    def _resize_table(self, bits: int) -> None:
        self.table_bits = bits
        self._tt = None  # allocated empty at the new size on next use

    tt_a = property(lambda self: self._tables().tt_a)
    tt_w = property(lambda self: self._tables().tt_w)

    def _check(self):
        if self.stats[self.K.ST_ABORTED]:
            raise _Timeout()

    def wins(self, me: int, opp: int, r: int) -> bool:
        """Mover wins within r plies (exact; raises _Timeout when the time budget runs out)."""
        out = self.K.wins_within(np.int64(me), np.int64(opp), r, 0, self.B, self._tables(), self.work, self.stats,
                                 self.deadline)
        self._check()
        return bool(out)

    def move_wins(self, me: int, opp: int, c: int, r: int) -> bool:
        out = self.K.move_wins_within(np.int64(me), np.int64(opp), c, r, 0, self.B, self._tables(), self.work,
                                      self.stats, self.deadline)
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
              node_limit: int | None = None, method: str = "id", workers: int = 1) -> SolveResult:
        """Exact value of ``pos`` for the side to move: ``unknown`` if the time or node limit hits first
        or no result is found within ``max_plies``. ``method``: ``id`` iterative deepening (exact
        plies), ``pns`` df-pn (value only, plies None), ``auto`` iterative deepening for up to
        AUTO_ID_NODES nodes, then df-pn for the rest of the time, ``shortest`` df-pn for the value,
        then the exact plies of a win or loss by df-pn on boards drawn after r more counters."""
        if method not in ("id", "pns", "auto", "shortest"):
            raise SolverError(f"unknown method {method!r} (id, pns, auto or shortest)")
        if method == "pns":
            return self.solve_pns(pos, time_limit, node_limit, workers=workers)
        if method == "shortest":
            t0 = time.perf_counter()
            res = self.solve_pns(pos, time_limit, node_limit, workers=workers)
            if res.value in ("win", "loss"):
                side = pos.to_move if res.value == "win" else ("O" if pos.to_move == "X" else "X")
                left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t0))
                res.plies, nodes = shortest_win(pos, side, time_limit=left)
                res.nodes += nodes
                if res.plies is None:
                    res.value, res.best_move = "unknown", None
                elif res.value == "win":
                    res.best_move = self._shortest_move(pos, res.plies)
                res.seconds = time.perf_counter() - t0
            return res
        if method == "auto":
            t0 = time.perf_counter()
            res = self.solve(pos, time_limit, max_plies, AUTO_ID_NODES if node_limit is None else
                             min(node_limit, AUTO_ID_NODES), "id")
            if res.value != "unknown" or (time_limit is not None and time.perf_counter() - t0 >= time_limit):
                return res
            left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
            out = self.solve_pns(pos, left, node_limit, workers=workers)
            out.nodes += res.nodes
            out.seconds = time.perf_counter() - t0
            out.depth_reached = res.depth_reached
            return out
        t0, me, opp, remaining, over = self._begin(pos, time_limit, node_limit)
        if over is not None:
            return over
        horizon = remaining if max_plies is None else min(remaining, max_plies)
        return self._deepen(me, opp, remaining, horizon, t0)

    def _begin(self, pos: Position, time_limit, node_limit):
        """Reset counters and deadline for one solve; (t0, me, opp, plies left, result if the
        game is already over, else None)."""
        t0 = time.perf_counter()
        self.stats[:] = 0
        self.stats[self.K.ST_NODE_LIMIT] = node_limit or 0
        self.deadline = t0 + time_limit if time_limit else float("inf")
        b = self.board
        me, opp = pos.sides()
        if any(p & opp == p for p in b.pattern_masks):
            return t0, me, opp, 0, SolveResult("loss", None, 0, 0, time.perf_counter() - t0, b)
        remaining = min(b.limit - popcount(me | opp), popcount(b.mask & ~(me | opp)))
        if remaining <= 0:
            return t0, me, opp, 0, SolveResult("draw", None, 0, 0, time.perf_counter() - t0, b)
        return t0, me, opp, remaining, None

    def _unlimited(self) -> None:
        """No deadline or node limit for choosing the move of a position already solved: the value is
        known and the choice reads mostly the transposition table (a limit must not lose the value)."""
        self.deadline = float("inf")
        self.stats[self.K.ST_NODE_LIMIT] = 0

    def _result(self, value, move, plies, t0) -> SolveResult:
        return SolveResult(value, move, plies, int(self.stats[self.K.ST_NODES]), time.perf_counter() - t0, self.board)

    # --- df-pn ---------------------------------------------------------------------------------
    def _pns_tables(self, bits: int | None, start_bits: int = 16):
        """The df-pn table: kept between calls (a proof is read from the search that built it);
        a new one starts at ``2**start_bits`` entries and ``prove`` grows it up to ``2**bits``."""
        if self._pns is None:
            from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)

            K = self.K
            size = 1 << min(start_bits, bits or 23)  # two-way buckets: slots i and i + 1 (i even)
            self._pns = kernel_bundle(K.DfpnTable, pk_a=np.full(size, -1), pk_b=np.full(size, -1),
                                      shapes={"p_pn": size, "p_dn": size, "p_w": size})
            self._pns_stack = kernel_bundle(K.DfpnStack, shapes={"cb": (K.MAXD, 64), "cpn": (K.MAXD, 64),
                                            "cdn": (K.MAXD, 64), "osc": (K.MAXD, 64), "fr": (K.MAXD, 10),
                                            "io": 8})
            self._pns_filled = 0
        return self._pns

    def _grow_pns(self, bits: int) -> None:
        """Rehash the df-pn table into one four times larger (at most ``2**bits`` entries)."""
        from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)

        old = self._pns
        size = min(old.pk_a.shape[0] * 4, 1 << bits)
        new = kernel_bundle(self.K.DfpnTable, pk_a=np.full(size, -1), pk_b=np.full(size, -1),
                            shapes={"p_pn": size, "p_dn": size, "p_w": size})
        self.K.dfpn_rehash(old, new)
        self._pns = new

    def _hold_work(self):
        if self._hold is None:
            from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)

            K = self.K
            self._hold = kernel_bundle(K.HoldWork, shapes={"rem": len(self.pats), "stk": (K.HOLD_MAXP + 1, 11),
                                                           "pairs": K.HOLD_MAXP})
        return self._hold

    def _vcf_tables(self):
        if self._vcf is None:
            from ...kernelargs import kernel_bundle  # loads numpy (only when this runs)

            self._vcf = kernel_bundle(self.K.VcfWork, vt_a=np.full(1 << 20, -1), vt_b=np.full(1 << 20, -1),
                                      shapes={"vs": 2, "fme": 64, "fop": 64, "fcand": 64, "line": 128})
        return self._vcf

    def prove(self, att: int, dfd: int, attacker_to_move: bool, oracle_plies: int = 3, pns_bits: int = 23,
              eps16: int = 4, order: int = 2, vcf_nodes: int = 20_000, inner: bool = True) -> bool:
        """df-pn: True when the attacker can force a win (no depth bound), False when it cannot
        (the defender wins or draws); raises _Timeout past the deadline or node limit.
        ``oracle_plies``: bound of the exact tactical search run at every expanded node (3: answered
        inside the kernel unless ``inner`` is False). The table starts small and grows up to ``2**pns_bits`` entries."""
        K = self.K

        self._pns_tables(pns_bits)
        # a key holds the attacker's and the defender's counters: with equal counts it reads "X to
        # move" whichever colour attacks, so a table filled for one attacking colour is cleared
        # before searching for the other
        na, nd = popcount(att), popcount(dfd)
        colour = "X" if na > nd or (na == nd and attacker_to_move) else "O"
        if self._pns_colour not in (None, colour):
            self._pns.pk_a[:] = -1
            self._pns.pk_b[:] = -1
            self._pns_filled = 0
        self._pns_colour = colour
        maxb = 23 if pns_bits is None else pns_bits
        V, H, S = self._vcf_tables(), self._hold_work(), self._pns_stack
        io = S.io
        prm = np.zeros(K.N_PRM, dtype=np.int64)
        prm[K.PRM_R] = oracle_plies
        prm[K.PRM_EPS] = eps16
        prm[K.PRM_ORDER] = order
        prm[K.PRM_INNER] = 1 if inner and oracle_plies == 3 else 0
        prm[K.PRM_VCF_NODES] = vcf_nodes
        prm[K.PRM_HOLD] = self.hold_budget
        prm[K.PRM_PRUNE] = 1 if self.prune else 0
        K.dfpn_start(np.int64(att), np.int64(dfd), attacker_to_move, S.fr, io)
        while True:
            size = self._pns.pk_a.shape[0]
            if self._pns_filled > size // 2 and size < 1 << maxb:
                self._grow_pns(maxb)
            before = int(self.stats[K.ST_EXPANSIONS])
            prm[K.PRM_BUDGET] = before + 20_000
            code = K.dfpn_run(prm, self.B, self._pns, S, V, H, self.stats)
            self._pns_filled += int(self.stats[K.ST_EXPANSIONS]) - before
            if code == 0:
                pn, dn = int(io[K.IO_PN]), int(io[K.IO_DN])
                if pn == 0:
                    return True
                if dn == 0:
                    return False
                raise SolverError("internal error: df-pn stopped with an open root")
            if code == 1:  # the tactical oracles, called from Python (see dfpn_run)
                a, d = int(io[K.IO_ATT]), int(io[K.IO_DFD])
                if io[K.IO_ATM]:  # attacker to move: a win by continuous threats or within the bound
                    io[K.IO_ANSWER] = 1 if (vcf_nodes and self.vcf(a, d, vcf_nodes)) or self.wins(a, d, oracle_plies) else 0
                else:
                    io[K.IO_ANSWER] = self._null_move_zone(a, d, oracle_plies, vcf_nodes)
            elif time.perf_counter() > self.deadline or (self.stats[K.ST_NODE_LIMIT]
                                                         and self.stats[K.ST_NODES] > self.stats[K.ST_NODE_LIMIT]):
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
            V = self._vcf_tables()
            line, vs = V.line, V.vs
            vs[0] = 0
            vs[1] = vcf_nodes
            k = int(K.vcf_line(np.int64(att), np.int64(dfd), self.pats, self.mask, self.limit, self.ncells, line, 0, vs))
            self.stats[self.K.ST_NODES] += vs[0]
            if k and n + 2 * k + 3 <= self.limit:
                return int(K.vcf_zone(np.int64(att), np.int64(dfd), line, k, self.pats)) & empty
        return empty

    def _vcf_first_move(self, me: int, opp: int, max_nodes: int) -> int:
        """First move of a continuous-threat win of the mover, or -1."""
        V = self._vcf_tables()
        line, vs = V.line, V.vs
        vs[0] = 0
        vs[1] = max_nodes
        k = int(self.K.vcf_line(np.int64(me), np.int64(opp), self.pats, self.mask, self.limit, self.ncells, line, 0, vs))
        return int(line[0]) if k else -1

    def vcf(self, me: int, opp: int, max_nodes: int = 20_000) -> bool:
        """Mover wins by continuous threats (any depth; False also when ``max_nodes`` runs out)."""
        V = self._vcf_tables()
        va, vb, vs = V.vt_a, V.vt_b, V.vs
        vs[0] = 0
        vs[1] = max_nodes
        ok = self.K.vcf(np.int64(me), np.int64(opp), self.pats, self.mask, self.limit, self.ncells, va, vb, vs)
        self.stats[self.K.ST_NODES] += vs[0]
        return bool(ok) and vs[0] <= max_nodes

    def pns_status(self, att: int, dfd: int) -> int:
        """1 proven, 2 disproven, 0 unknown, from the df-pn table."""
        P = self.K

        if self._pns is None:
            return 0
        pn, dn = P.node_value(np.int64(att), np.int64(dfd), self._pns, self.B)
        return 1 if pn == 0 else 2 if dn == 0 else 0

    def solve_pns(self, pos: Position, time_limit: float | None = None, node_limit: int | None = None,
                  oracle_plies: int = 3, pns_bits: int = 23, workers: int = 1, **kw) -> SolveResult:
        """Exact value by df-pn: first "can the mover force a win?", then (if not) "can the
        opponent?"; neither means a draw. ``plies`` is left None (df-pn does not minimise length)."""
        t0, me, opp, _, over = self._begin(pos, time_limit, node_limit)
        if over is not None:
            return over
        def prove(a, d, atm):
            if workers > 1:  # the root shared out over forked processes (long searches)
                return self.prove_split(a, d, atm, workers)
            return self.prove(a, d, atm, oracle_plies, pns_bits, **kw)

        try:
            if prove(me, opp, True):
                return self._pns_result("win", self._pns_win_move(me, opp, oracle_plies, pns_bits, **kw), t0)
            if prove(opp, me, False):
                return self._pns_result("loss", None, t0)
        except _Timeout:
            return self._pns_result("unknown", None, t0)
        try:
            move = self._pns_draw_move(me, opp, oracle_plies, pns_bits, **kw)
        except _Timeout:  # the value is known; the time ran out while picking the move
            move = None
        return self._pns_result("draw", move, t0)

    def _pns_draw_move(self, me, opp, oracle_plies, pns_bits, **kw) -> int:
        """In a drawn position: a move after which the opponent still cannot force a win (a forced
        block first; then moves that make threats or many patterns)."""
        t = int(self.K.threats(np.int64(opp), np.int64(me), self.pats))
        moves = self.moves(me, opp)
        if t:
            moves = [c for c in moves if t >> c & 1]
        for c in moves:  # quick: the opponent visibly cannot win after c
            if int(self.K.quick_status(np.int64(opp), np.int64(me | 1 << c), True, self.pats, self.mask,
                                       self.limit)) == 2:
                return c
        for c in moves:
            if not self.prove(opp, me | 1 << c, True, oracle_plies, pns_bits, **kw):
                return c
        raise SolverError("internal error: a proven draw has no drawing move")

    def _pns_result(self, value, move, t0) -> SolveResult:
        res = SolveResult(value, move, None, int(self.stats[self.K.ST_NODES] + self.stats[self.K.ST_EXPANSIONS]), time.perf_counter() - t0, self.board)
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

    def _classes(self, att: int, dfd: int, atm: bool) -> list[tuple[int, int]]:
        """The children of a node, one per symmetry class (a position and its image under a board
        symmetry have the same value)."""
        occ = att | dfd
        empty = self.board.mask & ~occ
        if occ == 0:
            empty &= int(self.first)
        mover, other = (att, dfd) if atm else (dfd, att)
        perms = [list(p) for p in self.board.symmetries]
        seen, kids = set(), []
        for c in range(self.ncells):
            if empty >> c & 1:
                key = canonical(mover | 1 << c, other, perms)[0]
                if key not in seen:
                    seen.add(key)
                    kids.append((att | 1 << c, dfd) if atm else (att, dfd | 1 << c))
        return kids

    def prove_split(self, att: int, dfd: int, attacker_to_move: bool, workers: int = 2) -> bool:
        """``prove`` with the search shared out over ``workers`` processes (``pools.WorkerPool``): the root's
        children (one per symmetry class), or its grandchildren when the root has a single class
        (an opening allowing one class of first counters), each proved with its own table; the
        answer is the same. Pays on long roots (empty boards), not on short searches."""
        if workers <= 1:
            return self.prove(att, dfd, attacker_to_move)

        kids = [(a, d, not attacker_to_move) for a, d in self._classes(att, dfd, attacker_to_move)]
        groups = None  # per child: its grandchildren, when the split goes one level deeper
        if len(kids) < 2:
            a, d, atm = kids[0]
            if has_win(self.board, a) or has_win(self.board, d) or popcount(a | d) >= self.limit \
                    or not self.board.mask & ~(a | d):
                return self.prove(att, dfd, attacker_to_move)  # the game ends there: nothing to share
            groups = [[(a2, d2, not atm) for a2, d2 in self._classes(a, d, atm)]]
            tasks = groups[0]
        else:
            tasks = kids
        if len(tasks) < 2:
            return self.prove(att, dfd, attacker_to_move)
        # the task answer that decides at once: at an attacker node a proven child, at a defender
        # node a disproven one (with grandchildren the decisive level is the child's)
        node_atm = attacker_to_move if groups is None else not attacker_to_move
        rules = (self.board, self.allowed_first_cells(), self.prune, self.hold_budget, self.deadline)
        # the pool's own deadline: the children's (a second later), for a worker that cannot stop
        deadline = None if self.deadline == float("inf") else time.monotonic() + self.deadline - time.perf_counter() + 1.0
        try:
            with WorkerPool(min(workers, len(tasks)), deadline) as pool:
                for won in pool.map_unordered(_split_child, [(rules, a, d, atm) for a, d, atm in tasks]):
                    if won is None:
                        raise _Timeout()
                    if won == node_atm:
                        return node_atm  # leaving the pool stops the other workers
        except PoolTimeout:
            raise _Timeout() from None
        return not node_atm

    def _shortest_move(self, pos: Position, plies: int) -> int:
        """A first move of a win within ``plies`` (df-pn on the board drawn after that many counters)."""
        from dataclasses import replace

        short = replace(self.board, max_counters=min(self.board.limit, pos.n_counters + plies))
        s = QangoSolver(short, pos.allowed_first)
        me, opp = pos.sides()
        if not s.prove(me, opp, True):  # fills the table the move is read from
            raise SolverError("internal error: the shortest win was not found again")
        return s._pns_win_move(me, opp, 3, 23)


def _split_child(task) -> bool | None:
    """A worker of ``prove_split``: one child of the root with a fresh table (None: timed out)."""
    (board, allowed, prune, hold_budget, deadline), att, dfd, atm = task
    s = QangoSolver(board, allowed)
    s.prune, s.hold_budget, s.deadline = prune, hold_budget, deadline
    try:
        return s.prove(att, dfd, atm)
    except _Timeout:
        return None


def shortest_win(pos: Position, side: str, lo: int = 1, hi: int | None = None,
                 time_limit: float | None = None) -> tuple[int | None, int]:
    """(plies of the shortest forced win of ``side`` from ``pos``, df-pn expansions): df-pn on the
    board drawn after r more counters for r = lo, lo + 2, ... (odd when ``side`` is to move, even
    otherwise: the loser's moves count); the first r proven is exact, since r - 2 was disproven
    (or is below ``lo``). None when nothing is proven up to ``hi`` or within ``time_limit``."""
    from dataclasses import replace

    t0 = time.perf_counter()
    board = pos.board
    atm = side == pos.to_move
    n = pos.n_counters
    hi = board.limit - n if hi is None else hi
    r = lo if lo % 2 == (1 if atm else 0) else lo + 1
    att, dfd = (pos.x, pos.o) if side == "X" else (pos.o, pos.x)
    nodes = 0
    while r <= hi:
        s = QangoSolver(replace(board, max_counters=min(board.limit, n + r)), pos.allowed_first)
        if time_limit is not None:
            s.deadline = t0 + time_limit
        try:
            won = s.prove(att, dfd, atm)
        except _Timeout:
            return None, nodes + int(s.stats[s.K.ST_EXPANSIONS])
        nodes += int(s.stats[s.K.ST_EXPANSIONS])
        if won:
            return r, nodes
        r += 2
    return None, nodes


def solve_position(pos: Position, time_limit: float | None = None, tt_bits: int = 22) -> SolveResult:
    """Solve one position with a fresh solver (see ``QangoSolver.solve``)."""
    return QangoSolver(pos.board, pos.allowed_first, tt_bits).solve(pos, time_limit)


def move_values(pos: Position, time_limit: float | None = None, solver: QangoSolver | None = None) -> list[dict]:
    """Every legal move with its exact value for the mover (win/draw/loss/unknown) and plies, the
    move included; wins first (shortest), then draws, then losses (longest). ``time_limit``
    covers all the moves: each undecided move gets an equal share of the time left, and moves
    reached after it has run out are ``unknown``."""
    solver = solver or QangoSolver(pos.board, pos.allowed_first)
    flip = {"win": "loss", "loss": "win", "draw": "draw", "unknown": "unknown"}
    end = None if time_limit is None else time.monotonic() + time_limit
    moves = pos.legal_moves()
    out = []
    for k, c in enumerate(moves):
        child = pos.play(c)
        left = None if end is None else end - time.monotonic()
        if child.winner() is not None:
            value, plies = "win", 1
        elif left is not None and left <= 0:
            value, plies = "unknown", None
        else:
            res = solver.solve(child, time_limit=None if left is None else left / (len(moves) - k))
            value, plies = flip[res.value], None if res.plies is None else res.plies + 1
        out.append({"move": list(pos.board.rc(c)), "cell": c, "value": value, "plies": plies})
    rank = {"win": 0, "draw": 1, "unknown": 2, "loss": 3}
    out.sort(key=lambda d: (rank[d["value"]], (d["plies"] or 0) * (1 if d["value"] == "win" else -1), d["cell"]))
    return out
