"""Every tanglekit game as an OpenSpiel game (``pip install ".[interop]"``).

``register()`` registers each game of ``game_names()`` with OpenSpiel (the ``open_spiel``
package) as ``tanglekit_<name>`` with dashes as underscores; ``pyspiel.load_game`` then loads
them like any other game and OpenSpiel's algorithms (MCTS, CFR on small games, ...) play them::

    >>> import pyspiel
    >>> from tanglekit.games import openspiel
    >>> openspiel.register()
    >>> game = pyspiel.load_game("tanglekit_qango")
    >>> game.num_distinct_actions(), game.max_game_length()
    (36, 36)

What OpenSpiel sees, from the game's :class:`~tanglekit.games.api.GameMeta`:

- the game type and sizes of the tanglekit game with its parameters: OpenSpiel's ``params``
  parameter is a JSON object of ``load_game`` parameters (default ``{}``), e.g.
  ``pyspiel.load_game("tanglekit_qango", {"params": '{"board": "7"}'})``; its ``seed``
  parameter (default 0) seeds the games whose chance is sampled from a seed (Zangle,
  Tanglung): each ``new_initial_state()`` deals the next seed of a generator started from it,
  and the state starts from that seed (OpenSpiel's ``SAMPLED_STOCHASTIC``);
- actions are the game's own action ints, except where those are too many for OpenSpiel's
  legal-action masks (Zangle turn and speed): there action ``k`` is the ``k``-th legal action
  in ascending order and ``num_distinct_actions`` is ``INDEX_ACTIONS`` (see ``interop.py``);
- observations are strings only (``observation_string`` of the game: hidden cards left out);
  there are no observation tensors and no information-state strings or tensors;
- serialization is not provided (run ``pyspiel.random_sim_test`` with ``serialize=False``).

This module imports ``pyspiel``; ``tanglekit.games`` itself never does.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pyspiel

from ..errors import RuleError
from .api import ChanceMode, Game, GameMeta, Information, State, Utility
from .plugin import game_names, load_game
from .interop import DENSE_LIMIT, INDEX_ACTIONS, adapter_actions, by_index, num_actions, own_action

__all__ = ["DENSE_LIMIT", "INDEX_ACTIONS", "TanglekitGame", "TanglekitState", "game_type", "register", "short_name"]

_DYNAMICS = {"sequential": pyspiel.GameType.Dynamics.SEQUENTIAL,
             "simultaneous": pyspiel.GameType.Dynamics.SIMULTANEOUS}
_CHANCE = {ChanceMode.DETERMINISTIC: pyspiel.GameType.ChanceMode.DETERMINISTIC,
           ChanceMode.EXPLICIT: pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
           ChanceMode.SAMPLED: pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC}
_INFORMATION = {Information.PERFECT: pyspiel.GameType.Information.PERFECT_INFORMATION,
                Information.IMPERFECT: pyspiel.GameType.Information.IMPERFECT_INFORMATION}
_UTILITY = {Utility.ZERO_SUM: pyspiel.GameType.Utility.ZERO_SUM,
            Utility.CONSTANT_SUM: pyspiel.GameType.Utility.CONSTANT_SUM,
            Utility.IDENTICAL: pyspiel.GameType.Utility.IDENTICAL,
            Utility.GENERAL_SUM: pyspiel.GameType.Utility.GENERAL_SUM}
_REWARD = {"terminal": pyspiel.GameType.RewardModel.TERMINAL, "rewards": pyspiel.GameType.RewardModel.REWARDS}


def short_name(name: str) -> str:
    """OpenSpiel's name of tanglekit game ``name``: ``zangle-solo`` -> ``tanglekit_zangle_solo``."""
    return "tanglekit_" + name.replace("-", "_")


