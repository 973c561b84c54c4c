"""Zangle rule options: every reading choice of docs/rules.md as a named option with its default."""

from __future__ import annotations

from dataclasses import dataclass

from ..options import RuleOptions, option

Z_REPORTING = ("all", "minimal")


@dataclass(frozen=True)
class ZangleOptions(RuleOptions):
    """Rule options shared by the finder and the engines (defaults follow docs/rules.md); declared
    with ``option()`` so the base validates them once and the README table comes from here."""

    GAME = "Zangle"

    z_cards: str = option("all", "Z cards a Zangle reports: all available ones, or `minimal` (only those "
                          "needed for rules 2–3)", choices=Z_REPORTING)
    fill_empty_pile: str = option("must", "solo: an empty pile must (or `may`) be refilled from another pile",
                                  choices=("must", "may"))
    voluntary_discard: bool = option(False, "solo: the middle may be discarded even when a Zangle exists")
    stalemate_end: bool = option(True, "turn game: a round also ends when the middle pile is empty and a "
                                 "whole cycle passes with no Zangle")
    piles: int = option(5, "solo tableau piles (6 for the harder game)", minimum=1, maximum=8)
    max_turns: int = option(10_000, "safety cap on actions per round (not a rulebook rule)", minimum=1,
                            maximum=1_000_000, rulebook=False)

    @classmethod
    def from_strings(cls, data: dict | None) -> "ZangleOptions":
        """Options from CLI ``--option NAME=VALUE`` strings (or values)."""
        return cls.from_dict(data)
