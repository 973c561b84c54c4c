"""Zangle solo game: a tableau of piles, a draw pile and three middle cards (docs/rules.md, Solo).

Setup (seeded shuffle): 10 cards form the draw pile and 3 of them are turned face up as the
middle; then piles of 1, 2, ..., ``options.piles`` cards (top card face up); the rest of the
deck is unused. A ``layout`` (card ids) replaces the shuffle, for known deals.
"""

from __future__ import annotations

import random
from typing import Sequence

from ...errors import FormatError, RuleError
from .cards import Card
from .engine import TERMINAL, Action, GameState, zangle_actions
from .moves import card_sids, choose_z, deck_tiles, has_zangle

DRAW_PILE = 10
MIDDLE = 3


class SoloGame(GameState):
    """Solo Zangle state. Piles are lists bottom..top; ``draw[0]`` is the next card drawn."""

    game = "solo"

    def __init__(self, *, seed: int = 0, options=None, deck=None, layout: dict | None = None):
        super().__init__(seed=seed, options=options, deck=deck)
        self.layout = layout
        if layout is None:
            cards = list(self.deck.cards)
            random.Random(self.seed).shuffle(cards)
            n = self.options.piles
            need = DRAW_PILE + n * (n + 1) // 2
            if need > len(cards):
                raise RuleError(f"the solo game needs {need} cards, the deck has {len(cards)}")
            draw = cards[:DRAW_PILE]
            rest = cards[DRAW_PILE:]
            self.middle: list[Card] = draw[:MIDDLE]
            self.draw: list[Card] = draw[MIDDLE:]
            self.piles: list[list[Card]] = []
            k = 0
            for size in range(1, n + 1):
                self.piles.append(rest[k : k + size])
                k += size
        else:
            by = self.deck.by_id

            def ids(lst, where):
                try:
                    return [by[c] for c in lst]
                except KeyError as e:
                    raise FormatError(f"solo layout {where}: unknown card {e.args[0]!r}") from None

            self.middle = ids(layout.get("middle", []), "middle")
            self.draw = ids(layout.get("draw", []), "draw")
            self.piles = [ids(p, f"pile {i}") for i, p in enumerate(layout.get("piles", []))]
            allc = [c.id for c in self.middle + self.draw] + [c.id for p in self.piles for c in p]
            if len(set(allc)) != len(allc):
                raise FormatError("solo layout uses a card twice")
        self.discarded: list[Card] = []
        self.won: list[Card] = []
        self.phase = "play"  # or "fill"
        self.outcome: str | None = None
        self.discards = 0
        self._zangles: list[Action] | None = None
        self._settle()

    def _init_kwargs(self) -> dict:
        return {} if self.layout is None else {"layout": self.layout}

    # -- views ---------------------------------------------------------------------------
    def tops(self) -> list[Card]:
        return [p[-1] for p in self.piles if p]

    def zangles(self) -> list[Action]:
        """Legal Zangles now (middle + pile tops), best first."""
        if self._zangles is None:
            self._zangles = zangle_actions(self.middle, self.tops(), self.deck, self.options)
        return self._zangles

    def tableau_left(self) -> int:
        return sum(len(p) for p in self.piles)

    def _fill_moves(self) -> list[Action]:
        empty = [i for i, p in enumerate(self.piles) if not p]
        srcs = [i for i, p in enumerate(self.piles) if len(p) >= 2]
        return [Action("fill", src=s, dst=d) for d in empty for s in srcs]

    def _can_fill(self) -> bool:
        """Whether ``_fill_moves()`` has a move: an empty pile and a pile of two or more cards."""
        return any(not p for p in self.piles) and any(len(p) >= 2 for p in self.piles)

    # -- state machine ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def returns(self) -> list[float]:
        return [1.0 if self.outcome == "win" else 0.0]

    def _is_legal(self, a: Action) -> bool:
        """``a in self.legal_actions()`` without listing every Zangle: a Zangle is checked on its
        own (the finder's rules and its order of pieces and Z cards), a discard needs only to
        know whether some Zangle exists."""
        if self._legal_cache is not None or not isinstance(a, Action):
            return a in self.legal_actions()
        if self.is_terminal():
            return False
        if self.phase == "fill":
            if a.kind in ("zangle", "discard"):
                return False
            return a in self.legal_actions()  # a handful of fills, no search
        if a.kind == "zangle":
            return self._zangle_legal(a)
        if a.kind == "discard":
            return a == Action("discard") and bool(self.draw) and (
                bool(self.options.voluntary_discard) or not self._has_zangle())
        return False

    def _has_zangle(self) -> bool:
        """Whether some Zangle is legal now (the finder's kernel, no actions built)."""
        if self._zangles is not None:
            return bool(self._zangles)

        tops = self.tops()
        return bool(self.middle) and bool(tops) and has_zangle(self.middle + tops, len(self.middle), self.deck)

    def _zangle_legal(self, a: Action) -> bool:
        """Whether the Zangle action ``a`` is listed by ``zangles()``: the finder lists, for each
        valid target and piece set (docs/rules.md rules 1-3, Z cards of both places counting for rule
        3), the pieces in table order (middle, then pile tops) and the Z cards ``choose_z``
        picks."""
        vis = self.middle + [p[-1] for p in self.piles if p]
        nm = len(self.middle)
        t = -1
        pcs = []
        pieces = a.pieces
        try:
            for i, c in enumerate(vis):
                if c.id == a.target:
                    t = i
                elif c.id in pieces:
                    pcs.append(i)
        except TypeError:  # unhashable names
            return False
        if t < 0 or len(pcs) != len(pieces) or not pcs or not nm or nm == len(vis):
            return False
        if vis[t].is_z or any(vis[i].is_z for i in pcs) or tuple(vis[i].id for i in pcs) != tuple(pieces):
            return False  # a Z card is never a target or piece; pieces come in table order, once each
        zpos = [i for i, c in enumerate(vis) if c.is_z]
        if len(pcs) < 2 and not zpos:
            return False
        places = [0] * nm + [1] * (len(vis) - nm)
        have = {places[t], *(places[i] for i in pcs), *(places[z] for z in zpos)}
        if have != {0, 1}:
            return False
        sids = card_sids(self.deck)
        if not deck_tiles(self.deck, vis[t], [vis[i] for i in pcs], sids):
            return False
        zs = choose_z(t, pcs, zpos, places, self.options.z_cards)
        return a == Action("zangle", a.target, tuple(pieces), tuple(vis[i].id for i in zs))

    def _legal_actions(self) -> list[Action]:
        if self.phase == "fill":
            moves = self._fill_moves()
            return moves + ([Action("skip")] if self.options.fill_empty_pile == "may" else [])
        acts = list(self.zangles())
        if self.draw and (not acts or self.options.voluntary_discard):
            acts.append(Action("discard"))
        return acts

    def _apply(self, a: Action) -> None:
        self._zangles = None
        if a.kind == "zangle":
            used = {a.target, *a.pieces, *a.z}
            self.won += [c for c in self.middle if c.id in used]
            self.middle = [c for c in self.middle if c.id not in used]
            for p in self.piles:
                if p and p[-1].id in used:
                    self.won.append(p.pop())
            while len(self.middle) < MIDDLE and self.draw:
                self.middle.append(self.draw.pop(0))
            if self.options.fill_empty_pile in ("must", "may") and self._can_fill():
                self.phase = "fill"
        elif a.kind == "fill":
            self.piles[a.dst].append(self.piles[a.src].pop())
            if not self._can_fill():
                self.phase = "play"
        elif a.kind == "skip":
            self.phase = "play"
        elif a.kind == "discard":
            self.discards += 1
            self.discarded += self.middle
            self.middle = []
            while len(self.middle) < MIDDLE and self.draw:
                self.middle.append(self.draw.pop(0))
        self._settle()

    def _settle(self) -> None:
        """Decide win / loss after every change."""
        if self.tableau_left() == 0:
            self.outcome = "win"
        elif self.phase == "play" and not self.draw and not self._has_zangle():
            self.outcome = "loss"

    def to_json(self) -> dict:
        return {
            "middle": [c.id for c in self.middle],
            "draw": [c.id for c in self.draw],
            "piles": [[c.id for c in p] for p in self.piles],
            "phase": self.phase,
            "outcome": self.outcome,
            "won": len(self.won),
            "discarded": len(self.discarded),
        }

    def fork(self) -> "SoloGame":
        """A cheap copy for search: same position, empty history (so no undo past it)."""
        new = object.__new__(SoloGame)
        new.__dict__ = dict(self.__dict__)
        new.middle, new.draw = list(self.middle), list(self.draw)
        new.piles = [list(p) for p in self.piles]
        new.discarded, new.won = list(self.discarded), list(self.won)
        new.history = []
        return new

    def score(self) -> dict:
        return {"outcome": self.outcome, "tableau_left": self.tableau_left(), "discards": self.discards,
                "cards_won": len(self.won), "actions": len(self.history)}

    def __str__(self) -> str:
        piles = " | ".join(
            (p[-1].id + f" (+{len(p) - 1})") if p else "-" for p in self.piles
        )
        return (f"middle: {' '.join(c.id for c in self.middle) or '-'}; draw {len(self.draw)}; "
                f"piles: {piles}; phase {self.phase}" + (f"; {self.outcome}" if self.outcome else ""))


def solo_layout(middle: Sequence[str], draw: Sequence[str], piles: Sequence[Sequence[str]]) -> dict:
    """A solo ``layout`` from card ids (middle face up, draw pile next card first, piles bottom..top)."""
    return {"middle": list(middle), "draw": list(draw), "piles": [list(p) for p in piles]}
