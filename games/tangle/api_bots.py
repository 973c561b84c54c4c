"""Tangle's bots on the common game API and its hint (the best turn, searched exactly)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from ...errors import SolverError
from ...play.bots import Bot, EngineBot, Hint, with_strong
from ..plugin import BotSpec

if TYPE_CHECKING:
    from ..api import State
    from .api import TangleApiState


def _t(strength: str) -> Callable[[int], Bot]:
    def make(seed: int) -> Bot:
        from .bots import make_bot as tbot  # loads pydantic (only when this runs)

        b = tbot(strength, seed)

        def pick(state: State) -> int:
            st = cast("TangleApiState", state)
            return st.action_of(b.choose(st.engine))

        return EngineBot(strength, pick)
    return make


def bots(game_name: str) -> dict[str, BotSpec]:
    return with_strong({
        "random": BotSpec("any legal placement", _t("random")),
        "greedy": BotSpec("the capture worth most now, else random", _t("greedy")),
        "builder": BotSpec("greedy, grows own tiles, never hands over a capture it can avoid", _t("builder")),
        "lookahead": BotSpec("exact best turn against the best reply, then forks", _t("lookahead")),
    }, "lookahead")


def hint(state: State) -> Hint | None:
    from .search import best_turn  # loads pydantic (only when this runs)

    state = cast("TangleApiState", state)
    try:
        r = best_turn(state.engine, "safe", node_limit=200_000)
    except SolverError:
        return None  # too open to search exactly: the strong bot's move
    if r.points <= 0 or not r.placements:
        return None
    a = state.action_of(r.placements[0])
    return Hint(a, f"the best turn scores {r.points} point{'s' if r.points != 1 else ''} in "
                   f"{len(r.placements)} placement{'s' if len(r.placements) != 1 else ''}"
                   + ("" if r.safe else " (no safe turn exists)"))
