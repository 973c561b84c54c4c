"""Tangle legal-move generation as a numba kernel over uint64 side bitsets, with its reference.

The engine's :meth:`TangleState.legal_placements` (Python ints as bitsets) is the plain
reference; :func:`legal_placements_fast` packs the position into words and runs
:func:`_legal_kernel`. Tests compare both on random positions; ``benchmarks/tangle.py`` times them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_TABLES: dict[int, tuple] = {}


def _words(mask: int, n_words: int) -> np.ndarray:
    out = np.zeros(n_words, dtype=np.uint64)
    for w in range(n_words):
        out[w] = (mask >> (64 * w)) & 0xFFFFFFFFFFFFFFFF
    return out


def tables(game) -> tuple:
    """Packed placement tables of a game (cached per game object)."""
    t = _TABLES.get(id(game))
    if t is not None and t[0] is game:
        return t
    n_words = (game.n_sides + 63) // 64
    P = game.n_placements
    masks = np.zeros((P, n_words), dtype=np.uint64)
    nbrs = np.zeros((P, n_words), dtype=np.uint64)
    for p in range(P):
        masks[p] = _words(game.pl_mask[p], n_words)
        nbrs[p] = _words(game.pl_nbr[p], n_words)
    kinds = np.array(game.pl_kind, dtype=np.int64)
    stars = np.array(game.pl_star, dtype=np.bool_)
    t = (game, n_words, masks, nbrs, kinds, stars)
    _TABLES[id(game)] = t
    return t


@njit(cache=True)
def _legal_kernel(masks, nbrs, kinds, stars, occ, remaining, need_star, empty):
    """Indices of placements with pieces left, on free sides, touching the group (or the star)."""
    P, W = masks.shape
    out = np.empty(P, dtype=np.int64)
    n = 0
    for p in range(P):
        if remaining[kinds[p]] <= 0:
            continue
        if need_star and not stars[p]:
            continue
        clash = False
        touch = empty
        for w in range(W):
            if masks[p, w] & occ[w]:
                clash = True
                break
            if nbrs[p, w] & occ[w]:
                touch = True
        if clash or not touch:
            continue
        out[n] = p
        n += 1
    return out[:n]


def legal_placements_fast(state, player: int | None = None) -> np.ndarray:
    """Same result as ``state.legal_placements(player)``, computed by the numba kernel."""
    g = state.game
    pl = state.to_move if player is None else player
    if state.over:
        return np.zeros(0, dtype=np.int64)
    _, n_words, masks, nbrs, kinds, stars = tables(g)
    occ = _words(state.occ, n_words)
    rem = np.array(state.remaining[pl], dtype=np.int64)
    return _legal_kernel(masks, nbrs, kinds, stars, occ, rem, state.needs_star(pl), state.occ == 0)


def legal_placements_reference(state, player: int | None = None) -> list[int]:
    """Plain-Python reference: one placement at a time, straight from the rules."""
    g = state.game
    pl = state.to_move if player is None else player
    if state.over:
        return []
    out = []
    for p in range(g.n_placements):
        if state.remaining[pl][g.pl_kind[p]] <= 0:
            continue
        if g.pl_mask[p] & state.occ:
            continue
        if state.needs_star(pl) and not g.pl_star[p]:
            continue
        if state.occ and not (g.pl_nbr[p] & state.occ):
            continue
        out.append(p)
    return out
