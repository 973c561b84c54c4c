"""A sixth game defined entirely in tests/: Nim as a tanglekit plugin (issue 24's proof that a
game needs no edit outside its own files). Normal play: whoever takes the last counter wins.

Actions: ``16 * pile + take`` (take 1..15 counters from pile ``pile``); text ``"take T from P"``
with piles numbered from 1, as on every human surface.
"""

from __future__ import annotations

import random
from functools import reduce
from typing import Any, cast

from tanglekit.errors import FormatError, RuleError
from tanglekit.games.api import (TERMINAL, ChanceMode, EngineState, Game, GameMeta, Information, State, Utility,
                                 check_json_game, replay_from_json, split_params)
from tanglekit.games.plugin import BotSpec, GamePlugin, Picture
from tanglekit.play.bots import Bot, Hint, RandomBot, with_strong

PILES = (3, 4, 5)


class NimState(EngineState):
    """The engine is ``[piles..., player to move]``."""

    engine: list[int]

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.engine[-1]

    def is_terminal(self) -> bool:
        return not any(self.engine[:-1])

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        winner = 1 - self.engine[-1]  # the player who took the last counter
        return [1.0 if p == winner else -1.0 for p in range(2)]

    def _legal(self) -> list[int]:
        return [16 * i + t for i, n in enumerate(self.engine[:-1]) for t in range(1, min(n, 15) + 1)]

    def _apply(self, action: int) -> None:
        self.engine[action // 16] -= action % 16
        self.engine[-1] = 1 - self.engine[-1]

    def _copy_engine(self, engine: list[int]) -> list[int]:
        return list(engine)

    def _snapshot(self) -> list[int]:
        return list(self.engine)

    def _termination(self) -> str:
        return "last counter taken"

    def action_to_string(self, action: int) -> str:
        return f"take {action % 16} from {action // 16 + 1}"

    def __str__(self) -> str:
        return "  ".join(f"pile {i + 1}: {n}" for i, n in enumerate(self.engine[:-1])) + \
            ("" if self.is_terminal() else f"; player {self.engine[-1] + 1} to move")

    def to_svg(self) -> str:
        piles = self.engine[:-1]
        w, h = 40 + 30 * max(piles + [1]), 30 + 30 * len(piles)
        dots = "".join(f'<circle cx="{30 + 30 * k}" cy="{30 + 30 * i}" r="10" fill="#963"/>'
                       for i, n in enumerate(piles) for k in range(n))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
                f'<rect width="{w}" height="{h}" fill="white"/>{dots}</svg>')


class Nim(Game):
    """Nim on ``piles`` (default 3, 4, 5)."""

    name = "nim"
    setup_params = {"piles": PILES}

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        setup, options = split_params(params, self.setup_params)
        if options:
            raise RuleError(f"Nim has no rule option {next(iter(options))!r}")
        piles = setup["piles"]
        if isinstance(piles, str):  # --option piles=1/2/3
            try:
                piles = [int(x) for x in piles.split("/")]
            except ValueError:
                raise RuleError("Nim piles are written 1/2/3") from None
        if not isinstance(piles, (list, tuple)) or not piles or not all(
                isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 15 for n in piles):
            raise RuleError("Nim piles are 1 or more whole numbers 0..15")
        self.piles = tuple(piles)

    def num_players(self) -> int:
        return 2

    def _meta(self) -> GameMeta:
        return GameMeta(name=self.name, num_players=2, num_distinct_actions=16 * len(self.piles),
                        max_game_length=max(sum(self.piles), 1), length_bound="rules: a counter or more a move",
                        utility=Utility.ZERO_SUM, min_utility=-1.0, max_utility=1.0,
                        chance_mode=ChanceMode.DETERMINISTIC, information=Information.PERFECT,
                        terminations=("last counter taken",))

    def _start(self, seed: int, start: Any) -> NimState:
        piles = list(self.piles if start is None else start)
        return NimState(self, piles + [0], seed, None if start is None else list(start))

    def new_initial_state(self, seed: int | None = None) -> NimState:
        return self._start(int(seed or 0), None)

    def new_initial_state_from(self, instance: Any) -> NimState:
        if not isinstance(instance, (list, tuple)):
            raise FormatError("a Nim position is a list of pile sizes")
        return self._start(0, list(instance))

    def state_from_json(self, data: dict[str, Any]) -> NimState:
        return replay_from_json(self, check_json_game(data, self.name), self._start)


def perfect_move(state: State) -> int | None:
    """A move to a position of nim-sum 0, or None when every move loses."""
    piles = cast(NimState, state).engine[:-1]
    x = reduce(lambda a, b: a ^ b, piles, 0)
    for i, n in enumerate(piles):
        if n ^ x < n:
            return 16 * i + (n - (n ^ x))
    return None


class PerfectNimBot(Bot):
    name = "perfect"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        a = perfect_move(state)
        return a if a is not None else self.rng.choice(state.legal_actions())


class NimPlugin(GamePlugin):
    family = "nim"
    title = "Nim"
    order = 90
    games = {"nim": Nim}

    def bots(self, game_name: str) -> dict[str, BotSpec]:
        return with_strong({"random": BotSpec("any legal move", RandomBot),
                            "perfect": BotSpec("to nim-sum 0 when it can", PerfectNimBot)}, "perfect")

    def hint(self, state: State) -> Hint:
        a = perfect_move(state)
        return Hint(a, "leaves a nim-sum of 0" if a is not None else "every move loses against best play")

    def picture(self, state: State, legal: list[int], humans: list[int]) -> Picture:
        # every counter of the picture clickable: takes it and the counters right of it
        svg = state.to_svg()
        hot: set[int] = set()
        spots = []
        for i, n in enumerate(cast(NimState, state).engine[:-1]):
            for k in range(n):
                a = 16 * i + (n - k)
                if a in legal:
                    hot.add(a)
                    spots.append(f'<circle class="hot legal" data-action="{a}" cx="{30 + 30 * k}" cy="{30 + 30 * i}" '
                                 'r="12" fill="#000" fill-opacity="0" style="cursor:pointer"/>')
        return Picture(svg.replace("</svg>", "".join(spots) + "</svg>"), hot)


PLUGIN = NimPlugin()
