"""One match runner for every game of the common API: seeded games between named bots.

``run_match(game_name, ["strong", "random"], games=N, seed=S)`` plays N games, samples every
chance node from ``chance_outcomes()`` with a seeded generator, rotates the seats (so no bot keeps
the first move; each block of ``num_players`` games shares one deal seed) and returns per-bot
wins, draws and mean returns. The same arguments always give the same result.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..errors import SolverError
from ..games import load_game
from .bots import make_bot

#: a bound on actions per game, so a bot that never ends a game cannot hang a match
MAX_ACTIONS = 20_000


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers (stable across runs and platforms, unlike ``hash``)."""
    h = 0x9E3779B97F4A7C15
    for p in parts:
        h = (h ^ (int(p) & 0xFFFFFFFFFFFFFFFF)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        h ^= h >> 31
    return h & 0x7FFFFFFFFFFFFFFF


def sample_chance(state, rng: random.Random) -> int:
    """One chance outcome of ``state`` drawn with ``rng`` from its ``chance_outcomes()``."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise SolverError("a chance node without outcomes")
    u = rng.random() * sum(p for _, p in outcomes)
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if u < acc:
            return a
    return outcomes[-1][0]


def winners_of(returns: Sequence[float], cooperative: bool = False) -> list[int]:
    """Players with the strictly best return; [] for a draw (all equal). One player or a
    cooperative game: a positive return is a win for all (a solved challenge), else a loss."""
    if len(returns) == 1 or cooperative:
        return list(range(len(returns))) if min(returns) > 0 else []
    best = max(returns)
    if all(r == best for r in returns):
        return []
    return [p for p, r in enumerate(returns) if r == best]


def is_cooperative(game) -> bool:
    """Whether all players share one result (Tanglung co-op): then a game is won or lost by all.
    The game's metadata says so (identical utility, more than one player); an object without
    metadata may say it with a ``cooperative`` attribute."""
    meta = getattr(game, "meta", None)
    if meta is not None:
        return bool(meta.cooperative)
    return bool(getattr(game, "cooperative", False))


def play_game(state, bots: Sequence, rng: random.Random, max_actions: int = MAX_ACTIONS,
              on_action: Callable | None = None):
    """Play ``state`` to the end in place: seat ``p`` is ``bots[p].choose``, chance is sampled
    with ``rng``. Returns the list of (player, action) played; raises SolverError past
    ``max_actions`` or when a bot picks an illegal action."""
    played = []
    while not state.is_terminal():
        if len(played) >= max_actions:
            raise SolverError(f"game not over after {max_actions} actions")
        p = state.current_player()
        if state.is_chance_node():
            a = sample_chance(state, rng)
        else:
            a = bots[p].choose(state)
        if on_action is not None:
            on_action(state, p, a)
        state.apply_action(a)
        played.append((p, a))
    return played


@dataclass
class MatchResult:
    """Per bot (in the order given): wins, losses, mean return; draws are shared."""

    game: str
    bots: list[str]
    games: int
    seed: int
    wins: list[int] = field(default_factory=list)
    losses: list[int] = field(default_factory=list)
    draws: int = 0
    total_returns: list[float] = field(default_factory=list)
    actions: int = 0

    @property
    def mean_returns(self) -> list[float]:
        return [t / self.games if self.games else 0.0 for t in self.total_returns]

    def to_json(self) -> dict:
        return {"game": self.game, "bots": self.bots, "games": self.games, "seed": self.seed,
                "wins": self.wins, "losses": self.losses, "draws": self.draws,
                "mean_returns": [round(m, 6) for m in self.mean_returns],
                "mean_actions": round(self.actions / self.games, 3) if self.games else 0.0,
                "complete": True}

    def text(self) -> str:
        rows = [f"{self.game}: {self.games} games, seed {self.seed}"]
        w = max(len(b) for b in self.bots)
        for i, b in enumerate(self.bots):
            rows.append(f"  {b.ljust(w)}  wins {self.wins[i]}  losses {self.losses[i]}  "
                        f"mean return {self.mean_returns[i]:.3f}")
        if len(self.bots) > 1:
            rows.append(f"  draws {self.draws}")
        return "\n".join(rows)


def seat_bots(names: Sequence[str], n_players: int) -> list[str]:
    """One bot name per seat: the names given, the last repeated to fill the seats."""
    names = [n for n in names if n]
    if not names:
        raise SolverError("a match needs at least one bot")
    if len(names) > n_players:
        raise SolverError(f"{len(names)} bots given for a {n_players}-player game")
    return list(names) + [names[-1]] * (n_players - len(names))


def run_match(game_name: str, bot_names: Sequence[str], games: int = 10, seed: int = 0,
              params: dict | None = None, rotate: bool = True, progress: Callable | None = None,
              max_actions: int = MAX_ACTIONS) -> MatchResult:
    """Play ``games`` seeded games of ``game_name`` between ``bot_names`` (one per seat, the last
    repeated to fill). With ``rotate`` game ``i`` seats bot ``j`` at ``(j + i) % n`` and each
    block of n games shares a deal seed; without it bot ``j`` always sits at seat ``j``."""
    if games < 0:
        raise SolverError("the number of games cannot be negative")
    game = load_game(game_name, **(params or {}))
    n = game.num_players()
    names = seat_bots(bot_names, n)
    for nm in set(names):
        make_bot(game_name, nm, seed=0)  # unknown names fail before any game is played
    res = MatchResult(game_name, names, games, seed, [0] * n, [0] * n, 0, [0.0] * n)
    coop = is_cooperative(game)
    for i in range(games):
        shift = i % n if rotate else 0
        deal = derive_seed(seed, i // n if rotate else i)
        state = game.new_initial_state(seed=deal % (1 << 31))
        # seat s holds bot (s - shift) % n
        bots = [make_bot(game_name, names[(s - shift) % n], seed=derive_seed(seed, i, s, 1) % (1 << 31))
                for s in range(n)]
        played = play_game(state, bots, random.Random(derive_seed(seed, i, 2)), max_actions)
        res.actions += len(played)
        ret = state.returns()
        win = winners_of(ret, coop)
        for s in range(n):
            j = (s - shift) % n
            res.total_returns[j] += ret[s]
            if s in win:
                res.wins[j] += 1
            elif win or n == 1 or coop:
                res.losses[j] += 1
        if not win and n > 1 and not coop:
            res.draws += 1
        if progress:
            progress()
    return res
