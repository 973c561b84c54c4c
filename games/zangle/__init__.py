"""Zangle: polyiamond cards, decks, deal files, rule options and the three game engines.

Heavy modules (numba) are only imported by the finder when a search actually runs.
"""

from . import engine as _engine  # noqa: F401,E402  (registers the move-log format)
from .cards import Card, Deck, default_deck, load_deck
from .deal import Deal, load_deal, parse_deal
from .rules import ZangleOptions
from .solo_deal import SoloDeal  # registers the solo deal format beside the deal and deck formats

__all__ = [
    "Card",
    "Deck",
    "Deal",
    "SoloDeal",
    "ZangleOptions",
    "default_deck",
    "load_deck",
    "load_deal",
    "parse_deal",
]
