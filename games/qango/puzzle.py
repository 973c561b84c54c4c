"""The QANGO puzzle file (``tanglekit/qango-puzzle``): what `qango puzzle generate --json/--out` writes.

A puzzle is read back through its descriptive ``id`` (the whole instance); the other fields are
checked against it. The generator and solver that make and check puzzles live in higher layers.
"""

from __future__ import annotations

from ...jsonio import register_format


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
        to_move: Optional[Union[Literal[0, 1], Literal["X", "O"]]] = None
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
