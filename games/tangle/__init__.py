"""Tangle: hex board and piece-set files, rule options and the game engine (state + move log).

Data files (assumed defaults, RULES.md) live in ``data/``: ``tangle-default.board.json`` and
``tangle-default.pieces.json``; users pass their own files in the same formats.
"""

from .board import Board, PieceKind, PieceSet, default_board, default_pieces, load_board, load_pieces, small_board
from .engine import PASS, Capture, TangleGame, TangleState, game_from_spec, load_state, state_from_json
from .rules import OPTION_ROWS, TangleOptions

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
