"""One game API for every tanglekit game and mode, with OpenSpiel's names.

``load_game(name, **params)`` gives a :class:`Game`; ``game.new_initial_state(seed)`` a
:class:`State` that is played by integer actions::

    game = load_game("tanglung-solo")
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()

Conventions (the same for every game, see docs/api.md):

- players are counted from 0; ``current_player()`` is ``CHANCE`` (-1) at a chance node and
  ``TERMINAL`` (-4) when the game is over, as in OpenSpiel;
- an action is an ``int``; ``action_to_string`` / ``string_to_action`` use the game's own move
  notation and round-trip; an illegal action raises :class:`~tanglekit.errors.IllegalMoveError`
  (a ``RuleError``) whose message says why (``explain_illegal``) and leaves the state unchanged;
  move text that does not parse raises :class:`~tanglekit.errors.InvalidMoveError` (a
  ``FormatError``), well-formed text of a move that is not legal now ``IllegalMoveError``;
- ``params`` are rule options (by their names in the README table) plus a few set-up values per
  game (``players``, ``board``...); unknown names are a ``RuleError``;
- ``new_initial_state(seed)`` starts a game whose hidden shuffles come from ``seed`` (``None``
  means 0, so a state is always reproducible); ``new_initial_state_from(instance)`` starts from
  a given instance (a Tanglung layout, a Zangle solo deal, a QANGO position, ...) as an engine
  object or its text / JSON form;
- ``to_json()`` is a plain dict (game, params, seed, start instance, actions played and a
  readable snapshot) that ``game.state_from_json`` restores exactly.

Games are registered by their plugins (``games/plugin.py``) and imported lazily.
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Self, SupportsIndex, TypeVar, cast, overload

from ..errors import FormatError, IllegalMoveError, RuleError
from ..jsonio import same_json, whole_number

CHANCE = -1  # current_player() at a chance node (OpenSpiel's kChancePlayerId)
TERMINAL = -4  # current_player() when the game is over (OpenSpiel's kTerminalPlayerId)

__all__ = ["CHANCE", "TERMINAL", "ChanceMode", "Dynamics", "EngineState", "Game", "GameMeta", "Information",
           "Outcome", "RewardModel", "State", "Utility"]


# -- metadata (OpenSpiel's GameType / GameInfo as data) ---------------------------------------


class Dynamics(str, Enum):
    """How players move: in turn (every tanglekit game) or all at once."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


class ChanceMode(str, Enum):
    """Where luck comes in: nowhere, at explicit chance nodes, or sampled inside the engine from
    the seed of ``new_initial_state`` (shuffles, layouts, simulated times: no chance nodes)."""

    DETERMINISTIC = "deterministic"
    EXPLICIT = "explicit stochastic"
    SAMPLED = "sampled stochastic"


class Information(str, Enum):
    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class Utility(str, Enum):
    """How the players' returns relate: sum 0, a constant sum, all equal (co-operative games) or
    no relation."""

    ZERO_SUM = "zero-sum"
    CONSTANT_SUM = "constant-sum"
    IDENTICAL = "identical"
    GENERAL_SUM = "general-sum"


class RewardModel(str, Enum):
    """``terminal``: the result comes only at the end (``returns()``); ``rewards``: along the way."""

    TERMINAL = "terminal"
    REWARDS = "rewards"


