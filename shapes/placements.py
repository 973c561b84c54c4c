"""Placements of a piece inside a region, as integer arrays ready for an exact-cover matrix."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from ..errors import ShapeError
from .lattice import Cell
from .polyform import Polyform


@dataclass(frozen=True)
class Placements:
    """All placements of one piece in one region.

    ``cells[i]`` holds the indices (into ``region_cells``) covered by placement ``i``, sorted;
    ``orientation[i]`` indexes ``orientations`` (the distinct normalised images used) and
    ``offset[i]`` is the translation applied to that image.
    """

    region_cells: tuple[Cell, ...]
    orientations: tuple[Polyform, ...]
    cells: np.ndarray  # (P, area) int32
    orientation: np.ndarray  # (P,) int32
    offset: np.ndarray  # (P, 2) int64

    def __len__(self) -> int:
        return len(self.cells)

    def shape(self, i: int) -> Polyform:
        """Placement ``i`` as a positioned Polyform."""
        o = self.orientations[int(self.orientation[i])]
        return Polyform._trusted(o.array + self.offset[i], o.lattice)


def region_index(region: Polyform | Iterable[Cell]) -> tuple[tuple[Cell, ...], dict[Cell, int]]:
    """Sorted region cells and the map cell -> index used by placements."""
    cells = region.cells if isinstance(region, Polyform) else tuple(
        sorted(set(map(tuple, region)), key=lambda c: (c[1], c[0]))
    )
    return cells, {c: i for i, c in enumerate(cells)}


def placements(piece: Polyform, region: Polyform, mirror: bool = True, deadline=None) -> Placements:
    """Every placement of ``piece`` (rotated, and mirrored if allowed) inside ``region``.

    Images equal under the piece's own symmetry are merged, so each set of covered cells
    appears once. ``deadline`` (a ``limits.Deadline``) is checked before each orientation, so
    a time limit covers set-up too (``LimitReached``).
    """
    if piece.lattice is not region.lattice:
        raise ShapeError(
            f"piece is on the {piece.lattice.name} lattice, region on the {region.lattice.name} one"
        )
    lat = region.lattice
    rcells, index = region_index(region)
    rarr = region.array
    x0, y0 = rarr.min(axis=0)
    w = int(rarr[:, 0].max() - x0 + 1)
    h = int(rarr[:, 1].max() - y0 + 1)
    grid = np.full((h, w), -1, dtype=np.int32)
    for i, (x, y) in enumerate(rcells):
        grid[y - y0, x - x0] = i
    orients = piece.orientations("free" if mirror else "one-sided")
    out_cells, out_orient, out_off = [], [], []
    for oi, o in enumerate(orients):
        if deadline is not None:
            deadline.check("placement generation")
        a = o.array
        # anchor: the first cell of the image goes onto each region cell of the same kind
        ax, ay = a[0]
        dx = rarr[:, 0] - ax
        dy = rarr[:, 1] - ay
        ok = np.array([lat.is_translation(int(u), int(v)) for u, v in zip(dx, dy)], dtype=bool)
        dx, dy = dx[ok], dy[ok]
        if len(dx) == 0:
            continue
        px = a[None, :, 0] + dx[:, None] - x0  # (T, area)
        py = a[None, :, 1] + dy[:, None] - y0
        inside = (px >= 0) & (px < w) & (py >= 0) & (py < h)
        full = inside.all(axis=1)
        px, py, dxk, dyk = px[full], py[full], dx[full], dy[full]
        idx = grid[py, px]
        good = (idx >= 0).all(axis=1)
        idx = np.sort(idx[good], axis=1)
        out_cells.append(idx)
        out_orient.append(np.full(len(idx), oi, dtype=np.int32))
        out_off.append(np.stack([dxk[good], dyk[good]], axis=1))
    if out_cells:
        cells = np.concatenate(out_cells).astype(np.int32)
        orient = np.concatenate(out_orient)
        off = np.concatenate(out_off).astype(np.int64)
    else:
        cells = np.zeros((0, piece.area), dtype=np.int32)
        orient = np.zeros(0, dtype=np.int32)
        off = np.zeros((0, 2), dtype=np.int64)
    return Placements(rcells, tuple(orients), cells, orient, off)
