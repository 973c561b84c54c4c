"""Tanglung rule options: every reading choice of RULES.md as a named option with its default."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from ...errors import RuleError
from ..options import options_from_dict



@dataclass(frozen=True)
class TanglungOptions:
    """Rule options honoured by the engines, solvers and generators (defaults follow RULES.md).

    - ``literal_blocking`` (off): Rabbit and Butterfly may not pass over any card, so they
      only reach the nearest card in each direction (the rulebook's literal wording, where
      only Horse and Dragon move over other cards: the Dragon is unaffected). Off: they
      slide over cards and stop only at empty spaces, the other matchbox, the Fan or the edge.
    - ``roosters_start_lit`` (on): Rooster cards are lit from the start. Off: they start dark
      and are lit by moving onto them (the starting card stays dark until revisited).
    - ``not_so_zen`` (off): layouts may put the Roosters anywhere (the shuffled-16 variant).
      Off: a standard layout has the two Roosters on opposite corners.
    - ``horse_fan_route`` (``either``): the Horse may take whichever L-route avoids the Fan,
      so the Fan only blocks its landing card; ``both``: the Fan on any card of either
      L-route blocks the jump.
    - ``match_starter`` (``alternate``): who starts matches 2 and 3 of a two-player game:
      ``alternate``, ``loser`` (the previous match's loser) or ``winner``.
    - ``max_turns`` (200): safety cap on turns per two-player match; reaching it draws the
      match, which then does not count (not a rulebook rule; Rooster actions can cycle).
    - ``max_matches`` (7): safety cap on matches per game; a game without a 2-match winner
      by then is a draw (not a rulebook rule).
    """

    literal_blocking: bool = False
    roosters_start_lit: bool = True
    not_so_zen: bool = False
    horse_fan_route: str = "either"
    match_starter: str = "alternate"
    max_turns: int = 200
    max_matches: int = 7

    def __post_init__(self) -> None:
        if self.horse_fan_route not in ("either", "both"):
            raise RuleError(f"horse_fan_route must be 'either' or 'both', not {self.horse_fan_route!r}")
        if self.match_starter not in ("alternate", "loser", "winner"):
            raise RuleError(
                f"match_starter must be 'alternate', 'loser' or 'winner', not {self.match_starter!r}"
            )
        if not 1 <= int(self.max_turns) <= 100_000 or not 3 <= int(self.max_matches) <= 1000:
            raise RuleError("max_turns must be in 1..100000 and max_matches in 3..1000")

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> "TanglungOptions":
        """Options from a dict of values or of strings (CLI ``--option NAME=VALUE``)."""
        return options_from_dict(cls, data, "Tanglung")

    from_json = from_dict

    def with_(self, **changes) -> "TanglungOptions":
        return replace(self, **changes)


#: (option, default, meaning) rows for the README's rule-options table
OPTION_TABLE = [
    ("literal_blocking", "off", "Rabbit/Butterfly cannot pass over any card (rulebook's literal wording)"),
    ("roosters_start_lit", "on", "Roosters start lit and never flip; off: they start dark, lit by moving onto them"),
    ("not_so_zen", "off", "layouts may place the Roosters anywhere (shuffled-16 variant)"),
    ("horse_fan_route", "either", "Fan blocks only the Horse's landing (either L-route); both: any L-route card"),
    ("match_starter", "alternate", "who starts matches after the first: alternate, loser or winner"),
    ("max_turns", "200", "safety cap on turns per two-player match (drawn match, replayed)"),
    ("max_matches", "7", "safety cap on matches per game (drawn game)"),
]
