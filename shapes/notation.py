"""Text notation for polyforms: ASCII art, the one-line ``/`` form and JSON cell lists, in and out.

Art: one text line per row ``y`` (the first non-blank line is ``y = 0``), character column =
``x``. Triangle lattice: ``^`` an up cell, ``v`` a down cell (``^`` needs ``x + y`` even, ``v``
odd), ``.`` or space empty. Square lattice: ``#`` filled, ``.`` or space empty. The one-line
form joins the rows with ``/``: ``^v^/v^v`` is the hexagon hexiamond, ``.#./###/.#.`` the X
pentomino. JSON: a list of ``[x, y]`` pairs (docs/rules.md; triangle lattice unless told otherwise),
or ``{"lattice": "square", "cells": [[x, y], ...]}``. The terminal symbols ``▲ ▼ █`` are read as
``^ v #`` so that pictures printed by :mod:`.render` parse back.
"""

from __future__ import annotations

import json
import os
from typing import Iterable

from ..errors import FormatError, ShapeError
from ..jsonio import check_text_arg, parse_json_text, read_text_file, short
from .lattice import MAX_COORD, Cell, Lattice
from .polyform import Polyform, as_polyform
from .registry import get_lattice

STYLES = ("line", "art", "json")

# mark -> (lattice name, points up?); points-up is None on the square lattice
_MARKS: dict[str, tuple[str, bool | None]] = {
    "^": ("triangle", True),
    "▲": ("triangle", True),
    "v": ("triangle", False),
    "▼": ("triangle", False),
    "#": ("square", None),
    "█": ("square", None),
}
_EMPTY = frozenset(". ")
_ART_LATTICES = ("triangle", "square")


def parse_shape(text: str, lattice: str | Lattice | None = None) -> Polyform:
    """Read a shape from art, the one-line form or JSON; cells keep the positions written.

    ``lattice`` (a name or Lattice) overrides inference: art infers it from its marks, JSON
    defaults to the triangle lattice. Malformed text raises FormatError (or ShapeError for an
    empty shape or a duplicate cell), naming the problem and where it is.
    """
    if not isinstance(text, str):
        raise FormatError(f"shape notation must be text, not {type(text).__name__}")
    lat = get_lattice(lattice) if lattice is not None else None
    head = text.lstrip()
    if not head:
        raise ShapeError("empty shape: the notation is blank")
    if head[0] in "[{":
        return _parse_json(text, lat)
    return _parse_art(text, lat)


def _parse_art(text: str, lat: Lattice | None) -> Polyform:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = 0
    while not lines[first].strip():
        first += 1
    last = len(lines) - 1
    while not lines[last].strip():
        last -= 1
    if first == last:
        # the one-line form: rows separated by '/', located as "row R, column C"
        rows = lines[first].rstrip().split("/")

        def where(x: int, y: int) -> str:
            return f"row {y + 1}, column {x + 1}"

    else:
        rows = [ln.rstrip() for ln in lines[first : last + 1]]

        def where(x: int, y: int) -> str:
            return f"line {y + first + 1}, column {x + 1}"

    if lat is not None and lat.name not in _ART_LATTICES:
        raise FormatError(
            f"the art notation covers the triangle and square lattices; "
            f"give a {lat.name} shape as a JSON list of [x, y] pairs"
        )

    kind: str | None = lat.name if lat is not None else None
    kind_at = "" if kind is None else "given"
    cells: list[Cell] = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in _EMPTY:
                continue
            loc = where(x, y)
            mark = _MARKS.get(ch)
            if mark is None:
                if ch == "/":
                    raise FormatError(
                        f"bad character '/' at {loc}: use '/' only in the one-line form, "
                        f"not in multi-line art"
                    )
                raise FormatError(
                    f"bad character {ch!r} at {loc} (expected ^ or v for triangles, "
                    f"# for squares, . or space for empty)"
                )
            mark_lattice, up = mark
            if kind is None:
                kind, kind_at = mark_lattice, f"{ch!r} at {loc}"
            elif mark_lattice != kind:
                if kind_at == "given":
                    raise FormatError(
                        f"{ch!r} at {loc} is a {mark_lattice} mark but the lattice is {kind}"
                    )
                raise FormatError(
                    f"mixed lattices: {kind_at} is a {kind} mark but {ch!r} at {loc} "
                    f"is a {mark_lattice} mark"
                )
            if up is not None and up != ((x + y) % 2 == 0):
                want = "^" if (x + y) % 2 == 0 else "v"
                what = "an up" if want == "^" else "a down"
                raise FormatError(
                    f"wrong parity at {loc}: cell ({x}, {y}) is {what} triangle "
                    f"(x + y {'even' if want == '^' else 'odd'}), so it must be '{want}', "
                    f"not {ch!r}"
                )
            cells.append((x, y))
    if not cells:
        raise ShapeError("empty shape: the notation marks no cells")
    return Polyform(cells, kind)


