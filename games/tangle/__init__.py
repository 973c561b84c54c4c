"""Tangle: hex board and piece-set files, rule options and the game engine (state + move log).

The names below are loaded on first use. Data files (assumed defaults, docs/rules.md) live in ``data/``: ``tangle-default.board.json`` and
``tangle-default.pieces.json``; users pass their own files in the same formats.
"""

from __future__ import annotations

import importlib
from typing import Any

# name -> the module that defines it: imported on first use (PEP 562), so that finding the game's
# plugin (``tanglekit --help``, any command) does not load the file schemas (pydantic)
_WHERE = {
    **dict.fromkeys(("Board", "PieceKind", "PieceSet", "default_board", "default_pieces", "load_board",
                     "load_pieces", "small_board"), "board"),
    **dict.fromkeys(("PASS", "Capture", "TangleGame", "TangleState", "game_from_spec", "load_state",
                     "state_from_json"), "engine"),
    **dict.fromkeys(("OPTION_ROWS", "TangleOptions"), "rules"),
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Board",
    "Capture",
    "OPTION_ROWS",
    "PASS",
    "PieceKind",
    "PieceSet",
    "TangleGame",
    "TangleOptions",
    "TangleState",
    "default_board",
    "default_pieces",
    "game_from_spec",
    "load_board",
    "load_pieces",
    "load_state",
    "small_board",
    "state_from_json",
]
