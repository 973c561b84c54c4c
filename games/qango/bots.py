"""QANGO bots in named strengths: ``random``, ``search`` (short exact search + heuristic) and ``perfect``
(the stored longest-defence book when lost, exact search, then the shipped certificates as a
tablebase, then df-pn; about a second per move)."""

from __future__ import annotations

import random
import threading
import time

from ...errors import BotError
from . import load_board
from .position import Position, completing_cells
from .proof import forced_move

BOT_NAMES = ("random", "search", "perfect")


def _warm_kernels() -> None:
    """Load the solver kernels (numba's cache) with a tiny solve by each method."""
    from .solve import QangoSolver  # loads numpy (only when this runs)

    board = load_board("6")
    pos = Position(board, x=0b11, o=0b11 << 20)  # X to move completes the triple {0, 1, 6}: decided at once
    s = QangoSolver(board, None, tt_bits=10)
    s.solve(pos, time_limit=1.0)
    s.solve(pos, time_limit=1.0, method="pns")


_warming: list[threading.Thread] = []  # this process's warm-up thread, once started
_warm_lock = threading.Lock()


def _warm_quietly() -> None:
    try:
        _warm_kernels()
    except Exception:  # noqa: BLE001  (a first move compiles whatever is still missing itself)
        pass


def _warm_in_background() -> threading.Thread:
    """``_warm_kernels`` in a daemon thread, started once per process: a page or a match that makes
    a perfect bot goes on at once (on an empty kernel cache the kernels compile for 10-20 s), and
    the bot's first move waits for the thread."""
    with _warm_lock:
        if not _warming:
            t = threading.Thread(target=_warm_quietly, name="qango-kernels", daemon=True)
            t.start()
            _warming.append(t)
        return _warming[0]


def make_bot(name: str, seed: int = 0, think: float = 2.0):
    """A function Position -> cell for the named strength (deterministic for a seed)."""
    if name not in BOT_NAMES:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")
    rng = random.Random(seed)
    solvers: dict = {}
    warm = _warm_in_background() if name == "perfect" else None  # loaded before the first move's second

    def solver_for(pos: Position):
        from .solve import QangoSolver  # loads numpy (only when this runs)

        key = (id(pos.board), None if pos.allowed_first is None else frozenset(pos.allowed_first))
        if key not in solvers:  # one solver per board and opening (the opening limits the first counter)
            solvers[key] = QangoSolver(pos.board, pos.allowed_first, tt_bits=20)
        return solvers[key]

    def random_bot(pos: Position) -> int:
        return rng.choice(pos.legal_moves())

    def search_bot(pos: Position, plies: int | None = 7, limit: float | None = None) -> int:
        s = solver_for(pos)
        me, opp = pos.sides()
        res = s.solve(pos, time_limit=limit or think, max_plies=plies)
        if res.best_move is not None and res.value in ("win", "draw"):
            return res.best_move
        s.stats[:] = 0  # the short checks below run without the search's deadline
        s.deadline = float("inf")
        # no forced win found: win at once, block a threat, else the move with the best heuristic score
        moves = pos.legal_moves()
        mine, theirs = completing_cells(pos.board, me, opp), completing_cells(pos.board, opp, me)
        for m in moves:
            if mine >> m & 1:
                return m
        blocks = [m for m in moves if theirs >> m & 1]
        if blocks:
            return blocks[0]
        safe = [m for m in moves if not s.wins(opp, me | 1 << m, 3)] or moves
        return max(safe, key=lambda m: (_score(pos, m, me, opp), rng.random()))

    def resist(pos: Position, end: float) -> int:
        """The move that puts off the opponent's win longest, as far as the time shows: an immediate
        win, else of the moves after which the opponent has no win within r plies, r = 1, 3, 5, ...
        (deepened while time is left and some move survives), the best by the pattern score."""
        from .solve import _Timeout  # loads numpy (only when this runs)

        s = solver_for(pos)
        me, opp = pos.sides()
        moves = pos.legal_moves()
        mine = completing_cells(pos.board, me, opp)
        for m in moves:
            if mine >> m & 1:
                return m
        theirs = completing_cells(pos.board, opp, me)
        alive = [m for m in moves if theirs >> m & 1] or moves  # a block first, even out of time
        left = min(pos.board.limit - pos.n_counters, len(moves))
        r = 1
        s.stats[:] = 0
        s.deadline = end
        try:
            while r < left and time.perf_counter() < end:
                keep = [m for m in alive if not s.wins(opp, me | 1 << m, r)]
                if not keep:
                    break
                alive, r = keep, r + 2
        except _Timeout:
            pass
        return max(alive, key=lambda m: (_score(pos, m, me, opp), rng.random()))

    def perfect_bot(pos: Position) -> int:
        if warm is not None:
            warm.join()  # the kernels are loaded (or compiled) before the move's time starts
        # within a second (at most ``think``) in all, with room for a first call's set-up (a new
        # solver, a certificate read): each step gets a share of what is left
        budget = min(think, 0.85)
        end = time.perf_counter() + budget
        # 0. a win at once or the only block (cheap, and never left to a search that runs out of time)
        forced = forced_move(pos)
        if forced is not None:
            return forced
        # the stored longest-defence book (exact, on the lines a perfect winner plays in each won row)
        from .defence import book_defence  # reads a small JSON file (only when this runs)

        hit = book_defence(pos)
        if hit is not None:
            return hit[0]
        # 1. the exact search (fastest win, longest defence, a drawing move in a draw)
        s = solver_for(pos)
        res = s.solve(pos, time_limit=0.35 * budget)
        if res.best_move is not None:
            return res.best_move
        # 2. a shipped certificate covering the position: a certified winning or holding move, or
        #    the reply that resists longest (tablebase)
        from .book import book_move  # reads the certificates (only when this runs)

        hit = book_move(pos, deadline=time.perf_counter() + 0.3 * max(0.0, end - time.perf_counter()))
        if hit is not None:
            return hit[0]
        # 3. df-pn: a proven winning move, or in a drawn position a move after which the opponent
        #    still cannot force a win (a draw is never turned into a loss)
        res = s.solve(pos, time_limit=max(0.0, 0.5 * (end - time.perf_counter())), method="pns")
        if res.value in ("win", "draw") and res.best_move is not None:
            return res.best_move
        # 4. lost or undecided: the move that puts the opponent's win off longest
        return resist(pos, end)

    return {"random": random_bot, "search": search_bot, "perfect": perfect_bot}[name]


def _score(pos: Position, m: int, me: int, opp: int) -> int:
    s = 0
    for p, cells in zip(pos.board.pattern_masks, pos.board.patterns):
        if not p >> m & 1:
            continue
        if not p & opp:
            s += 4 ** bin(p & me).count("1")
        if not p & me:
            s += 4 ** bin(p & opp).count("1") // 2
    return s
