"""Tangle legal-move generation as a numba kernel over uint64 side bitsets, with its reference.

:func:`legal_placements_fast` packs the position into 64-bit words and runs
:func:`_legal_kernel`; the engine's :meth:`TangleState.legal_placements` calls it.
:func:`legal_placements_reference` is the plain rule, one placement at a time; tests compare
the two on random positions under every rule option, ``benchmarks/tangle.py`` times them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import numba_cache  # noqa: F401  (its cache locator, before the kernels below are defined)

_M64 = (1 << 64) - 1


def _words(mask: int, n_words: int) -> np.ndarray:
    out = np.zeros(n_words, dtype=np.uint64)
    w = 0
    while mask and w < n_words:
        out[w] = mask & _M64
        mask >>= 64
        w += 1
    return out


def tables(game) -> tuple:
    """Packed placement tables of a game (kept on the game object: built once)."""
    t = game.__dict__.get("_packed")
    if t is not None:
        return t
    n_words = max(1, (game.n_sides + 63) // 64)
    P = game.n_placements
    masks = np.zeros((P, n_words), dtype=np.uint64)
    nbrs = np.zeros((P, n_words), dtype=np.uint64)
    for p in range(P):
        masks[p] = _words(game.pl_mask[p], n_words)
        nbrs[p] = _words(game.pl_nbr[p], n_words)
    kinds = np.array(game.pl_kind, dtype=np.int64)
    stars = np.array(game.pl_star, dtype=np.bool_)
    t = (n_words, masks, nbrs, kinds, stars)
    game._packed = t
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
    """Same result as ``legal_placements_reference(state, player)``, computed by the kernel."""
    g = state.game
    pl = state.to_move if player is None else player
    if state.over or g.n_placements == 0:
        return np.zeros(0, dtype=np.int64)
    n_words, masks, nbrs, kinds, stars = tables(g)
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
