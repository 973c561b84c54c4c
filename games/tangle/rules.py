"""Tangle rule options: every reading choice of docs/rules.md as a named option with its default."""

from __future__ import annotations

from dataclasses import dataclass

from ..options import RuleOptions, option

CONNECTIONS = ("vertex", "tile")
FIRST_PIECE = ("each-player", "game")
EXTRA_TURNS = ("per-capture", "per-placement")
END_TIMING = ("immediate", "round")


@dataclass(frozen=True)
class TangleOptions(RuleOptions):
    """Rule options honoured by the engine, solver, bots and puzzle generator, declared with
    ``option()`` (validated by the shared base; the README table comes from here). With
    ``partners`` a tile closed in the team's two colours is captured for the team."""

    GAME = "Tangle"

    connection: str = option("vertex", "pieces connect when they share a vertex; `tile`: when on sides of a common tile",
                             choices=CONNECTIONS)
    first_piece: str = option("each-player", "every player's first piece covers a Center Star side; `game`: only the "
                              "game's first piece", choices=FIRST_PIECE)
    extra_turns: str = option("per-capture", "one extra placement per captured tile; `per-placement`: one per "
                              "capturing placement", choices=EXTRA_TURNS)
    target_score: int = option(50, "the score (a team's, with partners) that ends the game", minimum=1, maximum=10_000)
    end_timing: str = option("immediate", "stop at once when a player is out of pieces or at the target; `round`: "
                             "finish the round", choices=END_TIMING)
    mirror: bool = option(True, "pieces may be turned over")
    partners: bool = option(False, "4 players, seats 0+2 against 1+3")


#: (option, default, meaning) rows of the README's rule-options table, from the declarations
OPTION_ROWS = [(name, default, meaning) for _, name, default, meaning in TangleOptions.docs_rows()]
