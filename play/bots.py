"""One bot protocol for every game of the common API: ``make_bot(game, strength, seed).choose(state)``.

A bot sees a ``games.api.State`` and returns one of its ``legal_actions()``. Each game's plugin
names its strengths (``bot_names(game)``) and makes its bots; this module only dispatches.
Common names: ``random`` everywhere, ``strong`` for the best bot that always answers quickly,
``perfect`` where a solver plays exactly. An unknown game or strength raises :class:`BotError`
listing the valid names.

``hint(state)`` asks the game's plugin for the next move of a winning line, and falls back on
the strongest bot's move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..errors import BotError, SolverError
from ..games.plugin import BotSpec, plugin_of
from ..games.plugin import bot_table as _plugin_bots

if TYPE_CHECKING:
    from ..games.api import State

__all__ = ["Bot", "BotError", "EngineBot", "Hint", "RandomBot", "bot_names", "by_string", "hint", "make_bot",
           "strengths", "with_strong"]


class Bot:
    """``choose(state) -> action`` on a common-API state; never changes the state."""

    name = "bot"

    def choose(self, state: State) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.name} bot>"


class RandomBot(Bot):
    """A uniformly random legal action (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())


class EngineBot(Bot):
    """A named bot from a function ``pick(state) -> action`` (a game's engine bot, wrapped by
    the game's plugin)."""

    def __init__(self, name: str, pick: Callable[[State], int]) -> None:
        self.name = name
        self._pick = pick

    def choose(self, state: State) -> int:
        return self._pick(state)


@dataclass
class Hint:
    """The suggested action (None when there is none) and a sentence saying why."""

    action: int | None
    text: str


def with_strong(table: dict[str, BotSpec], strong: str) -> dict[str, BotSpec]:
    """``table`` with a ``strong`` entry pointing at its ``strong`` bot (kept in order)."""
    if "strong" not in table:
        table["strong"] = BotSpec(f"= {strong}", table[strong].make)
    return table


def by_string(state: State, text: object) -> int:
    """The legal action of ``state`` whose text is ``str(text)`` (engines with the API's notation)."""
    want = str(text)
    for a in state.legal_actions():
        if state.action_to_string(a) == want:
            return a
    raise SolverError(f"the bot's move {want!r} is not a legal action here")


def bot_table(game_name: str) -> dict[str, BotSpec]:
    """The bots of ``game_name`` from its plugin (a game without bots gets the random bot)."""
    return _plugin_bots(game_name) or with_strong({"random": BotSpec("any legal action", RandomBot)}, "random")


def strengths(game_name: str) -> dict[str, str]:
    """The bot strengths of a game with a one-line description each (order: weakest first)."""
    return {k: v.description for k, v in bot_table(game_name).items()}


def bot_names(game_name: str) -> list[str]:
    return list(strengths(game_name))


def make_bot(game_name: str, strength: str, seed: int = 0) -> Bot:
    """A bot of ``strength`` for ``game_name`` (deterministic for a seed); BotError if unknown."""
    table = bot_table(game_name)
    if strength not in table:
        raise BotError(f"unknown bot {strength!r} for {game_name}: expected one of {', '.join(table)}")
    return table[strength].make(seed)


def hint(state: State) -> Hint:
    """The next move of a winning line from ``state`` (the game's own hint where it has one, else
    the strongest bot's move), or an action of None with the reason."""
    if state.is_terminal():
        return Hint(None, "the game is over")
    if state.is_chance_node():
        return Hint(None, "chance moves next")
    name = state.get_game().name
    h = plugin_of(name).hint(state)
    if h is not None:
        return h
    table = bot_table(name)
    strongest = "perfect" if "perfect" in table else "strong"
    return Hint(table[strongest].make(0).choose(state), f"the {strongest} bot's move")
