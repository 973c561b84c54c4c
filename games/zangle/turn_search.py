"""Zangle turn game: can one player use all their cards in a round if nobody else takes or
draws a card (the middle draw order known)? A memoised search over that player's turns, its line
replayed on a one-player turn-game engine; ``memo=False`` is the plain exhaustive reference."""

from __future__ import annotations

from ...errors import SolverError
from .engine import Action, zangle_actions
from .turn import FACE_UP, MIDDLE, TurnGame


def turn_go_out(state, player: int | None = None, max_states: int = 200_000, memo: bool = True) -> tuple:
    """Can ``player`` (default: the one to move) use all their cards in a turn-game round, with the
    middle draw order known and the other players never taking or drawing a card?

    Only that player's turns are played: build one Zangle (any of them), or when there is none
    draw one middle-pile card and build one if possible, else pass. Returns (True, line, states)
    with the player's actions, (False, [], states), or (None, [], states) at the state limit.
    ``memo=False`` is the plain exhaustive reference.
    """
    p = state.current if player is None else int(player)
    deck, opts = state.deck, state.options
    start = (tuple(state.own[p]), tuple(state.own_pile[p]), tuple(state.middle), tuple(state.middle_pile))
    seen: set = set()
    nodes = 0
    line: list = []

    class Out(Exception):
        pass

    def build(own, pile, mid, mpile, a):
        used = {a.target, *a.pieces, *a.z}
        own = [c for c in own if c.id not in used]
        mid = [c for c in mid if c.id not in used]
        mpile, pile = list(mpile), list(pile)
        while len(mid) < MIDDLE and mpile:
            mid.append(mpile.pop(0))
        while len(own) < FACE_UP and pile:
            own.append(pile.pop(0))
        return tuple(own), tuple(pile), tuple(mid), tuple(mpile)

    def try_distinct(zs, own, pile, mid, mpile) -> bool:
        """Try each Zangle once per set of cards used (Z-card choices aside); True on a win."""
        done = set()
        for a in zs:
            k = frozenset((a.target, *a.pieces, *a.z))
            if k in done:
                continue
            done.add(k)
            line.append(a)
            if rec(*build(own, pile, mid, mpile, a)):
                return True
            line.pop()
        return False

    def rec(own, pile, mid, mpile) -> bool:
        nonlocal nodes
        if not own and not pile:
            return True
        key = (frozenset(c.id for c in own), len(pile), frozenset(c.id for c in mid), len(mpile))
        if memo and key in seen:
            return False
        nodes += 1
        if nodes > max_states:
            raise Out
        zs = zangle_actions(list(mid), list(own), deck, opts)
        if zs:
            if try_distinct(zs, own, pile, mid, mpile):
                return True
        elif mpile:
            own2 = own + (mpile[0],)
            zs = zangle_actions(list(mid), list(own2), deck, opts)
            line.append(Action("draw"))
            if zs:
                if try_distinct(zs, own2, pile, mid, mpile[1:]):
                    return True
            else:
                line.append(Action("pass"))
                if rec(own2, pile, mid, mpile[1:]):
                    return True
                line.pop()
            line.pop()
        if memo:
            seen.add(key)
        return False

    try:
        ok = rec(*start)
    except Out:
        return None, [], nodes
    if ok:
        g = go_out_position(state, p)
        for a in line:
            g.apply(a)
        if g.cards_left(0) != 0:
            raise SolverError("go-out line does not empty the player's cards")
    return ok, (list(line) if ok else []), nodes


def go_out_position(state, player: int):
    """A one-player, one-round ``TurnGame`` holding ``player``'s cards and the middle of ``state``
    (the go-out question as a game: nobody else takes a card)."""
    pos = {"middle": [c.id for c in state.middle], "own": [c.id for c in state.own[player]],
           "own_pile": [c.id for c in state.own_pile[player]],
           "middle_pile": [c.id for c in state.middle_pile]}
    opts = state.options.with_(stalemate_end=False)
    return TurnGame(deck=state.deck, options=opts, rounds=1, position=pos)


__all__ = ["go_out_position", "turn_go_out"]
