"""QANGO: boards as data, win patterns, opening rules, positions and the game engine."""

from .board import Board, Triple, load_board, board_from_json, BUILTIN_BOARDS
from .position import Game, Position, QangoOptions, parse_position, position_from_json, has_win

__all__ = ["Board", "Triple", "load_board", "board_from_json", "BUILTIN_BOARDS", "Game", "Position",
           "QangoOptions", "parse_position", "position_from_json", "has_win"]
