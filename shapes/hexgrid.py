"""Hex tiles, their sides and vertices: coordinates, adjacency, drawing, and the two hex lattices.

Tangle lays pieces along the sides of pointy-top hexagonal tiles. Three integer coordinate
systems, all linear in the axial basis (so a rotation or mirror is one 2x2 integer matrix):

- a **tile** is its axial position ``(q, r)`` (row ``r`` grows downward); boards are written in
  offset rows ``(col, row)`` and converted with :func:`offset_to_axial`;
- a **side** is twice its midpoint, ``2 * tile + DIRECTIONS[i]`` (a pair not both even);
- a **vertex** is three times its position (a pair with both entries 1 mod 3 or both 2 mod 3).

Side ``i`` of a tile faces ``DIRECTIONS[i]``: 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE (clockwise on the
page). Vertex ``j`` of a tile lies between its sides ``j`` and ``j + 1``. Two sides are
**adjacent** when they share a vertex (each side has four adjacent sides).

Two lattices live here: ``HEX`` (``"hex"``: tiles, 6-neighbour polyhexes) and ``HEXSIDE``
(``"hexside"``: sides as cells, so a Tangle piece is an ordinary polyform with rotations,
mirrors, canonical forms and placements); :mod:`.registry` finds them by name, and
:mod:`.hexsides` builds side pieces on ``HEXSIDE``. Drawing units: edge length 1, y downward.
numpy is imported only when an array of cells is transformed (every Polyform loads this module).
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from ..errors import ShapeError
from .lattice import Lattice

if TYPE_CHECKING:
    import numpy as np

Tile = tuple[int, int]
Side = tuple[int, int]
Vertex = tuple[int, int]

SQRT3 = math.sqrt(3.0)

#: axial steps to the six neighbours, clockwise on the page from East
DIRECTIONS: tuple[Tile, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
_DIR_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}

# rotation by 60 degrees clockwise on the page and the mirror in the horizontal axis, as
# integer matrices (tuples of rows) acting on axial (and doubled / tripled axial) column vectors
_ROT = ((0, -1), (1, 1))
_MIR = ((1, 1), (0, -1))


def _matmul(m, n):
    (a, b), (c, d) = m
    (e, f), (g, h) = n
    return ((a * e + b * g, a * f + b * h), (c * e + d * g, c * f + d * h))


def _symmetry_matrices() -> tuple:
    rotations = [((1, 0), (0, 1))]
    for _ in range(5):
        rotations.append(_matmul(rotations[-1], _ROT))
    return tuple(rotations) + tuple(_matmul(m, _MIR) for m in rotations)


#: symmetry ``k`` as a 2x2 integer matrix: ``k < 6`` turns by ``60 * k`` degrees clockwise on the
#: page, ``6 + k`` mirrors in the horizontal axis first
SYMMETRIES = _symmetry_matrices()


def symmetry_image(v: tuple[int, int], k: int) -> tuple[int, int]:
    """Symmetry ``k`` applied to one integer pair (a tile, side or vertex, or a step between two)."""
    (a, b), (c, d) = SYMMETRIES[k]
    return (a * v[0] + b * v[1], c * v[0] + d * v[1])


# vertex edge vectors (tripled axial): class-1 vertices (both coords 1 mod 3) and class-2 ones
_VERTEX_STEPS = {1: ((1, -2), (-2, 1), (1, 1)), 2: ((-1, 2), (2, -1), (-1, -1))}
OFFSETS = ("even-r", "odd-r")


# --- offset rows <-> axial ------------------------------------------------------------------


def offset_to_axial(col: int, row: int, offset: str = "even-r") -> Tile:
    """Axial tile of offset position (col, row). ``even-r``: even rows sit half a tile right."""
    if offset == "even-r":
        return (col - (row + (row & 1)) // 2, row)
    if offset == "odd-r":
        return (col - (row - (row & 1)) // 2, row)
    raise ShapeError(f"unknown offset layout {offset!r}: expected even-r or odd-r")


def axial_to_offset(tile: Tile, offset: str = "even-r") -> tuple[int, int]:
    """Offset (col, row) of an axial tile (inverse of :func:`offset_to_axial`)."""
    q, r = tile
    if offset == "even-r":
        return (q + (r + (r & 1)) // 2, r)
    if offset == "odd-r":
        return (q + (r - (r & 1)) // 2, r)
    raise ShapeError(f"unknown offset layout {offset!r}: expected even-r or odd-r")


# --- tiles, sides, vertices -----------------------------------------------------------------


def is_side(cell: tuple[int, int]) -> bool:
    """Whether an integer pair is a side (doubled midpoint: not both even)."""
    return (cell[0] & 1) == 1 or (cell[1] & 1) == 1


def is_vertex(v: tuple[int, int]) -> bool:
    a, b = v[0] % 3, v[1] % 3
    return a == b and a != 0


def tile_side(tile: Tile, i: int) -> Side:
    """Side ``i`` (0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE) of ``tile``."""
    d = DIRECTIONS[i % 6]
    return (2 * tile[0] + d[0], 2 * tile[1] + d[1])


def tile_sides(tile: Tile) -> list[Side]:
    """The six sides of a tile, in side-index order."""
    return [tile_side(tile, i) for i in range(6)]


def _side_base(side: Side) -> tuple[Tile, int]:
    """The tile for which ``side`` has index 0, 1 or 2, and that index."""
    a, b = side
    pa, pb = a & 1, b & 1
    if pa and not pb:
        i = 0
    elif pb and not pa:
        i = 1
    elif pa and pb:
        i = 2
    else:
        raise ShapeError(f"{tuple(side)} is not a hex side (both coordinates even)")
    d = DIRECTIONS[i]
    return ((a - d[0]) // 2, (b - d[1]) // 2), i


def side_tiles(side: Side) -> tuple[Tile, Tile]:
    """The two tiles that share ``side`` (on an infinite plane)."""
    t, i = _side_base(side)
    d = DIRECTIONS[i]
    return t, (t[0] + d[0], t[1] + d[1])


def side_index_on(side: Side, tile: Tile) -> int:
    """Which side index ``side`` has on ``tile`` (ShapeError if it is not one of its sides)."""
    d = (side[0] - 2 * tile[0], side[1] - 2 * tile[1])
    try:
        return _DIR_INDEX[d]
    except KeyError:
        raise ShapeError(f"side {tuple(side)} is not a side of tile {tuple(tile)}") from None


def tile_vertex(tile: Tile, j: int) -> Vertex:
    """Vertex ``j`` of a tile (between its sides ``j`` and ``j + 1``)."""
    d1, d2 = DIRECTIONS[j % 6], DIRECTIONS[(j + 1) % 6]
    return (3 * tile[0] + d1[0] + d2[0], 3 * tile[1] + d1[1] + d2[1])


def tile_vertices(tile: Tile) -> list[Vertex]:
    return [tile_vertex(tile, j) for j in range(6)]


def side_vertices(side: Side) -> tuple[Vertex, Vertex]:
    """The two end vertices of a side."""
    t, i = _side_base(side)
    return tile_vertex(t, i - 1), tile_vertex(t, i)


def vertex_neighbours(v: Vertex) -> list[Vertex]:
    """The three vertices joined to ``v`` by a side."""
    if not is_vertex(v):
        raise ShapeError(f"{tuple(v)} is not a hex vertex")
    return [(v[0] + dx, v[1] + dy) for dx, dy in _VERTEX_STEPS[v[0] % 3]]


def side_between(v: Vertex, w: Vertex) -> Side:
    """The side joining two neighbouring vertices."""
    sa, sb = v[0] + w[0], v[1] + w[1]
    if sa % 3 or sb % 3 or w not in vertex_neighbours(v):
        raise ShapeError(f"vertices {tuple(v)} and {tuple(w)} are not joined by a side")
    return (sa // 3, sb // 3)


def vertex_sides(v: Vertex) -> list[Side]:
    """The three sides meeting at a vertex."""
    return [side_between(v, w) for w in vertex_neighbours(v)]


def side_neighbours(side: Side) -> list[Side]:
    """The four sides sharing a vertex with ``side``."""
    out = []
    for v in side_vertices(side):
        for s in vertex_sides(v):
            if s != tuple(side):
                out.append(s)
    return out


def sides_adjacent(a: Side, b: Side) -> bool:
    """Whether two distinct sides share a vertex."""
    return tuple(a) != tuple(b) and bool(set(side_vertices(a)) & set(side_vertices(b)))


# --- drawing coordinates ----------------------------------------------------------------------


def tile_center_xy(tile: Tile) -> tuple[float, float]:
    q, r = tile
    return (SQRT3 * (q + r / 2.0), 1.5 * r)


def vertex_xy(v: Vertex) -> tuple[float, float]:
    a, b = v
    return (SQRT3 * (a + b / 2.0) / 3.0, 1.5 * b / 3.0)


def side_xy(side: Side) -> tuple[tuple[float, float], tuple[float, float]]:
    """End points of a side in drawing units."""
    v, w = side_vertices(side)
    return vertex_xy(v), vertex_xy(w)


def tile_polygon(tile: Tile) -> list[tuple[float, float]]:
    return [vertex_xy(v) for v in tile_vertices(tile)]


# --- lattices -------------------------------------------------------------------------------


@cache
def _np_symmetries() -> list:
    import numpy as np  # start-up: numpy only when an array of cells is transformed

    return [np.array(m, dtype=np.int64) for m in SYMMETRIES]


def _apply(cells: np.ndarray, k: int) -> np.ndarray:
    import numpy as np  # start-up: numpy only when an array of cells is transformed

    c = np.asarray(cells, dtype=np.int64)
    if k == 0:
        return c.copy()
    return c @ _np_symmetries()[k].T


class HexTileLattice(Lattice):
    """Pointy-top hexagons in axial coordinates; 6 rotations x mirror = 12 symmetries."""

    name = "hex"
    n_rotations = 6
    n_neighbours = 6

    def transform(self, cells: np.ndarray, k: int) -> np.ndarray:
        return _apply(cells, k)

    def translation_to_origin(self, cells: np.ndarray) -> tuple[int, int]:
        return -int(cells[:, 0].min()), -int(cells[:, 1].min())

    def is_translation(self, dx: int, dy: int) -> bool:
        return True

    def neighbours(self, cell):
        q, r = cell
        return [(q + dq, r + dr) for dq, dr in DIRECTIONS]

    def polygon(self, cell):
        return tile_polygon(cell)


class HexSideLattice(Lattice):
    """Sides of the hex tiling as cells (doubled midpoints); adjacent = sharing a vertex.

    Translations are whole tile steps, i.e. even shifts of the doubled coordinates. A side is
    drawn as the rhombus spanned by its two end vertices and the centres of its two tiles, so
    the sides tile the plane like cells do.
    """

    name = "hexside"
    n_rotations = 6
    n_neighbours = 4

    def transform(self, cells: np.ndarray, k: int) -> np.ndarray:
        return _apply(cells, k)

    def translation_to_origin(self, cells: np.ndarray) -> tuple[int, int]:
        return -2 * (int(cells[:, 0].min()) // 2), -2 * (int(cells[:, 1].min()) // 2)

    def is_translation(self, dx: int, dy: int) -> bool:
        return dx % 2 == 0 and dy % 2 == 0

    def neighbours(self, cell):
        return side_neighbours(cell)

    def polygon(self, cell):
        t1, t2 = side_tiles(cell)
        v1, v2 = side_vertices(cell)
        return [tile_center_xy(t1), vertex_xy(v1), tile_center_xy(t2), vertex_xy(v2)]

    def cell_ok(self, cell) -> bool:
        return is_side(cell)


HEX = HexTileLattice()
HEXSIDE = HexSideLattice()
