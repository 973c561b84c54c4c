"""Zangle solo game: a tableau of piles, a draw pile and three middle cards (RULES.md, Solo).

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

    # -- state machine ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def returns(self) -> list[float]:
        return [1.0 if self.outcome == "win" else 0.0]

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
            if self.options.fill_empty_pile in ("must", "may") and self._fill_moves():
                self.phase = "fill"
        elif a.kind == "fill":
            self.piles[a.dst].append(self.piles[a.src].pop())
            if not self._fill_moves():
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
        elif self.phase == "play" and not self.zangles() and not self.draw:
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
