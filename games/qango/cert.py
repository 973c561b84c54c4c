"""QANGO certificates as strategy tables (format version 3): written from df-pn, checked by games/qango/proof.py.

A table maps canonical positions (the smallest image under the board symmetries) to the strategy
owner's move, so transpositions and symmetric positions are stored once; "holds" leaves (pairs and
the Erdős–Selfridge potential, see ``qango_kernels.defender_holds``) end lines of no-win strategies
early. The writer walks the strategy from the root, reading each decision from the df-pn table of the
solver that proved or disproved the root, and re-proving a node when the table has lost it.
"""

from __future__ import annotations

import numpy as np

from ...errors import SolverError
from .position import Position, popcount
from .proof import canonical, forced_move, holds, out_of_time, table_key
from .solve import QangoSolver, shortest_win


class _Frames:
    """Canonical keys of positions, with the permutation that maps a position into its frame."""

    def __init__(self, board):
        self.perms = list(board.symmetries)

    def key(self, x: int, o: int):
        if x | o == 0:
            return (x, o), self.perms[0]
        k, t = canonical(x, o, self.perms)
        return k, self.perms[t]


def _colour_masks(att: int, dfd: int, side: str) -> tuple[int, int]:
    """(x, o) from the attacker's and defender's counters when the attacker is ``side``."""
    return (att, dfd) if side == "X" else (dfd, att)


def strategy_table(solver: QangoSolver, pos: Position, kind: str, side: str, max_nodes: int = 20_000_000,
                   hold_budget: int | None = None, progress=None) -> tuple[dict, int, int]:
    """A version-3 strategy table from ``pos``: ``kind`` "win" (``side`` forces a win; its moves) or
    "no-win" (``side`` cannot force a win; the other side's moves and "holds" leaves). The root must
    already be proven (or disproven) by ``solver.prove`` for ``side`` as attacker, so that its table
    holds the decisions. Returns (table, positions visited, plies of the longest line)."""
    K = solver.K
    board = solver.board
    pats = solver.pats
    frames = _Frames(board)
    table: dict[str, object] = {}
    budget = solver.hold_budget if hold_budget is None else hold_budget
    rem, hstk, pairs = solver._hold_work()
    other = "O" if side == "X" else "X"
    owner = side if kind == "win" else other
    pmasks = board.pattern_masks

    def wins(m: int) -> bool:
        return any(p & m == p for p in pmasks)

    def thr(a: int, b: int) -> int:
        return int(K.threats(np.int64(a), np.int64(b), pats))

    def side_masks(x: int, o: int) -> tuple[int, int]:
        return (x, o) if side == "X" else (o, x)  # (attacker = side, defender)

    memo: dict[tuple[int, int], int] = {}
    count = [0]

    def visit(x: int, o: int) -> int:
        """Plies of the longest line from (x, o) under the strategy (0 at a leaf)."""
        n = popcount(x | o)
        empty = board.mask & ~(x | o)
        key, perm = frames.key(x, o)
        if key in memo:
            return memo[key]
        count[0] += 1
        if count[0] > max_nodes:
            raise SolverError(f"strategy larger than {max_nodes} positions")
        if progress is not None and count[0] % 10_000 == 0:
            progress(count[0], len(table))
        p = Position(board, x, o)
        to_move = p.to_move
        a, d = side_masks(x, o)
        atm = to_move == side
        out = None
        if kind == "no-win":
            if out_of_time(p, side) or holds(p, side, []):
                out = 0  # the checker sees this leaf by itself
            elif budget > 0:
                k = int(K.defender_holds(np.int64(a), np.int64(d), atm, pats, solver.mask, budget, rem, hstk, pairs))
                if k >= 0:
                    cells = []
                    for m in pairs[:k]:
                        m = int(m)
                        lo = (m & -m).bit_length() - 1
                        hi = (m ^ (1 << lo)).bit_length() - 1
                        cells.append(sorted([perm[lo], perm[hi]]))
                    table[table_key(*key)] = {"pairs": cells}
                    out = 0
        if out is None:
            moves = [c for c in range(board.n_cells) if empty >> c & 1]
            if n == 0 and pos.allowed_first is not None:
                moves = [c for c in moves if c in pos.allowed_first]
            if to_move != owner:
                out = 0
                for c in moves:
                    out = max(out, 1 + after(x, o, c, to_move))
            else:
                c = forced_move(p)
                if c is None:  # the checker infers forced moves; the others are written down
                    c = _owner_move(solver, kind, a, d, atm, moves, thr, wins)
                    table[table_key(*key)] = perm[c]
                out = 1 + after(x, o, c, to_move)
        memo[key] = out
        return out

    def after(x: int, o: int, c: int, mover: str) -> int:
        """Plies after the move c from (x, o) (0 when it ends the game)."""
        x2, o2 = (x | 1 << c, o) if mover == "X" else (x, o | 1 << c)
        if wins(x2) or wins(o2):
            return 0
        if popcount(x2 | o2) >= board.limit or not board.mask & ~(x2 | o2):
            return 0
        return visit(x2, o2)

    longest = visit(pos.x, pos.o) if not (wins(pos.x) or wins(pos.o) or pos.is_over()) else 0
    return table, count[0], longest


