"""Tangle file formats, declared once: board, piece set, state and puzzle (pydantic schemas).

Every reader goes through :func:`check_format`: the ``format`` tag (the tags written before
tanglekit used the ``tanglekit/`` prefix are still read), the version, then the schema, with
bounded numbers and sizes so a hostile file cannot blow up placement generation. Content
rules beyond shape (one star, a connected board, moves legal in order, stored scores matching
the replay) are checked by the parsers in ``board.py`` and ``engine.py``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ...errors import FormatError
from ...jsonio import expect_format, identify, register_format, validate

MAX_ROWS = 40  # rows (and columns) of a board file; the default board has 11 x 9
MAX_TILES = 400  # tiles of a board (placement tables grow with it)
MAX_KINDS = 26  # piece kinds in a set
MAX_PIECE_SIDES = 12  # sides of one piece
MAX_COUNT = 200  # pieces of one kind per colour
MAX_MOVES = 4 * MAX_KINDS * MAX_COUNT + 64  # a move log cannot be longer than the pieces (plus passes)
COORD = 10_000  # doubled side coordinates; a board of MAX_ROWS rows stays far inside

Coord = Annotated[StrictInt, Field(ge=-COORD, le=COORD)]
SideCoord = Annotated[list[Coord], Field(min_length=2, max_length=2)]
Name = Annotated[StrictStr, Field(min_length=1, max_length=200)]
Kind = Literal["plain", "circle", "triangle", "square"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ValueRule(_Model):
    base: Annotated[StrictInt, Field(ge=0, le=1000)]
    piece_multiplier: Annotated[StrictInt, Field(ge=0, le=100)] = 0


class _Embeddable(_Model):
    """A file that may also sit inline in a state (then with its own tag and version)."""

    format: Optional[Literal["tanglekit/tangle-board", "tangle-board", "tanglekit/tangle-pieces",
                             "tangle-pieces"]] = None
    version: Optional[Annotated[StrictInt, Field(ge=1, le=1)]] = None


class BoardModel(_Embeddable):
    """``tanglekit/tangle-board``: offset rows of kind letters, legend, star, capture values."""

    name: Optional[Name] = None
    assumed: StrictBool = False
    note: Optional[Annotated[StrictStr, Field(max_length=4000)]] = None
    offset: Literal["even-r", "odd-r"] = "even-r"
    legend: Optional[dict[Annotated[StrictStr, Field(min_length=1, max_length=1)],
                          Literal["plain", "circle", "triangle", "square", "star"]]] = None
    star_kind: Kind = "plain"
    values: dict[Kind, ValueRule] = Field(default_factory=dict)
    rows: Annotated[list[Annotated[StrictStr, Field(max_length=MAX_ROWS)]], Field(min_length=1, max_length=MAX_ROWS)]


class PieceModel(_Model):
    name: Annotated[StrictStr, Field(min_length=1, max_length=12, pattern=r"^[A-Za-z0-9_+\-]+$")]
    value: Annotated[StrictInt, Field(ge=0, le=100)]
    count: Annotated[StrictInt, Field(ge=0, le=MAX_COUNT)]
    turns: Optional[Annotated[StrictStr, Field(max_length=MAX_PIECE_SIDES - 1, pattern=r"^[LRlr]*$")]] = None
    sides: Optional[Annotated[list[SideCoord], Field(min_length=1, max_length=MAX_PIECE_SIDES)]] = None


class PiecesModel(_Embeddable):
    """``tanglekit/tangle-pieces``: the piece kinds, each with a value, a count and a shape."""

    name: Optional[Name] = None
    assumed: StrictBool = False
    note: Optional[Annotated[StrictStr, Field(max_length=4000)]] = None
    pieces: Annotated[list[PieceModel], Field(min_length=1, max_length=MAX_KINDS)]


class MoveModel(_Model):
    piece: Annotated[StrictStr, Field(min_length=1, max_length=12)]
    sides: Annotated[list[SideCoord], Field(min_length=1, max_length=MAX_PIECE_SIDES)]


Move = Union[Literal["pass"], MoveModel, Annotated[StrictStr, Field(max_length=200)]]
OptionValue = Union[StrictBool, Annotated[StrictInt, Field(ge=0, le=10**6)], Annotated[StrictStr, Field(max_length=40)]]


class StateModel(_Model):
    """``tanglekit/tangle-state``: the game set-up and its move log (the position is the replay)."""

    board: Union[Annotated[StrictStr, Field(min_length=1, max_length=200)], BoardModel] = "tangle-default"
    pieces: Union[Annotated[StrictStr, Field(min_length=1, max_length=200)], PiecesModel] = "tangle-default"
    players: Annotated[StrictInt, Field(ge=2, le=4)] = 2
    options: Optional[dict[Annotated[StrictStr, Field(max_length=40)], OptionValue]] = None
    moves: Annotated[list[Move], Field(max_length=MAX_MOVES)]
    scores: Optional[Annotated[list[Annotated[StrictInt, Field(ge=0, le=10**7)]], Field(max_length=4)]] = None
    to_move: Optional[Annotated[StrictInt, Field(ge=0, le=3)]] = None
    over: Optional[StrictBool] = None


class PuzzleModel(StateModel):
    """``tanglekit/tangle-puzzle``: a state plus the question, its proven points and a solution."""

    id: Optional[Annotated[StrictStr, Field(max_length=100_000)]] = None
    seed_id: Optional[Annotated[StrictStr, Field(max_length=100_000)]] = None
    question: Optional[Annotated[StrictStr, Field(max_length=400)]] = None
    points: Annotated[StrictInt, Field(ge=0, le=10**6)]
    solution: Annotated[list[Move], Field(min_length=1, max_length=MAX_MOVES)]
    solution_text: Optional[list[Annotated[StrictStr, Field(max_length=200)]]] = None
    chain_length: Optional[Annotated[StrictInt, Field(ge=0, le=MAX_MOVES)]] = None
    greedy_points: Optional[Annotated[StrictInt, Field(ge=0, le=10**6)]] = None
    positions_tried: Optional[Annotated[StrictInt, Field(ge=0, le=10**9)]] = None


def _has(*keys: str):
    return lambda d: isinstance(d, dict) and all(k in d for k in keys)


BOARD = register_format("tanglekit/tangle-board", 1, "Tangle board", BoardModel,
                        sniff=lambda d: _has("rows")(d) and ("legend" in d or "star_kind" in d))
PIECES = register_format("tanglekit/tangle-pieces", 1, "Tangle piece set", PiecesModel,
                         sniff=lambda d: _has("pieces")(d) and isinstance(d["pieces"], list)
                         and all(isinstance(p, dict) and "count" in p and "value" in p for p in d["pieces"])
                         and "board" not in d)
PUZZLE = register_format("tanglekit/tangle-puzzle", 1, "Tangle puzzle", PuzzleModel,
                         sniff=_has("board", "pieces", "players", "moves", "points", "solution"))
STATE = register_format("tanglekit/tangle-state", 1, "Tangle position", StateModel,
                        sniff=lambda d: _has("board", "pieces", "players", "moves")(d) and "solution" not in d)
# a state needs at least its move log: {} or {"foo": 1} is not a fresh game

# tags written by earlier versions
LEGACY_TAGS = {"tangle-board": BOARD, "tangle-pieces": PIECES, "tangle-state": STATE, "tangle-puzzle": PUZZLE}


def check_format(data: Any, expected, where: str):
    """Check the tag, version and schema of ``data`` (one format or a tuple); return the format.
    Untagged files are read as the first expected format when they fit its schema."""
    if isinstance(data, dict) and isinstance(data.get("format"), str) and data["format"] in LEGACY_TAGS:
        data = {**data, "format": LEGACY_TAGS[data["format"]].tag}
    wanted = expected if isinstance(expected, tuple) else (expected,)
    if isinstance(data, dict) and "format" not in data:
        seen = identify(data)
        if seen in wanted:  # an untagged file of one of the expected formats: read it as that
            wanted = (seen,) + tuple(f for f in wanted if f is not seen)
    fmt = expect_format(data, wanted, where)
    validate(data, fmt.schema(), where)
    return fmt


def refuse(where: str, why: str) -> FormatError:
    return FormatError(f"{where}: {why}")
