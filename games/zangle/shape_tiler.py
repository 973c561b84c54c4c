"""Tiling one shape with a multiset of pieces by cell-first backtracking: the yes/no answer the
tiling table is built from, and the placements that prove a Zangle (``tile_shape``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ...errors import SolverError
from ...shapes.lattice import Cell
from ...shapes.polyform import Polyform

if TYPE_CHECKING:
    pass


# --------------------------------------------------------------------------------------------
# Tiling one shape with a multiset of pieces (cell-first backtracking; the proofs)
# --------------------------------------------------------------------------------------------
_ORIENT_CACHE: dict[Polyform, tuple[tuple[Cell, ...], ...]] = {}
_TILE_CACHE: dict[tuple, tuple | None] = {}


def _orientation_cells(p: Polyform) -> tuple[tuple[Cell, ...], ...]:
    o = _ORIENT_CACHE.get(p)
    if o is None:
        o = tuple(img.cells for img in p.orientations("free"))
        _ORIENT_CACHE[p] = o
    return o


def _backtrack_tiling(region: tuple[Cell, ...], pieces: Sequence[Polyform]) -> list | None:
    """Cells covered by each piece in one tiling of ``region`` (None if none exists).

    The lowest uncovered cell (in (y, x) order) must be the lowest cell of the piece that covers
    it, which fixes the translation of every orientation tried.
    """
    groups: dict[tuple, list[int]] = {}
    for i, p in enumerate(pieces):
        groups.setdefault(_key(p), []).append(i)
    gkeys = list(groups)
    orients = [_orientation_cells(pieces[groups[k][0]]) for k in gkeys]
    left = [len(groups[k]) for k in gkeys]
    order = sorted(region, key=lambda c: (c[1], c[0]))
    free = set(order)
    placed: list[tuple[int, tuple[Cell, ...]]] = []

    def rec(start: int) -> bool:
        while start < len(order) and order[start] not in free:
            start += 1
        if start == len(order):
            return True
        cx, cy = order[start]
        for g in range(len(gkeys)):
            if not left[g]:
                continue
            for o in orients[g]:
                ax, ay = o[0]
                dx, dy = cx - ax, cy - ay
                if (dx + dy) & 1:
                    continue
                cells = tuple((x + dx, y + dy) for x, y in o)
                if all(c in free for c in cells):
                    free.difference_update(cells)
                    left[g] -= 1
                    placed.append((g, cells))
                    if rec(start + 1):
                        return True
                    placed.pop()
                    left[g] += 1
                    free.update(cells)
        return False

    if sum(p.area for p in pieces) != len(region) or not rec(0):
        return None
    out: list = [None] * len(pieces)
    used = {k: list(v) for k, v in groups.items()}
    for g, cells in placed:
        out[used[gkeys[g]].pop(0)] = cells
    return out


def tile_shape(region: Polyform, pieces: Sequence[Polyform]) -> list | None:
    """One tiling of ``region`` by ``pieces`` (rotated/mirrored freely): cells per piece, or None.

    Results are cached by (region cells, piece shapes), so proofs and tables share the work.
    """
    keys = [_key(p) for p in pieces]
    keyed = sorted(range(len(pieces)), key=keys.__getitem__)
    ck = (region.cells, tuple(keys[i] for i in keyed))
    if ck not in _TILE_CACHE:
        sol = _backtrack_tiling(region.cells, [pieces[i] for i in keyed])
        _TILE_CACHE[ck] = None if sol is None else tuple(sol)
    sol = _TILE_CACHE[ck]
    if sol is None:
        return None
    out: list = [None] * len(pieces)
    for pos, i in enumerate(keyed):
        out[i] = sol[pos]
    return out




ENGINES = ("auto", "exact_cover", "backtrack")


def resolve_engine(engine: str) -> str:
    """"auto" is cell-first backtracking (ten times faster than exact cover on card shapes);
    "exact_cover" is the shared exact-cover tiler (``solver.tiling``), which tests compare with."""
    if engine not in ENGINES:
        raise SolverError(f"unknown tiling engine {engine!r}: expected one of {', '.join(ENGINES)}")
    return "backtrack" if engine == "auto" else engine


def tiling_exists(target: Polyform, pieces: Sequence[Polyform], engine: str = "backtrack") -> bool:
    """Whether ``pieces`` (each used once, rotated/mirrored freely) tile ``target`` exactly."""
    if resolve_engine(engine) == "exact_cover":
        return exact_cover_exists(target, pieces)
    return tile_shape(target, pieces) is not None


def exact_cover_exists(target: Polyform, pieces: Sequence[Polyform]) -> bool:
    """Whether ``pieces`` tile ``target``, decided by the shared exact-cover tiler (solver.tiling)."""
    from ...solver.tiling import solve_tiling  # loads numpy (only when this runs)

    return bool(solve_tiling(target, list(pieces), each="exactly", mirror=True, query="first").solutions)


_KEY_CACHE: dict[Polyform, tuple] = {}


def _key(p: Polyform) -> tuple:
    k = _KEY_CACHE.get(p)
    if k is None:
        k = _KEY_CACHE[p] = p.key("free")
    return k
