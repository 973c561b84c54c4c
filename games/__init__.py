"""games: each game's rules and engines, and one game API over all of them (``api.py``).

``load_game(name, **params)`` and ``game_names()`` are the entry points (OpenSpiel names).
"""

from .api import CHANCE, TERMINAL, Game, State
from .plugin import game_names, load_game, plugin, plugin_of, plugins, register_plugin

__all__ = ["CHANCE", "TERMINAL", "Game", "State", "game_names", "load_game", "plugin", "plugin_of", "plugins",
           "register_plugin"]
