"""Lattices of cells: neighbours, the symmetry group, translations and drawing coordinates.

Every other module talks to a lattice only through this interface, so a new lattice (the hex
tiles of Tangle, :mod:`.hexgrid`) slots in without touching callers; :mod:`.registry` finds a
lattice by name. Cells are integer pairs ``(x, y)``; rows grow downward.

Triangle lattice (docs/rules.md): cell ``(x, y)`` points up when ``x + y`` is even; its horizontal
neighbours are ``(x +- 1, y)``, an up cell's third neighbour is ``(x, y + 1)``, a down cell's
``(x, y - 1)``. Translations must keep that parity, so ``dx + dy`` is even.

Two interfaces give the same answers: the array one (``transform``, ``normalize``,
``translation_to_origin`` on (n, 2) int64 arrays, numpy imported when first used) and the
plain one (``image_cells``, ``normalize_cells`` on tuples of cells), which the triangle and
square lattices implement in plain Python so that shapes, canonical forms and placements of
small problems never import numpy (start-up; ``tests/test_polyform.py`` compares the two).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Iterable

from ..errors import ShapeError

if TYPE_CHECKING:
    import numpy as np

Cell = tuple[int, int]

_H = math.sqrt(3.0) / 2.0


def _yx(c: Cell) -> tuple[int, int]:
    return (c[1], c[0])


def _matmul(m, n):
    return tuple(tuple(sum(m[i][k] * n[k][j] for k in range(2)) for j in range(2)) for i in range(2))


class Lattice:
    """A planar lattice of cells with a finite point group of symmetries.

    Symmetry ``k`` for ``0 <= k < n_rotations`` is a rotation; ``n_rotations + k`` is that
    rotation applied after a mirror. Symmetry 0 is the identity.
    """

    name: str = ""
    n_rotations: int = 1
    n_neighbours: int = 0

    @property
    def n_symmetries(self) -> int:
        return 2 * self.n_rotations

    def symmetries(self, kind: str) -> range:
        """Indices of the symmetries that define an equivalence kind."""
        if kind == "fixed":
            return range(1)
        if kind == "one-sided":
            return range(self.n_rotations)
        if kind == "free":
            return range(self.n_symmetries)
        raise ShapeError(f"unknown kind {kind!r}: expected fixed, one-sided or free")

    # --- to be provided by each lattice -------------------------------------------------
    def transform(self, cells: np.ndarray, k: int) -> np.ndarray:
        """Apply symmetry ``k`` to an (n, 2) int array of cells; returns a new array."""
        raise NotImplementedError

    def translation_to_origin(self, cells: np.ndarray) -> tuple[int, int]:
        """The lattice translation that brings ``cells`` to their normal position."""
        raise NotImplementedError

    def is_translation(self, dx: int, dy: int) -> bool:
        """Whether shifting by (dx, dy) maps the lattice onto itself (cell kinds preserved)."""
        raise NotImplementedError

    def neighbours(self, cell: Cell) -> list[Cell]:
        raise NotImplementedError

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        """Corners of the cell in drawing units (edge length 1, y downward)."""
        raise NotImplementedError

    def cell_ok(self, cell: Cell) -> bool:
        """Whether ``cell`` is a cell of this lattice (every integer pair is, so far)."""
        return True

    # --- shared -------------------------------------------------------------------------
    def normalize(self, cells: np.ndarray) -> np.ndarray:
        """Translation normal form: shifted to the origin and sorted by (y, x)."""
        import numpy as np  # start-up: numpy only for the array interface

        dx, dy = self.translation_to_origin(cells)
        out = cells + np.array([dx, dy], dtype=cells.dtype)
        order = np.lexsort((out[:, 0], out[:, 1]))
        return out[order]

    # --- the plain interface (tuples of cells; no numpy where a lattice implements it) -----
    def origin_shift(self, cells: Iterable[Cell]) -> tuple[int, int]:
        """``translation_to_origin`` of a sequence of cells."""
        import numpy as np  # start-up: numpy only for the array interface

        return self.translation_to_origin(np.array(list(cells), dtype=np.int64).reshape(-1, 2))

    def normalize_cells(self, cells: Iterable[Cell]) -> tuple[Cell, ...]:
        """``normalize`` of a sequence of cells, as a tuple sorted by (y, x)."""
        cells = list(cells)
        dx, dy = self.origin_shift(cells)
        return tuple(sorted(((x + dx, y + dy) for x, y in cells), key=_yx))

    def transform_cells(self, cells: Iterable[Cell], k: int) -> list[Cell]:
        """``transform`` of a sequence of cells: their images under symmetry ``k``, in order."""
        import numpy as np  # start-up: numpy only for the array interface

        arr = self.transform(np.array(list(cells), dtype=np.int64).reshape(-1, 2), k)
        return [(int(x), int(y)) for x, y in arr.tolist()]

    def image_cells(self, cells: Iterable[Cell], k: int) -> tuple[Cell, ...]:
        """Symmetry ``k`` applied, then normalised: ``normalize(transform(cells, k))`` as a tuple."""
        return self.normalize_cells(self.transform_cells(cells, k))

    def __repr__(self) -> str:
        return f"<{self.name} lattice>"

    def __reduce__(self):
        # pickled as a reference to the module-level instance named after the lattice in capitals
        # (TRIANGLE, SQUARE, HEX, HEXSIDE), so unpickling gives that very object
        return self.name.upper()


class TriangleLattice(Lattice):
    """Equilateral triangles; 6 rotations x mirror = 12 symmetries."""

    name = "triangle"
    n_rotations = 6
    n_neighbours = 3

    # Symmetries act on 3 x centroid in an axial basis u = (1, 0), v = (1/2, h) of the vertex
    # lattice, where a rotation by 60 degrees is (a, b) -> (-b, a + b) and the mirror in the
    # u axis is (a, b) -> (a + b, -b). Up cells have sb = 2 (mod 3), down cells sb = 1.
    _ROT = ((0, -1), (1, 1))
    _MIR = ((1, 1), (0, -1))

    def __init__(self) -> None:
        mats = []
        for mirror in (False, True):
            for r in range(6):
                m = ((1, 0), (0, 1))
                for _ in range(r):
                    m = _matmul(m, self._ROT)
                if mirror:
                    m = _matmul(m, self._MIR)
                mats.append(m)
        self._plain_mats = tuple(mats)  # 2x2 integer matrices as tuples of rows
        self._np_mats = None

    @property
    def _mats(self) -> list:
        """The symmetry matrices as numpy arrays (for the array interface)."""
        if self._np_mats is None:
            import numpy as np  # start-up: numpy only for the array interface

            self._np_mats = [np.array(m, dtype=np.int64) for m in self._plain_mats]
        return self._np_mats

    @staticmethod
    def _to_axial3(cells: np.ndarray) -> np.ndarray:
        import numpy as np  # start-up: numpy only for the array interface

        x = cells[:, 0].astype(np.int64)
        y = cells[:, 1].astype(np.int64)
        up = ((x + y) & 1) == 0
        d = x - y
        sa = np.where(up, (3 * d - 2) // 2, (3 * d - 1) // 2)
        sb = np.where(up, 3 * y + 2, 3 * y + 1)
        return np.stack([sa, sb], axis=1)

    @staticmethod
    def _from_axial3(s: np.ndarray) -> np.ndarray:
        import numpy as np  # start-up: numpy only for the array interface

        sa, sb = s[:, 0], s[:, 1]
        up = (sb % 3) == 2
        y = np.where(up, (sb - 2) // 3, (sb - 1) // 3)
        x = y + np.where(up, (2 * sa + 2) // 3, (2 * sa + 1) // 3)
        return np.stack([x, y], axis=1)

    def transform(self, cells: np.ndarray, k: int) -> np.ndarray:
        import numpy as np  # start-up: numpy only for the array interface

        if k == 0:
            return np.array(cells, dtype=np.int64, copy=True)
        s = self._to_axial3(cells)
        return self._from_axial3(s @ self._mats[k].T)

    def origin_shift(self, cells: Iterable[Cell]) -> tuple[int, int]:
        dy = -min(c[1] for c in cells)
        dx = -min(c[0] for c in cells)
        if (dx + dy) & 1:
            dx += 1
        return dx, dy

    def transform_cells(self, cells: Iterable[Cell], k: int) -> list[Cell]:
        if k == 0:
            return list(cells)
        (a, b), (c, d) = self._plain_mats[k]
        out = []
        for x, y in cells:
            # to three times the centroid in the axial basis, apply the matrix, and back
            if (x + y) & 1:
                sa, sb = (3 * (x - y) - 1) // 2, 3 * y + 1
            else:
                sa, sb = (3 * (x - y) - 2) // 2, 3 * y + 2
            ta, tb = a * sa + b * sb, c * sa + d * sb
            if tb % 3 == 2:
                ty = (tb - 2) // 3
                out.append((ty + (2 * ta + 2) // 3, ty))
            else:
                ty = (tb - 1) // 3
                out.append((ty + (2 * ta + 1) // 3, ty))
        return out

    def translation_to_origin(self, cells: np.ndarray) -> tuple[int, int]:
        dy = -int(cells[:, 1].min())
        dx = -int(cells[:, 0].min())
        if (dx + dy) & 1:
            dx += 1
        return dx, dy

    def is_translation(self, dx: int, dy: int) -> bool:
        return (dx + dy) % 2 == 0

    def neighbours(self, cell: Cell) -> list[Cell]:
        x, y = cell
        third = (x, y + 1) if (x + y) % 2 == 0 else (x, y - 1)
        return [(x - 1, y), (x + 1, y), third]

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        x, y = cell
        if (x + y) % 2 == 0:
            return [((x + 1) / 2, y * _H), (x / 2 + 1, (y + 1) * _H), (x / 2, (y + 1) * _H)]
        return [(x / 2, y * _H), (x / 2 + 1, y * _H), ((x + 1) / 2, (y + 1) * _H)]

    @staticmethod
    def points_up(cell: Cell) -> bool:
        return (cell[0] + cell[1]) % 2 == 0


class SquareLattice(Lattice):
    """Unit squares; 4 rotations x mirror = 8 symmetries."""

    name = "square"
    n_rotations = 4
    n_neighbours = 4

    def transform(self, cells: np.ndarray, k: int) -> np.ndarray:
        import numpy as np  # start-up: numpy only for the array interface

        c = np.array(cells, dtype=np.int64, copy=True)
        if k >= 4:
            c[:, 0] = -c[:, 0]
            k -= 4
        for _ in range(k):
            c = np.stack([-c[:, 1], c[:, 0]], axis=1)
        return c

    def translation_to_origin(self, cells: np.ndarray) -> tuple[int, int]:
        return -int(cells[:, 0].min()), -int(cells[:, 1].min())

    def origin_shift(self, cells: Iterable[Cell]) -> tuple[int, int]:
        return -min(c[0] for c in cells), -min(c[1] for c in cells)

    def transform_cells(self, cells: Iterable[Cell], k: int) -> list[Cell]:
        out = list(cells)
        if k >= 4:
            out = [(-x, y) for x, y in out]
            k -= 4
        for _ in range(k):
            out = [(-y, x) for x, y in out]
        return out

    def is_translation(self, dx: int, dy: int) -> bool:
        return True

    def neighbours(self, cell: Cell) -> list[Cell]:
        x, y = cell
        return [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        x, y = cell
        return [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]


TRIANGLE = TriangleLattice()
SQUARE = SquareLattice()


MAX_COORD = 2**30  # cell coordinates beyond this are refused (room for sums and products in int64)


def plain_cells(cells) -> list[Cell] | None:
    """``cells`` as a list of (x, y) tuples of plain ints within +-MAX_COORD when it plainly is
    one (a sequence of 2-tuples/lists of ints); None for anything else (numpy arrays, other
    number types, bad or out-of-range values), which ``as_cell_array`` then checks or refuses."""
    if not isinstance(cells, (list, tuple)):
        return None
    out = []
    for c in cells:
        if type(c) is not tuple and type(c) is not list:
            return None
        if len(c) != 2:
            return None
        x, y = c
        if type(x) is not int or type(y) is not int or not (-MAX_COORD <= x <= MAX_COORD
                                                             and -MAX_COORD <= y <= MAX_COORD):
            return None
        out.append((x, y))
    return out


def as_cell_array(cells: Iterable[Cell] | np.ndarray) -> np.ndarray:
    """Cells as an (n, 2) int64 array; coordinates must lie within +-MAX_COORD."""
    import numpy as np  # start-up: numpy only for the array interface

    try:
        arr = np.asarray(list(cells) if not isinstance(cells, np.ndarray) else cells, dtype=np.int64)
    except OverflowError:
        raise ShapeError(f"cell coordinates must lie between -{MAX_COORD} and {MAX_COORD}") from None
    except (TypeError, ValueError):
        raise ShapeError("cells must be pairs [x, y] of integers") from None
    if arr.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ShapeError("cells must be pairs [x, y]")
    if int(arr.max()) > MAX_COORD or int(arr.min()) < -MAX_COORD:
        raise ShapeError(f"cell coordinates must lie between -{MAX_COORD} and {MAX_COORD}")
    return arr
