"""Zangle's bots on the common game API (solo, turn and speed) and the solo hint."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from ...play.bots import Bot, EngineBot, Hint, with_strong
from ..plugin import BotSpec
from .bots import make_bot as zbot
from .solo_search import SoloDeal, solve_deal

if TYPE_CHECKING:
    from ..api import State
    from .api import ZangleState
    from .bots import Bot as ZangleEngineBot
    from .solo import SoloGame


def solo_best(state: State, max_states: int = 2_000_000,
              time_limit: float | None = 20.0) -> tuple[int | None, int | None]:
    """(first action of a winning line, its length) for a solo state, (None, None) if no line
    wins, (None, -1) if the search stopped at its limit. The solver knows the face-down cards."""
    st = cast("ZangleState", state)
    e = cast("SoloGame", st.engine)  # a solo state
    if state.is_terminal():
        return None, None
    if e.phase != "play":  # a fill choice: try each, the solver takes over in the play phase
        undecided = False
        for a in state.legal_actions():
            c = state.clone()
            c.apply_action(a)
            if c.is_terminal():
                if c.returns()[0] > 0:
                    return a, 1
                continue
            _, n = solo_best(c, max_states, time_limit)
            if n is not None and n >= 0:
                return a, n + 1
            undecided |= n == -1
        return None, (-1 if undecided else None)
    res = solve_deal(SoloDeal.from_game(e), max_states=max_states, time_limit=time_limit)
    if res.solvable is None:
        return None, -1
    if not res.solvable:
        return None, None
    return st.action_of(res.line[0]), len(res.line)


def _engine_bot(strength: str, seed: int) -> ZangleEngineBot:
    return zbot(strength, seed)


class ZanglePerfectBot(Bot):
    """Solo: the first action of the solver's winning line (it knows the face-down cards);
    the look-ahead bot when no line wins."""

    name = "perfect"

    def __init__(self, seed: int = 0) -> None:
        self.fallback = _engine_bot("lookahead", seed)

    def choose(self, state: State) -> int:
        a, _ = solo_best(state)
        if a is None:
            st = cast("ZangleState", state)
            return st.action_of(self.fallback.choose(st.engine))
        return a


def _z(strength: str) -> Callable[[int], Bot]:
    def make(seed: int) -> Bot:
        b = _engine_bot(strength, seed)

        def pick(state: State) -> int:
            st = cast("ZangleState", state)
            return st.action_of(b.choose(st.engine))

        return EngineBot(strength, pick)
    return make


def bots(game_name: str) -> dict[str, BotSpec]:
    table = {
        "random": BotSpec("any legal action", _z("random")),
        "greedy": BotSpec("the best Zangle now, else the most useful other action", _z("greedy")),
    }
    if game_name == "zangle-solo":
        table["lookahead"] = BotSpec("greedy play-outs over reshuffled hidden cards (never peeks)", _z("lookahead"))
        table["perfect"] = BotSpec("the solver's winning line (it knows the face-down cards)", ZanglePerfectBot)
        return with_strong(table, "lookahead")
    return with_strong(table, "greedy")


def hint(state: State) -> Hint | None:
    if state.get_game().name != "zangle-solo":
        return None
    a, n = solo_best(state)
    if a is None:
        return Hint(None, "the solver stopped at its limit" if n == -1 else "no winning line from here (exact search)")
    return Hint(a, f"the solver's winning line has {n} action{'s' if n != 1 else ''} from here")