def _owner_move(solver: QangoSolver, kind: str, a: int, d: int, atm: bool, moves: list[int], thr, wins) -> int:
    """The strategy owner's move at a node it is to move at: for "win" the attacker ``a`` to move
    (a winning move), for "no-win" the defender ``d`` to move (a move after which the attacker still
    cannot win)."""
    if kind == "win":
        t = thr(a, d)
        if t:
            return (t & -t).bit_length() - 1
        ot = thr(d, a)
        cand = [c for c in moves if not ot or ot >> c & 1]
        c = solver._vcf_first_move(a, d, 20_000)
        if c >= 0:
            return c
        for rep in range(2):
            for c in cand:
                if wins(a | 1 << c) or solver.pns_status(a | 1 << c, d) == 1:
                    return c
            if rep == 0 and not solver.prove(a, d, True):
                raise SolverError("internal error: a position on a winning line is not won")
        for c in cand:
            if solver.prove(a | 1 << c, d, False):
                return c
        raise SolverError("internal error: certificate writing lost a win")
    t = thr(d, a)
    if t:
        return (t & -t).bit_length() - 1  # the holder wins at once
    at = thr(a, d)
    cand = [c for c in moves if not at or at >> c & 1]
    K = solver.K
    rem, hstk, pairs = solver._hold_work()
    if solver.hold_budget > 0:  # a reply after which the attacker visibly cannot win ends the line
        for c in cand:
            if int(K.defender_holds(np.int64(a), np.int64(d | 1 << c), True, solver.pats, solver.mask,
                                    solver.hold_budget, rem, hstk, pairs)) >= 0:
                return c
    for c in cand:
        if int(K.quick_status(np.int64(a), np.int64(d | 1 << c), True, solver.pats, solver.mask, solver.limit)) == 2:
            return c
    for rep in range(2):
        for c in cand:
            if solver.pns_status(a, d | 1 << c) == 2:
                return c
        if rep == 0 and solver.prove(a, d, False):
            raise SolverError("internal error: a position on a holding line is lost")
    for c in cand:
        if not solver.prove(a, d | 1 << c, True):
            return c
    raise SolverError("internal error: certificate writing lost the hold")


def certificate(pos: Position, claim: str, side: str | None = None, solver: QangoSolver | None = None,
                max_nodes: int = 20_000_000, progress=None) -> dict:
    """A version-3 certificate document for ``pos``: ``claim`` "win" (``side``, default the side to
    move, forces a win), "no-win" (``side`` cannot force a win) or "draw" (neither can). Proves the
    claim first with df-pn; SolverError when it does not hold."""
    solver = solver or QangoSolver(pos.board, pos.allowed_first)
    mover = pos.to_move
    if claim == "loss":  # the side to move loses: the other side's win
        claim, side = "win", ("O" if mover == "X" else "X")
    side = side or mover
    doc = {"format": "tanglekit-qango-proof", "version": 3, "board": pos.board.to_json(),
           "allowed_first": None if pos.allowed_first is None else sorted(pos.allowed_first),
           "position": pos.to_text(), "claim": claim,
           "symmetries": [list(p) for p in pos.board.symmetries[1:]]}
    solver.deadline = float("inf")
    solver.stats[:] = 0
    jobs = [("no-win", s) for s in ("X", "O")] if claim == "draw" else [(claim, side)]
    tables, nodes, longest = {}, 0, 0
    for kind, s in jobs:
        att, dfd = (pos.x, pos.o) if s == "X" else (pos.o, pos.x)
        won = solver.prove(att, dfd, mover == s)
        if won != (kind == "win"):
            raise SolverError(f"{s} {'cannot' if kind == 'win' else 'can'} force a win here")
        tables[s], k, plies = strategy_table(solver, pos, kind, s, max_nodes, progress=progress)
        nodes += k
        longest = max(longest, plies)
    if claim == "draw":
        doc["strategies"] = tables
    else:
        doc["side"] = side
        doc["strategy"] = tables[side]
    doc["plies"] = longest
    doc["nodes"] = nodes
    return doc