@dataclass(frozen=True)
class GameMeta:
    """What kind of game this is, as data (OpenSpiel's ``GameType`` and ``GameInfo`` in one).

    ``num_distinct_actions`` bounds the action ints (every action is in ``range`` of it, chance
    outcomes excepted: those are below ``max_chance_outcomes``); ``max_game_length`` bounds the
    number of actions of a game started by ``new_initial_state`` (chance outcomes included) and
    ``length_bound`` says where the bound comes from (the rules, or an engine's safety cap where
    the rules alone allow an endless game). ``terminations`` are the reasons a game can end, as
    ``State.outcome().termination`` names them.
    """

    name: str
    num_players: int
    num_distinct_actions: int
    max_game_length: int
    length_bound: str
    utility: Utility
    min_utility: float
    max_utility: float
    chance_mode: ChanceMode
    information: Information
    terminations: tuple[str, ...]
    max_chance_outcomes: int = 0
    dynamics: Dynamics = Dynamics.SEQUENTIAL
    reward_model: RewardModel = RewardModel.TERMINAL
    utility_sum: float | None = None  # the constant sum of a constant-sum game (0.0: zero-sum)

    def __post_init__(self) -> None:
        for attr, kind in (("utility", Utility), ("chance_mode", ChanceMode), ("information", Information),
                           ("dynamics", Dynamics), ("reward_model", RewardModel)):
            object.__setattr__(self, attr, kind(getattr(self, attr)))
        if self.utility is Utility.ZERO_SUM:
            object.__setattr__(self, "utility_sum", 0.0)
        elif self.utility is Utility.CONSTANT_SUM and self.utility_sum is None:
            raise ValueError("a constant-sum game needs its utility_sum")
        if not (self.num_players >= 1 and self.num_distinct_actions >= 1 and self.max_game_length >= 1
                and self.min_utility < self.max_utility and self.terminations):
            raise ValueError(f"inconsistent game metadata: {self}")
        if (self.chance_mode is ChanceMode.EXPLICIT) != (self.max_chance_outcomes > 0):
            raise ValueError("explicit chance nodes and max_chance_outcomes > 0 go together")

    @property
    def cooperative(self) -> bool:
        """Whether the players win or lose together (identical returns, more than one player)."""
        return self.utility is Utility.IDENTICAL and self.num_players > 1

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k in self.__dataclass_fields__:
            v = getattr(self, k)
            out[k] = v.value if isinstance(v, Enum) else list(v) if isinstance(v, tuple) else v
        return out


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (like python-chess's ``Outcome``): ``termination`` is one of the
    game's ``meta.terminations``; ``winners`` the players who won (empty for a draw or a lost
    solo / co-operative game); ``returns`` the final ``returns()``."""

    termination: str
    winners: tuple[int, ...]
    returns: tuple[float, ...]

    @property
    def winner(self) -> int | None:
        """The single winner, or None (a draw, a shared win, or a loss for all)."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def is_draw(self) -> bool:
        return not self.winners


def winners_from_returns(returns: tuple[float, ...] | list[float], cooperative: bool = False) -> tuple[int, ...]:
    """Winners read off ``returns``: one player or a co-operative game, everyone on a positive
    return (a solved challenge) and nobody otherwise; else the players with the strictly best
    return, nobody when all are equal (a draw)."""
    if len(returns) == 1 or cooperative:
        return tuple(range(len(returns))) if min(returns) > 0 else ()
    best = max(returns)
    if all(r == best for r in returns):
        return ()
    return tuple(p for p, r in enumerate(returns) if r == best)


