"""Zangle rule options: every reading choice of RULES.md as a named option with its default."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from ...errors import RuleError
from ..options import options_from_dict

Z_REPORTING = ("all", "minimal")


@dataclass(frozen=True)
class ZangleOptions:
    """Rule options shared by the finder and the engines (defaults follow RULES.md).

    - ``z_cards``: which Z cards a Zangle reports: ``"all"`` available ones (default) or
      ``"minimal"`` (none when rules 2-3 hold without one, else the single Z card needed).
    - ``fill_empty_pile``: solo game, an empty pile ``"must"`` (default) or ``"may"`` be refilled.
    - ``voluntary_discard``: solo game, discard the middle even when a Zangle exists (off).
    - ``stalemate_end``: turn game, the round ends when the middle draw pile is empty and a whole
      cycle passes with no Zangle (on). Off: only a player running out ends it (plus ``max_turns``).
    - ``piles``: solo game tableau piles (5; 6 for the harder game).
    - ``max_turns``: safety cap on actions per round, so every game ends (not a rulebook rule).
    """

    z_cards: str = "all"
    fill_empty_pile: str = "must"
    voluntary_discard: bool = False
    stalemate_end: bool = True
    piles: int = 5
    max_turns: int = 10_000

    def __post_init__(self) -> None:
        if self.z_cards not in Z_REPORTING:
            raise RuleError(f"z_cards must be one of {', '.join(Z_REPORTING)}, not {self.z_cards!r}")
        if self.fill_empty_pile not in ("must", "may"):
            raise RuleError(f"fill_empty_pile must be 'must' or 'may', not {self.fill_empty_pile!r}")
        if not 1 <= int(self.piles) <= 8:
            raise RuleError(f"piles must be between 1 and 8, not {self.piles!r}")

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict | None) -> "ZangleOptions":
        """Options from a dict of values or of strings (CLI ``--option NAME=VALUE``)."""
        return options_from_dict(cls, data, "Zangle")

    def with_(self, **changes) -> "ZangleOptions":
        return replace(self, **changes)

    from_strings = from_json
