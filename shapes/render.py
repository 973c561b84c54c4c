"""Pictures of polyforms: terminal text (shapes, sheets, tilings) and dependency-free SVG.

SVG geometry comes only from ``Lattice.polygon(cell)``, so any registered lattice draws;
the terminal pictures cover the triangle and square lattices (one character per cell,
column = x, as in the notation of :mod:`.notation`).
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from ..errors import FormatError, ShapeError
from .lattice import Cell, Lattice, get_lattice
from .notation import art_rows
from .polyform import Polyform, as_polyform

# Tableau 10 followed by ten lighter / shifted companions: distinct, print-friendly hues.
PALETTE: tuple[str, ...] = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    "#a0cbe8", "#ffbe7d", "#8cd17d", "#d37295", "#86bcb6",
    "#f1ce63", "#d4a6c8", "#499894", "#b6992d", "#79706e",
)  # fmt: skip
PIECE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

_INK = "#222222"
_CELL_LINE = "#ffffff"
_EMPTY_FILL = "#eeeeee"
_EMPTY_LINE = "#bbbbbb"

Solution = tuple  # (region, pieces): a region (Polyform or cells) and its placed pieces


# --- terminal -------------------------------------------------------------------------------


def text_shape(p: Polyform | Iterable[Cell], unicode: bool = True) -> str:
    """The normalised shape as text: ``▲ ▼`` / ``█`` cells, or the notation art if not unicode."""
    q = as_polyform(p).normalized()
    return "\n".join(_shape_rows(q, unicode))


def _shape_rows(q: Polyform, unicode: bool) -> list[str]:
    if unicode:
        return art_rows(q, up="▲", down="▼", square="█", empty=" ")
    return [r if r else "." for r in art_rows(q)]


def text_sheet(
    shapes: Sequence[Polyform],
    cols: int = 6,
    labels: Sequence[str] | None = None,
    unicode: bool = True,
    gap: int = 3,
) -> str:
    """Shapes side by side, ``cols`` per band, each with an optional caption line above it."""
    if cols < 1:
        raise ShapeError("a sheet needs at least one column")
    if labels is not None and len(labels) != len(shapes):
        raise ShapeError(f"{len(labels)} labels for {len(shapes)} shapes")
    blocks = []
    for i, s in enumerate(shapes):
        rows = _shape_rows(as_polyform(s).normalized(), unicode)
        if labels is not None:
            rows = [str(labels[i])] + rows
        blocks.append(rows)
    bands = []
    for start in range(0, len(blocks), cols):
        band = blocks[start : start + cols]
        widths = [max(len(r) for r in b) for b in band]
        height = max(len(b) for b in band)
        lines = []
        for k in range(height):
            parts = [(b[k] if k < len(b) else "").ljust(w) for b, w in zip(band, widths)]
            lines.append((" " * gap).join(parts).rstrip())
        bands.append("\n".join(lines))
    return "\n\n".join(bands)


def text_tiling(
    region_cells: Polyform | Iterable[Cell],
    pieces: Sequence[Polyform],
    letters: Sequence[str] | None = None,
) -> str:
    """A tiling as letters: piece i shows ``letters[i]`` (A, B, C... by default).

    ``.`` marks a region cell no piece covers, ``*`` a cell covered twice, space lies outside;
    past 62 pieces the default letters repeat.
    """
    lat = _lattice_of(region_cells, pieces)
    if lat.name not in ("triangle", "square"):
        raise FormatError(f"text pictures cover the triangle and square lattices, not {lat.name}")
    region = _cellset(region_cells)
    if letters is None:
        letters = [PIECE_LETTERS[i % len(PIECE_LETTERS)] for i in range(len(pieces))]
    elif len(letters) != len(pieces):
        raise ShapeError(f"{len(letters)} letters for {len(pieces)} pieces")
    grid: dict[Cell, str] = {c: "." for c in region}
    for i, piece in enumerate(pieces):
        for c in as_polyform(piece, lat).cells:
            grid[c] = "*" if grid.get(c, ".") != "." else str(letters[i])
    if not grid:
        return ""
    return "\n".join(_char_rows(grid, lat))


def _char_rows(grid: dict[Cell, str], lat: Lattice) -> list[str]:
    """Characters at cells, laid out with column = x after a lattice translation to the origin."""
    xs = [c[0] for c in grid]
    ys = [c[1] for c in grid]
    x0, y0 = min(xs), min(ys)
    if not lat.is_translation(x0, y0):
        x0 -= 1
    rows = [[" "] * (max(xs) - x0 + 1) for _ in range(max(ys) - y0 + 1)]
    for (x, y), ch in grid.items():
        rows[y - y0][x - x0] = ch
    return ["".join(r).rstrip() for r in rows]


# --- SVG ------------------------------------------------------------------------------------


def svg_shape(
    p: Polyform | Iterable[Cell],
    fill: str = PALETTE[0],
    unit: float = 30.0,
    margin: float = 0.25,
) -> str:
    """One shape as an SVG document: filled cells with faint cell lines and a bold outline."""
    q = as_polyform(p)
    box = _bbox(q.lattice, q.cells)
    canvas = _Canvas(unit)
    canvas.piece(q, fill)
    return canvas.document(_grow(box, margin))


def svg_sheet(
    shapes: Sequence[Polyform],
    cols: int = 6,
    labels: Sequence[str] | None = None,
    colours: Sequence[str] | str | None = None,
    unit: float = 24.0,
) -> str:
    """A grid of normalised shapes, ``cols`` per row, each centred in its slot, captions below.

    ``colours``: one colour for all, one per shape, or None for the palette in turn.
    """
    if cols < 1:
        raise ShapeError("a sheet needs at least one column")
    if labels is not None and len(labels) != len(shapes):
        raise ShapeError(f"{len(labels)} labels for {len(shapes)} shapes")
    fills = _colours(colours, len(shapes))
    items = [as_polyform(s).normalized() for s in shapes]
    boxes = [_bbox(s.lattice, s.cells) for s in items]
    canvas = _Canvas(unit)

    def draw(i: int, dx: float, dy: float) -> None:
        canvas.piece(items[i], fills[i], dx, dy)

    _grid_layout(canvas, boxes, cols, labels, draw)
    return canvas.document(canvas.extent())


def svg_tiling(
    region: Polyform | Iterable[Cell],
    pieces: Sequence[Polyform],
    colours: Sequence[str] | None = None,
    labels: bool | Sequence[str] = False,
    unit: float = 30.0,
    margin: float = 0.25,
) -> str:
    """A region with its placed pieces: each piece in its own colour with a bold outline.

    Region cells no piece covers are drawn pale grey; the region outline is drawn last.
    ``colours`` gives one colour per piece (default: the palette in turn); ``labels=True``
    writes A, B, C... on the pieces, or pass one string per piece.
    """
    canvas = _Canvas(unit)
    box = _draw_tiling(canvas, region, pieces, colours, labels, 0.0, 0.0)
    return canvas.document(_grow(box, margin))


def svg_tiling_sheet(
    solutions: Sequence[Solution],
    cols: int = 4,
    labels: Sequence[str] | None = None,
    colours: Sequence[str] | None = None,
    unit: float = 20.0,
) -> str:
    """Several tilings in a grid; each solution is a ``(region, pieces)`` pair.

    ``colours`` (one per piece index) applies to every solution, so the same piece index keeps
    its colour across the sheet; captions go below each tiling.
    """
    if cols < 1:
        raise ShapeError("a sheet needs at least one column")
    if labels is not None and len(labels) != len(solutions):
        raise ShapeError(f"{len(labels)} labels for {len(solutions)} solutions")
    boxes = []
    for region, pieces in solutions:
        lat = _lattice_of(region, pieces)
        cells = set(_cellset(region))
        for piece in pieces:
            cells.update(as_polyform(piece, lat).cells)
        boxes.append(_bbox(lat, cells))
    canvas = _Canvas(unit)

    def draw(i: int, dx: float, dy: float) -> None:
        region, pieces = solutions[i]
        _draw_tiling(canvas, region, pieces, colours, False, dx, dy)

    _grid_layout(canvas, boxes, cols, labels, draw)
    return canvas.document(canvas.extent())


# --- SVG internals --------------------------------------------------------------------------

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in lattice drawing units


class _Canvas:
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
        loops = _chain(edges)
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


def _chain(edges) -> list[list[tuple[float, float]]]:
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


def _draw_tiling(canvas: _Canvas, region, pieces, colours, labels, dx: float, dy: float) -> Box:
    lat = _lattice_of(region, pieces)
    rcells = _cellset(region)
    placed = [as_polyform(p, lat) for p in pieces]
    fills = _colours(colours, len(placed))
    covered = set()
    for p in placed:
        covered.update(p.cells)
    all_cells = set(rcells) | covered
    for c in sorted(set(rcells) - covered, key=lambda c: (c[1], c[0])):
        pts = [(x + dx, y + dy) for x, y in lat.polygon(c)]
        canvas.polygon(pts, _EMPTY_FILL, _EMPTY_LINE, 0.8)
    for p, fill in zip(placed, fills):
        canvas.piece(p, fill, dx, dy)
    if rcells:
        canvas.outline(Polyform(rcells, lat).boundary_edges(), dx, dy, "#000000", 3.0)
    if labels:
        names = PIECE_LETTERS if labels is True else labels
        if labels is not True and len(labels) != len(placed):
            raise ShapeError(f"{len(labels)} labels for {len(placed)} pieces")
        size = canvas.unit * 0.45
        for i, p in enumerate(placed):
            x, y = _label_point(p)
            canvas.text(x + dx, y + dy, names[i % len(names)], size)
    box = _bbox(lat, all_cells) if all_cells else (0.0, 0.0, 1.0, 1.0)
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _grid_layout(canvas: _Canvas, boxes: list[Box], cols: int, labels, draw) -> None:
    """Place items in equal slots (widest x tallest box), ``cols`` per row, captions below."""
    if not boxes:
        return
    gap = 0.6
    cap = 0.9 if labels is not None else 0.0
    sw = max(b[2] - b[0] for b in boxes) + gap
    sh = max(b[3] - b[1] for b in boxes) + gap + cap
    for i, b in enumerate(boxes):
        r, c = divmod(i, cols)
        left, top = c * sw, r * sh
        dx = left + (sw - (b[2] - b[0])) / 2 - b[0]
        dy = top + gap / 2 + (sh - cap - gap - (b[3] - b[1])) / 2 - b[1]
        draw(i, dx, dy)
        if labels is not None:
            canvas.text(left + sw / 2, top + sh - cap / 2 - gap / 4, labels[i], canvas.unit * 0.5)
    n_rows = (len(boxes) + cols - 1) // cols
    canvas._see(0.0, 0.0)
    canvas._see(min(cols, len(boxes)) * sw, n_rows * sh)


def _label_point(p: Polyform) -> tuple[float, float]:
    """Where a label fits best: the candidate inside the piece farthest from its outline.

    Candidates are cell centres, inner edge midpoints and the cell corners not on the outline
    (e.g. the centre of the hexagon hexiamond); ties go to the one nearest the centroid.
    """
    edges = p.boundary_edges()
    on_outline = {pt for e in edges for pt in e}
    outline_edges = set(edges)
    centres, corners = [], []
    for c in p.cells:
        poly = p.lattice.polygon(c)
        centres.append((sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly)))
        corners.extend(
            (x, y) for x, y in poly if (round(x, 6), round(y, 6)) not in on_outline
        )
        for i, (ax, ay) in enumerate(poly):  # midpoints of inner edges
            bx, by = poly[(i + 1) % len(poly)]
            key = tuple(sorted(((round(ax, 6), round(ay, 6)), (round(bx, 6), round(by, 6)))))
            if key not in outline_edges:
                corners.append(((ax + bx) / 2, (ay + by) / 2))
    mx = sum(x for x, _ in centres) / len(centres)
    my = sum(y for _, y in centres) / len(centres)
    cands = centres + corners

    def score(q: tuple[float, float]) -> tuple[float, float]:
        clear = min(_seg_dist(q, a, b) for a, b in edges)
        return (-round(clear, 6), (q[0] - mx) ** 2 + (q[1] - my) ** 2)

    return min(cands, key=score)


def _seg_dist(q: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    t = ((q[0] - ax) * dx + (q[1] - ay) * dy) / (dx * dx + dy * dy)
    t = min(1.0, max(0.0, t))
    return ((q[0] - ax - t * dx) ** 2 + (q[1] - ay - t * dy) ** 2) ** 0.5


def _bbox(lat: Lattice, cells: Iterable[Cell]) -> Box:
    pts = [pt for c in cells for pt in lat.polygon(c)]
    if not pts:
        return (0.0, 0.0, 1.0, 1.0)
    xs = [x for x, _ in pts]
    ys = [y for _, y in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _grow(box: Box, m: float) -> Box:
    return (box[0] - m, box[1] - m, box[2] + m, box[3] + m)


def _colours(colours: Sequence[str] | str | None, n: int) -> list[str]:
    if colours is None:
        return [PALETTE[i % len(PALETTE)] for i in range(n)]
    if isinstance(colours, str):
        return [colours] * n
    if len(colours) < n:
        raise ShapeError(f"{len(colours)} colours for {n} pieces")
    return [str(c) for c in colours[:n]]


def _lattice_of(region, pieces) -> Lattice:
    if isinstance(region, Polyform):
        return region.lattice
    for p in pieces:
        if isinstance(p, Polyform):
            return p.lattice
    return get_lattice("triangle")


def _cellset(region) -> tuple[Cell, ...]:
    if isinstance(region, Polyform):
        return region.cells
    return tuple(sorted({(int(x), int(y)) for x, y in region}, key=lambda c: (c[1], c[0])))
