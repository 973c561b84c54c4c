"""Tanglung: card sets, layouts, rule options, movement and the solo/cooperative/duel engines.

Importing the package loads only the standard library; the searches live beside the engines (``solo_search``, ``coop``, ``duel_search``, ``census``).
"""

from .cards import KINDS, CardSet, default_card_set, load_card_set
from .duel import DuelGame, Match
from .layout import Layout, random_layout
from .rules import OPTION_TABLE, TanglungOptions
from .solo import SoloGame

__all__ = [
    "KINDS",
    "CardSet",
    "DuelGame",
    "Match",
    "Layout",
    "OPTION_TABLE",
    "SoloGame",
    "TanglungOptions",
    "default_card_set",
    "load_card_set",
    "random_layout",
]