class State(ABC):
    """A game position with its history; changed in place by ``apply_action`` / ``undo``."""

    def __init__(self, game: "Game"):
        self._game = game

    # -- core (every game) ------------------------------------------------------------------
    def get_game(self) -> "Game":
        """The game this state belongs to."""
        return self._game

    def num_players(self) -> int:
        return self._game.num_players()

    @abstractmethod
    def current_player(self) -> int:
        """Index of the player to act (from 0), or ``CHANCE`` / ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions now, as ints in ascending order (empty when terminal)."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play ``action``; ``IllegalMoveError`` (a ``RuleError``) saying why if it is not legal
        now (and the state is unchanged)."""

    @abstractmethod
    def undo(self) -> int:
        """Take back the last action and return it; ``RuleError`` at the start."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """One value per player: the game's result when terminal (0.0 each before the end)."""

    @abstractmethod
    def clone(self) -> "State":
        """An independent copy (same history, so it can be undone as far back as this one)."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """``action`` in the game's own move notation (legal now or not, where it can be named)."""

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """The legal action written ``text``: ``InvalidMoveError`` (a ``FormatError``) if the text
        is not a move in the game's notation, ``IllegalMoveError`` (a ``RuleError``, saying why)
        if it is one that is not legal now."""

    @abstractmethod
    def history(self) -> list[int]:
        """Every action applied since the start, in order (chance outcomes included)."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict that ``get_game().state_from_json`` restores exactly."""

    @abstractmethod
    def __str__(self) -> str:
        """The position as terminal text."""

    @abstractmethod
    def to_svg(self) -> str:
        """The position as an SVG picture (a complete ``<svg>`` document)."""

    # -- defaults -------------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs at a chance node; empty elsewhere."""
        return []

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def observation_string(self, player: int) -> str:
        """What ``player`` sees (games with hidden information hide the rest); default: all."""
        return str(self)

    def legal_action_strings(self) -> list[str]:
        return [self.action_to_string(a) for a in self.legal_actions()]

    def apply_string(self, text: str) -> int:
        """Play the move written ``text``; returns its action."""
        a = self.string_to_action(text)
        self.apply_action(a)
        return a

    def move_number(self) -> int:
        return len(self.history())

    def explain_illegal(self, action: object) -> str:
        """Why ``action`` is not legal now, in words (``""`` when it is legal): "no such action"
        for a number that is no action of the game, "the game is over", else the game's reason
        (``_why_illegal``, overridden per game) or, failing one, the legal moves it is not among."""
        if isinstance(action, bool):
            return f"no such action: {action!r} (an action is an int)"
        try:
            a = operator.index(cast(SupportsIndex, action))
        except TypeError:
            return f"no such action: {action!r} (an action is an int)"
        if a < 0:
            return f"no such action: {a}"
        if self.is_terminal():
            return "the game is over"
        if a in self.legal_actions():
            return ""
        try:
            why = self._why_illegal(a)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError, RuleError):
            why = None  # a reason that cannot be worked out here: the general one
        if why:
            return why
        try:
            name = self.action_to_string(a)
        except Exception:  # noqa: BLE001 - a number that names no action
            return f"no such action: {a}"
        legal = self.legal_action_strings()
        shown = ", ".join(legal[:8]) + (", ..." if len(legal) > 8 else "")
        return f"{name} is not one of the {len(legal)} legal moves now ({shown})"

    def _why_illegal(self, action: int) -> str | None:
        """The game's own reason why ``action`` (an int, not legal now, the game not over) is
        illegal, or None for the general one; each game overrides this."""
        return None

    def outcome(self) -> Outcome | None:
        """None before the end; then how the game ended: an :class:`Outcome` with the reason
        (one of ``get_game().meta.terminations``), the winners and the returns."""
        if not self.is_terminal():
            return None
        returns = tuple(float(r) for r in self.returns())
        return Outcome(self._termination(), self._winners(returns), returns)

    def _termination(self) -> str:
        """Why the (finished) game ended: one of the game's ``meta.terminations``."""
        raise NotImplementedError

    def _winners(self, returns: tuple[float, ...]) -> tuple[int, ...]:
        return winners_from_returns(returns, self._game.meta.cooperative)

    def _repr_svg_(self) -> str:  # Jupyter
        return self.to_svg()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._game.name} after {len(self.history())} actions>"


class Game(ABC):
    """A game with fixed parameters: makes initial states and restores states from JSON."""

    name: str = ""
    #: set-up parameters that are not rule options, with their defaults
    setup_params: dict[str, Any] = {}
    #: the reasons a game can end (``State.outcome().termination``), in the game's own words
    terminations: tuple[str, ...] = ()

    def __init__(self, **params: Any) -> None:
        self.params = dict(params)

    @abstractmethod
    def num_players(self) -> int:
        """How many players (1 for the solo games)."""

    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> State:
        """A state at the start of a game; ``seed`` fixes the deal / shuffles (None means 0)."""

    @abstractmethod
    def new_initial_state_from(self, instance: Any) -> State:
        """A state starting from a given instance (an engine object or its text / JSON form)."""

    @abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> State:
        """The state whose ``to_json()`` is ``data`` (``FormatError`` if it does not fit)."""

    def _start(self, seed: int, start: Any) -> "EngineState":
        """A state from ``seed`` and the JSON form of a start instance (or None); the hook that
        ``EngineState`` uses to replay a game (restoring JSON, undo without a saved copy)."""
        raise NotImplementedError

    def has_chance(self) -> bool:
        """Whether states of this game have chance nodes."""
        return False

    def has_hidden_information(self) -> bool:
        return False

    @property
    def meta(self) -> GameMeta:
        """The game's :class:`GameMeta` (its kind, sizes and bounds for these parameters)."""
        meta = self.__dict__.get("_meta_cache")
        if meta is None:
            meta = self._meta()
            self.__dict__["_meta_cache"] = meta
        return meta

    def _meta(self) -> GameMeta:
        """The metadata of this game with its parameters (each game provides it)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"load_game({self.name!r}{', ' if args else ''}{args})"


def check_json_game(data: Any, name: str) -> dict[str, Any]:
    """``data`` as a state dict of game ``name`` (``FormatError`` otherwise)."""
    if not isinstance(data, dict):
        raise FormatError(f"a {name} state must be a JSON object, not {type(data).__name__}")
    if data.get("game") != name:
        raise FormatError(f"this state is of game {data.get('game')!r}, not {name!r}")
    return data


def split_params(params: dict[str, Any], setup: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``params`` split into set-up values (defaults filled in) and rule options."""
    got = {k: params[k] for k in setup if k in params}
    options = {k: v for k, v in params.items() if k not in setup}
    return {**setup, **got}, options


