"""The multi-player tanglekit games as PettingZoo AEC environments (``pip install ".[interop]"``).

``env(name, **params)`` gives a ``pettingzoo.AECEnv`` for every game of more than one player
(``zangle-turn``, ``zangle-speed``, ``tanglung-coop``, ``tanglung-duel``, ``qango``, ``zinga``,
``tangle``; ``params`` as for ``load_game``), in the pattern of PettingZoo's classic games::

    >>> from tanglekit.games import pettingzoo as tkpz
    >>> e = tkpz.env("qango")
    >>> e.reset(seed=1)
    >>> obs, reward, termination, truncation, info = e.last()
    >>> e.agent_selection, int(obs["action_mask"].sum()), e.action_space("player_0").n
    ('player_0', 36, 36)

- agents ``player_0`` .. ``player_{n-1}`` are the game's players; the agent to act is the
  game's current player. Chance nodes (Zinga's dice) are resolved inside the environment with a
  ``random.Random`` seeded by ``reset(seed=...)``, which also deals the seed of the games whose
  chance is sampled from a seed (Zangle, Tanglung duel): the same seed gives the same game;
- actions are ``Discrete(n)``, the game's own action ints (``n`` = ``meta.num_distinct_actions``),
  or for Zangle turn and speed the index of a legal action (see ``interop.py``); an illegal
  action raises ``RuleError``;
- an observation is ``{"observation": uint8[OBS_BYTES * players], "action_mask": int8[n]}``: the
  UTF-8 bytes of the game's ``observation_string`` for the agent (hidden cards left out),
  zero-padded (a longer one raises ``RuleError``), and the mask of the legal actions (all zeros
  for an agent not to act);
- rewards come at the end: the game's ``returns()``; there are no truncations (every game has
  a bounded length, ``meta.max_game_length``). ``render()`` with ``render_mode="ansi"`` returns
  the position as text.

This module imports ``pettingzoo`` and ``gymnasium``; ``tanglekit.games`` itself never does.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import RuleError
from .api import ChanceMode, State
from .plugin import game_names, load_game
from .interop import adapter_actions, by_index, num_actions, own_action

__all__ = ["OBS_BYTES", "TanglekitEnv", "env", "env_names"]

#: bytes of an observation per player (the observation string, zero-padded)
OBS_BYTES = 1024


def env_names() -> list[str]:
    """The games that have a PettingZoo environment (more than one player)."""
    return [n for n in game_names() if load_game(n).num_players() > 1]


def env(name: str, render_mode: str | None = None, **params: Any) -> "TanglekitEnv":
    """The PettingZoo AEC environment of game ``name`` with ``load_game`` parameters ``params``."""
    return TanglekitEnv(name, render_mode=render_mode, **params)


class TanglekitEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type information
    """One tanglekit game of two or more players as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi"], "name": "tanglekit_v0", "is_parallelizable": False}

    def __init__(self, name: str, render_mode: str | None = None, **params: Any) -> None:
        super().__init__()
        self.game = load_game(name, **params)
        meta = self.game.meta
        if meta.num_players < 2:
            raise RuleError(f"{name} has one player: PettingZoo environments are for games of 2 or more")
        if render_mode not in (None, "ansi"):
            raise RuleError(f"render_mode {render_mode!r}: only 'ansi' (text) is supported")
        self.metadata = {**self.metadata, "name": f"tanglekit_{name.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self._indexed = by_index(meta)
        self._sampled = meta.chance_mode is ChanceMode.SAMPLED
        n_actions = num_actions(meta)
        self.obs_len = OBS_BYTES * meta.num_players
        self.possible_agents = [f"player_{p}" for p in range(meta.num_players)]
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0, 255, (self.obs_len,), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, (n_actions,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self._rng = random.Random()
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game ---------------------------------------------------------------------------
    def _chance(self) -> None:
        """Play chance nodes until a player is to act (or the game is over)."""
        st = self.state
        assert st is not None
        while st.is_chance_node():
            outcomes = st.chance_outcomes()
            u, acc, pick = self._rng.random(), 0.0, outcomes[-1][0]
            for a, p in outcomes:
                acc += p
                if u < acc:
                    pick = a
                    break
            st.apply_action(pick)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state(self._rng.randrange(2**31) if self._sampled else 0)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._chance()
        self._after_move()

    def _after_move(self) -> None:
        st = self.state
        assert st is not None
        if st.is_terminal():
            out = st.outcome()
            assert out is not None
            self.rewards = {a: float(r) for a, r in zip(self.possible_agents, out.returns)}
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"termination": out.termination, "winners": list(out.winners)}
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[st.current_player()]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        assert st is not None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        st.apply_action(own_action(st, action, self._indexed))  # RuleError if illegal
        self._chance()
        self._after_move()
        if self.render_mode == "ansi":
            self.render()

    # -- what an agent sees -----------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self.state
        assert st is not None
        p = self.possible_agents.index(agent)
        raw = st.observation_string(p).encode("utf-8")
        if len(raw) > self.obs_len:
            raise RuleError(f"an observation of {len(raw)} bytes: more than the space's {self.obs_len}")
        obs = np.zeros(self.obs_len, dtype=np.uint8)
        obs[: len(raw)] = np.frombuffer(raw, dtype=np.uint8)
        mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        if not st.is_terminal() and st.current_player() == p:
            mask[adapter_actions(st, self._indexed)] = 1
        return {"observation": obs, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return str(self.state)

    def close(self) -> None:
        pass