def shortest_win_certificate(pos: Position, side: str | None = None, plies: int | None = None,
                             max_nodes: int = 20_000_000, progress=None) -> dict:
    """A version-3 win certificate for ``side`` (default: the side to move) whose longest line is the
    shortest forced win L (plies from ``pos``, the loser's moves included; found by ``shortest_win``
    unless given), with a refutation: a no-win table on the board drawn after L - 2 more counters (no
    win within L - 2 plies). SolverError when ``side`` cannot force a win."""
    from dataclasses import replace

    board = pos.board
    side = side or pos.to_move
    atm = side == pos.to_move
    n = pos.n_counters
    if plies is None:
        plies, _ = shortest_win(pos, side)
        if plies is None:
            raise SolverError(f"{side} cannot force a win here")
    att, dfd = (pos.x, pos.o) if side == "X" else (pos.o, pos.x)
    short = replace(board, max_counters=min(board.limit, n + plies))
    s = QangoSolver(short, pos.allowed_first)
    if not s.prove(att, dfd, atm):
        raise SolverError(f"{side} has no win within {plies} plies")
    table, nodes, _ = strategy_table(s, Position(short, pos.x, pos.o, pos.allowed_first), "win", side, max_nodes,
                                     progress=progress)
    doc = {"format": "tanglekit-qango-proof", "version": 3, "board": board.to_json(),
           "allowed_first": None if pos.allowed_first is None else sorted(pos.allowed_first),
           "position": pos.to_text(), "claim": "win", "side": side, "plies": plies,
           "symmetries": [list(p) for p in board.symmetries[1:]], "strategy": table}
    if plies >= 3:
        shorter = replace(board, max_counters=n + plies - 2)
        s2 = QangoSolver(shorter, pos.allowed_first)
        if s2.prove(att, dfd, atm):
            raise SolverError(f"{side} wins within {plies - 2} plies: {plies} is not the shortest win")
        ref, k, _ = strategy_table(s2, Position(shorter, pos.x, pos.o, pos.allowed_first), "no-win", side,
                                   max_nodes, progress=progress)
        doc["refutation"] = {"max_counters": n + plies - 2, "strategy": ref}
        nodes += k
    doc["nodes"] = nodes
    return doc


def make_proof(pos: Position, result=None, solver: QangoSolver | None = None, max_nodes: int = 20_000_000) -> dict:
    """The certificate of a solved position (``qango solve --proof``): a win or loss with exact plies
    (iterative deepening) gets a shortest-win certificate for the winner (longest line = plies, with
    the refutation of anything shorter), one proven by df-pn a win certificate (``plies`` = its
    longest line), a draw a draw certificate."""
    solver = solver or QangoSolver(pos.board, pos.allowed_first)
    result = result or solver.solve(pos)
    if result.value not in ("win", "loss", "draw"):
        raise SolverError(f"only solved positions have certificates (this one is {result.value})")
    base = {"format": "tanglekit-qango-proof", "version": 3, "board": pos.board.to_json(),
            "allowed_first": None if pos.allowed_first is None else sorted(pos.allowed_first),
            "position": pos.to_text()}
    winner = pos.winner()
    if winner is not None:  # already decided: nothing to play
        return {**base, "claim": "win", "side": winner, "plies": 0, "strategy": {}, "nodes": 0}
    if result.value == "draw":
        return certificate(pos, "draw", solver=solver, max_nodes=max_nodes)
    side = pos.to_move if result.value == "win" else ("O" if pos.to_move == "X" else "X")
    if result.plies is not None:
        return shortest_win_certificate(pos, side, result.plies, max_nodes=max_nodes)
    return certificate(pos, "win", side, solver=solver, max_nodes=max_nodes)


def make_hold_proof(pos: Position, side: str, solver: QangoSolver | None = None, time_limit: float | None = None,
                    max_nodes: int = 20_000_000) -> dict | None:
    """A no-win certificate (``side`` cannot force a win from ``pos``), or None when it can or df-pn
    does not decide within ``time_limit``."""
    import time

    from .solve import _Timeout  # loads numpy (only when this runs)

    solver = solver or QangoSolver(pos.board, pos.allowed_first)
    solver.stats[:] = 0
    att, dfd = (pos.x, pos.o) if side == "X" else (pos.o, pos.x)
    solver.deadline = time.perf_counter() + time_limit if time_limit else float("inf")
    try:
        if solver.prove(att, dfd, pos.to_move == side):
            return None
    except _Timeout:
        return None
    return certificate(pos, "no-win", side, solver=solver, max_nodes=max_nodes)
