"""Zangle speed game: 5 rounds with no turn order, simulated by a random finding-time model.

Finding-time model (``SpeedModel``; all times in seconds, every draw from the state's seeded RNG):
- whenever the cards a player sees change, the time until that player's next *event* is drawn
  afresh from an exponential distribution (memoryless, so redrawing is consistent). Its mean is
  ``base_time * slowdown[level] / skill * (1 + size_factor * (best - 3)) / sqrt(n)`` when the
  player has ``n`` Zangles available, the largest using ``best`` cards (more Zangles are found
  sooner, big ones later), and ``give_up_time * slowdown[level] / skill`` when there is none;
- the player with the earliest event acts next (``current_player``). With probability
  ``false_call_rate / skill`` the event is a false call: the only legal action is
  ``false_call``, which costs a penalty card from the middle draw pile face up on top of the
  player's own draw pile. Otherwise the player may build a Zangle, take an extra card from the
  middle draw pile (face up into own cards), or wait;
- equalizer levels 1-4 go to each round's winner (one level per round won): levels 1-2 slow
  finding down (``slowdown``), level 3 also keeps only 3 own cards face up after refills, level 4
  also moves 5 cards from the middle draw pile to the own draw pile at each round's start.
A round ends as soon as a player has no cards left, or when the middle draw pile is empty and
nobody has a Zangle (or after ``options.max_turns`` events). Points as in the turn game; ties
after the last round play a bonus round (4 face-up cards each, first to use all wins).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ...errors import RuleError
from .engine import FACE_UP, MIDDLE, OWN_PILE, TERMINAL, Action, RoundScoredGame, zangle_actions

__all__ = ["MIDDLE", "OWN_PILE", "SpeedGame", "SpeedModel"]


@dataclass(frozen=True)
class SpeedModel:
    """Parameters of the finding-time model (see the module docstring)."""

    base_time: float = 6.0
    size_factor: float = 0.3
    give_up_time: float = 15.0
    false_call_rate: float = 0.02
    slowdown: tuple[float, ...] = (1.0, 1.25, 1.5, 1.5, 1.5)
    face_up: tuple[int, ...] = (4, 4, 4, 3, 3)
    level4_cards: int = 5

    def mean_time(self, skill: float, level: int, n_zangles: int, best_cards: int) -> float:
        slow = self.slowdown[level] / max(skill, 1e-9)
        if n_zangles == 0:
            return self.give_up_time * slow
        return self.base_time * slow * (1 + self.size_factor * (best_cards - 3)) / math.sqrt(n_zangles)


class SpeedGame(RoundScoredGame):
    """Speed Zangle for ``players`` simulated players with ``skills`` (default all 1.0)."""

    game = "speed"

    def __init__(self, *, seed: int = 0, options=None, deck=None, players: int = 2, rounds: int = 5,
                 skills: list[float] | None = None, model: dict | None = None):
        super().__init__(seed=seed, options=options, deck=deck)
        if players < 1:
            raise RuleError("the speed game needs at least one player")
        if players * (OWN_PILE + 5) + MIDDLE > len(self.deck):
            raise RuleError(f"{players} players are too many for a deck of {len(self.deck)} cards")
        self.players = int(players)
        self.rounds = int(rounds)
        self.skills = [float(s) for s in (skills or [1.0] * self.players)]
        if len(self.skills) != self.players or min(self.skills) <= 0:
            raise RuleError("skills must give one positive number per player")
        self.model_params = dict(model or {})
        self.model = SpeedModel(**{k: tuple(v) if isinstance(v, list) else v for k, v in self.model_params.items()})
        self.rng = random.Random(self.seed)
        self.levels = [0] * self.players
        self.round_points: list[list[int]] = []
        self.round_winners: list[int | None] = []
        self.round_no = 0
        self.winners: list[int] = []
        self.over = False
        self.clock = 0.0
        self._start_round()

    def _init_kwargs(self) -> dict:
        kw = {"players": self.players, "rounds": self.rounds, "skills": self.skills}
        if self.model_params:
            kw["model"] = self.model_params
        return kw

    # -- rounds ----------------------------------------------------------------------------
    def _start_round(self, bonus: list[int] | None = None) -> None:
        self._deal_round(bonus)
        self.events = 0
        self.next_time = [math.inf] * self.players
        self.false_pending = [False] * self.players
        self._zcache: dict[int, list[Action]] = {}
        self._resample(self.seats)

    def _before_refill(self) -> None:
        """Level 4 of the equalizer: extra cards from the middle draw pile to the own draw pile."""
        if self.bonus is None:
            for p in self.seats:
                if self.levels[p] >= 4:
                    extra = self.middle_pile[: self.model.level4_cards]
                    del self.middle_pile[: self.model.level4_cards]
                    self.own_pile[p] += extra

    def face_up_limit(self, p: int) -> int:
        return FACE_UP if self.bonus is not None else self.model.face_up[self.levels[p]]

    def zangles_for(self, p: int) -> list[Action]:
        if p not in self._zcache:
            self._zcache[p] = zangle_actions(self.middle, self.own[p], self.deck, self.options)
        return self._zcache[p]

    def _resample(self, who) -> None:
        """Draw the next event time (and whether it is a false call) of players ``who``."""
        for p in who:
            zs = self.zangles_for(p)
            best = zs[0].cards_used if zs else 0
            lvl = 0 if self.bonus is not None else self.levels[p]
            mean = self.model.mean_time(self.skills[p], lvl, len(zs), best)
            self.next_time[p] = self.clock + self.rng.expovariate(1.0 / mean)
            self.false_pending[p] = self.rng.random() < self.model.false_call_rate / self.skills[p]

    # -- state machine ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return min(self.seats, key=lambda p: (self.next_time[p], p))

    def is_terminal(self) -> bool:
        return self.over

    def _legal_actions(self) -> list[Action]:
        p = self.current_player()
        if self.false_pending[p]:
            return [Action("false_call")]
        acts = list(self.zangles_for(p))
        if self.middle_pile:
            acts.append(Action("draw"))
        acts.append(Action("wait"))
        return acts

    def _apply(self, a: Action) -> None:
        p = self.current_player()
        self.clock = self.next_time[p]
        self.events += 1
        if a.kind == "zangle":
            used = {a.target, *a.pieces, *a.z}
            self.won[p] += [c for c in self.middle + self.own[p] if c.id in used]
            self.middle = [c for c in self.middle if c.id not in used]
            self.own[p] = [c for c in self.own[p] if c.id not in used]
            self._refill_middle()
            self._refill_own(p)
            self._zcache = {}
            changed = self.seats
        elif a.kind == "draw":
            self.own[p].append(self.middle_pile.pop(0))
            self._zcache.pop(p, None)
            changed = [p]
        elif a.kind == "false_call":
            if self.middle_pile:
                self.own_pile[p].insert(0, self.middle_pile.pop(0))
            changed = [p]
        else:  # wait
            changed = [p]
        if self._round_over():
            return self._end_round()
        self._resample(changed)

    def _round_over(self) -> bool:
        if any(self.cards_left(p) == 0 for p in self.seats):
            return True
        if self.events >= self.options.max_turns:
            return True
        return not self.middle_pile and not any(self.zangles_for(p) for p in self.seats)

    def _end_round(self) -> None:
        out = [p for p in self.seats if self.cards_left(p) == 0]
        if self.bonus is not None:
            self.winners = out[:1] if out else list(self.bonus)
            self.over = True
            return
        pts = [self.cards_left(p) for p in range(self.players)]
        self.round_points.append(pts)
        low = min(pts)
        tied = [p for p in range(self.players) if pts[p] == low]
        winner = tied[0] if len(tied) == 1 else (out[0] if len(out) == 1 else None)
        self.round_winners.append(winner)
        if winner is not None:
            self.levels[winner] = min(4, self.levels[winner] + 1)
        self.round_no += 1
        if self.round_no < self.rounds:
            return self._start_round()
        self._finish_or_bonus()

    def score(self) -> dict:
        return {
            "rounds": [list(r) for r in self.round_points],
            "totals": self.totals(),
            "round_winners": list(self.round_winners),
            "levels": list(self.levels),
            "bonus_round": self.bonus,
            "winners": list(self.winners),
            "time": round(self.clock, 3),
        }

    def to_json(self) -> dict:
        return {
            "round": self.round_no,
            "clock": round(self.clock, 9),
            "levels": self.levels,
            **self._table_json(),
        }


