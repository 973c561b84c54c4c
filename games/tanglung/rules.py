"""Tanglung rule options: every reading choice of docs/rules.md as a named option with its default."""

from __future__ import annotations

from dataclasses import dataclass

from ..options import RuleOptions, option


@dataclass(frozen=True)
class TanglungOptions(RuleOptions):
    """Rule options honoured by the engines, solvers and generators (defaults follow docs/rules.md),
    declared with ``option()``: the shared base validates them and the README table comes from
    here. ``literal_blocking``: Rabbit and Butterfly reach only the nearest card in each direction
    (the Dragon is unaffected); ``max_turns`` reached draws the match, which then does not count."""

    GAME = "Tanglung"

    literal_blocking: bool = option(False, "Rabbit and Butterfly cannot pass over any card (the rulebook's literal wording)")
    roosters_start_lit: bool = option(True, "Roosters start lit and never flip; off: they start dark and are lit by moving onto them")
    not_so_zen: bool = option(False, "Roosters may stand anywhere; start from any Rooster")
    horse_fan_route: str = option("either", "the Fan blocks only the Horse's landing; `both`: a Fan on either L-route blocks",
                                  choices=("either", "both"))
    match_starter: str = option("alternate", "who starts matches 2 and 3: `alternate`, `loser` or `winner`",
                                choices=("alternate", "loser", "winner"))
    repetition: int = option(3, "a two-player match whose position (cards, lit cards, matchboxes, Fan, bumps, player to move) "
                             "occurs for the Nth time ends drawn and does not count; 0: off (1 acts as 2)",
                             minimum=0, maximum=1000)
    max_turns: int = option(200, "safety cap on turns per two-player match (not a rulebook rule)",
                            minimum=1, maximum=100_000, rulebook=False)
    max_matches: int = option(7, "safety cap on matches per two-player game (not a rulebook rule)",
                              minimum=3, maximum=1000, rulebook=False)


#: (option, default, meaning) rows of the README's rule-options table, from the declarations
OPTION_TABLE = [(name, default, meaning) for _, name, default, meaning in TanglungOptions.docs_rows()]
