"""Plain-Python reference minimax for QANGO: exact value and plies, for small positions only.

Written against the rules code (``games/qango/position.py``) with no pruning beyond memoisation, so
tests can compare the numba solver with it on random near-end positions.
"""

from __future__ import annotations

from ...errors import SolverError
from .position import Position


def reference_solve(pos: Position, max_empty: int = 12) -> tuple[str, int]:
    """(value, plies) for the side to move: win (shortest), loss (longest), draw (plies to the end)."""
    empties = bin(pos.empty_mask()).count("1")
    if empties > max_empty:
        raise SolverError(f"reference minimax is for small positions ({empties} empty cells > {max_empty})")
    memo: dict[tuple[int, int], tuple[str, int]] = {}

    def rec(p: Position) -> tuple[str, int]:
        key = (p.x, p.o)
        if key in memo:
            return memo[key]
        if p.winner() is not None:  # the previous mover has won
            out = ("loss", 0)
        elif p.is_over():
            out = ("draw", 0)
        else:
            best_win = best_draw = best_loss = None
            for m in p.legal_moves():
                v, k = rec(p.play(m))
                if v == "loss":
                    best_win = k + 1 if best_win is None else min(best_win, k + 1)
                elif v == "draw":
                    best_draw = k + 1
                else:
                    best_loss = k + 1 if best_loss is None else max(best_loss, k + 1)
            if best_win is not None:
                out = ("win", best_win)
            elif best_draw is not None:
                out = ("draw", best_draw)
            else:
                out = ("loss", best_loss)
        memo[key] = out
        return out

    return rec(pos)


def reference_move_values(pos: Position, max_empty: int = 12) -> dict[int, tuple[str, int]]:
    """Value of each legal move for the mover: (value after the move for the mover, plies incl. it)."""
    flip = {"win": "loss", "loss": "win", "draw": "draw"}
    out = {}
    for m in pos.legal_moves():
        child = pos.play(m)
        if child.winner() is not None:
            out[m] = ("win", 1)
            continue
        v, k = reference_solve(child, max_empty)
        out[m] = (flip[v], k + 1)
    return out
