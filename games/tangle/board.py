"""Tangle board and piece-set files: parsing, validation with clear errors, and the shipped defaults.

Board file (JSON, ``"format": "tangle-board"``): ``rows`` of kind letters in offset rows
(``offset`` ``even-r``: even rows sit half a tile to the right; ``odd-r`` the other way), one
character per column, a space or ``-`` for no tile; ``legend`` maps letters to kinds (plain,
circle, triangle, square, star); exactly one ``star`` tile, which scores as ``star_kind``;
``values`` gives each kind's capture rule ``base + piece_multiplier * piece value`` (the
completing piece's own value is always added on top).

Piece-set file (``"format": "tangle-pieces"``): ``pieces``, each with ``name``, ``value``,
``count`` (per colour) and its shape as ``turns`` (L/R string, see
:func:`~tanglekit.shapes.hexsides.chain_from_turns`) or ``sides`` (``[[a, b], ...]`` in doubled
axial side coordinates). Both defaults are **assumed** data (docs/rules.md), named ``tangle-default``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import FormatError, ShapeError
from ...jsonio import check_text_arg, load_json_source, looks_like_json, read_json_file
from ...shapes.hexgrid import DIRECTIONS, OFFSETS, Tile, axial_to_offset, offset_to_axial
from ...shapes.hexsides import chain_from_turns, side_piece
from ...shapes.polyform import Polyform
from .formats import BOARD, MAX_TILES, PIECES, check_format
from .svg import svg_position

DATA = Path(__file__).resolve().parent / "data"
KINDS = ("plain", "circle", "triangle", "square")
DEFAULT_VALUES = {
    "plain": (1, 0),
    "circle": (2, 0),
    "triangle": (2, 2),
    "square": (4, 2),
}
DEFAULT_LEGEND = {".": "plain", "o": "circle", "t": "triangle", "s": "square", "*": "star"}


@dataclass(frozen=True)
class Board:
    """Tiles (axial, sorted by row then column), their kinds, the star and the capture values."""

    name: str
    tiles: tuple[Tile, ...]
    kinds: tuple[str, ...]
    star: int  # index into tiles
    values: dict = field(default_factory=lambda: dict(DEFAULT_VALUES))
    offset: str = "even-r"
    assumed: bool = False

    def tile_value(self, t: int, piece_value: int) -> int:
        """Points for capturing tile ``t`` with a piece of ``piece_value`` (piece + tile rule)."""
        base, mult = self.values[self.kinds[t]]
        return piece_value + base + mult * piece_value

    def index(self) -> dict[Tile, int]:
        return {t: i for i, t in enumerate(self.tiles)}

    def to_svg(self) -> str:
        """The empty board (tile kinds, the Center Star) as an SVG document."""
        from types import SimpleNamespace

        return svg_position(SimpleNamespace(board=self, n_players=0), title=self.name, legend=False)

    def _repr_svg_(self) -> str:  # Jupyter shows the picture
        return self.to_svg()

    def rows_text(self) -> list[str]:
        """The board as offset rows of kind letters (star as ``*``)."""
        letters = {v: k for k, v in DEFAULT_LEGEND.items()}
        cells = {axial_to_offset(t, self.offset): i for i, t in enumerate(self.tiles)}
        rmin = min(r for _, r in cells)
        rmax = max(r for _, r in cells)
        cmin = min(c for c, _ in cells)
        cmax = max(c for c, _ in cells)
        out = []
        for r in range(rmin, rmax + 1):
            line = ""
            for c in range(cmin, cmax + 1):
                i = cells.get((c, r))
                line += "-" if i is None else ("*" if i == self.star else letters[self.kinds[i]])
            out.append(line.rstrip("-"))
        return out

    def to_json(self) -> dict:
        star_kind = self.kinds[self.star]
        return {
            "format": BOARD.tag,
            "version": BOARD.version,
            "name": self.name,
            "assumed": self.assumed,
            "offset": self.offset,
            "legend": DEFAULT_LEGEND,
            "star_kind": star_kind,
            "values": {k: {"base": b, "piece_multiplier": m} for k, (b, m) in self.values.items()},
            "rows": self.rows_text(),
        }


@dataclass(frozen=True)
class PieceKind:
    name: str
    value: int
    count: int
    shape: Polyform  # on the hexside lattice, normalised
    turns: str | None = None

    @property
    def size(self) -> int:
        return self.shape.area


@dataclass(frozen=True)
class PieceSet:
    name: str
    kinds: tuple[PieceKind, ...]
    assumed: bool = False

    def __len__(self) -> int:
        return len(self.kinds)

    def index(self, name: str) -> int:
        for i, k in enumerate(self.kinds):
            if k.name == name:
                return i
        raise FormatError(f"unknown piece {name!r}: expected one of {', '.join(k.name for k in self.kinds)}")

    def to_json(self) -> dict:
        pieces = []
        for k in self.kinds:
            d = {"name": k.name, "value": k.value, "count": k.count}
            if k.turns is not None:
                d["turns"] = k.turns
            else:
                d["sides"] = [list(s) for s in k.shape.cells]
            pieces.append(d)
        return {"format": PIECES.tag, "version": PIECES.version, "name": self.name,
                "assumed": self.assumed, "pieces": pieces}


# --- parsing ----------------------------------------------------------------------------------


def _read_json(spec: str | Path | dict, what: str, suffix: str) -> tuple[dict, str]:
    if isinstance(spec, dict):
        return spec, "<inline>"
    if isinstance(spec, str) and looks_like_json(spec):
        return load_json_source(spec, f"Tangle {what}")
    s = check_text_arg(str(spec), f"{what} name or path", 4096)
    path = Path(s)
    try:
        found = path.is_file()
    except OSError:
        found = False
    if not found:
        builtin = DATA / f"{s}.{suffix}.json"
        if re.fullmatch(r"[A-Za-z0-9_\-]+", s) and builtin.exists():
            path = builtin
        else:
            names = sorted(p.name.split(".")[0] for p in DATA.glob(f"*.{suffix}.json"))
            raise FormatError(f"no {what} file {s!r} (built-in: {', '.join(names)})")
    return read_json_file(path, f"{what} file"), str(path)


def parse_board(data: dict, where: str = "<board>") -> Board:
    """A Board from its JSON form; FormatError naming the problem otherwise."""
    check_format(data, BOARD, where)
    offset = data.get("offset", "even-r")
    if offset not in OFFSETS:
        raise FormatError(f"{where}: offset must be even-r or odd-r, not {offset!r}")
    legend = data.get("legend", DEFAULT_LEGEND)
    if not isinstance(legend, dict):
        raise FormatError(f"{where}: legend must map letters to kinds")
    for letter, kind in legend.items():
        if len(letter) != 1 or letter in " -":
            raise FormatError(f"{where}: legend key {letter!r} must be one character other than space or -")
        if kind not in KINDS and kind != "star":
            raise FormatError(f"{where}: legend kind {kind!r} is not one of {', '.join(KINDS)}, star")
    star_kind = data.get("star_kind", "plain")
    if star_kind not in KINDS:
        raise FormatError(f"{where}: star_kind must be one of {', '.join(KINDS)}, not {star_kind!r}")
    values = dict(DEFAULT_VALUES)
    raw_values = data.get("values", {})
    if not isinstance(raw_values, dict):
        raise FormatError(f"{where}: values must be an object")
    for kind, v in raw_values.items():
        if kind not in KINDS:
            raise FormatError(f"{where}: values has unknown kind {kind!r}")
        try:
            base, mult = int(v["base"]), int(v.get("piece_multiplier", 0))
        except (TypeError, KeyError, ValueError):
            raise FormatError(f"{where}: values.{kind} needs integer base (and piece_multiplier)") from None
        if base < 0 or mult < 0:
            raise FormatError(f"{where}: values.{kind} must not be negative")
        values[kind] = (base, mult)
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise FormatError(f"{where}: rows must be a non-empty list of strings")
    tiles: list[Tile] = []
    kinds: list[str] = []
    star = -1
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch in " -":
                continue
            if ch not in legend:
                raise FormatError(f"{where}: row {r} column {c}: letter {ch!r} is not in the legend")
            kind = legend[ch]
            if kind == "star":
                if star >= 0:
                    raise FormatError(f"{where}: more than one star tile (second at row {r} column {c})")
                star = len(tiles)
                kind = star_kind
            tiles.append(offset_to_axial(c, r, offset))
            kinds.append(kind)
    if not tiles:
        raise FormatError(f"{where}: the board has no tiles")
    if len(tiles) > MAX_TILES:
        raise FormatError(f"{where}: the board has {len(tiles)} tiles (at most {MAX_TILES})")
    if star < 0:
        raise FormatError(f"{where}: no Center Star tile (mark one tile with the star letter)")
    _check_connected(tiles, where)
    order = sorted(range(len(tiles)), key=lambda i: (tiles[i][1], tiles[i][0]))
    tiles_s = tuple(tiles[i] for i in order)
    kinds_s = tuple(kinds[i] for i in order)
    star_s = order.index(star)
    return Board(
        name=str(data.get("name", where)),
        tiles=tiles_s,
        kinds=kinds_s,
        star=star_s,
        values=values,
        offset=offset,
        assumed=bool(data.get("assumed", False)),
    )


def _check_connected(tiles: list[Tile], where: str) -> None:
    ts = set(tiles)
    seen = {tiles[0]}
    todo = [tiles[0]]
    while todo:
        q, r = todo.pop()
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if n in ts and n not in seen:
                seen.add(n)
                todo.append(n)
    if len(seen) != len(ts):
        raise FormatError(f"{where}: the tiles do not form one connected board")


def parse_pieces(data: dict, where: str = "<pieces>") -> PieceSet:
    """A PieceSet from its JSON form; FormatError naming the problem otherwise."""
    check_format(data, PIECES, where)
    raw = data.get("pieces")
    if not isinstance(raw, list) or not raw:
        raise FormatError(f"{where}: pieces must be a non-empty list")
    kinds: list[PieceKind] = []
    names: set[str] = set()
    keys: dict = {}
    for i, p in enumerate(raw):
        label = f"{where}: piece {i + 1}"
        if not isinstance(p, dict):
            raise FormatError(f"{label}: expected an object with name, value, count and turns or sides")
        name = p.get("name")
        if not isinstance(name, str) or not name.strip():
            raise FormatError(f"{label}: needs a name")
        label = f"{where}: piece {name!r}"
        if name in names:
            raise FormatError(f"{label}: duplicate name")
        names.add(name)
        value, count = p.get("value"), p.get("count")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise FormatError(f"{label}: value must be a non-negative integer")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise FormatError(f"{label}: count must be a non-negative integer")
        turns = p.get("turns")
        try:
            if turns is not None:
                if not isinstance(turns, str):
                    raise FormatError(f"{label}: turns must be a string of L and R")
                shape = chain_from_turns(turns)
            elif "sides" in p:
                shape = side_piece(p["sides"])
            else:
                raise FormatError(f"{label}: give its shape as turns (L/R string) or sides")
        except ShapeError as e:
            raise FormatError(f"{label}: {e}") from None
        shape = shape.normalized()
        key = shape.key("free")
        if key in keys:
            raise FormatError(f"{label}: same shape as piece {keys[key]!r} (shapes must differ)")
        keys[key] = name
        kinds.append(PieceKind(name, value, count, shape, turns.upper() if turns is not None else None))
    if sum(k.count for k in kinds) == 0:
        raise FormatError(f"{where}: every count is 0, players would have no pieces")
    return PieceSet(str(data.get("name", where)), tuple(kinds), bool(data.get("assumed", False)))


def load_board(spec: str | Path | dict = "tangle-default") -> Board:
    """A board from a file path, a built-in name (``tangle-default``) or a parsed JSON object."""
    data, where = _read_json(spec, "board", "board")
    return parse_board(data, where)


def load_pieces(spec: str | Path | dict = "tangle-default") -> PieceSet:
    """A piece set from a file path, a built-in name (``tangle-default``) or a parsed JSON object."""
    data, where = _read_json(spec, "piece-set", "pieces")
    return parse_pieces(data, where)


def default_board() -> Board:
    return load_board("tangle-default")


def default_pieces() -> PieceSet:
    return load_pieces("tangle-default")


def small_board(radius: int = 1, kinds: str = "plain") -> Board:
    """A hexagon-shaped board of the given radius around the star (tests, quick puzzles)."""
    tiles = []
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            if abs(q + r) <= radius:
                tiles.append((q, r))
    tiles.sort(key=lambda t: (t[1], t[0]))
    ks = []
    for t in tiles:
        if kinds == "plain":
            ks.append("plain")
        else:  # a mix for puzzles: ring distance picks the kind
            d = max(abs(t[0]), abs(t[1]), abs(t[0] + t[1]))
            ks.append(("plain", "circle", "triangle", "square")[(d + t[0] - t[1]) % 4] if d else "plain")
    return Board(f"hexagon-{radius}", tuple(tiles), tuple(ks), tiles.index((0, 0)), dict(DEFAULT_VALUES))


__all__ = [
    "Board",
    "PieceKind",
    "PieceSet",
    "default_board",
    "default_pieces",
    "load_board",
    "load_pieces",
    "parse_board",
    "parse_pieces",
    "small_board",
]