def _parse_json(text: str, lat: Lattice | None) -> Polyform:
    data = parse_json_text(text, "JSON shape", "shape")
    if isinstance(data, dict):
        if "cells" not in data:
            raise FormatError('bad JSON shape: an object needs a "cells" list of [x, y] pairs')
        name = data.get("lattice")
        if name is not None:
            if not isinstance(name, str):
                raise FormatError(f'bad JSON shape: "lattice" must be a name, not {name!r}')
            named = get_lattice(name)
            if lat is not None and named is not lat:
                raise FormatError(
                    f"the JSON shape says lattice {named.name!r} but {lat.name!r} was asked for"
                )
            lat = named
        data = data["cells"]
    if not isinstance(data, list):
        raise FormatError(
            f"bad JSON shape: expected a list of [x, y] pairs, got {type(data).__name__}"
        )
    lat = lat if lat is not None else get_lattice("triangle")
    if not data:
        raise ShapeError("empty shape: the JSON list has no cells")
    first_seen: dict[Cell, int] = {}
    for i, item in enumerate(data, start=1):
        if not (
            isinstance(item, list)
            and len(item) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
        ):
            raise FormatError(
                f"item {i} of the JSON list is not an [x, y] pair of integers: {short(item)}"
            )
        cell = (item[0], item[1])
        if max(abs(item[0]), abs(item[1])) > MAX_COORD:
            raise ShapeError(f"item {i}: cell coordinates must lie between -{MAX_COORD} and {MAX_COORD}")
        if cell in first_seen:
            raise ShapeError(
                f"duplicate cell [{cell[0]}, {cell[1]}] (items {first_seen[cell]} and {i} "
                f"of the JSON list)"
            )
        if not lat.cell_ok(cell):
            raise ShapeError(
                f"item {i}: [{cell[0]}, {cell[1]}] is not a cell of the {lat.name} lattice"
            )
        first_seen[cell] = i
    return Polyform(list(first_seen), lat)


def format_shape(p: Polyform | Iterable[Cell], style: str = "line") -> str:
    """The normalised shape as text: ``line`` (``^v^/v^v``), ``art`` (rows on lines) or ``json``.

    ``parse_shape(format_shape(p, style)) == p.normalized()`` for every style. The JSON style
    is a bare ``[[x, y], ...]`` list on the triangle lattice and an object naming the lattice
    otherwise.
    """
    if style not in STYLES:
        raise FormatError(f"unknown style {style!r}: expected one of {', '.join(STYLES)}")
    q = as_polyform(p).normalized()
    if style == "json":
        cells = [[x, y] for x, y in q.cells]
        if q.lattice.name == "triangle":
            return json.dumps(cells)
        return json.dumps({"lattice": q.lattice.name, "cells": cells})
    rows = art_rows(q, up="^", down="v", square="#", empty=".")
    return ("/" if style == "line" else "\n").join(r if r else "." for r in rows)


def art_rows(
    p: Polyform, *, up: str = "^", down: str = "v", square: str = "#", empty: str = "."
) -> list[str]:
    """Rows of art for ``p``, shifted by a lattice translation so the top row is row 0.

    On a normalised shape the shift is zero, so column = x; trailing empties are dropped.
    """
    lat = p.lattice
    if lat.name not in _ART_LATTICES:
        raise FormatError(
            f"the art notation covers the triangle and square lattices, not {lat.name}; "
            f"use the JSON style"
        )
    xs = [c[0] for c in p.cells]
    ys = [c[1] for c in p.cells]
    x0, y0 = min(xs), min(ys)
    if not lat.is_translation(x0, y0):
        x0 -= 1  # keep up/down parity: the triangle lattice only shifts by dx + dy even
    width = max(xs) - x0 + 1
    grid = [[empty] * width for _ in range(max(ys) - y0 + 1)]
    for x, y in p.cells:
        if lat.name == "square":
            ch = square
        else:
            ch = up if (x + y) % 2 == 0 else down
        grid[y - y0][x - x0] = ch
    return ["".join(r).rstrip(empty) for r in grid]


def load_shape_arg(arg: str, lattice: str | Lattice | None = None) -> Polyform:
    """A shape from a command-line argument: notation or JSON, ``@path``, or an existing file."""
    check_text_arg(arg.replace("\n", "").replace("\t", "").replace("\r", "") if isinstance(arg, str) else arg,
                   "shape")
    path = None
    if arg.startswith("@"):
        path = arg[1:]
    elif "\n" not in arg and len(arg) < 4096 and os.path.isfile(arg):
        path = arg
    if path is None:
        return parse_shape(arg, lattice)
    text = read_text_file(path, "shape file", 4 * 1024 * 1024)
    try:
        return parse_shape(text, lattice)
    except (FormatError, ShapeError) as e:
        raise type(e)(f"{path}: {e}") from None
