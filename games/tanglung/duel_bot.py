"""The ``perfect`` duel bot: the exact solver with a time limit per move.

It sees what a player sees: the lit cards and the unseen kinds (the card set minus the lit and
removed cards, ``duel.hidden_pool``), never the places of the dark cards. When the solver
finishes within the move's time limit it plays an optimal action (best expected match
result; the fastest win when won, the longest defence when lost, never a repetition that gives
a value away: ``duel_exact.choose``); otherwise it plays the ``pimc-strong`` bot's action. The
transposition table is kept between moves and matches (every solved position stays valid) and
cleared when it holds more than ``max_entries`` positions.
"""

from __future__ import annotations

from .api import decode_duel
from .duel import Match, hidden_pool
from .duel_search import Bot, PimcBot, immediate_win


class PerfectBot(Bot):
    name = "perfect"

    def __init__(self, seed: int | None = None, time_limit: float = 2.0, max_entries: int = 4_000_000) -> None:
        super().__init__(seed)
        self.time_limit = time_limit
        self.max_entries = max_entries
        self.fallback = PimcBot(seed, samples=6, depth=3, node_limit=60_000)
        self.solver = None
        self.options = None
        self.exact_moves = 0
        self.fallback_moves = 0

    def _solver(self, options):
        from .duel_solve import KernelSolver  # loads numpy (only when this runs)

        if self.solver is None or self.options != options or self.solver.entries > self.max_entries:
            self.solver = KernelSolver(options, capacity=1 << 20)
            self.options = options
        return self.solver

    def choose(self, match: Match) -> tuple:
        from .duel_solve import solve_match  # loads numpy (only when this runs)

        actions = match.legal_actions()
        if len(actions) == 1:
            return actions[0]
        a = immediate_win(match)
        if a is not None:
            return a
        pool = hidden_pool(match)
        if len(pool) != len(match.dark_cells()):
            pool = None  # a custom position: the kinds of its dark cards
        r = solve_match(match, time_limit=self.time_limit, engine="kernel", pool=pool,
                        solver=self._solver(match.options))
        if r.complete and r.best is not None:
            self.exact_moves += 1
            return decode_duel(r.best)
        self.fallback_moves += 1
        return self.fallback.choose(match)