def game_type(meta: GameMeta) -> "pyspiel.GameType":
    """The ``pyspiel.GameType`` of a game's metadata."""
    return pyspiel.GameType(
        short_name=short_name(meta.name),
        long_name=f"tanglekit {meta.name}",
        dynamics=_DYNAMICS[meta.dynamics.value],
        chance_mode=_CHANCE[meta.chance_mode],
        information=_INFORMATION[meta.information],
        utility=_UTILITY[meta.utility],
        reward_model=_REWARD[meta.reward_model.value],
        max_num_players=meta.num_players,
        min_num_players=meta.num_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"seed": 0, "params": "{}"},
    )


def game_info(meta: GameMeta) -> "pyspiel.GameInfo":
    """The ``pyspiel.GameInfo`` of a game's metadata (sizes as OpenSpiel plays it)."""
    return pyspiel.GameInfo(
        num_distinct_actions=num_actions(meta),
        max_chance_outcomes=meta.max_chance_outcomes,
        num_players=meta.num_players,
        min_utility=meta.min_utility,
        max_utility=meta.max_utility,
        utility_sum=meta.utility_sum,
        max_game_length=meta.max_game_length,
    )


class _Held:
    """A tanglekit state inside an OpenSpiel state; OpenSpiel's clone (a deep copy) clones it
    with the state's own ``clone`` (which shares the game's immutable tables)."""

    __slots__ = ("state",)

    def __init__(self, state: State):
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Held":
        return _Held(self.state.clone())


class TanglekitGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """A tanglekit game (default parameters) seen by OpenSpiel; ``register`` makes one subclass
    per game, with the game's ``name``."""

    name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        own = json.loads(params.get("params") or "{}")
        if not isinstance(own, dict):
            raise RuleError('the "params" of a tanglekit game are a JSON object of load_game parameters')
        self.tanglekit_game: Game = load_game(self.name, **own)
        meta = self.tanglekit_game.meta
        super().__init__(game_type(meta), game_info(meta), params)
        self.by_index = by_index(meta)
        self.sampled = meta.chance_mode is ChanceMode.SAMPLED
        self._seeds = random.Random(int(params.get("seed", 0)))

    def new_initial_state(self) -> "TanglekitState":
        seed = self._seeds.randrange(2**31) if self.sampled else 0
        return TanglekitState(self, self.tanglekit_game.new_initial_state(seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> "_Observer":
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return _Observer()


class TanglekitState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """A tanglekit state seen by OpenSpiel (``tanglekit_state`` is the game API's state)."""

    def __init__(self, game: TanglekitGame, state: State):
        super().__init__(game)
        self._held = _Held(state)
        self._by_index = game.by_index

    @property
    def tanglekit_state(self) -> State:
        return self._held.state

    def current_player(self) -> int:
        return self._held.state.current_player()  # CHANCE and TERMINAL are OpenSpiel's ids

    def _legal_actions(self, player: int) -> list[int]:
        return adapter_actions(self._held.state, self._by_index)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._held.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._held.state.apply_action(own_action(self._held.state, action, self._by_index))

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self._held.state.action_to_string(own_action(self._held.state, action, self._by_index))
        except RuleError:
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self._held.state.is_terminal()

    def returns(self) -> list[float]:
        return self._held.state.returns()

    def __str__(self) -> str:
        return str(self._held.state)


class _Observer:
    """OpenSpiel's python observer: the game's observation string, no tensor."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: TanglekitState, player: int) -> None:
        pass

    def string_from(self, state: TanglekitState, player: int) -> str:
        return state.tanglekit_state.observation_string(player)


_REGISTERED: set[str] = set()


def register(names: list[str] | None = None) -> list[str]:
    """Register tanglekit games (default: all) with OpenSpiel as ``tanglekit_<name>``; returns
    their OpenSpiel names. Registering again is a no-op."""
    out = []
    for name in names or game_names():
        short = short_name(name)
        if short not in _REGISTERED:
            meta = load_game(name).meta
            # a class, as OpenSpiel's own python games register (it outlives the interpreter cleanly)
            cls = type(f"TanglekitGame_{short}", (TanglekitGame,), {"name": name, "__module__": __name__})
            pyspiel.register_game(game_type(meta), cls)
            _REGISTERED.add(short)
        out.append(short)
    return out
