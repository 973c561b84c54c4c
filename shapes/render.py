"""Pictures of polyforms: terminal text (shapes, sheets, tilings) and dependency-free SVG.

SVG geometry comes only from ``Lattice.polygon(cell)``, so any registered lattice draws (the
canvas and the drawing of one shape are :mod:`.svg`); the terminal pictures cover the triangle and square lattices (one character per cell,
column = x, as in the notation of :mod:`.notation`).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..errors import FormatError, ShapeError
from .lattice import Cell, Lattice
from .notation import art_rows
from .polyform import Polyform, as_polyform
from .registry import get_lattice
from .svg import PALETTE, Box, Canvas, bbox, grow, shape_svg

PIECE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

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
    """One shape (a Polyform or its cells) as an SVG document: filled cells with faint cell lines
    and a bold outline (:func:`.svg.shape_svg`)."""
    return shape_svg(as_polyform(p), fill, unit, margin)


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
    boxes = [bbox(s.lattice, s.cells) for s in items]
    canvas = Canvas(unit)

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
    canvas = Canvas(unit)
    box = _draw_tiling(canvas, region, pieces, colours, labels, 0.0, 0.0)
    return canvas.document(grow(box, margin))


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
        boxes.append(bbox(lat, cells))
    canvas = Canvas(unit)

    def draw(i: int, dx: float, dy: float) -> None:
        region, pieces = solutions[i]
        _draw_tiling(canvas, region, pieces, colours, False, dx, dy)

    _grid_layout(canvas, boxes, cols, labels, draw)
    return canvas.document(canvas.extent())


# --- SVG internals --------------------------------------------------------------------------


def _draw_tiling(canvas: Canvas, region, pieces, colours, labels, dx: float, dy: float) -> Box:
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
    box = bbox(lat, all_cells) if all_cells else (0.0, 0.0, 1.0, 1.0)
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _grid_layout(canvas: Canvas, boxes: list[Box], cols: int, labels, draw) -> None:
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
