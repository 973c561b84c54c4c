"""Tanglung: card sets, layouts, rule options, movement and the solo/cooperative/duel engines.

Only the standard library is used here; solvers live in ``tanglekit.solver.tanglung_*``.
"""

from .cards import KINDS, CardSet, default_card_set, load_card_set
from .layout import Layout, random_layout
from .rules import OPTION_TABLE, TanglungOptions
from .duel import DuelGame, Match
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