class EngineState(State):
    """Shared base of the wrappers around the game engines (one ``engine`` object each).

    A subclass provides ``current_player``, ``is_terminal``, ``returns``, ``_legal()`` (ints),
    ``_apply(action)`` (a legal one), ``action_to_string``, ``_snapshot()`` (the engine's own
    JSON), ``__str__`` and ``to_svg``. This base keeps the action history, undoes by a stack of
    engine copies (a subclass may use the engine's own undo instead), parses move text by the
    legal moves' names, and writes / restores JSON by replaying the actions from the start.
    """

    def __init__(self, game: Game, engine: Any, seed: int = 0, start: Any = None) -> None:
        super().__init__(game)
        self.engine = engine
        self._seed = seed
        self._start = start  # JSON form of the instance started from, or None
        self._actions: list[int] = []
        self._undo_stack: list[Any] = []
        self._legal_cache: list[int] | None = None

    # -- to provide -------------------------------------------------------------------------
    def _legal(self) -> list[int]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _snapshot(self) -> Any:
        return None

    def _copy_engine(self, engine: Any) -> Any:
        """An independent copy of an engine object (default: a deep copy)."""
        import copy

        return copy.deepcopy(engine)

    def _save(self) -> Any:
        """What ``_restore`` needs to take back the next action (default: an engine copy)."""
        return self._copy_engine(self.engine)

    def _restore(self, saved: Any) -> None:
        # copied again: a clone may hold the same saved entry in its own undo stack
        self.engine = self._copy_engine(saved)

    # -- shared ---------------------------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.is_terminal():
            return []
        if player is not None and player != self.current_player():
            return []
        if self._legal_cache is None:
            self._legal_cache = sorted(self._legal())
        return list(self._legal_cache)

    def apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise IllegalMoveError("the game is over")
        if isinstance(action, bool):
            raise IllegalMoveError(f"an action is an int, not {action!r}")
        try:
            action = operator.index(action)  # numpy integers too
        except TypeError:
            raise IllegalMoveError(f"an action is an int, not {action!r}") from None
        if action not in self.legal_actions():
            raise IllegalMoveError(f"illegal action now: {action} ({self._name_or_number(action)}): "
                                   f"{self.explain_illegal(action)}")
        self._push(action, save=True)

    def _push(self, action: int, save: bool) -> None:
        """Apply a legal action; ``save=False`` skips the undo copy (undo then replays)."""
        saved = self._save() if save else _REPLAY
        self._apply(action)  # legal, so the engine accepts it
        self._undo_stack.append(saved)
        self._actions.append(action)
        self._legal_cache = None

    def _name_or_number(self, action: int) -> str:
        try:
            return self.action_to_string(action)
        except Exception:  # an action that cannot be named here
            return "no such move"

    def undo(self) -> int:
        if not self._actions:
            raise RuleError("nothing to undo")
        saved = self._undo_stack.pop()
        last = self._actions.pop()
        self._legal_cache = None
        if saved is _REPLAY:  # no copy kept: rebuild from the start
            fresh = self._replayed(self._actions)
            self.engine = fresh.engine
        else:
            self._restore(saved)
        return last

    def _replayed(self, actions: list[int]) -> "EngineState":
        """A new state of this game's start with ``actions`` applied (no undo copies)."""
        fresh = self._game._start(self._seed, self._start)
        for a in actions:
            fresh._push(a, save=False)
        return fresh

    def string_to_action(self, text: str) -> int:
        """The legal action written ``text``: ``_parse_action`` reads the notation (a game
        without its own parser matches the legal moves' names), then the action is checked."""
        a = self._parse_action(text)
        if a is None:  # no parser: the text is one of the legal moves' names or refused
            want = " ".join(str(text).split()).lower()
            for b in self.legal_actions():
                if " ".join(self.action_to_string(b).split()).lower() == want:
                    return b
            raise IllegalMoveError(f"no legal move {_short(text)} now")
        return self._checked(a, text)

    def _parse_action(self, text: str) -> int | None:
        """The action written ``text`` in the game's notation, legal now or not
        (``InvalidMoveError`` if it does not parse); None: the game has no parser."""
        return None

    def _checked(self, action: int, text: str) -> int:
        """``action`` (parsed from ``text``) if legal now, else ``IllegalMoveError`` saying why."""
        if self.is_terminal():
            raise IllegalMoveError(f"{_short(text)}: the game is over")
        if action not in self.legal_actions():
            raise IllegalMoveError(f"{_short(text)} is not legal now: {self.explain_illegal(action)}")
        return action

    def history(self) -> list[int]:
        return list(self._actions)

    def clone(self) -> Self:
        import copy

        new = copy.copy(self)
        new.engine = self._copy_engine(self.engine)
        new._actions = list(self._actions)
        new._undo_stack = list(self._undo_stack)  # saved entries are never changed in place
        new._legal_cache = None
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self._game.name,
            "params": _jsonable(self._game.params),
            "seed": self._seed,
            "start": self._start,
            "actions": list(self._actions),
            "position": _jsonable(self._snapshot()),  # a copy: engines may share their lists
        }


