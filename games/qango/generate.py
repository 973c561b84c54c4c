"""QANGO puzzle generator: "X to move wins in k" puzzles, verified by the solver, and random positions.

Puzzles come from seeded playouts (random moves, forced blocks respected) and are kept only when the
solver proves a win in exactly k moves (2k-1 plies) with a single winning first move."""

from __future__ import annotations

import random

from ...engines import plain_budget, plain_first
from ...errors import SolverError
from .board import Board
from .boards import load_board_spec
from .position import Position, completing_cells, popcount
from .puzzle import Puzzle
from .small import SmallSolver, _Budget


def _playout(board: Board, rng: random.Random, n_counters: int, allowed=None) -> Position | None:
    """Random game prefix with forced blocks respected and no immediate win left on the board."""
    p = Position(board, 0, 0, allowed)
    for _ in range(n_counters):
        me, opp = p.sides()
        moves = p.legal_moves()
        if not moves:
            return None
        mine, theirs = completing_cells(board, me, opp), completing_cells(board, opp, me)
        threats = [m for m in moves if theirs >> m & 1]
        safe = [m for m in moves if not mine >> m & 1]
        if threats:
            m = rng.choice(threats)
            if not mine >> m & 1:
                p = p.play(m)
                continue
            return None
        if not safe:
            return None
        p = p.play(rng.choice(safe))
    return p


PUZZLE_KERNEL = ("tanglekit.games.qango.kernels", "wins_within")  # the generator's search
PLAIN_PUZZLE_NODES = 1_000  # nodes a generation may take in plain Python while numba is not loaded (~0.3 s)
PLAIN_PUZZLE_NODES_COLD = 6_000  # ... when the kernels would compile first (about 2 s of CPU, under their compile)


def generate_puzzle(board="6", k: int = 3, seed: int = 0, opening: str = "standard", max_tries: int = 4000,
                    node_limit: int = 400_000, solver=None, allowed=None, deadline=None) -> Puzzle:
    """A verified "side to move wins in k moves" puzzle (k >= 2), deterministic for a seed.
    ``deadline`` (limits.Deadline) raises LimitReached between tries once spent.

    Without a ``solver`` given, a process that has not loaded numba, or would compile the QANGO
    kernels first, generates in plain Python (``small.SmallSolver``: the kernels' search step for
    step, so the same puzzle and node count) within a node budget, and starts again with the
    kernels past it (``engines.plain_first``)."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 2 or k > 8:
        raise SolverError("k must be between 2 and 8 moves")
    b = load_board_spec(board)
    allowed = b.opening_cells(opening) if allowed is None else frozenset(allowed)
    if solver is None and plain_first(kernel=PUZZLE_KERNEL):
        budget = plain_budget(PLAIN_PUZZLE_NODES, cold=PLAIN_PUZZLE_NODES_COLD, kernel=PUZZLE_KERNEL)
        try:
            plain = SmallSolver(b, allowed, tt_bits=18, budget=budget)
            return _generate(b, k, seed, opening, max_tries, node_limit, plain, allowed, deadline)
        except _Budget:
            pass  # a long generation: the kernels' job, from the start (the same puzzle)
    if solver is None:
        from .solve import QangoSolver  # loads numpy and numba (only when this runs)

        solver = QangoSolver(b, allowed, tt_bits=18)
    return _generate(b, k, seed, opening, max_tries, node_limit, solver, allowed, deadline)


def _generate(b: Board, k: int, seed: int, opening: str, max_tries: int, node_limit: int, solver, allowed,
              deadline) -> Puzzle:
    """``generate_puzzle``'s tries with one solver (a ``QangoSolver`` or a ``SmallSolver``)."""
    rng = random.Random(seed)
    plies = 2 * k - 1
    for _ in range(max_tries):
        if deadline is not None:
            deadline.check("puzzle generation")
        n = rng.randint(4, max(5, min(b.limit - plies - 1, len(b.cells) // 2)))
        pos = _playout(b, rng, n, allowed)
        if pos is None or pos.is_over():
            continue
        me, opp = pos.sides()
        res = solver.solve(pos, max_plies=plies, node_limit=node_limit)
        if res.value != "win" or res.plies != plies:
            continue
        winners = [c for c in solver.moves(me, opp) if solver.move_wins(me, opp, c, plies)]
        if len(winners) != 1:
            continue
        key = winners[0]
        me2 = me | 1 << key
        replies = [y for y in range(b.n_cells) if (b.mask & ~(me2 | opp)) >> y & 1]
        if k == 2:
            defences = len(replies)
        else:
            defences = sum(1 for y in replies if not solver.wins(me2, opp | 1 << y, plies - 4))
        return Puzzle(b, pos, k, key, defences, seed, opening, int(solver._nodes_so_far()))
    raise SolverError(f"no puzzle with k={k} found in {max_tries} tries (seed {seed})")


def verify_puzzle(puz: Puzzle) -> bool:
    """Re-check a puzzle with a fresh solver: exact win in k and a unique winning first move."""
    from .solve import QangoSolver  # loads numpy (only when this runs)

    s = QangoSolver(puz.board, puz.position.allowed_first, tt_bits=18)
    res = s.solve(puz.position)
    if res.value != "win" or res.plies != 2 * puz.k - 1:
        return False
    me, opp = puz.position.sides()
    return [c for c in s.moves(me, opp) if s.move_wins(me, opp, c, res.plies)] == [puz.key_move]


# --- board generator ------------------------------------------------------------------------------



def random_position(board: Board, rng: random.Random, max_empty: int = 64, max_left: int | None = None,
                    min_counters: int = 0, quiet: bool = False, tries: int = 2000) -> Position:
    """A position from a random playout in which no side skipped a winning move, not yet over, with at
    most ``max_empty`` empty cells and ``max_left`` plies to the draw limit (benchmarks and tests);
    ``quiet``: no side can complete a pattern at once."""
    max_left = board.limit if max_left is None else max_left
    for _ in range(tries):
        p, hist = Position(board), []
        while not p.is_over():
            me, opp = p.sides()
            wins = completing_cells(board, me, opp)
            ms = [m for m in p.legal_moves() if not wins >> m & 1]
            if not ms:
                break
            hist.append(p)
            p = p.play(rng.choice(ms))
        ok = [q for q in hist if not q.is_over() and popcount(q.empty_mask()) <= max_empty
              and board.limit - q.n_counters <= max_left and q.n_counters >= min_counters
              and not (quiet and _has_threat(q))]
        if ok:
            return rng.choice(ok)
    raise SolverError("no random position with these limits found")


def _has_threat(p: Position) -> bool:
    """Some side could complete a pattern with one counter on an empty cell."""
    if not p.empty_mask():
        return False
    if p.winner() is not None:
        return True
    return bool(completing_cells(p.board, p.x, p.o) | completing_cells(p.board, p.o, p.x))
