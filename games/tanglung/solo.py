"""Tanglung solo and cooperative modes: a state machine with legal moves, a move log and undo.

A move uses the action of the card being left and lights the destination; moving onto a card
that was already lit flips the card being left dark, unless that card is a Rooster. The game is
won when all 16 cards are lit. Cooperative play has two matchboxes that alternate and never
share a card (the other matchbox blocks Rabbit, Butterfly and Fish like in the duel).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import RuleError
from .cards import ROOSTER, CardSet, default_card_set
from .layout import N_CELLS, Layout, idx, rc
from .moves import destinations
from .rules import TanglungOptions

FULL = (1 << N_CELLS) - 1


def initial_lit(layout: Layout, options: TanglungOptions) -> int:
    """Lit mask at the start of a solo game: the Roosters when ``roosters_start_lit``."""
    if not options.roosters_start_lit:
        return 0
    return sum(1 << i for i in layout.roosters())


def apply_solo_move(layout: Layout, lit: int, src: int, dst: int) -> int:
    """The lit mask after moving from ``src`` to ``dst`` (the solo flip rule)."""
    if lit >> dst & 1:
        if layout[src] != ROOSTER:
            lit &= ~(1 << src)
        return lit
    return lit | (1 << dst)


@dataclass
class SoloGame:
    """A solo (one matchbox) or cooperative (two) game; ``log`` holds the destinations played."""

    layout: Layout
    options: TanglungOptions = field(default_factory=TanglungOptions)
    starts: tuple[int, ...] = ()
    card_set: CardSet | None = None
    log: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.layout.validate(self.card_set or default_card_set(), self.options)
        roosters = self.layout.roosters()
        if not self.starts:
            if not roosters:
                raise RuleError("this layout has no Rooster to start from")
            self.starts = (roosters[0],)
        self.starts = tuple(self.starts)
        if len(self.starts) not in (1, 2) or len(set(self.starts)) != len(self.starts):
            raise RuleError("a solo game has 1 matchbox, a cooperative game 2 on different cards")
        for s in self.starts:
            if not 0 <= s < N_CELLS or self.layout[s] != ROOSTER:
                raise RuleError(f"a matchbox must start on a Rooster card, not on cell {list(rc(s)) if 0 <= s < N_CELLS else s}")
        self._history: list[tuple[list[int], int]] = []
        self.positions = list(self.starts)
        self.lit = initial_lit(self.layout, self.options)
        moves, self.log = list(self.log), []
        for m in moves:
            self.play(m)

    @property
    def cooperative(self) -> bool:
        return len(self.starts) == 2

    @property
    def to_move(self) -> int:
        """Index of the matchbox whose turn it is (always 0 in solo)."""
        return len(self.log) % len(self.starts)

    def legal_moves(self) -> list[int]:
        """Destination cells of the matchbox to move (sorted)."""
        if self.is_won():
            return []
        me = self.to_move
        pos = self.positions[me]
        others = {p for j, p in enumerate(self.positions) if j != me}
        dests = destinations(self.layout.cells, pos, self.layout[pos], self.options, None, others)
        return [d for d in dests if d not in others]

    def play(self, dst: int | tuple[int, int]) -> None:
        """Move the current matchbox to ``dst`` (cell index or (row, col))."""
        if isinstance(dst, (tuple, list)):
            dst = idx(*dst)
        if dst not in self.legal_moves():
            me = self.to_move
            raise RuleError(
                f"illegal move from {list(rc(self.positions[me]))} to "
                f"{list(rc(dst)) if isinstance(dst, int) and 0 <= dst < N_CELLS else dst}"
            )
        me = self.to_move
        self._history.append((list(self.positions), self.lit))
        src = self.positions[me]
        self.lit = apply_solo_move(self.layout, self.lit, src, dst)
        self.positions[me] = dst
        self.log.append(dst)

    def undo(self) -> int:
        """Take back the last move; returns its destination."""
        if not self.log:
            raise RuleError("nothing to undo")
        self.positions, self.lit = self._history.pop()
        return self.log.pop()

    def is_won(self) -> bool:
        return self.lit == FULL

    def dark_count(self) -> int:
        return N_CELLS - bin(self.lit).count("1")

    def path(self) -> list[list[int]]:
        """Cells visited by matchbox 0 (solo: the whole tour, start included) as [row, col]."""
        out = [list(rc(self.starts[0]))]
        out += [list(rc(m)) for i, m in enumerate(self.log) if i % len(self.starts) == 0]
        return out

    def to_json(self) -> dict:
        return {
            "layout": str(self.layout),
            "starts": [list(rc(s)) for s in self.starts],
            "moves": [list(rc(m)) for m in self.log],
            "options": self.options.to_json(),
        }

    def render_text(self) -> str:
        """The grid with lit cards in upper case, dark in lower case, matchboxes as ``*``."""
        rows = []
        for r in range(4):
            row = []
            for c in range(4):
                i = idx(r, c)
                ch = self.layout[i] if self.lit >> i & 1 else self.layout[i].lower()
                mark = "*" if i in self.positions else " "
                row.append(f"{ch}{mark}")
            rows.append(" ".join(row))
        return "\n".join(rows)