def _short(text: Any) -> str:
    """``text`` quoted for a message, at most 60 characters."""
    t = str(text)
    return repr(t if len(t) <= 60 else t[:57] + "...")


_REPLAY = object()  # undo-stack entry: nothing saved, undo replays from the start


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if hasattr(v, "to_json"):
        return v.to_json()
    return str(v)


_S = TypeVar("_S", bound=EngineState)


@overload
def replay_from_json(game: Game, data: Any) -> EngineState: ...
@overload
def replay_from_json(game: Game, data: Any, make: Callable[[int, Any], _S]) -> _S: ...
def replay_from_json(game: Game, data: Any, make: Callable[[int, Any], EngineState] | None = None) -> EngineState:
    """The state of ``data`` (a ``to_json`` dict): ``make(seed, start)`` (default
    ``game._start``) then the actions replayed, checked against the stored position if any."""
    make = make or game._start
    data = check_json_game(data, game.name)
    seed, actions = data.get("seed"), data.get("actions", [])
    # whole numbers only: int() took true, 3.0, 2.5 and "3" (and Arabic-Indic digits) as numbers
    if not (seed is None or whole_number(seed, 0, 2**63 - 1)) or not isinstance(actions, list) \
            or not all(whole_number(a, 0) for a in actions):
        raise FormatError(f"{game.name} state: seed and actions must be whole numbers")
    seed = seed or 0
    if "params" in data and not same_json(data["params"], _jsonable(game.params)):
        raise FormatError(f"{game.name} state: made with parameters {data['params']}, this game has "
                          f"{_jsonable(game.params)} (load_game with the state's parameters)")
    state = make(seed, data.get("start"))
    for i, a in enumerate(actions):
        if state.is_terminal() or a not in state.legal_actions():
            raise FormatError(f"{game.name} state: action {i} ({a}) is not legal there")
        state._push(a, save=False)  # undo past this point replays from the start
    if data.get("position") is not None and not same_json(_jsonable(state._snapshot()), data["position"]):
        raise FormatError(f"{game.name} state: the position does not match the actions played")
    return state
