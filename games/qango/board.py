"""QANGO boards: cells, colour triples, win patterns, opening rules and symmetries, loaded from JSON.

A board is data (``games/qango/data/*.json``); custom boards use the same format and are validated
with clear errors. Cells are indexed ``row * width + col`` (docs/rules.md); masks are Python ints with bit
``i`` for cell ``i`` (at most 63 cells, so one machine word holds a side).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path

from ...errors import FormatError
from ...jsonio import (
    check_text_arg,
    expect_format,
    plain_int,
    plain_keys,
    plain_text,
    read_json_file,
    register_format,
    short,
    validate,
)
from .svg import board_svg

#: Built-in board names and the aliases the CLI accepts for them.
BOARD_ALIASES = {
    "6": "qango6", "qango6": "qango6", "qango-6": "qango6",
    "7": "qango7", "qango7": "qango7", "qango-7": "qango7",
    "7plus": "qango7plus", "7+": "qango7plus", "7-plus": "qango7plus", "qango7plus": "qango7plus",
    "qango-7-plus": "qango7plus",
}
BUILTIN_BOARDS = ("qango6", "qango7", "qango7plus")
COLOURS = ("red", "orange", "yellow", "blue", "green", "grey")
LINE_LENGTH = 5  # five consecutive cells in a row, column or diagonal win
SQUARE_SIDE = 2  # a 2x2 square wins


@dataclass(frozen=True)
class Triple:
    """One colour-linked group of three cells."""

    cells: tuple[int, int, int]
    colour: str


@dataclass(frozen=True, eq=False)
class Board:
    """A QANGO board: geometry, colour triples, opening rules and draw rule (all derived data cached)."""

    name: str
    title: str
    width: int
    height: int
    off_board: frozenset[int]
    triples: tuple[Triple, ...]
    max_counters: int | None = None  # the game is a draw after this many counters (None: board full)
    openings: dict = field(default_factory=dict)  # name -> frozenset of cells allowed for counter 1
    colours: tuple[str, ...] | None = None  # optional colour picture (one letter per cell)
    origin: str | None = None  # PARAMS of the seed ID that regenerates this board (generated boards)

    # --- geometry ---------------------------------------------------------------------------
    @property
    def n_cells(self) -> int:
        """Cells of the bounding rectangle (on- and off-board)."""
        return self.width * self.height

    @cached_property
    def cells(self) -> tuple[int, ...]:
        """On-board cell indices, ascending."""
        return tuple(i for i in range(self.n_cells) if i not in self.off_board)

    @cached_property
    def mask(self) -> int:
        """Bit mask of the on-board cells."""
        m = 0
        for c in self.cells:
            m |= 1 << c
        return m

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.height and 0 <= col < self.width and row * self.width + col not in self.off_board

    def rc(self, cell: int) -> tuple[int, int]:
        """(row, col) of a cell index."""
        return divmod(cell, self.width)

    @cached_property
    def limit(self) -> int:
        """Counters after which the game ends as a draw (board size when no explicit limit)."""
        n = len(self.cells)
        return n if self.max_counters is None else min(n, self.max_counters)

    # --- win patterns -------------------------------------------------------------------------
    @cached_property
    def patterns(self) -> tuple[tuple[int, ...], ...]:
        """Every winning cell set: triples, then 2x2 squares, then 5-lines (rows, columns, diagonals)."""
        return _patterns(self)

    @cached_property
    def pattern_masks(self) -> tuple[int, ...]:
        return tuple(sum(1 << c for c in p) for p in self.patterns)

    def pattern_kinds(self) -> tuple[str, ...]:
        """Kind of each pattern in ``patterns`` order: triple, square or line."""
        t, s = len(self.triples), len(_squares(self))
        return tuple("triple" if i < t else "square" if i < t + s else "line" for i in range(len(self.patterns)))

    # --- openings -----------------------------------------------------------------------------
    def opening_cells(self, opening: str | None) -> frozenset[int]:
        """Cells allowed for the first counter under a named opening rule."""
        if opening in (None, "", "standard", "none"):
            return frozenset(self.cells)
        try:
            return self.openings[opening]
        except KeyError:
            names = ", ".join(["standard", *sorted(self.openings)])
            raise FormatError(f"board {self.name} has no opening rule {opening!r} (known: {names})") from None

    def opening_names(self) -> list[str]:
        return ["standard", *sorted(k for k in self.openings if k != "standard")]

    # --- symmetries ---------------------------------------------------------------------------
    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """Cell permutations (``perm[cell] = image``) of the rectangle that keep the board, triples
        and hence all win patterns; the identity first."""
        return _symmetries(self)

    def to_json(self) -> dict:
        out = {
            "name": self.name,
            "title": self.title,
            "width": self.width,
            "height": self.height,
            "off_board": sorted(self.off_board),
            "triples": [{"cells": list(t.cells), "colour": t.colour} for t in self.triples],
            "max_counters": self.max_counters,
            "openings": {k: {"allowed": sorted(v)} for k, v in sorted(self.openings.items())},
        }
        if self.colours:
            out["colours"] = list(self.colours)
        return out

    def __repr__(self) -> str:
        return f"Board({self.name!r}, {self.width}x{self.height}, {len(self.cells)} cells, {len(self.triples)} triples)"

    def to_svg(self) -> str:
        """The empty board with its colour triples, as an SVG document."""
        return board_svg(self, title=self.title)

    def _repr_svg_(self) -> str:  # Jupyter shows the picture
        return self.to_svg()


def _cell_sets_rect(board: Board, shape: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    out = []
    for r in range(board.height):
        for c in range(board.width):
            cells = [(r + dr, c + dc) for dr, dc in shape]
            if all(board.on_board(rr, cc) for rr, cc in cells):
                out.append(tuple(sorted(rr * board.width + cc for rr, cc in cells)))
    return out


def _squares(board: Board) -> list[tuple[int, ...]]:
    return _cell_sets_rect(board, [(0, 0), (0, 1), (1, 0), (1, 1)])


@lru_cache(maxsize=64)
def _patterns(board: Board) -> tuple[tuple[int, ...], ...]:
    pats: list[tuple[int, ...]] = [tuple(sorted(t.cells)) for t in board.triples]
    pats += _squares(board)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        pats += _cell_sets_rect(board, [(k * dr, k * dc) for k in range(LINE_LENGTH)])
    seen, out = set(), []
    for p in pats:  # a custom triple could coincide with nothing else, but keep the list duplicate-free
        if p not in seen:
            seen.add(p)
            out.append(p)
    return tuple(out)


def _square_maps(w: int, h: int) -> list:
    maps = [lambda r, c: (r, c), lambda r, c: (r, w - 1 - c), lambda r, c: (h - 1 - r, c),
            lambda r, c: (h - 1 - r, w - 1 - c)]
    if w == h:
        maps += [lambda r, c: (c, r), lambda r, c: (c, h - 1 - r), lambda r, c: (w - 1 - c, r),
                 lambda r, c: (w - 1 - c, h - 1 - r)]
    return maps


@lru_cache(maxsize=64)
def _symmetries(board: Board) -> tuple[tuple[int, ...], ...]:
    w, h = board.width, board.height
    triples = {frozenset(t.cells) for t in board.triples}
    out = []
    for f in _square_maps(w, h):
        perm = []
        for i in range(board.n_cells):
            r, c = f(*divmod(i, w))
            perm.append(r * w + c)
        if {perm[i] for i in board.off_board} != set(board.off_board):
            continue
        if {frozenset(perm[c] for c in t) for t in triples} != triples:
            continue
        out.append(tuple(perm))
    return tuple(out)


# --- loading and validation --------------------------------------------------------------------


def _neighbours8(a: int, b: int, w: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, w), divmod(b, w)
    return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


def triple_connected(cells, width: int) -> bool:
    """True when the cells form one group under orthogonal or diagonal adjacency."""
    cells = list(cells)
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        a = todo.pop()
        for b in cells:
            if b not in seen and _neighbours8(a, b, width):
                seen.add(b)
                todo.append(b)
    return len(seen) == len(cells)


def _board_model():
    """The pydantic schema of a board file (shape and bounds; geometry is checked after it)."""
    from typing import Annotated, Literal, Optional, Union

    from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

    Cell = Annotated[StrictInt, Field(ge=0, le=10_000)]
    Text = Annotated[StrictStr, Field(max_length=200)]

    class TripleModel(BaseModel):
        model_config = ConfigDict(extra="forbid")
        cells: Annotated[list[Cell], Field(max_length=64)]
        colour: Text = "?"

    class OpeningModel(BaseModel):
        model_config = ConfigDict(extra="forbid")
        allowed: Optional[Annotated[list[Cell], Field(max_length=64)]] = None
        forbidden: Optional[Annotated[list[Cell], Field(max_length=64)]] = None

    class BoardModel(BaseModel):
        model_config = ConfigDict(extra="forbid")
        name: Text = "custom"
        title: Optional[Text] = None
        width: Annotated[StrictInt, Field(ge=2, le=9)]
        height: Annotated[StrictInt, Field(ge=2, le=9)]
        off_board: Annotated[list[Cell], Field(max_length=64)] = []
        triples: Annotated[list[Union[TripleModel, Annotated[list[Cell], Field(max_length=64)]]],
                           Field(max_length=64)] = []
        max_counters: Optional[Annotated[StrictInt, Field(ge=1, le=63)]] = None
        openings: Optional[Annotated[dict[Annotated[StrictStr, Field(max_length=60)], OpeningModel],
                                     Field(max_length=32)]] = None
        colours: Optional[Annotated[list[Annotated[StrictStr, Field(max_length=9)]], Field(max_length=9)]] = None
        source: Optional[Annotated[StrictStr, Field(max_length=500)]] = None
        id: Optional[Annotated[StrictStr, Field(max_length=400)]] = None
        seed_id: Optional[Annotated[StrictStr, Field(max_length=400)]] = None
        kind: Optional[Literal["qango-board"]] = None

    return BoardModel


_BOARD_KEYS = {"name", "title", "width", "height", "off_board", "triples", "max_counters", "openings", "colours",
               "source", "id", "seed_id", "kind"}


def _quick_board(d) -> bool:
    """True only for board bodies the schema accepts as they are and whose ``model_dump`` holds
    the same values (no explicit nulls inside openings); ``jsonio.validate``'s quick check."""
    if not plain_keys(d, _BOARD_KEYS) or not (plain_int(d.get("width"), 2, 9) and plain_int(d.get("height"), 2, 9)):
        return False
    g = d.get

    def cells(v) -> bool:
        return type(v) is list and len(v) <= 64 and all(plain_int(c, 0, 10_000) for c in v)

    def text(k, most) -> bool:
        return g(k) is None or plain_text(g(k), most)

    if not (("name" not in d or plain_text(d["name"], 200)) and text("title", 200) and text("source", 500)
            and text("id", 400) and text("seed_id", 400) and g("kind") in (None, "qango-board")
            and ("off_board" not in d or cells(d["off_board"]))
            and (g("max_counters") is None or plain_int(g("max_counters"), 1, 63))):
        return False
    triples = d.get("triples", [])
    if type(triples) is not list or len(triples) > 64:
        return False
    for t in triples:
        if type(t) is dict:
            if not (plain_keys(t, ("cells", "colour")) and "cells" in t and cells(t["cells"])
                    and ("colour" not in t or plain_text(t["colour"], 200))):
                return False
        elif not cells(t):
            return False
    colours = g("colours")
    if colours is not None and not (type(colours) is list and len(colours) <= 9
                                    and all(plain_text(r, 9) for r in colours)):
        return False
    openings = g("openings")
    if openings is None:
        return True
    return type(openings) is dict and len(openings) <= 32 and all(
        plain_text(k, 60) and plain_keys(v, ("allowed", "forbidden")) and all(cells(x) for x in v.values())
        for k, v in openings.items())


