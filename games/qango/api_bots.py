"""QANGO's bots on the common game API and its hint (the exact solver, time-limited)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, cast

from ...play.bots import Bot, EngineBot, Hint, by_string, with_strong
from ..plugin import BotSpec
from .bots import make_bot as qbot
from .position import plies_text

if TYPE_CHECKING:
    from ..api import EngineState, State
    from .position import Position

#: seconds a QANGO bot or hint may think per move
THINK = 2.0


def position_of(state: State) -> Position:
    """The QANGO position of a state of the common API."""
    e = cast("EngineState", state).engine
    pos: Position = getattr(e, "position", e)
    return pos


def action_of(state: State, native: Any) -> int:
    """The int of a move chosen on the engine (a cell number, or its text)."""
    if isinstance(native, int) and native in state.legal_actions():
        return native
    return by_string(state, native)


def _q(strength: str) -> Callable[[int], Bot]:
    def make(seed: int) -> Bot:
        f = qbot(strength, seed, THINK)
        return EngineBot(strength, lambda state: action_of(state, f(position_of(state))))
    return make


def bots(game_name: str) -> dict[str, BotSpec]:
    return with_strong({
        "random": BotSpec("any free cell", _q("random")),
        "search": BotSpec("short exact search, then threats and a pattern heuristic", _q("search")),
        "perfect": BotSpec("the exact solver's best move (search when it runs out of time)", _q("perfect")),
    }, "search")


def hint(state: State) -> Hint | None:
    from .solve import QangoSolver  # loads numpy (only when this runs)

    pos = position_of(state)
    res = QangoSolver(pos.board, pos.allowed_first, tt_bits=20).solve(pos, time_limit=THINK * 2)
    if res.value == "unknown" or res.best_move is None:
        return None  # undecided in time: the strong bot's move
    a = action_of(state, res.best_move)
    if res.value == "draw":
        return Hint(a, "no winning line from here; this move holds the draw")
    assert res.plies is not None  # the exact search ("id") gives the length of every win or loss
    if res.value == "win":
        return Hint(a, f"wins in {plies_text(res.plies)} with best play")
    return Hint(None, f"no winning line from here: the opponent wins in {plies_text(res.plies)} with best play"
                      f" ({state.action_to_string(a)} holds out longest)")
