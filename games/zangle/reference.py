"""Plain-Python brute-force Zangle finder: the test reference for ``zangle_finder``.

It shares nothing with the fast path but the rules: subsets of cards are tried directly and a
subset is tiled by placing its pieces one after another (every placement from
``shapes.placements``, as cell bitmasks), instead of a tiling table, hashing and numba.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from ...shapes.placements import placements
from ...shapes.polyform import Polyform
from .moves import CardRef, _shape_of


def _placement_masks(piece: Polyform, target: Polyform, memo: dict | None) -> list[int]:
    k = (piece, target)
    if memo is not None and k in memo:
        return memo[k]
    pl = placements(piece, target, mirror=True)
    out = sorted({sum(1 << int(c) for c in row) for row in pl.cells})
    if memo is not None:
        memo[k] = out
    return out


def tiles_by_placements(target: Polyform, pieces: Sequence[Polyform], memo: dict | None = None) -> bool:
    """Whether ``pieces`` tile ``target`` exactly (piece-by-piece search over placements)."""
    if sum(p.area for p in pieces) != target.area:
        return False
    masks = [_placement_masks(p, target, memo) for p in pieces]
    order = sorted(range(len(pieces)), key=lambda i: len(masks[i]))
    full = (1 << target.area) - 1

    def rec(d: int, used: int) -> bool:
        if d == len(order):
            return used == full
        for m in masks[order[d]]:
            if not m & used and rec(d + 1, used | m):
                return True
        return False

    return rec(0, 0)


def reference_zangles(middle: Sequence, own: Sequence) -> set[tuple[CardRef, frozenset]]:
    """Every valid (target, pieces) of a table by brute force (rules 1-4, all Z cards available)."""
    cards = [(CardRef("middle", i), _shape_of(c)) for i, c in enumerate(middle)]
    cards += [(CardRef("own", i), _shape_of(c)) for i, c in enumerate(own)]
    zs = [r for r, s in cards if s is None]
    zplaces = {r.place for r in zs}
    found = set()
    memo: dict = {}
    for t, (tref, tshape) in enumerate(cards):
        if tshape is None:
            continue
        others = [(r, s) for j, (r, s) in enumerate(cards) if j != t and s is not None]
        for k in range(1, len(others) + 1):
            for combo in combinations(others, k):
                if sum(s.area for _, s in combo) != tshape.area:
                    continue
                if k == 1 and not zs:
                    continue
                places = {tref.place} | {r.place for r, _ in combo} | zplaces
                if places != {"middle", "own"}:
                    continue
                if tiles_by_placements(tshape, [s for _, s in combo], memo):
                    found.add((tref, frozenset(r for r, _ in combo)))
    return found
