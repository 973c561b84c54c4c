"""What the OpenSpiel and PettingZoo adapters share (no heavy imports here).

A game whose own action ints are too many for a legal-action mask (more than ``DENSE_LIMIT``:
Zangle turn and speed, whose Zangle codes hold a bit mask of the cards used) is played there by
legal-action index: action ``k`` is the ``k``-th legal action in ascending order, in an action
space of ``INDEX_ACTIONS``. A state with more legal actions than that raises ``RuleError`` (random
and bot games stay far below it: a few dozen).
"""

from __future__ import annotations

from ..errors import RuleError
from .api import GameMeta, State

#: games with more action ints than this are played by legal-action index
DENSE_LIMIT = 1 << 16
#: the action space of a game played by legal-action index
INDEX_ACTIONS = 1024


def by_index(meta: GameMeta) -> bool:
    """Whether the adapters play this game by legal-action index."""
    return meta.num_distinct_actions > DENSE_LIMIT


def num_actions(meta: GameMeta) -> int:
    """The size of the adapters' action space for this game."""
    return INDEX_ACTIONS if by_index(meta) else meta.num_distinct_actions


def adapter_actions(state: State, indexed: bool) -> list[int]:
    """The legal actions of ``state`` as the adapters number them."""
    own = state.legal_actions()
    if not indexed or state.is_chance_node():
        return own
    if len(own) > INDEX_ACTIONS:
        raise RuleError(f"{len(own)} legal actions: more than the adapters' {INDEX_ACTIONS} for this game")
    return list(range(len(own)))


def own_action(state: State, action: int, indexed: bool) -> int:
    """The game's own action for the adapters' ``action`` now."""
    action = int(action)
    if not indexed or state.is_chance_node():
        return action
    own = state.legal_actions()
    if not 0 <= action < len(own):
        raise RuleError(f"no legal action {action} now (there are {len(own)})")
    return own[action]
