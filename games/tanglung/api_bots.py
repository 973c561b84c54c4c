"""Tanglung's bots on the common game API (solo, co-op and duel) and the solo / co-op hint."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, cast

from ...play.bots import Bot, EngineBot, Hint, RandomBot, with_strong
from ..plugin import BotSpec
from .api import encode_duel
from .coop import search_coop
from .duel_bots import make_bot as duel_bot
from .solo_search import move_graph, noflip_mask, search_graph

if TYPE_CHECKING:
    from ..api import State
    from .api import TanglungDuelState, TanglungSoloState


class TanglungWalkerBot(Bot):
    """Solo / co-op: a dark card if one can be reached, else any card (the generator's walker)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        acts = state.legal_actions()
        lit = cast("TanglungSoloState", state).engine.lit
        dark = [a for a in acts if not lit >> a & 1]
        return self.rng.choice(dark or acts)


def solo_best(state: State) -> tuple[int | None, int | None]:
    """(next move of a shortest winning line, its moves left) from a solo / co-op state;
    (None, None) when no line wins."""
    e = cast("TanglungSoloState", state).engine
    if len(e.starts) == 1:
        adj, adjn = move_graph(e.layout, e.options)
        moves, _, path, _ = search_graph(adj, adjn, noflip_mask(e.layout), 16, e.positions[0], e.lit)
        if moves < 0:
            return None, None
        return (path[1] if moves > 0 else None), moves
    me = e.to_move
    moves, _, seq, _ = search_coop(e.layout, e.options, (e.positions[me], e.positions[1 - me]), 1_000_000, e.lit)
    if moves < 0:
        return None, None
    return (seq[0] if seq else None), moves


class TanglungPerfectBot(Bot):
    """Solo / co-op: the first move of a shortest winning line (exact search); a walker move
    when no line wins."""

    name = "perfect"

    def __init__(self, seed: int = 0) -> None:
        self.fallback = TanglungWalkerBot(seed)

    def choose(self, state: State) -> int:
        a, _ = solo_best(state)
        if a is None or a not in state.legal_actions():
            return self.fallback.choose(state)
        return a


def _duel(strength: str) -> Callable[[int], Bot]:
    def make(seed: int) -> Bot:
        b = duel_bot(strength, seed)

        def pick(state: State) -> int:
            return encode_duel(b.choose(cast("TanglungDuelState", state).engine.match))

        return EngineBot(strength, pick)
    return make


def bots(game_name: str) -> dict[str, BotSpec]:
    if game_name != "tanglung-duel":
        return with_strong({
            "random": BotSpec("any legal move", RandomBot),
            "greedy": BotSpec("a dark card when one is reachable (the generator's walker)", TanglungWalkerBot),
            "perfect": BotSpec("the first move of a shortest winning line (exact search)", TanglungPerfectBot),
        }, "perfect")
    return with_strong({
        "random": BotSpec("any legal action", _duel("random")),
        "greedy": BotSpec("one-ply tactics, looks at the opponent's immediate wins", _duel("greedy")),
        "pimc": BotSpec("determinised alpha-beta (4 samples, depth 2)", _duel("pimc")),
        "pimc-strong": BotSpec("determinised alpha-beta (6 samples, depth 3)", _duel("pimc-strong")),
        "perfect": BotSpec("the exact solver (2 s a move; pimc-strong when it does not finish)", _duel("perfect")),
    }, "pimc")


def hint(state: State) -> Hint | None:
    if state.get_game().name == "tanglung-duel":  # no quick exact answer early on: no hint
        return None
    a, left = solo_best(state)
    if left is None:
        return Hint(None, "no winning line from here (exact search)")
    return Hint(a, f"a shortest winning line needs {left} more move{'s' if left != 1 else ''}")

