"""Zangle: polyiamond cards, decks, deal files, rule options and the three game engines.

Heavy modules (numba) are only imported by the finder when a search actually runs.
"""

from .cards import Card, Deck, default_deck, load_deck
from .deal import Deal, load_deal, parse_deal
from .rules import ZangleOptions

__all__ = [
    "Card",
    "Deck",
    "Deal",
    "ZangleOptions",
    "default_deck",
    "load_deck",
    "load_deal",
    "parse_deal",
]
