"""A QANGO puzzle (a position where the side to move wins in k counters with one winning first
move) and its file (``tanglekit/qango-puzzle``): what `qango puzzle generate --json/--out` writes.

A puzzle is read back through its descriptive ``id`` (the whole instance); the other fields are
checked against it (``sources.puzzle_from_json``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...generators.ids import make_seed
from ...jsonio import register_format, tagged
from .board import Board
from .ids import _board_params, _with_k, puzzle_id
from .position import Position, plies_text
from .svg import board_svg


def _puzzle_model():
    from typing import Annotated, Literal, Optional, Union

    from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

    Text = Annotated[StrictStr, Field(max_length=2000)]
    Cell = Annotated[list[Annotated[StrictInt, Field(ge=0, le=8)]], Field(min_length=2, max_length=2)]

    class PuzzleModel(BaseModel):
        model_config = ConfigDict(extra="forbid")
        id: Text
        seed_id: Optional[Text] = None
        board: Optional[Text] = None
        opening: Optional[Text] = None
        position: Optional[Text] = None
        # a player number or a side letter; not Literal[0, 1], which takes true and 1.0 (== 1)
        to_move: Optional[Union[Annotated[StrictInt, Field(ge=0, le=1)], Literal["X", "O"]]] = None
        side: Optional[Literal["X", "O"]] = None
        k: Optional[Annotated[StrictInt, Field(ge=2, le=8)]] = None
        moves: Optional[Annotated[StrictInt, Field(ge=2, le=8)]] = None
        counters: Optional[Annotated[StrictInt, Field(ge=2, le=8)]] = None  # = k: the winner's counters
        plies: Optional[Annotated[StrictInt, Field(ge=3, le=15)]] = None
        best_move: Optional[Cell] = None
        line: Optional[Annotated[list[Annotated[StrictStr, Field(max_length=10)]], Field(max_length=1)]] = None
        key_move: Optional[Cell] = None
        defences: Optional[Annotated[StrictInt, Field(ge=0, le=64)]] = None
        difficulty: Optional[Literal["easy", "medium", "hard", "expert"]] = None
        grade: Optional[Literal["easy", "medium", "hard", "expert"]] = None

    return PuzzleModel


def _sniff_puzzle(d) -> bool:
    return (isinstance(d, dict) and "k" in d and ("key_move" in d or "best_move" in d)
            and isinstance(d.get("id"), str) and d["id"].startswith("qango:"))


PUZZLE_FORMAT = register_format("tanglekit/qango-puzzle", 1, "QANGO puzzle", _puzzle_model, _sniff_puzzle)


@dataclass
class Puzzle:
    """A position where the side to move wins in ``k`` moves with exactly one winning first move."""

    board: Board
    position: Position
    k: int
    key_move: int
    defences: int  # defender replies to the key move that hold out the longest
    seed: int | None
    opening: str = "standard"
    nodes: int = 0

    @property
    def id(self) -> str:
        """Descriptive shareable ID holding the whole instance."""
        return puzzle_id(self.board, self.k, self.position, self.opening)

    @property
    def seed_id(self) -> str | None:
        """Seed ID (every generation parameter in PARAMS); None off a built-in or generated board."""
        if self.seed is None:
            return None
        params = _board_params(self.board, self.opening, self.position.allowed_first, seed_form=True)
        return None if params is None else make_seed("qango", _with_k(params, self.k), self.seed)

    def win_text(self) -> str:
        """The puzzle's length with both units: ``3 counters (5 plies)``."""
        return plies_text(2 * self.k - 1)

    def to_json(self) -> dict:
        me = self.position.to_move
        key = list(self.board.rc(self.key_move))
        return tagged(PUZZLE_FORMAT, {
            "id": self.id,
            "seed_id": self.seed_id,
            "board": self.board.name,
            "opening": self.opening,
            "position": self.position.to_text(),
            "to_move": 0 if me == "X" else 1,
            "side": me,
            "k": self.k,
            "moves": self.k,
            "counters": self.k,
            "plies": 2 * self.k - 1,
            "best_move": key,
            "line": ["{},{}".format(*key)],
            "key_move": key,
            "defences": self.defences,
            "difficulty": grade(self.k, self.defences),
            "grade": grade(self.k, self.defences),
        })

    def svg(self) -> str:
        """The printable puzzle: board with row/column labels, legend, goal and ID."""
        me, other = self.position.to_move, "O" if self.position.to_move == "X" else "X"
        title = f"{me} to move wins in {self.win_text()}"
        notes = [f"Goal: {me} completes a triple, a 2x2 square or five in a row with at most",
                 f"{self.k} counters, whatever {other} plays. Moves are written row,col.",
                 f"ID {self.seed_id or self.id}"]
        return board_svg(self.board, self.position.x, self.position.o, title=title, notes=notes)

    def answer_svg(self) -> str:
        """The answer page: the key move marked 1 on the board, and in words."""
        r, c = self.board.rc(self.key_move)
        me = self.position.to_move
        notes = [f"Answer: {me} plays row {r}, col {c} ({r},{c}) and wins in {self.win_text()},",
                 f"against every one of the defences ({self.defences} hold out longest)."]
        return board_svg(self.board, self.position.x, self.position.o, marks={self.key_move: "1"},
                         title=f"Answer: {me} to move wins in {self.win_text()}", notes=notes)


def grade(k: int, defences: int) -> str:
    """Difficulty label from the number of moves and the defences the solver must refute."""
    score = 2 * (k - 1) + min(defences, 6) / 3
    return "easy" if score < 3 else "medium" if score < 5 else "hard" if score < 7 else "expert"