def _sniff_board(d) -> bool:
    return isinstance(d, dict) and {"triples", "width", "height"} <= set(d) <= _BOARD_KEYS


BOARD_FORMAT = register_format("tanglekit/qango-board", 1, "QANGO board", _board_model, _sniff_board)


def board_from_json(data: dict, where: str = "board") -> Board:
    """Build and validate a board from its JSON form (see docs/qango.md); FormatError on any defect."""
    if isinstance(data, dict) and isinstance(data.get("board"), dict) and "triples" not in data:
        data = data["board"]  # the JSON of `qango board generate --json` holds the board under "board"
    expect_format(data, BOARD_FORMAT, where)
    m = validate(data, _board_model, where, "board", quick=_quick_board)
    if m is None:  # accepted as it is: the values model_dump(exclude_none=True) would give
        data = {k: v for k, v in data.items() if v is not None and k not in ("format", "version")}
        data.setdefault("name", "custom")
    else:
        data = m.model_dump(exclude_none=True)
    data["triples"] = [t for t in data.get("triples", [])]
    if data.get("max_counters") is None:
        data["max_counters"] = None
    w, h = data["width"], data["height"]
    if not (2 <= w <= 9 and 2 <= h <= 9) or w * h > 63:
        raise FormatError(f"{where}: size {w}x{h} out of range (2..9 per side, at most 63 cells)")
    n = w * h
    colours = data.get("colours")
    off = set()
    if colours is not None:
        if len(colours) != h or any(len(r) != w for r in colours):
            raise FormatError(f"{where}: 'colours' must be {h} strings of {w} letters")
        off |= {r * w + c for r in range(h) for c in range(w) if colours[r][c] == "#"}
    for c in data.get("off_board", []):
        if not isinstance(c, int) or not 0 <= c < n:
            raise FormatError(f"{where}: off-board cell {c!r} outside the {w}x{h} rectangle")
        off.add(c)
    if colours is not None:
        bad = [c for c in off if colours[c // w][c % w] != "#"]
        if bad:
            raise FormatError(f"{where}: off-board cell {bad[0]} is not '#' in 'colours'")
    triples = []
    used: dict[int, int] = {}
    for k, t in enumerate(data.get("triples", [])):
        cells = t.get("cells") if isinstance(t, dict) else t
        colour = t.get("colour", "?") if isinstance(t, dict) else "?"
        if not isinstance(cells, list) or len(cells) != 3 or not all(isinstance(c, int) for c in cells):
            raise FormatError(f"{where}: triple {k} must list exactly 3 cell indices")
        for c in cells:
            if not 0 <= c < n or c in off:
                raise FormatError(f"{where}: triple {k} {sorted(cells)} uses cell {c}, which is not on the board")
            if c in used:
                raise FormatError(f"{where}: triples {used[c]} and {k} share cell {c} (triples must be disjoint)")
            used[c] = k
        if len(set(cells)) != 3:
            raise FormatError(f"{where}: triple {k} repeats a cell")
        if not triple_connected(cells, w):
            raise FormatError(f"{where}: triple {k} {sorted(cells)} is not connected orthogonally or diagonally")
        triples.append(Triple(tuple(sorted(cells)), str(colour)))
    max_c = data.get("max_counters")
    if max_c is not None and (not isinstance(max_c, int) or max_c < 1):
        raise FormatError(f"{where}: 'max_counters' must be a positive integer or null")
    on = frozenset(i for i in range(n) if i not in off)
    if len(on) < 4:
        raise FormatError(f"{where}: fewer than 4 cells on the board")
    openings = {}
    for name, spec in (data.get("openings") or {}).items():
        if name in ("standard", "none"):
            continue
        if not isinstance(spec, dict) or ("allowed" in spec) == ("forbidden" in spec):
            raise FormatError(f"{where}: opening {name!r} needs exactly one of 'allowed' or 'forbidden'")
        cells = set(spec["allowed"] if "allowed" in spec else spec["forbidden"])
        if not cells <= on:
            raise FormatError(f"{where}: opening {name!r} names cells off the board: {sorted(cells - on)}")
        allowed = frozenset(cells) if "allowed" in spec else on - frozenset(cells)
        if not allowed:
            raise FormatError(f"{where}: opening {name!r} leaves no cell for the first counter")
        openings[str(name)] = allowed
    return Board(
        name=str(data.get("name", "custom")),
        title=str(data.get("title", data.get("name", "custom board"))),
        width=w,
        height=h,
        off_board=frozenset(off),
        triples=tuple(triples),
        max_counters=max_c,
        openings=openings,
        colours=tuple(colours) if colours else None,
    )


@lru_cache(maxsize=8)
def _builtin(name: str) -> Board:
    text = resources.files(__package__).joinpath("data", f"{name}.json").read_text(encoding="utf-8")
    return board_from_json(json.loads(text), where=name)


def load_board(spec: "str | Path | dict | Board | None" = None) -> Board:
    """A board by built-in name or alias (``6``, ``7``, ``7plus``), JSON file path, or JSON dict."""
    if isinstance(spec, Board):
        return spec
    if spec is None:
        return _builtin("qango6")
    if isinstance(spec, dict):
        return board_from_json(spec)
    check_text_arg(str(spec), "board")
    key = str(spec).strip().lower()
    if key in BOARD_ALIASES:
        return _builtin(BOARD_ALIASES[key])
    if key.startswith(("qango-board:", "qango:")):  # IDs are resolved by games/qango/generate.py (a higher layer)
        raise FormatError(f"board ID {short(str(spec))}: read it with games.qango.boards.load_board_spec "
                          "(the command line does)")
    path = Path(str(spec))
    try:
        is_file = path.suffix == ".json" or path.exists()
    except (OSError, ValueError):  # a name too long for the file system is not a board file either
        is_file = False
    if is_file:
        return board_from_json(read_json_file(path, "board file"), where=str(path))
    raise FormatError(f"unknown board {short(str(spec))}: use 6, 7, 7plus, a board ID or a JSON board file")


# --- descriptive text form (the board part of shareable IDs) ------------------------------------

LAYOUT_SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_COLOUR_LETTERS = {"red": "r", "orange": "o", "yellow": "y", "blue": "b", "green": "g", "grey": "e"}
_LETTER_COLOURS = {v: k for k, v in _COLOUR_LETTERS.items()} | {"x": "?"}


def board_layout(board: Board) -> str:
    """The board as text: rows by '/', a letter per triple, '.' a free cell, '#' off the board,
    then '@' and one colour letter per triple (r o y b g e; x for another colour)."""
    owner = {c: k for k, t in enumerate(board.triples) for c in t.cells}
    rows = []
    for r in range(board.height):
        row = ""
        for c in range(board.width):
            i = r * board.width + c
            row += "#" if i in board.off_board else LAYOUT_SYMBOLS[owner[i]] if i in owner else "."
        rows.append(row)
    return "/".join(rows) + "@" + "".join(_COLOUR_LETTERS.get(t.colour, "x") for t in board.triples)


def board_from_layout(text: str, where: str = "board layout", max_counters: int | None = None) -> Board:
    """The board of ``board_layout`` text (checked like a board file)."""
    check_text_arg(text, where, 200)
    grid, sep, colours = text.partition("@")
    rows = grid.split("/")
    if not sep or not rows or any(len(r) != len(rows[0]) for r in rows):
        raise FormatError(f"{where}: expected rows of equal length by '/', then '@' and a colour letter per triple")
    w, h = len(rows[0]), len(rows)
    if not (2 <= w <= 9 and 2 <= h <= 9):
        raise FormatError(f"{where}: size {w}x{h} out of range (2..9 per side)")
    off, cells = [], {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            i = r * w + c
            if ch == "#":
                off.append(i)
            elif ch != ".":
                if ch not in LAYOUT_SYMBOLS:
                    raise FormatError(f"{where}: row {r + 1}, col {c + 1}: unknown symbol {ch!r}")
                cells.setdefault(LAYOUT_SYMBOLS.index(ch), []).append(i)
    n = len(cells)
    if sorted(cells) != list(range(n)) or len(colours) != n:
        raise FormatError(f"{where}: triples must be lettered a, b, c... in order, with one colour letter each "
                          f"({n} triples, {len(colours)} colour letters)")
    bad = [ch for ch in colours if ch not in _LETTER_COLOURS]
    if bad:
        raise FormatError(f"{where}: unknown colour letter {bad[0]!r} (r o y b g e x)")
    data = {"name": "custom", "title": f"custom {w}x{h} board", "width": w, "height": h, "off_board": off,
            "triples": [{"cells": cells[k], "colour": _LETTER_COLOURS[colours[k]]} for k in range(n)],
            "max_counters": max_counters}
    return board_from_json(data, where)
