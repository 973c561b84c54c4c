"""The Tanglung duel's bots by strength (random, greedy, pimc, pimc-strong, perfect) and a game
between two of them."""

from __future__ import annotations

from ...errors import BotError
from .duel import DuelGame
from .duel_search import Bot, GreedyBot, PimcBot, RandomBot
from .rules import TanglungOptions

BOTS = {
    "random": lambda seed=None: RandomBot(seed),
    "greedy": lambda seed=None: GreedyBot(seed),
    "pimc": lambda seed=None: PimcBot(seed, samples=3, depth=2),
    "pimc-strong": lambda seed=None: PimcBot(seed, samples=6, depth=3, node_limit=60_000),
    "perfect": lambda seed=None: _perfect(seed),
}


def _perfect(seed):
    from .duel_bot import PerfectBot  # loads numba (only for this bot)

    return PerfectBot(seed)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by strength name: random, greedy, pimc, pimc-strong, perfect."""
    if name not in BOTS:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    return BOTS[name](seed)


def play_game(bot0: Bot, bot1: Bot, seed: int = 0, options=None, first_starter: int = 0):
    """Play one first-to-2 game between two bots; returns the finished DuelGame."""
    g = DuelGame(options or TanglungOptions(), seed=seed, first_starter=first_starter)
    bots = (bot0, bot1)
    while not g.is_over():
        g.play(bots[g.match.to_move].choose(g.match))
    return g


def bot_match(name0: str, name1: str, games: int = 20, seed: int = 0, options=None) -> dict:
    """Bot vs bot over ``games`` games, alternating who starts; wins per side and draws."""
    wins = [0, 0]
    draws = 0
    for k in range(games):
        b0, b1 = make_bot(name0, seed * 1000 + 2 * k), make_bot(name1, seed * 1000 + 2 * k + 1)
        g = play_game(b0, b1, seed=seed * 100_000 + k, options=options, first_starter=k % 2)
        if g.winner is None:
            draws += 1
        else:
            wins[g.winner] += 1
    return {"bots": [name0, name1], "games": games, "wins": wins, "draws": draws}
