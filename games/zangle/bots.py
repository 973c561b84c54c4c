"""Zangle bot strategies behind one interface: ``bot.choose(state) -> Action``.

- ``random``: any legal action, uniformly (seeded).
- ``greedy``: the best Zangle now (most cards, then triangles; in the solo game most tableau
  cards, then fewest middle cards); otherwise the most useful non-Zangle action (draw a card,
  fill an empty pile from the tallest pile, discard).
- ``lookahead`` (solo game): scores each candidate action by greedy play-outs from sampled
  completions of the hidden cards (it never peeks at face-down cards); greedy elsewhere.
"""

from __future__ import annotations

import random

from ...errors import BotError
from .engine import Action, GameState

BOT_NAMES = ("random", "greedy", "lookahead")


class Bot:
    name = "bot"

    def choose(self, state: GameState) -> Action:
        raise NotImplementedError


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        return self.rng.choice(state.legal_actions())


def greedy_action(state: GameState) -> Action:
    acts = state.legal_actions()
    zangles = [a for a in acts if a.kind == "zangle"]
    if zangles:
        if state.game == "solo":
            # in the solo game only tableau cards count: use the most of them, spare the middle
            tops = {c.id for c in state.tops()}

            def own_used(a):
                ids = (a.target, *a.pieces, *a.z)
                mine = sum(1 for i in ids if i in tops)
                return (-mine, len(ids) - mine)

            return min(zangles, key=own_used)
        return zangles[0]  # the finder ranks them best first
    fills = [a for a in acts if a.kind == "fill"]
    if fills:
        piles = getattr(state, "piles")
        return max(fills, key=lambda a: (len(piles[a.src]), -a.src, -a.dst))
    for kind in ("false_call", "draw", "discard", "pass", "wait", "skip"):
        for a in acts:
            if a.kind == kind:
                return a
    return acts[0]


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, state: GameState) -> Action:
        return greedy_action(state)


class LookaheadBot(Bot):
    """Solo-game look-ahead by determinised greedy play-outs (``samples`` per candidate)."""

    name = "lookahead"

    def __init__(self, seed: int = 0, samples: int = 4, max_candidates: int = 6):
        self.rng = random.Random(seed)
        self.samples = samples
        self.max_candidates = max_candidates

    def choose(self, state: GameState) -> Action:
        if state.game != "solo":
            return greedy_action(state)
        acts = state.legal_actions()
        if len(acts) == 1:
            return acts[0]
        cands = acts[: self.max_candidates] + [a for a in acts[self.max_candidates :] if a.kind != "zangle"]
        best, best_v = cands[0], -1e9
        for a in cands:
            v = 0.0
            for _ in range(self.samples):
                s = _determinise(state, self.rng)
                s.apply(a)
                while not s.is_terminal():
                    s.apply(greedy_action(s))
                v += (100.0 if s.outcome == "win" else 0.0) - s.tableau_left()
            if v > best_v:
                best, best_v = a, v
        return best


def _determinise(state, rng: random.Random):
    """A copy of a solo state whose hidden cards (draw pile, face-down cards) are reshuffled."""
    s = state.clone()
    hidden = list(s.draw) + [c for p in s.piles for c in p[:-1]]
    rng.shuffle(hidden)
    k = len(s.draw)
    s.draw = hidden[:k]
    for p in s.piles:
        n = len(p) - 1
        if n > 0:
            p[:-1] = hidden[k : k + n]
            k += n
    s._zangles = None
    s._legal_cache = None
    s.history = []
    return s


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name: random, greedy or lookahead."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    if name == "lookahead":
        return LookaheadBot(seed)
    raise BotError(f"unknown bot {name!r}: expected one of {', '.join(BOT_NAMES)}")
