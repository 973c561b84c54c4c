"""Zinga: sheets, rule options, the rules engine with its move log, and reaction-time bots.

Heavy modules (numba, ortools) live in solver/ and generators/ and are imported lazily there.
"""

from .bots import BOTS, BotProfile, get_bot, play_bot_game
from .engine import Move, ZingaGame, available_cells, available_codes
from .rules import COLOURS, LINES, ZingaOptions, code_of, name_of
from .sheet import Sheet, load_sheet, load_sheets, save_sheets, sheet_set_id

__all__ = ["BOTS", "BotProfile", "COLOURS", "LINES", "Move", "Sheet", "ZingaGame", "ZingaOptions",
           "available_cells", "available_codes", "code_of", "get_bot", "load_sheet", "load_sheets",
           "name_of", "play_bot_game", "save_sheets", "sheet_set_id"]
