"""Polyform: an immutable, hashable set of lattice cells, with its symmetries and canonical forms.

A Polyform keeps the cells where they are (a region or a placed piece has a position);
``normalized()`` and ``canonical(kind)`` give the translation normal form and the
representative of its fixed / one-sided / free class.
"""

from __future__ import annotations

from collections import deque
from functools import cached_property
from typing import TYPE_CHECKING, Iterable

from ..errors import ShapeError
from .lattice import Cell, Lattice, as_cell_array, plain_cells
from .registry import get_lattice

if TYPE_CHECKING:
    import numpy as np

KINDS = ("fixed", "one-sided", "free")


class Polyform:
    """A finite, non-empty set of cells of one lattice. Equality and hash use cells + lattice."""

    __slots__ = ("cells", "lattice", "_hash", "__dict__")

    def __init__(self, cells: Iterable[Cell] | np.ndarray, lattice: str | Lattice = "triangle"):
        lat = get_lattice(lattice)
        if isinstance(cells, (list, tuple)) or not hasattr(cells, "__array__"):
            if not isinstance(cells, (list, tuple)):
                cells = list(cells)
            arr = plain_cells(cells)  # plain int pairs: checked here, without numpy
        else:
            arr = None
        if arr is None:
            arr = as_cell_array(cells).tolist()
        if len(arr) == 0:
            raise ShapeError("empty shape: a polyform needs at least one cell")
        tup = tuple(sorted({(int(x), int(y)) for x, y in arr}, key=lambda c: (c[1], c[0])))
        if len(tup) != len(arr):
            seen: set[Cell] = set()
            for x, y in arr:
                if (x, y) in seen:
                    raise ShapeError(f"duplicate cell ({x}, {y})")
                seen.add((x, y))
        object.__setattr__(self, "cells", tup)
        object.__setattr__(self, "lattice", lat)
        object.__setattr__(self, "_hash", hash((lat.name, tup)))

    @classmethod
    def _trusted(cls, arr: np.ndarray, lattice: Lattice) -> "Polyform":
        """Build from an already-sorted, duplicate-free array (internal fast path)."""
        return cls._of_tuple(tuple((int(x), int(y)) for x, y in arr), lattice)

    @classmethod
    def _of_tuple(cls, tup: tuple[Cell, ...], lattice: Lattice) -> "Polyform":
        """Build from an already-sorted, duplicate-free tuple of int pairs (internal fast path)."""
        p = object.__new__(cls)
        object.__setattr__(p, "cells", tup)
        object.__setattr__(p, "lattice", lattice)
        object.__setattr__(p, "_hash", hash((lattice.name, tup)))
        return p

    def __setattr__(self, name, value):
        if name in ("cells", "lattice", "_hash"):
            raise AttributeError("Polyform is immutable")
        object.__setattr__(self, name, value)

    # --- value semantics ----------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Polyform)
            and self.lattice is other.lattice
            and self.cells == other.cells
        )

    def __hash__(self) -> int:
        return self._hash

    def __lt__(self, other: "Polyform") -> bool:
        return (len(self.cells), self.cells) < (len(other.cells), other.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self):
        return iter(self.cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self.cellset

    def __repr__(self) -> str:
        return f"Polyform({list(self.cells)!r}, {self.lattice.name!r})"

    def __reduce__(self):
        return (Polyform, (self.cells, self.lattice.name))

    def to_svg(self) -> str:
        """The shape as an SVG document (shapes.svg.shape_svg, as shapes.render.svg_shape draws it)."""
        from .svg import shape_svg  # start-up: the SVG writer loads xml.sax.saxutils (and urllib)

        return shape_svg(self)

    def _repr_svg_(self) -> str:  # Jupyter shows the picture
        return self.to_svg()

    # --- basic geometry -----------------------------------------------------------------
    @property
    def area(self) -> int:
        return len(self.cells)

    @cached_property
    def cellset(self) -> frozenset[Cell]:
        return frozenset(self.cells)

    @cached_property
    def array(self) -> np.ndarray:
        import numpy as np  # start-up: small shapes never load numpy

        return np.array(self.cells, dtype=np.int64).reshape(-1, 2)

    def translate(self, dx: int, dy: int) -> "Polyform":
        if not self.lattice.is_translation(dx, dy):
            raise ShapeError(f"({dx}, {dy}) is not a translation of the {self.lattice.name} lattice")
        dx, dy = int(dx), int(dy)  # a shift keeps the (y, x) order
        return Polyform._of_tuple(tuple((x + dx, y + dy) for x, y in self.cells), self.lattice)

    def normalized(self) -> "Polyform":
        """Translation normal form (the fixed-equivalence representative)."""
        return Polyform._of_tuple(self.lattice.normalize_cells(self.cells), self.lattice)

    def transformed(self, k: int) -> "Polyform":
        """Symmetry ``k`` of the lattice applied, then normalised."""
        return Polyform._of_tuple(self.lattice.image_cells(self.cells, k), self.lattice)

    def images(self, kind: str = "free") -> list["Polyform"]:
        """The normalised images under the symmetries of ``kind``, one per symmetry index."""
        return [self.transformed(k) for k in self.lattice.symmetries(kind)]

    def orientations(self, kind: str = "free") -> list["Polyform"]:
        """Distinct normalised images (duplicates under the shape's own symmetry removed)."""
        seen: dict[Polyform, None] = {}
        for img in self.images(kind):
            seen.setdefault(img, None)
        return list(seen)

    # --- canonical forms ----------------------------------------------------------------
    def canonical(self, kind: str = "free") -> "Polyform":
        """The representative of this shape's class: the least normalised image (kept: shapes are
        immutable, and decks and tables ask for the same one many times)."""
        memo = self.__dict__.get("_canonical")
        if memo is None:
            memo = self.__dict__["_canonical"] = {}
        c = memo.get(kind)
        if c is None:
            c = memo[kind] = min(self.images(kind), key=lambda p: p.cells)
        return c

    def key(self, kind: str = "free") -> tuple[Cell, ...]:
        """Hashable canonical key: equal keys <=> equivalent shapes under ``kind``."""
        return self.canonical(kind).cells

    def symmetry_order(self, kind: str = "free") -> int:
        """How many symmetries of ``kind`` map the shape onto itself (translation aside)."""
        base = self.normalized()
        return sum(1 for img in self.images(kind) if img == base)

    def congruent(self, other: "Polyform", kind: str = "free") -> bool:
        return (
            self.lattice is other.lattice
            and self.area == other.area
            and self.key(kind) == other.key(kind)
        )

    # --- topology -----------------------------------------------------------------------
    def is_connected(self) -> bool:
        """Edge-connected (cells sharing a side)."""
        cells = self.cellset
        start = self.cells[0]
        seen = {start}
        todo = deque([start])
        while todo:
            c = todo.popleft()
            for n in self.lattice.neighbours(c):
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(cells)

    def holes(self) -> int:
        """Number of bounded components of the complement (holes are allowed, just counted)."""
        xs = [c[0] for c in self.cells]
        ys = [c[1] for c in self.cells]
        x0, x1, y0, y1 = min(xs) - 2, max(xs) + 2, min(ys) - 2, max(ys) + 2
        cells = self.cellset
        seen: set[Cell] = set()
        comps = 0
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                if (x, y) in cells or (x, y) in seen:
                    continue
                comps += 1
                seen.add((x, y))
                todo = [(x, y)]
                while todo:
                    c = todo.pop()
                    for n in self.lattice.neighbours(c):
                        if (
                            x0 <= n[0] <= x1
                            and y0 <= n[1] <= y1
                            and n not in cells
                            and n not in seen
                        ):
                            seen.add(n)
                            todo.append(n)
        return comps - 1

    def boundary_edges(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """Edges of the drawing polygons that lie on the outline of the shape."""
        count: dict[tuple, int] = {}
        for c in self.cells:
            poly = self.lattice.polygon(c)
            for i in range(len(poly)):
                a, b = poly[i], poly[(i + 1) % len(poly)]
                ka = (round(a[0], 6), round(a[1], 6))
                kb = (round(b[0], 6), round(b[1], 6))
                key = (ka, kb) if ka <= kb else (kb, ka)
                count[key] = count.get(key, 0) + 1
        return [k for k, v in count.items() if v == 1]


def as_polyform(shape, lattice: str | Lattice = "triangle") -> Polyform:
    """Accept a Polyform or an iterable of cells."""
    if isinstance(shape, Polyform):
        return shape
    return Polyform(shape, lattice)
