"""QANGO: boards as data, win patterns, opening rules, positions and the game engine."""

from .board import BUILTIN_BOARDS, Board, Triple, board_from_json, load_board
from .position import Game, Position, QangoOptions, has_win, parse_position, position_from_json

__all__ = ["Board", "Triple", "load_board", "board_from_json", "BUILTIN_BOARDS", "Game", "Position",
           "QangoOptions", "parse_position", "position_from_json", "has_win"]
