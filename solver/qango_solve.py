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
        size = 1 << tt_bits
        self.tt_a = np.full(size, -1, dtype=np.int64)
        self.tt_b = np.full(size, -1, dtype=np.int64)
        self.tt_w = np.full(size, K.NO_WIN, dtype=np.int8)
        self.tt_n = np.zeros(size, dtype=np.int8)
        self.tt_m = np.full(size, -1, dtype=np.int8)
        self.mbuf = np.zeros((K.MAX_LEVELS, 64), dtype=np.int32)
        self.sbuf = np.zeros((K.MAX_LEVELS, 64), dtype=np.int64)
        self.stats = np.zeros(3, dtype=np.int64)
        self.deadline = float("inf")
        self.killer = np.full(K.MAX_LEVELS, -1, dtype=np.int32)
        perms = board.symmetries if use_symmetry else board.symmetries[:1]
        self.symtab, self.perm, self.inv = K.symmetry_tables(perms, board.n_cells)
        self.sym_n = sym_counters

    # --- kernel calls --------------------------------------------------------------------------
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
              node_limit: int | None = None) -> SolveResult:
        """Exact value of ``pos`` for the side to move: ``unknown`` if the time or node limit hits first
        or no result is found within ``max_plies``."""
        t0 = time.perf_counter()
        self.stats[:] = 0
        self.stats[1] = node_limit or 0
        self.deadline = t0 + time_limit if time_limit else float("inf")
        b = self.board
        me, opp = pos.sides()
        if any(p & opp == p for p in b.pattern_masks):
            return SolveResult("loss", None, 0, 0, time.perf_counter() - t0, b)
        n = popcount(me | opp)
        remaining = min(b.limit - n, popcount(b.mask & ~(me | opp)))
        if remaining <= 0:
            return SolveResult("draw", None, 0, 0, time.perf_counter() - t0, b)
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

    def _proof_order(self, me, opp):
        ms = self.moves(me, opp)
        t = int(self.K.threats(np.int64(opp), np.int64(me), self.pats))
        if t:
            return [c for c in ms if t >> c & 1]
        return sorted(ms, key=lambda c: -popcount(int(self.K.threats(np.int64(me | 1 << c), np.int64(opp), self.pats))))


class _Timeout(Exception):
    pass


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
    if result.value == "win":
        doc["tree"], doc["nodes"] = solver.proof_tree(me, opp, result.plies, max_nodes)
    elif result.value == "loss":
        if result.plies == 0:
            doc["tree"], doc["nodes"] = [], 0
        else:
            replies, total = [], 0
            for c in solver.moves(me, opp):
                sub, k = solver.proof_tree(opp, me | 1 << c, result.plies - 1, max_nodes)
                replies.append([c, sub])
                total += k
            doc["tree"], doc["nodes"] = replies, total
    else:
        raise SolverError(f"only won or lost positions have proofs (this one is {result.value})")
    return doc
