"""Catalogues of shapes: the one free-polyform generator, named piece sets and named regions,
and the readers of region and piece files (format ``tanglekit/shapes``), with size caps.

Tiling (``solver/tiling.py``) and the Zangle deck (``games/zangle``) take their shapes from
here. Sizes are capped so that set-up (placements, the exact-cover matrix) stays bounded: a
region has at most ``MAX_REGION_CELLS`` cells, a piece set at most ``MAX_PIECES`` pieces.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Optional, Union

from ..errors import FormatError, ShapeError
from ..jsonio import FORMATS, check_text_arg, expect_format, read_json_file, register_format, short, validate
from .lattice import MAX_COORD
from .polyform import Polyform
from .registry import get_lattice

MAX_REGION_CELLS = 20_000  # a 141 x 141 square; hexagon:57
MAX_PIECES = 1_000
MAX_PIECE_CELLS = 200
MAX_FILE_CELLS = 200_000  # cells in one shapes file, all shapes together

# name -> (cells per piece, lattice)
PIECE_SETS: dict[str, tuple[int, str]] = {
    "monominoes": (1, "square"),
    "dominoes": (2, "square"),
    "trominoes": (3, "square"),
    "tetrominoes": (4, "square"),
    "pentominoes": (5, "square"),
    "hexominoes": (6, "square"),
    "moniamonds": (1, "triangle"),
    "diamonds": (2, "triangle"),
    "triamonds": (3, "triangle"),
    "tetriamonds": (4, "triangle"),
    "pentiamonds": (5, "triangle"),
    "hexiamonds": (6, "triangle"),
    "heptiamonds": (7, "triangle"),
}


# --- free polyforms -----------------------------------------------------------------------
def grow_free(n: int, lattice: str = "triangle") -> list[Polyform]:
    """Free polyforms of n cells by growing canonical forms cell by cell (small n only)."""
    if n < 1:
        return []
    current = {Polyform([(0, 0)], lattice).canonical("free")}
    for _ in range(n - 1):
        nxt: set[Polyform] = set()
        for p in current:
            cells = p.cellset
            for c in p.cells:
                for nb in p.lattice.neighbours(c):
                    if nb not in cells:
                        nxt.add(Polyform(p.cells + (nb,), lattice).canonical("free"))
        current = nxt
    return sorted(current, key=lambda p: p.cells)


def free_polyforms(n: int, lattice: str = "triangle") -> list[Polyform]:
    """Free polyforms of ``n`` cells in canonical form, sorted by cells: the one generator.

    Up to 7 cells the grower above takes milliseconds, while the numba enumerator
    (shapes.enumerate) costs a compile or cache load; larger sizes use the enumerator.
    """
    if n <= 7:
        return grow_free(n, lattice)
    from .enumerate import iter_polyforms  # start-up: the enumerator loads numpy and numba

    shapes = {Polyform(p.cells, lattice).canonical("free") for p in iter_polyforms(n, lattice, "free")}
    return sorted(shapes, key=lambda p: p.cells)


# --- named regions ------------------------------------------------------------------------
def rectangle(w: int, h: int) -> Polyform:
    return Polyform([(x, y) for y in range(h) for x in range(w)], "square")


def parallelogram(a: int, b: int) -> Polyform:
    """``a`` rhombi along the horizontal side, ``b`` rows; 2ab triangles, angle 60 degrees."""
    cells = [(x, y) for y in range(b) for x in range(-y, -y + 2 * a)]
    return Polyform(cells, "triangle").normalized()


def big_triangle(n: int) -> Polyform:
    """Up-pointing triangle of side ``n``: n^2 cells."""
    cells = [(x, y) for y in range(n) for x in range(-y, y + 1)]
    return Polyform(cells, "triangle").normalized()


def hexagon(n: int) -> Polyform:
    """Regular hexagon of side ``n``: 6n^2 cells."""
    cells = []
    x0 = 0
    for y in range(n):  # top half widens
        cells.extend((x, y) for x in range(x0 - y, x0 - y + 2 * n + 1 + 2 * y))
    start = x0 - (n - 1)
    for k in range(n):  # bottom half narrows
        y = n + k
        cells.extend((x, y) for x in range(start + k, start + k + 4 * n - 1 - 2 * k))
    return Polyform(cells, "triangle").normalized()


_REGION_RE = re.compile(r"(rect|parallelogram|triangle|hexagon):([0-9]{1,9})(?:x([0-9]{1,9}))?\Z")
_AREA = {"rect": lambda a, b: a * b, "parallelogram": lambda a, b: 2 * a * b,
         "triangle": lambda a, b: a * a, "hexagon": lambda a, b: 6 * a * a}


def _check_region_size(area: int, what: str) -> None:
    if area > MAX_REGION_CELLS:
        raise ShapeError(f"region {what} has {area:,} cells; tilings are limited to {MAX_REGION_CELLS:,} "
                         "cells (the placements alone would not fit in memory)")


# --- shapes files ---------------------------------------------------------------------------
def _models():
    """The pydantic schema of a shapes file (built on first use: pydantic loads only then)."""
    from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr  # start-up: pydantic only to check a file

    Coord = Annotated[StrictInt, Field(ge=-MAX_COORD, le=MAX_COORD)]
    CellModel = Annotated[list[Coord], Field(min_length=2, max_length=2)]
    Shape = Annotated[list[CellModel], Field(min_length=1, max_length=MAX_REGION_CELLS)]

    class ShapesModel(BaseModel):
        """``tanglekit/shapes``: a region (``cells``) or a piece set (``pieces`` / ``shapes``)."""

        model_config = ConfigDict(extra="forbid")
        name: Optional[Annotated[StrictStr, Field(max_length=200)]] = None
        note: Optional[Annotated[StrictStr, Field(max_length=4000)]] = None
        lattice: Optional[Annotated[StrictStr, Field(max_length=20)]] = None
        cells: Optional[Shape] = None
        pieces: Optional[Annotated[list[Shape], Field(min_length=1, max_length=MAX_PIECES)]] = None
        shapes: Optional[Annotated[list[Shape], Field(min_length=1, max_length=MAX_PIECES)]] = None

    return ShapesModel


def _sniff(d) -> bool:
    return isinstance(d, dict) and ("cells" in d or "pieces" in d or "shapes" in d) and \
        set(d) <= {"format", "version", "name", "note", "lattice", "cells", "pieces", "shapes"} and \
        not isinstance((d.get("pieces") or [None])[0], dict)


def _format():
    return FORMATS.get("tanglekit/shapes") or register_format(
        "tanglekit/shapes", 1, "shapes", _models, sniff=_sniff)


SHAPES = _format()


def _read_shapes_file(path: str | Path, what: str):
    """(model, where) of a shapes file; a bare list is wrapped as the form ``what`` expects."""
    where = str(path)
    data = read_json_file(path, f"{what} file")
    if isinstance(data, list):  # the untagged forms: a list of cells, or a list of shapes
        key = "cells" if what == "region" else "pieces"
        data = {key: data}
    expect_format(data, SHAPES, where)
    return validate(data, _models(), where, what), where


def _lattice(name: str | None, default: str, where: str):
    try:
        return get_lattice(name or default)
    except (ShapeError, KeyError, ValueError):
        raise FormatError(f"{where}: unknown lattice {str(name)[:20]!r}") from None


def load_region_file(path: str | Path) -> Polyform:
    """A region from a shapes file: ``{"lattice": ..., "cells": [[x, y], ...]}`` or a bare list of
    cells (triangle lattice). Cells must be distinct cells of the lattice, at most the cap."""
    m, where = _read_shapes_file(path, "region")
    if m.cells is None:
        raise FormatError(f"{where}: a region file needs \"cells\" (this looks like a piece set)")
    lat = _lattice(m.lattice, "triangle", where)
    _check_region_size(len(m.cells), where)
    return _shape(m.cells, lat, where, "region")


def _shape(cells: list, lat, where: str, label: str) -> Polyform:
    seen: set = set()
    for c in cells:
        t = (c[0], c[1])
        if t in seen:
            raise ShapeError(f"{where}: {label} has the cell [{t[0]}, {t[1]}] twice")
        if not lat.cell_ok(t):
            raise ShapeError(f"{where}: {label}: [{t[0]}, {t[1]}] is not a cell of the {lat.name} lattice")
        seen.add(t)
    return Polyform(cells, lat)


def load_piece_file(path: str | Path, lattice: str = "triangle", mirror: bool = True) -> list[Polyform]:
    """Pieces from a shapes file: a list of shapes, or ``{"lattice": ..., "pieces": [...]}``.
    Every piece must be connected, and no two pieces the same shape (``--each any`` gives
    unlimited copies; two copies in the file would count every tiling twice)."""
    m, where = _read_shapes_file(path, "piece set")
    raw = m.pieces if m.pieces is not None else m.shapes
    if raw is None:
        raise FormatError(f"{where}: a piece file needs \"pieces\" (a list of shapes)")
    if sum(len(s) for s in raw) > MAX_FILE_CELLS:
        raise FormatError(f"{where}: more than {MAX_FILE_CELLS:,} cells in all")
    lat = _lattice(m.lattice, lattice, where)
    kind = "free" if mirror else "one-sided"
    out, keys = [], {}
    for k, cells in enumerate(raw):
        if len(cells) > MAX_PIECE_CELLS:
            raise ShapeError(f"{where}: piece {k} has {len(cells)} cells (at most {MAX_PIECE_CELLS})")
        p = _shape(cells, lat, where, f"piece {k}")
        if not p.is_connected():
            raise ShapeError(f"{where}: piece {k} is not connected (its cells fall apart in pieces)")
        key = p.key(kind)
        if key in keys:
            raise ShapeError(f"{where}: pieces {keys[key]} and {k} are the same {kind} shape "
                             "(give each shape once; --each any allows unlimited copies)")
        keys[key] = k
        out.append(p)
    return out


def piece_set(name: str, lattice: str | None = None, mirror: bool = True) -> list[Polyform]:
    """A named set of free pieces (``pentominoes``, ``hexiamonds``, ...) or a JSON file path."""
    check_text_arg(name, "piece set", 4096)
    key = name.strip().lower()
    if key in PIECE_SETS:
        n, lat = PIECE_SETS[key]
        if lattice is not None and get_lattice(lattice).name != lat:
            raise ShapeError(f"piece set {name!r} lives on the {lat} lattice, not {lattice}")
        return free_polyforms(n, lat)
    if key.endswith(".json") or _is_file(name):
        return load_piece_file(name, lattice or "triangle", mirror)
    raise FormatError(f"unknown piece set {short(name)}: expected one of {', '.join(PIECE_SETS)} or a .json file")


def _is_file(name: str) -> bool:
    """A path to read as a file: anything there but a folder (a FIFO or a device too, so the
    reading layer names what it is rather than "unknown piece set")."""
    try:
        p = Path(name)
        return p.exists() and not p.is_dir()
    except (OSError, ValueError):
        return False


def parse_region(spec: Union[str, Polyform]) -> Polyform:
    """A region from ``rect:WxH``, ``parallelogram:AxB``, ``triangle:N``, ``hexagon:N``, a
    JSON file (list of [x, y] on the triangle lattice, or {"lattice":, "cells":}), or a Polyform."""
    if isinstance(spec, Polyform):
        return spec
    check_text_arg(spec, "region", 4096)
    s = spec.strip()
    m = _REGION_RE.match(s.lower())
    if m:
        kind, a, b = m.group(1), int(m.group(2)), m.group(3)
        two = kind in ("rect", "parallelogram")
        if two != (b is not None):
            form = f"{kind}:AxB" if two else f"{kind}:N"
            raise FormatError(f"region {short(spec)}: expected {form}")
        sizes = (a, int(b)) if two else (a,)
        if min(sizes) < 1:
            raise ShapeError(f"region {short(spec)}: sizes must be at least 1")
        _check_region_size(_AREA[kind](a, sizes[-1]), short(s))
        if kind == "rect":
            return rectangle(*sizes)
        if kind == "parallelogram":
            return parallelogram(*sizes)
        if kind == "triangle":
            return big_triangle(a)
        return hexagon(a)
    if re.match(r"^(rect|parallelogram|triangle|hexagon):", s.lower()):
        raise FormatError(f"region {short(spec)}: sizes are whole numbers (rect:WxH, triangle:N, ...)")
    if s.lower().endswith(".json") or _is_file(s):
        return load_region_file(s)
    raise FormatError(
        f"unknown region {short(spec)}: expected rect:WxH, parallelogram:AxB, triangle:N, "
        "hexagon:N or a .json file"
    )
