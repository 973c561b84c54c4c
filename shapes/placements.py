"""Placements of a piece inside a region, as integer arrays ready for an exact-cover matrix.

Small problems (at most ``PLAIN_TRANSLATIONS`` translations tried per piece) are placed in plain
Python and give their rows as tuples, so a small tiling never imports numpy; larger ones use
numpy. Both give the same placements in the same order (``tests/test_tiling.py`` compares them);
each form is converted to the other on first use.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Iterable

from ..errors import ShapeError
from .lattice import Cell
from .polyform import Polyform

if TYPE_CHECKING:
    import numpy as np

PLAIN_TRANSLATIONS = 20_000  # region cells x orientations up to which placements are made in plain Python


class Placements:
    """All placements of one piece in one region.

    ``cells[i]`` holds the indices (into ``region_cells``) covered by placement ``i``, sorted;
    ``orientation[i]`` indexes ``orientations`` (the distinct normalised images used) and
    ``offset[i]`` is the translation applied to that image. ``rows``, ``orients`` and
    ``offsets`` are the same as plain Python tuples and lists.
    """

    def __init__(self, region_cells: tuple[Cell, ...], orientations: tuple[Polyform, ...], cells=None,
                 orientation=None, offset=None, *, rows=None, orients=None, offsets=None):
        self.region_cells = region_cells
        self.orientations = orientations
        if rows is None:  # from arrays
            self.__dict__.update(cells=cells, orientation=orientation, offset=offset)
        else:
            self.__dict__.update(rows=rows, orients=orients, offsets=offsets)

    # the array form (numpy), made from the plain one on first use
    @cached_property
    def cells(self) -> np.ndarray:  # (P, area) int32
        import numpy as np  # start-up: small problems never load numpy

        width = len(self.orientations[0]) if self.orientations else 0
        return np.array(self.rows, dtype=np.int32).reshape(-1, width)

    @cached_property
    def orientation(self) -> np.ndarray:  # (P,) int32
        import numpy as np  # start-up: small problems never load numpy

        return np.array(self.orients, dtype=np.int32)

    @cached_property
    def offset(self) -> np.ndarray:  # (P, 2) int64
        import numpy as np  # start-up: small problems never load numpy

        return np.array(self.offsets, dtype=np.int64).reshape(-1, 2)

    # the plain form, made from the arrays on first use
    @cached_property
    def rows(self) -> list[tuple[int, ...]]:
        return [tuple(r) for r in self.cells.tolist()]

    @cached_property
    def orients(self) -> list[int]:
        return self.orientation.tolist()

    @cached_property
    def offsets(self) -> list[tuple[int, int]]:
        return [(x, y) for x, y in self.offset.tolist()]

    def __len__(self) -> int:
        d = self.__dict__
        return len(d["rows"]) if "rows" in d else len(d["cells"])

    def shape(self, i: int) -> Polyform:
        """Placement ``i`` as a positioned Polyform."""
        o = self.orientations[int(self.orients[i])]
        dx, dy = self.offsets[i]
        return Polyform._of_tuple(tuple((x + dx, y + dy) for x, y in o.cells), o.lattice)


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
    orients = piece.orientations("free" if mirror else "one-sided")
    if region.area * len(orients) <= PLAIN_TRANSLATIONS:
        return _plain_placements(piece, region, orients, deadline)
    return _array_placements(piece, region, orients, deadline)


def _plain_placements(piece: Polyform, region: Polyform, orients, deadline) -> Placements:
    """``placements`` in plain Python: the same rows in the same order as the array version
    (orientation by orientation, the image's first cell on each region cell in turn)."""
    lat = region.lattice
    rcells, index = region_index(region)
    rows: list[tuple[int, ...]] = []
    orient: list[int] = []
    offs: list[tuple[int, int]] = []
    get = index.get
    for oi, o in enumerate(orients):
        if deadline is not None:
            deadline.check("placement generation")
        cells = o.cells
        ax, ay = cells[0]
        for rx, ry in rcells:
            dx, dy = rx - ax, ry - ay
            if not lat.is_translation(dx, dy):
                continue
            row = []
            for x, y in cells:
                i = get((x + dx, y + dy))
                if i is None:
                    break
                row.append(i)
            else:
                row.sort()
                rows.append(tuple(row))
                orient.append(oi)
                offs.append((dx, dy))
    return Placements(rcells, tuple(orients), rows=rows, orients=orient, offsets=offs)


def _array_placements(piece: Polyform, region: Polyform, orients, deadline) -> Placements:
    import numpy as np  # start-up: small problems never load numpy

    lat = region.lattice
    rcells, index = region_index(region)
    rarr = region.array
    x0, y0 = rarr.min(axis=0)
    w = int(rarr[:, 0].max() - x0 + 1)
    h = int(rarr[:, 1].max() - y0 + 1)
    grid = np.full((h, w), -1, dtype=np.int32)
    for i, (x, y) in enumerate(rcells):
        grid[y - y0, x - x0] = i
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
