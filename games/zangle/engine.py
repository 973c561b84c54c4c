"""Shared machinery of the Zangle game engines: actions, the state interface, move logs, undo.

Every engine is a state machine in the OpenSpiel style: ``current_player()``,
``legal_actions()``, ``apply(action)``, ``is_terminal()``, ``returns()``, ``clone()``. A state is
fully determined by its constructor arguments (which include the seed) and the list of actions
applied, which is what the JSON-lines move log stores; ``undo()`` replays all but the last.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Sequence

from ...errors import FormatError, RuleError
from ...jsonio import register_format
from ...outputs import write_text
from .cards import Card, Deck, default_deck
from .moves import find_zangles
from .rules import ZangleOptions
from .table import deck_table

TERMINAL = -4  # current_player() of a finished game (OpenSpiel's kTerminalPlayerId)

ACTION_KINDS = ("zangle", "draw", "pass", "discard", "fill", "skip", "wait", "false_call")


@dataclass(frozen=True)
class Action:
    """One move. Zangle actions name cards by id: ``target``, ``pieces`` and ``z`` (Z cards).

    ``fill`` moves the top of pile ``src`` onto the empty pile ``dst`` (solo game).
    """

    kind: str
    target: str = ""
    pieces: tuple[str, ...] = ()
    z: tuple[str, ...] = ()
    src: int = -1
    dst: int = -1

    def to_json(self) -> dict:
        d: dict = {"kind": self.kind}
        if self.kind == "zangle":
            d.update(target=self.target, pieces=list(self.pieces), z=list(self.z))
        if self.kind == "fill":
            d.update(src=self.src, dst=self.dst)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Action":
        if not isinstance(d, dict) or d.get("kind") not in ACTION_KINDS:
            raise FormatError(f"not a Zangle action: {d!r}")
        return cls(
            d["kind"],
            d.get("target", ""),
            tuple(d.get("pieces", ())),
            tuple(d.get("z", ())),
            int(d.get("src", -1)),
            int(d.get("dst", -1)),
        )

    @property
    def cards_used(self) -> int:
        return (1 + len(self.pieces) + len(self.z)) if self.kind == "zangle" else 0

    def __str__(self) -> str:
        if self.kind == "zangle":
            s = f"zangle {self.target} <= {' + '.join(self.pieces)}"
            return s + "".join(f" + {z}" for z in self.z)
        if self.kind == "fill":
            return f"fill pile {self.dst} from pile {self.src}"
        return self.kind


@lru_cache(maxsize=1)
def _log_models():
    """The pydantic schemas of a move log's header and moves (built on first use)."""
    from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

    class _ActionModel(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        kind: Literal[ACTION_KINDS]  # type: ignore[valid-type]
        target: StrictStr = Field("", max_length=100)
        pieces: list[Annotated[StrictStr, Field(max_length=100)]] = Field(default_factory=list, max_length=64)
        z: list[Annotated[StrictStr, Field(max_length=100)]] = Field(default_factory=list, max_length=64)
        src: StrictInt = Field(-1, ge=-1, le=64)
        dst: StrictInt = Field(-1, ge=-1, le=64)

    class _LogHeader(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        game: Literal["solo", "turn", "speed"]
        seed: StrictInt = Field(0, ge=-(2**63), le=2**63 - 1)
        options: Optional[dict[StrictStr, Any]] = Field(None, max_length=20)
        params: dict[StrictStr, Any] = Field(default_factory=dict, max_length=10)
        deck: Optional[StrictStr] = Field(None, max_length=200)
        deck_data: Optional[dict[StrictStr, Any]] = None

    class _LogMove(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        player: Optional[StrictInt] = Field(None, ge=-4, le=64)
        action: _ActionModel

    return _LogHeader, _LogMove


LOG_FORMAT = register_format("tanglekit/zangle-log", 1, "Zangle move log", lambda: _log_models()[0],
                             lambda d: d.get("game") in ("solo", "turn", "speed") and "seed" in d)
_PARAM_KEYS = {"solo": {"layout"}, "turn": {"players", "rounds", "position"},
               "speed": {"players", "rounds", "skills", "model"}}
MAX_ROUNDS = 100

_ACTION_CACHE: dict[tuple, list[Action]] = {}
_ACTION_CACHE_MAX = 200_000


def zangle_actions(middle: Sequence[Card], own: Sequence[Card], deck: Deck, options: ZangleOptions) -> list[Action]:
    """Every legal Zangle on (middle, own) as actions, best first (memoised by card ids)."""
    if not middle or not own:
        # rule 3 needs a card from each place (Z cards included): nothing to search
        return []
    key = (deck, options.z_cards, tuple(c.id for c in middle), tuple(c.id for c in own))
    hit = _ACTION_CACHE.get(key)
    if hit is not None:
        return list(hit)
    zs = find_zangles(middle, own, options=options, proofs=False, table=deck_table(deck))
    places = {"middle": middle, "own": own}
    out = []
    for z in zs:
        out.append(
            Action(
                "zangle",
                places[z.target.place][z.target.index].id,
                tuple(places[r.place][r.index].id for r in z.pieces),
                tuple(places[r.place][r.index].id for r in z.z_cards),
            )
        )
    if len(_ACTION_CACHE) >= _ACTION_CACHE_MAX:
        _ACTION_CACHE.clear()
    _ACTION_CACHE[key] = out
    return list(out)


class GameState:
    """Base of the three engines: construction args, history, clone, undo and move logs."""

    game = ""

    def __init__(self, *, seed: int = 0, options: ZangleOptions | None = None, deck: Deck | None = None):
        self.seed = int(seed)
        self.options = options or ZangleOptions()
        self.deck = deck or default_deck()
        self.history: list[tuple[int, Action]] = []
        self._legal_cache: list[Action] | None = None

    # -- to provide ----------------------------------------------------------------------
    def _init_kwargs(self) -> dict:
        """Constructor keyword arguments (besides seed/options/deck) that rebuild the start."""
        return {}

    def current_player(self) -> int:
        raise NotImplementedError

    def _legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def returns(self) -> list[float]:
        raise NotImplementedError

    def _is_legal(self, action: Action) -> bool:
        """Whether ``action`` is one of ``legal_actions()`` (a game may answer without listing them)."""
        return action in self.legal_actions()

    # -- shared --------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self._legal_cache is None:
            self._legal_cache = [] if self.is_terminal() else self._legal_actions()
        return list(self._legal_cache)

    def apply(self, action: Action | dict, check: bool = True) -> None:
        """Play ``action`` for the current player; RuleError if it is not legal now.
        ``check=False`` skips the legality test, for a caller that has just made it."""
        if isinstance(action, dict):
            action = Action.from_json(action)
        if self.is_terminal():
            raise RuleError("the game is over")
        if check and not self._is_legal(action):
            raise RuleError(f"illegal action now: {action}")
        player = self.current_player()
        self._apply(action)
        self.history.append((player, action))
        self._legal_cache = None

    def clone(self) -> "GameState":
        """An independent copy (cards, deck and options are immutable and shared)."""
        new = copy.copy(self)
        new.__dict__ = {k: _copy_value(v) for k, v in self.__dict__.items()}
        return new

    def undo(self) -> Action:
        """Take back the last action (the state is rebuilt by replaying the others)."""
        if not self.history:
            raise RuleError("nothing to undo")
        last = self.history[-1][1]
        fresh = self.restart()
        for _, a in self.history[:-1]:
            fresh.apply(a)
        self.__dict__ = fresh.__dict__
        return last

    def restart(self) -> "GameState":
        """A new state at the start of this game (same seed, options, deck)."""
        return type(self)(seed=self.seed, options=self.options, deck=self.deck, **self._init_kwargs())

    # -- move log ------------------------------------------------------------------------
    def log_header(self) -> dict:
        h = {
            "format": LOG_FORMAT.tag,
            "version": LOG_FORMAT.version,
            "game": self.game,
            "seed": self.seed,
            "options": self.options.to_json(),
            "params": self._init_kwargs(),
            "deck": self.deck.name,
        }
        if self.deck is not default_deck():
            h["deck_data"] = self.deck.to_json()
        return h

    def log_lines(self) -> list[str]:
        lines = [json.dumps(self.log_header())]
        for player, a in self.history:
            lines.append(json.dumps({"player": player, "action": a.to_json()}))
        return lines

    def write_log(self, path: str | Path) -> None:
        write_text(path, "\n".join(self.log_lines()) + "\n", "move log")

    def state_key(self) -> str:
        """Text of everything that matters for play (used to compare replays)."""
        return json.dumps(self.to_json(), sort_keys=True)

    def to_json(self) -> dict:
        raise NotImplementedError


def _is_np_generator(v) -> bool:
    np = sys.modules.get("numpy")  # not loaded: v cannot be one
    return np is not None and isinstance(v, np.random.Generator)


def _copy_value(v):
    if isinstance(v, list):
        return [_copy_value(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy_value(x) for k, x in v.items()}
    if isinstance(v, set):
        return set(v)
    if type(v) is random.Random:  # same state, far cheaper than a deep copy
        r = random.Random()
        r.setstate(v.getstate())
        return r
    if isinstance(v, random.Random) or _is_np_generator(v):
        return copy.deepcopy(v)
    return v


OWN_PILE = 10  # own draw pile per player at a round's start (turn and speed games)
FACE_UP = 4  # own face-up cards (and each player's hand in a bonus round)
MIDDLE = 4  # face-up middle cards


class RoundScoredGame(GameState):
    """Turn and speed games: points per round, lowest total after the last round wins, a tie
    for the lowest total goes to a bonus round between the tied players. ``_deal_round`` is the
    one round set-up both games use."""

    players: int
    round_points: list
    winners: list
    over: bool
    rng: random.Random

    def _deal_round(self, bonus: list[int] | None = None) -> None:
        """Shuffle the whole deck from the game's RNG and deal a round: ``OWN_PILE`` cards to each
        seat's own draw pile (a bonus round: ``FACE_UP`` cards face up, no pile), the rest is the
        middle draw pile; ``_before_refill`` may move cards (handicaps), then the middle and every
        seat's face-up cards are refilled."""
        cards = list(self.deck.cards)
        self.rng.shuffle(cards)
        self.bonus = bonus
        self.seats = list(range(self.players)) if bonus is None else list(bonus)
        n = self.players
        self.own: list[list[Card]] = [[] for _ in range(n)]
        self.own_pile: list[list[Card]] = [[] for _ in range(n)]
        self.won: list[list[Card]] = [[] for _ in range(n)]  # Zangles built this round
        k = 0
        for p in self.seats:
            if bonus is None:
                self.own_pile[p] = cards[k : k + OWN_PILE]
                k += OWN_PILE
            else:
                self.own[p] = cards[k : k + FACE_UP]
                k += FACE_UP
        self.middle_pile: list[Card] = cards[k:]
        self._before_refill()
        self.middle: list[Card] = []
        self._refill_middle()
        for p in self.seats:
            self._refill_own(p)

    def _before_refill(self) -> None:
        """Hook between dealing and the first refill (the speed game's level-4 handicap)."""

    def face_up_limit(self, p: int) -> int:
        return FACE_UP

    def _refill_middle(self) -> None:
        while len(self.middle) < MIDDLE and self.middle_pile:
            self.middle.append(self.middle_pile.pop(0))

    def _refill_own(self, p: int) -> None:
        limit = self.face_up_limit(p)
        while len(self.own[p]) < limit and self.own_pile[p]:
            self.own[p].append(self.own_pile[p].pop(0))

    def cards_left(self, p: int) -> int:
        return len(self.own[p]) + len(self.own_pile[p])

    def _start_round(self, bonus=None) -> None:
        raise NotImplementedError

    def _bonus_possible(self, tied: list[int]) -> bool:
        """Whether a bonus round can be dealt for the tied players (enough cards)."""
        return True

    def _finish_or_bonus(self) -> None:
        """After the last round: declare the winner, or start the bonus round on a tie."""
        totals = self.totals()
        best = min(totals)
        tied = [p for p in range(self.players) if totals[p] == best]
        if len(tied) == 1 or not self._bonus_possible(tied):
            self.winners = tied
            self.over = True
        else:
            self._start_round(bonus=tied)

    def _table_json(self) -> dict:
        """The cards on the table and the scores, shared by both games' ``to_json``."""
        return {
            "middle": [c.id for c in self.middle],
            "middle_pile": [c.id for c in self.middle_pile],
            "own": [[c.id for c in o] for o in self.own],
            "own_pile": [[c.id for c in o] for o in self.own_pile],
            "round_points": self.round_points,
            "over": self.over,
            "winners": self.winners,
        }

    def totals(self) -> list[int]:
        return [sum(r[p] for r in self.round_points) for p in range(self.players)]

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.players
        return [1.0 if p in self.winners else -1.0 for p in range(self.players)]

