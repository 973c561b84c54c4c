"""Zangle turn-based game: 3 rounds of one deal each, players in turn, lowest points wins.

Round setup (seeded shuffle): 10 cards per player form their own draw pile (4 turned face up),
the rest is the middle draw pile (4 turned face up). Turn: build one Zangle if any; otherwise
draw one card from the middle draw pile into own cards and, if a Zangle now exists, build it,
else pass. After a Zangle the middle is refilled to 4, then own face-up cards to 4. The round
ends at the end of the cycle in which a player ran out of cards, or (``stalemate_end``) when the
middle draw pile is empty and a whole cycle passes with no Zangle. Ties after the last round
play a bonus round: 4 face-up cards each and no own draw pile, the first to use all wins.
"""

from __future__ import annotations

import random

from ...errors import RuleError
from .deal import parse_deal
from .engine import FACE_UP, MIDDLE, OWN_PILE, TERMINAL, Action, RoundScoredGame, zangle_actions

__all__ = ["FACE_UP", "MIDDLE", "OWN_PILE", "TurnGame"]


class TurnGame(RoundScoredGame):
    """Turn-based Zangle for 2+ players (``players``), ``rounds`` rounds (3)."""

    game = "turn"

    def __init__(self, *, seed: int = 0, options=None, deck=None, players: int = 2, rounds: int = 3,
                 position: dict | None = None):
        super().__init__(seed=seed, options=options, deck=deck)
        self.position = position
        if position is not None:
            players = 1 + len(position.get("others", []))
        if players < 1:
            raise RuleError("the turn-based game needs at least one player")
        if players * OWN_PILE + MIDDLE > len(self.deck):
            raise RuleError(f"{players} players need {players * OWN_PILE + MIDDLE} cards, the deck has {len(self.deck)}")
        self.players = int(players)
        self.rounds = int(rounds)
        self.rng = random.Random(self.seed)
        self.round_points: list[list[int]] = []
        self.round_no = 0
        self.bonus: list[int] | None = None  # players of the bonus round, when playing it
        self.winners: list[int] = []
        self.over = False
        self._start_round()

    def _init_kwargs(self) -> dict:
        kw = {"players": self.players, "rounds": self.rounds}
        if self.position is not None:
            kw["position"] = self.position
        return kw

    @classmethod
    def from_deal(cls, deal, *, seed: int = 0, options=None, deck=None, rounds: int = 1) -> "TurnGame":
        """A game whose first round starts from a deal file's full state (player 0 = ``own``,
        then ``others``); deck card ids only. Later rounds (if any) are shuffled from ``seed``."""
        return cls(seed=seed, options=options, deck=deck, rounds=rounds, position=deal.to_json())

    # -- rounds ----------------------------------------------------------------------------
    def _start_round(self, bonus: list[int] | None = None) -> None:
        if self.position is not None and self.round_no == 0 and bonus is None:
            return self._start_from_position()
        self._deal_round(bonus)
        # the dealer rotates each round; the dealer starts
        self.starter = self.seats[self.round_no % len(self.seats)]
        self.turn_index = 0  # position in the cycle that started with the starter
        self.current = self.starter
        self.phase = "turn"  # or "drawn" after a draw
        self.ran_out = False
        self.quiet_turns = 0  # consecutive turns without a Zangle while the middle pile is empty
        self.turns = 0
        self._zangles = None

    def _start_from_position(self) -> None:
        deal = parse_deal(self.position, self.deck, "position")
        for c in [*deal.middle, *deal.own]:
            if not c.kind:
                raise RuleError(f"a game position needs deck cards, not raw shapes ({c.id})")
        n = self.players
        self.bonus = None
        self.seats = list(range(n))
        self.own = [list(deal.own)] + [list(o.get("own", ())) for o in deal.extra.get("others", [])]
        self.own_pile = [list(deal.extra.get("own_pile", ()))] + [
            list(o.get("own_pile", ())) for o in deal.extra.get("others", [])
        ]
        self.won = [[] for _ in range(n)]
        self.middle = list(deal.middle)
        self.middle_pile = list(deal.extra.get("middle_pile", ()))
        self.starter = 0
        self.turn_index = 0
        self.current = 0
        self.phase = "turn"
        self.ran_out = False
        self.quiet_turns = 0
        self.turns = 0
        self._zangles = None

    def zangles(self) -> list[Action]:
        if self._zangles is None:
            self._zangles = zangle_actions(self.middle, self.own[self.current], self.deck, self.options)
        return self._zangles

    # -- state machine ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.over else self.current

    def is_terminal(self) -> bool:
        return self.over

    def _legal_actions(self) -> list[Action]:
        zs = self.zangles()
        if zs:
            return list(zs)
        if self.phase == "turn" and self.middle_pile:
            return [Action("draw")]
        return [Action("pass")]

    def _apply(self, a: Action) -> None:
        p = self.current
        if a.kind == "draw":
            self.own[p].append(self.middle_pile.pop(0))
            self.phase = "drawn"
            self._zangles = None
            return
        built = a.kind == "zangle"
        if built:
            used = {a.target, *a.pieces, *a.z}
            self.won[p] += [c for c in self.middle + self.own[p] if c.id in used]
            self.middle = [c for c in self.middle if c.id not in used]
            self.own[p] = [c for c in self.own[p] if c.id not in used]
            self._refill_middle()
            self._refill_own(p)
        self._end_turn(built)

    def _end_turn(self, built: bool) -> None:
        p = self.current
        self.turns += 1
        self.quiet_turns = 0 if (built or self.middle_pile) else self.quiet_turns + 1
        if self.cards_left(p) == 0:
            self.ran_out = True
            if self.bonus is not None:
                return self._end_round(winner=p)
        self.turn_index += 1
        cycle_done = self.turn_index % len(self.seats) == 0
        if (self.ran_out and cycle_done) or (
            self.options.stalemate_end and self.quiet_turns >= len(self.seats)
        ) or self.turns >= self.options.max_turns:
            return self._end_round()
        i = self.seats.index(p)
        self.current = self.seats[(i + 1) % len(self.seats)]
        self.phase = "turn"
        self._zangles = None

    def _end_round(self, winner: int | None = None) -> None:
        self._zangles = None
        if self.bonus is not None:
            self.winners = [winner] if winner is not None else list(self.bonus)
            self.over = True
            return
        self.round_points.append([self.cards_left(p) for p in range(self.players)])
        self.round_no += 1
        if self.round_no < self.rounds:
            return self._start_round()
        self._finish_or_bonus()

    def _bonus_possible(self, tied: list[int]) -> bool:
        return len(self.deck) >= len(tied) * FACE_UP + MIDDLE

    def score(self) -> dict:
        return {
            "rounds": [list(r) for r in self.round_points],
            "totals": self.totals(),
            "bonus_round": self.bonus,
            "winners": list(self.winners),
        }

    def to_json(self) -> dict:
        return {
            "round": self.round_no,
            "bonus": self.bonus,
            "current": self.current,
            "phase": self.phase,
            **self._table_json(),
        }
