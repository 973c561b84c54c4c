"""Tangle rule options: every reading choice of RULES.md as a named option with its default."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ...errors import RuleError
from ..options import options_from_dict

CONNECTIONS = ("vertex", "tile")
FIRST_PIECE = ("each-player", "game")
EXTRA_TURNS = ("per-capture", "per-placement")
END_TIMING = ("immediate", "round")


@dataclass(frozen=True)
class TangleOptions:
    """Rule options honoured by the engine, solver, bots and puzzle generator.

    - ``connection``: when two pieces count as connected for the one-group rule: ``vertex``
      (default: they share a vertex, i.e. touch end to end or at a corner) or ``tile`` (looser:
      they lie on sides of a common tile).
    - ``first_piece``: ``each-player`` (default: every player's first piece covers a side of the
      Center Star) or ``game`` (only the first piece of the game must).
    - ``extra_turns``: ``per-capture`` (default: one extra placement per tile captured, so a piece
      that closes two tiles earns two) or ``per-placement`` (one extra placement if it captured).
    - ``target_score``: points that end the game (50); a team's total in the partners variant.
    - ``end_timing``: ``immediate`` (default: the game stops as soon as a player runs out of
      pieces or reaches the target) or ``round`` (the current round is finished first).
    - ``mirror``: pieces may be turned over (default on: flat pieces have two faces).
    - ``partners``: 4 players, seats 0+2 against 1+3; a tile closed in the team's two colours
      is captured for the team, scores are team scores (default off).
    """

    connection: str = "vertex"
    first_piece: str = "each-player"
    extra_turns: str = "per-capture"
    target_score: int = 50
    end_timing: str = "immediate"
    mirror: bool = True
    partners: bool = False

    def __post_init__(self) -> None:
        for name, allowed in (
            ("connection", CONNECTIONS),
            ("first_piece", FIRST_PIECE),
            ("extra_turns", EXTRA_TURNS),
            ("end_timing", END_TIMING),
        ):
            v = getattr(self, name)
            if v not in allowed:
                raise RuleError(f"{name} must be one of {', '.join(allowed)}, not {v!r}")
        if not isinstance(self.target_score, int) or self.target_score < 1:
            raise RuleError(f"target_score must be a positive integer, not {self.target_score!r}")

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> "TangleOptions":
        """Options from a dict of values or of strings (CLI ``--option NAME=VALUE``)."""
        return options_from_dict(cls, data, "Tangle")

    from_json = from_dict


OPTION_ROWS = [
    ("connection", "vertex", "pieces connect when they share a vertex (`tile`: when they border a common tile)"),
    ("first_piece", "each-player", "every player's first piece covers a Center Star side (`game`: only the game's first piece)"),
    ("extra_turns", "per-capture", "one extra placement per captured tile (`per-placement`: one per capturing placement)"),
    ("target_score", "50", "score (team score with partners) that ends the game"),
    ("end_timing", "immediate", "the game stops at once when a player is out of pieces or at the target (`round`: finish the round)"),
    ("mirror", "on", "pieces may be turned over"),
    ("partners", "off", "4 players, seats 0+2 v 1+3, team-coloured tiles score for the team"),
]
