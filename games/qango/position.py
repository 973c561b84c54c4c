"""QANGO positions and the game engine: text/JSON forms, validation, legal moves, outcome, move log.

This is the plain rules code: the proof checker and the reference minimax use it, never the solver.
X (White) moves first; the side to move follows from the counter counts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from ...errors import FormatError, RuleError
from ...jsonio import (
    check_text_arg,
    expect_format,
    is_ascii_digits,
    parse_json_text,
    register_format,
    short,
    tagged,
    validate,
)
from ..options import RuleOptions, option
from .board import BUILTIN_BOARDS, Board, _builtin, board_from_json, load_board
from .svg import board_svg


def _position_model():
    """The pydantic schema of a position file: a board and the counters (text rows or cell lists)."""
    from typing import Annotated, Literal, Optional, Union

    from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator

    Cells = Annotated[list[Annotated[StrictInt, Field(ge=0, le=62)]], Field(max_length=63)]

    class PositionModel(BaseModel):
        model_config = ConfigDict(extra="forbid")
        board: Optional[Union[Annotated[StrictStr, Field(max_length=300)], dict]] = None
        position: Optional[Annotated[StrictStr, Field(max_length=400)]] = None
        x: Optional[Cells] = None
        o: Optional[Cells] = None
        # a player number or a side letter; not Literal[0, 1], which takes true and 1.0 (== 1)
        to_move: Optional[Union[Annotated[StrictInt, Field(ge=0, le=1)], Literal["X", "O"]]] = None
        side: Optional[Literal["X", "O"]] = None
        opening: Optional[Annotated[StrictStr, Field(max_length=60)]] = None
        outcome: Optional[Literal["X", "O", "draw"]] = None
        id: Optional[Annotated[StrictStr, Field(max_length=2000)]] = None

        @model_validator(mode="after")
        def _one_form(self):
            if (self.position is None) == (self.x is None and self.o is None):
                raise ValueError("needs either 'position' (rows of . X O #) or cell lists 'x' and 'o'")
            return self

    return PositionModel


_POSITION_KEYS = {"board", "position", "x", "o", "to_move", "side", "opening", "outcome", "id"}


def _sniff_position(d) -> bool:
    """An untagged QANGO position: only position keys, and the counters as rows or cell lists."""
    if not isinstance(d, dict) or not set(d) <= _POSITION_KEYS or not ("position" in d or "x" in d):
        return False
    text = d.get("position")
    return text is None or (isinstance(text, str) and set(text) <= set(".XOxo#/\n -_") or text == "empty")


POSITION_FORMAT = register_format("tanglekit/qango-position", 1, "QANGO position", _position_model, _sniff_position)


@dataclass(frozen=True)
class QangoOptions(RuleOptions):
    """QANGO rule options (docs/rules.md readings, defaults given there); the board and opening are
    checked when resolved, since the openings a board knows depend on the board."""

    GAME = "QANGO"
    board: str = option("6", "`6`, `7`, `7plus` or a JSON board file")
    opening: str = option("standard", "cells forbidden for the first counter: 6 `castle`, `tournament`; 7 `castle`, "
                          "`professionals-1`, `professionals-2`; 7 Plus `edges`, `tournament` (the 7×7 names are "
                          "inferred from their nesting)")
    max_counters: int | None = option(None, "draw after this many counters: 40 on QANGO 7, a full board on QANGO 6 "
                                      "and 7 Plus", minimum=1, shown="board rule")

    def __post_init__(self) -> None:
        super().__post_init__()
        mc = self.max_counters
        if mc is not None and (isinstance(mc, bool) or not isinstance(mc, int) or mc < 1):
            raise RuleError(f"QANGO option max_counters must be a positive whole number, not {mc!r}")

    @classmethod
    def from_dict(cls, data: dict | None) -> "QangoOptions":
        data = dict(data or {})
        mc = data.get("max_counters")
        if isinstance(mc, str):  # "none" / "board": the board's own rule
            data["max_counters"] = None if mc.strip().lower() in ("", "none", "null", "board") else _int(mc, "max_counters")
        if isinstance(data.get("board"), int) and not isinstance(data.get("board"), bool):
            data["board"] = str(data["board"])
        return super().from_dict(data)

    from_json = from_dict

    def to_dict(self) -> dict:
        return self.to_json()

    def resolve(self) -> tuple[Board, frozenset[int]]:
        """The board (with ``max_counters`` applied) and the cells allowed for the first counter."""
        board = load_board(self.board)
        if self.max_counters is not None:
            if self.max_counters < 1:
                raise RuleError("max_counters must be positive")
            board = replace(board, max_counters=int(self.max_counters))
        return board, board.opening_cells(self.opening)


def _int(s: str, what: str) -> int:
    """A whole number typed as text: ASCII digits only (``jsonio.is_ascii_digits``)."""
    t = s.strip()
    if not is_ascii_digits(t, signed=True) or len(t) > 20:
        raise RuleError(f"{what} must be an integer, not {short(s)}")
    return int(t)


def popcount(m: int) -> int:
    return bin(m).count("1")


def wins_mask(board: Board, side: int) -> list[int]:
    """Indices of win patterns fully owned by ``side``."""
    return [i for i, p in enumerate(board.pattern_masks) if p & side == p]


def completing_cells(board: Board, side: int, other: int) -> int:
    """Mask of the empty cells that would complete a pattern of ``side`` (one cell short, not
    blocked by ``other``): where ``side`` wins at once, or must be blocked."""
    cells = 0
    for q in board.pattern_masks:
        if not q & other:
            rest = q & ~side
            if rest and not rest & (rest - 1):
                cells |= rest
    return cells


def has_win(board: Board, side: int) -> bool:
    for p in board.pattern_masks:  # a plain loop: no generator object per call
        if p & side == p:
            return True
    return False


@dataclass(frozen=True, eq=False)
class Position:
    """Counters of both sides as bit masks on a board; ``allowed_first`` = opening rule cells."""

    board: Board
    x: int = 0
    o: int = 0
    allowed_first: frozenset[int] | None = None

    def __eq__(self, other) -> bool:
        return isinstance(other, Position) and (self.board is other.board and self.x == other.x and self.o == other.o)

    def __hash__(self) -> int:
        return hash((id(self.board), self.x, self.o))

    # --- basic facts -------------------------------------------------------------------------
    @property
    def n_counters(self) -> int:
        return popcount(self.x | self.o)

    @property
    def to_move(self) -> str:
        """'X' or 'O'."""
        return "X" if popcount(self.x) == popcount(self.o) else "O"

    def sides(self) -> tuple[int, int]:
        """(mover, opponent) masks."""
        return (self.x, self.o) if self.to_move == "X" else (self.o, self.x)

    def empty_mask(self) -> int:
        return self.board.mask & ~(self.x | self.o)

    def winner(self) -> str | None:
        return self._winner

    @cached_property
    def _winner(self) -> str | None:
        # once per position: play, is_over, legal_moves and the searches over positions all ask
        if has_win(self.board, self.x):
            return "X"
        if has_win(self.board, self.o):
            return "O"
        return None

    def is_over(self) -> bool:
        return self.winner() is not None or self.n_counters >= self.board.limit or not self.empty_mask()

    def outcome(self) -> str | None:
        """'X', 'O', 'draw', or None while the game goes on."""
        w = self.winner()
        if w:
            return w
        return "draw" if self.is_over() else None

    def legal_moves(self) -> list[int]:
        """Empty cells the side to move may take (the opening rule binds the first counter)."""
        if self.is_over():
            return []
        empty = self.empty_mask()
        cells = [c for c in self.board.cells if empty >> c & 1]
        if self.n_counters == 0 and self.allowed_first is not None:
            cells = [c for c in cells if c in self.allowed_first]
        return cells

    def _legal(self, cell: int) -> bool:
        if not isinstance(cell, int) or not 0 <= cell < self.board.n_cells or not self.empty_mask() >> cell & 1:
            return False
        if self.n_counters == 0 and self.allowed_first is not None and cell not in self.allowed_first:
            return False
        return not self.is_over()

    def play(self, cell: int) -> "Position":
        """The position after the side to move puts a counter on ``cell`` (RuleError if illegal)."""
        if not self._legal(cell):
            if self.is_over():
                raise RuleError("the game is over")
            r, c = self.board.rc(cell) if 0 <= cell < self.board.n_cells else (None, None)
            raise RuleError(f"illegal move {cell} (row {r}, col {c}): not a free cell the rules allow")
        bit = 1 << cell
        if self.to_move == "X":
            return Position(self.board, self.x | bit, self.o, self.allowed_first)
        return Position(self.board, self.x, self.o | bit, self.allowed_first)

    # --- text forms ----------------------------------------------------------------------------
    def to_text(self, sep: str = "/") -> str:
        b = self.board
        rows = []
        for r in range(b.height):
            s = ""
            for c in range(b.width):
                i = r * b.width + c
                s += "#" if i in b.off_board else "X" if self.x >> i & 1 else "O" if self.o >> i & 1 else "."
            rows.append(s)
        return sep.join(rows)

    def to_json(self) -> dict:
        """The position file (``tanglekit/qango-position``); a board that is not built in is embedded."""
        builtin = self.board.name in BUILTIN_BOARDS and _same_board(self.board, _builtin(self.board.name))
        board = self.board.name if builtin else self.board.to_json()
        return tagged(POSITION_FORMAT, {"board": board, "position": self.to_text(),
                                        "to_move": 0 if self.to_move == "X" else 1, "side": self.to_move})

    def to_svg(self) -> str:
        return board_svg(self.board, self.x, self.o, title=f"{self.to_move} to move")

    def _repr_svg_(self) -> str:  # Jupyter shows the picture
        return self.to_svg()

    def validate(self) -> "Position":
        """Raise RuleError unless the position can arise in a game under these rules."""
        b = self.board
        if self.x & self.o:
            raise RuleError("a cell holds both X and O")
        if (self.x | self.o) & ~b.mask:
            raise RuleError("a counter stands on an off-board cell")
        nx, no = popcount(self.x), popcount(self.o)
        if nx not in (no, no + 1):
            raise RuleError(f"counts X={nx}, O={no} do not fit alternate play with X first")
        if nx + no > b.limit:
            raise RuleError(f"{nx + no} counters exceed the limit of {b.limit} on {b.title}")
        wx, wo = wins_mask(b, self.x), wins_mask(b, self.o)
        if wx and wo:
            raise RuleError("both sides have a winning pattern")
        last, lastmask, wl = ("X", self.x, wx) if nx > no else ("O", self.o, wo)
        if (wx and last == "O") or (wo and last == "X"):
            raise RuleError("the side that did not move last has already won: the game ended earlier")
        if wl:  # every completed pattern must contain the last counter placed
            pm = b.pattern_masks
            common = lastmask
            for i in wl:
                common &= pm[i]
            if not common:
                raise RuleError(f"{last} has winning patterns with no common counter: the game ended earlier")
        if self.allowed_first is not None and nx and not any(self.x >> c & 1 for c in self.allowed_first):
            raise RuleError("no X counter stands on a cell the opening rule allows for the first counter")
        return self


def _same_board(a: Board, b: Board) -> bool:
    """Same geometry, triples and draw rule (names and colours aside)."""
    return (a.width, a.height, a.off_board, a.max_counters) == (b.width, b.height, b.off_board, b.max_counters) \
        and [t.cells for t in a.triples] == [t.cells for t in b.triples]


def parse_position(text: str, board: "Board | str | None" = None, allowed_first=None,
                   validate: bool = True) -> Position:
    """Parse the docs/rules.md text form (rows by newline or '/', '.', 'X', 'O', '#') or ``empty``.

    Without a board the size picks it: 6 rows -> QANGO 6; 7 rows -> 7 Plus when the corners are
    '#', else QANGO 7.
    """
    if not isinstance(text, str):
        raise FormatError("position must be a string")
    check_text_arg(text, "position")
    t = text.strip()
    if t.startswith("{"):
        return position_from_json(parse_json_text(t, "inline position", "QANGO position"), board, allowed_first,
                                  validate)
    if not t:
        raise FormatError("empty position: give rows of . X O # (by '/' or newlines) or 'empty'")
    if t.lower() == "empty":
        b = load_board(board)
        return Position(b, 0, 0, allowed_first)
    rows = [r.strip().replace(" ", "") for r in t.replace("/", "\n").splitlines() if r.strip()]
    if board is None:
        if len(rows) == 6:
            board = "6"
        elif len(rows) == 7:
            board = "7plus" if rows[0][:1] == "#" else "7"
        else:
            raise FormatError(f"position has {len(rows)} rows: expected 6 or 7 (or pass a board); "
                              "rows are separated by '/' or newlines")
    b = load_board(board)
    if len(rows) != b.height:
        raise FormatError(f"position has {len(rows)} rows, board {b.title} has {b.height}")
    x = o = 0
    for r, row in enumerate(rows):
        if len(row) != b.width:
            raise FormatError(f"position row {r + 1} {short(row)} has {len(row)} cells, expected {b.width}")
        for c, ch in enumerate(row):
            i = r * b.width + c
            ch = ch.upper()
            if ch == "#":
                if i not in b.off_board:
                    raise FormatError(f"row {r + 1}, col {c + 1}: '#' marks a cell that is on the {b.title} board")
            elif ch == "X":
                x |= 1 << i
            elif ch == "O":
                o |= 1 << i
            elif ch not in ".-_":
                raise FormatError(f"row {r + 1}, col {c + 1}: unknown symbol {ch!r} (use . X O #)")
            if ch in "XO" and i in b.off_board:
                raise FormatError(f"row {r + 1}, col {c + 1}: a counter on an off-board cell")
    p = Position(b, x, o, allowed_first)
    return p.validate() if validate else p


def position_from_json(data: dict, board=None, allowed_first=None, validate: bool = True,
                       where: str = "position JSON") -> Position:
    """JSON form: {"board": ..., "position": text} or {"board": ..., "x": [cells], "o": [cells]}
    (schema ``tanglekit/qango-position``; other formats are refused)."""
    expect_format(data, POSITION_FORMAT, where)
    m = validate_model(data, where)
    if board is None and m.board is not None:
        board = board_from_json(m.board, f"{where} board") if isinstance(m.board, dict) else m.board
    b = load_board(board)
    if m.position is not None:
        p = parse_position(m.position, b, allowed_first, validate)
    else:
        x = o = 0
        for key, cells in (("x", m.x or []), ("o", m.o or [])):
            if len(set(cells)) != len(cells):
                raise FormatError(f"{where}: {key} lists a cell twice")
            for c in cells:
                if not c < b.n_cells or c in b.off_board:
                    raise FormatError(f"{where}: {key} cell {c} is not on the {b.title} board")
            mask = sum(1 << c for c in cells)
            x, o = (mask, o) if key == "x" else (x, mask)
        p = Position(b, x, o, allowed_first)
        p = p.validate() if validate else p
    side = m.side if m.side is not None else {0: "X", 1: "O"}.get(m.to_move, m.to_move)
    if side is not None and side != p.to_move:
        raise FormatError(f"{where}: says {side} to move, but the counters give {p.to_move} to move")
    return p


def validate_model(data, where: str):
    """The position document checked against its schema (one-line FormatError)."""
    return validate(data, POSITION_FORMAT.schema(), where, "QANGO position")


class Game:
    """A game with a replayable move log: ``play``, ``undo``, ``replay``, continue from any point."""

    def __init__(self, options: QangoOptions | None = None, start: Position | None = None):
        self.options = options or QangoOptions()
        board, allowed = self.options.resolve()
        self.start = start or Position(board, 0, 0, allowed)
        self.moves: list[int] = []
        self.position = self.start

    def play(self, cell: int) -> Position:
        self.position = self.position.play(cell)
        self.moves.append(cell)
        return self.position

    def undo(self) -> int:
        if not self.moves:
            raise RuleError("nothing to undo")
        cell = self.moves.pop()
        self.position = self.replay(self.moves)
        return cell

    def replay(self, moves) -> Position:
        p = self.start
        for m in moves:
            p = p.play(m)
        return p

    def log(self) -> dict:
        return {"options": self.options.to_dict(), "start": self.start.to_text(), "moves": list(self.moves)}

    @classmethod
    def from_log(cls, data: dict) -> "Game":
        opts = QangoOptions.from_dict(data.get("options"))
        board, allowed = opts.resolve()
        start = parse_position(data.get("start", "empty"), board, allowed)
        g = cls(opts, start)
        for m in data.get("moves", []):
            g.play(int(m))
        return g


# -- move counts in words (docs/json.md, Conventions: every count with its unit) --------------
def counters_of(plies: int | None) -> int | None:
    """The winner's counters in a line of ``plies`` plies that ends with the winner's counter
    (a win in 5 plies: 3 counters of the winner; a loss in 14: 7 counters of the opponent)."""
    return None if plies is None else (plies + 1) // 2


def plies_text(plies: int) -> str:
    """A win's length with both units: ``3 counters (5 plies)`` (counters: the winner's own)."""
    k = counters_of(plies)
    return f"{k} counter{'s' if k != 1 else ''} ({plies} pl{'ies' if plies != 1 else 'y'})"


def value_text(value: str, plies: int | None, side: str) -> str:
    """A solver value for ``side`` (X or O, the side it is for) with its length in counters and
    plies: ``win in 3 counters (5 plies)``, ``loss: O wins in 7 counters (14 plies)``,
    ``draw after 9 plies``, ``unknown``."""
    if plies is None or value not in ("win", "loss", "draw"):
        return value
    if value == "win":
        return f"win in {plies_text(plies)}"
    if value == "loss":
        return f"loss: {'O' if side == 'X' else 'X'} wins in {plies_text(plies)}"
    return f"draw after {plies} pl{'ies' if plies != 1 else 'y'}"
