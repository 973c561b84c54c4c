"""SVG documents without dependencies: a canvas in lattice drawing units, and one shape drawn on it.

Geometry comes only from ``Lattice.polygon(cell)`` and ``Polyform.boundary_edges()``, so any
lattice draws. ``Polyform.to_svg`` (Jupyter's picture) is :func:`shape_svg`; the sheets and
tilings of :mod:`.render` draw on :class:`Canvas` too.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Iterable
from xml.sax.saxutils import escape, quoteattr

from ..errors import ShapeError
from .lattice import Cell, Lattice

if TYPE_CHECKING:
    from .polyform import Polyform

# Tableau 10 followed by ten lighter / shifted companions: distinct, print-friendly hues.
PALETTE: tuple[str, ...] = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    "#a0cbe8", "#ffbe7d", "#8cd17d", "#d37295", "#86bcb6",
    "#f1ce63", "#d4a6c8", "#499894", "#b6992d", "#79706e",
)  # fmt: skip

_INK = "#222222"
_CELL_LINE = "#ffffff"

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in lattice drawing units


def shape_svg(q: Polyform, fill: str = PALETTE[0], unit: float = 30.0, margin: float = 0.25) -> str:
    """One shape as an SVG document: filled cells with faint cell lines and a bold outline."""
    box = bbox(q.lattice, q.cells)
    canvas = Canvas(unit)
    canvas.piece(q, fill)
    return canvas.document(grow(box, margin))


class Canvas:
    """Collects SVG elements in lattice units (scaled by ``unit`` px) and tracks their extent."""

    def __init__(self, unit: float) -> None:
        if unit <= 0:
            raise ShapeError("unit must be positive")
        self.unit = unit
        self.elements: list[str] = []
        self.box: Box | None = None

    def _n(self, v: float) -> str:
        s = f"{v * self.unit:.2f}".rstrip("0").rstrip(".")
        return "0" if s == "-0" else s

    def _see(self, x: float, y: float) -> None:
        b = self.box
        self.box = (x, y, x, y) if b is None else (
            min(b[0], x), min(b[1], y), max(b[2], x), max(b[3], y)
        )

    def polygon(self, pts: list[tuple[float, float]], fill: str, stroke: str, width: float) -> None:
        for x, y in pts:
            self._see(x, y)
        coords = " ".join(f"{self._n(x)},{self._n(y)}" for x, y in pts)
        self.elements.append(
            f'<polygon points="{coords}" fill={quoteattr(fill)} stroke={quoteattr(stroke)} '
            f'stroke-width="{width:g}" stroke-linejoin="round"/>'
        )

    def outline(self, edges, dx: float, dy: float, stroke: str, width: float) -> None:
        """Boundary edges joined into closed loops, one ``<path>``."""
        loops = chain_loops(edges)
        if not loops:
            return
        d = []
        for loop in loops:
            pts = [(x + dx, y + dy) for x, y in loop]
            for x, y in pts:
                self._see(x, y)
            d.append("M" + " L".join(f"{self._n(x)} {self._n(y)}" for x, y in pts) + " Z")
        self.elements.append(
            f'<path d="{" ".join(d)}" fill="none" stroke={quoteattr(stroke)} '
            f'stroke-width="{width:g}" stroke-linejoin="round" stroke-linecap="round"/>'
        )

    def text(self, x: float, y: float, s: str, size: float, anchor: str = "middle") -> None:
        self._see(x, y)
        self.elements.append(
            f'<text x="{self._n(x)}" y="{self._n(y)}" font-family="sans-serif" '
            f'font-size="{size:g}" text-anchor="{anchor}" dominant-baseline="central" '
            f'fill="{_INK}" stroke="#ffffff" stroke-opacity="0.7" stroke-width="{size / 9:.2g}" '
            f'paint-order="stroke">{escape(str(s))}</text>'
        )

    def piece(self, q: Polyform, fill: str, dx: float = 0.0, dy: float = 0.0) -> None:
        """Cells of ``q`` filled, with thin light cell lines and a bold outline."""
        for c in q.cells:
            pts = [(x + dx, y + dy) for x, y in q.lattice.polygon(c)]
            self.polygon(pts, fill, _CELL_LINE, 0.8)
        self.outline(q.boundary_edges(), dx, dy, _INK, 2.0)

    def extent(self) -> Box:
        return self.box if self.box is not None else (0.0, 0.0, 1.0, 1.0)

    def document(self, box: Box) -> str:
        # whole pixels, rounded outward, so the rounded coordinates always fit inside
        x, y = math.floor(box[0] * self.unit), math.floor(box[1] * self.unit)
        w = math.ceil(box[2] * self.unit) - x
        h = math.ceil(box[3] * self.unit) - y
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="{x} {y} {w} {h}">'
        )
        back = f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#ffffff"/>'
        body = [head, back]
        return "\n".join(body + self.elements + ["</svg>"]) + "\n"


def chain_loops(edges) -> list[list[tuple[float, float]]]:
    """Join undirected boundary segments into loops (any pairing at a pinch point is fine)."""
    adj: dict[tuple[float, float], list[tuple[float, float]]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    loops = []
    for start in list(adj):
        while adj[start]:
            loop = [start]
            prev, cur = start, adj[start].pop()
            adj[cur].remove(prev)
            while cur != start:
                loop.append(cur)
                nxt = adj[cur].pop()
                adj[nxt].remove(cur)
                prev, cur = cur, nxt
            loops.append(loop)
    return loops


def bbox(lat: Lattice, cells: Iterable[Cell]) -> Box:
    pts = [pt for c in cells for pt in lat.polygon(c)]
    if not pts:
        return (0.0, 0.0, 1.0, 1.0)
    xs = [x for x, _ in pts]
    ys = [y for _, y in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def grow(box: Box, m: float) -> Box:
    return (box[0] - m, box[1] - m, box[2] + m, box[3] + m)
