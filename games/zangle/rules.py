"""Zangle rule options: every reading choice of RULES.md as a named option with its default."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from ...errors import RuleError

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
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        bad = sorted(set(data) - known)
        if bad:
            raise RuleError(f"unknown Zangle rule option(s): {', '.join(bad)}")
        return cls(**data)

    def with_(self, **changes) -> "ZangleOptions":
        return replace(self, **changes)

    @classmethod
    def from_strings(cls, pairs: dict[str, str]) -> "ZangleOptions":
        """Options from ``--option NAME=VALUE`` strings, converted to each field's type."""
        types = {f.name: f.type for f in fields(cls)}
        out: dict = {}
        for name, text in pairs.items():
            kind = types.get(name)
            if kind is None:
                raise RuleError(f"unknown Zangle rule option {name!r}; known: {', '.join(types)}")
            if kind in (bool, "bool"):
                if text.lower() not in ("true", "false", "on", "off", "yes", "no", "1", "0"):
                    raise RuleError(f"option {name} takes true or false, not {text!r}")
                out[name] = text.lower() in ("true", "on", "yes", "1")
            elif kind in (int, "int"):
                try:
                    out[name] = int(text)
                except ValueError:
                    raise RuleError(f"option {name} takes a whole number, not {text!r}") from None
            else:
                out[name] = text
        return cls(**out)

