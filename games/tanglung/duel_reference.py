"""A plain-Python reference for the exact duel values, independent of the solver.

It uses only the engine (``Match.legal_actions`` / ``Match.apply``) for the rules: every
position reachable from a start is enumerated explicitly (a dark card's kind is unknown, so
the engine's copy holds ``?`` there and lighting it branches over the unseen kinds), then
values are found by synchronous value iteration from 0 with exact fractions: ``V_k`` is the
value of the game cut after ``k`` plies (a cut counts as a draw), which equals the true value
once ``k`` exceeds the longest forced sequence; so the first ``V_{k+1} == V_k`` is the answer
(an endless play is a draw, as under the ``repetition`` rule). No levels, no thresholds, no
layers: a different algorithm on the same rules, for small grids (reduced variants: a layout
whose unused rows and columns are empty spaces behaves exactly as the smaller grid).

Reduced variants for tests: :func:`reduced_layout` puts the two Roosters on opposite corners of
an ``rows`` x ``cols`` corner of the 4x4 grid and shuffles the lanterns into the rest; the
engine lights the Roosters and the cards of the central 2x2 that exist, as in the standard
set-up.
"""

from __future__ import annotations

import random
from fractions import Fraction

from ...errors import SolverError
from .cards import EMPTY, ROOSTER
from .duel import Match
from .layout import Layout
from .rules import TanglungOptions

HIDDEN = "?"


def reduced_layout(rows: int, cols: int, lanterns: str, rng: random.Random | int | None = None) -> Layout:
    """A ``rows`` x ``cols`` grid (top-left of the 4x4, the rest empty) with Roosters on its
    corners (0, 0) and (rows-1, cols-1) and ``lanterns`` (letters) shuffled into the others."""
    if not (2 <= rows <= 4 and 2 <= cols <= 4):
        raise SolverError("a reduced grid has 2..4 rows and 2..4 columns")
    if len(lanterns) != rows * cols - 2:
        raise SolverError(f"a {rows}x{cols} grid needs {rows * cols - 2} lanterns, not {len(lanterns)}")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    pool = list(lanterns.upper())
    rng.shuffle(pool)
    it = iter(pool)
    cells = []
    for r in range(4):
        for c in range(4):
            if r >= rows or c >= cols:
                cells.append(EMPTY)
            elif (r, c) in ((0, 0), (rows - 1, cols - 1)):
                cells.append(ROOSTER)
            else:
                cells.append(next(it))
    return Layout(tuple(cells))


def start_match(layout: Layout, options: TanglungOptions | None = None) -> Match:
    """The set-up position of a (possibly reduced) layout, player 0 to place first."""
    return Match(layout, options or TanglungOptions(), 0, validate=False)


def random_plies(m: Match, plies: int, rng: random.Random) -> Match:
    """``m`` after up to ``plies`` uniformly random legal actions (fewer when the game ends), for
    tests and samples that start from a seeded position."""
    for _ in range(plies):
        if m.is_over():
            break
        m.apply(rng.choice(m.legal_actions()))
    return m


def _hide(m: Match) -> tuple:
    """The engine copy with dark cards shown as ``?`` and the unseen kinds as a sorted tuple."""
    pool = []
    for i, ch in enumerate(m.cells):
        if ch != EMPTY and not m.lit >> i & 1:
            pool.append(ch)
            m.cells[i] = HIDDEN
    return tuple(sorted(pool))


def _key(m: Match, pool: tuple) -> tuple:
    return (tuple(m.cells), m.lit, tuple(m.boxes), m.fan, tuple(m.bumps), tuple(m.used), tuple(m.phase),
            m.to_move, pool)


class Reference:
    """The reachable graph from ``start`` and its exact values (Fractions, for the player to
    move, +1 win / -1 loss / 0 draw of the match)."""

    def __init__(self, start: Match, max_states: int = 2_000_000) -> None:
        opts = start.options.with_(max_turns=100_000, repetition=0)
        m = start.clone()
        m.options = opts
        pool = _hide(m)
        self.nodes: list[tuple] = []  # per state: list of (weight list, or a win) per action
        self.index: dict[tuple, int] = {}
        self.matches: list[Match] = []
        self.pools: list[tuple] = []
        self._add(m, pool)
        i = 0
        while i < len(self.matches):
            if len(self.matches) > max_states:
                raise SolverError(f"reference: more than {max_states} states")
            self.nodes.append(self._actions(i))
            i += 1
        self.values = self._iterate()

    def _add(self, m: Match, pool: tuple) -> int:
        k = _key(m, pool)
        j = self.index.get(k)
        if j is None:
            j = self.index[k] = len(self.matches)
            self.matches.append(m)
            self.pools.append(pool)
        return j

    def _actions(self, i: int) -> list:
        m, pool = self.matches[i], self.pools[i]
        me = m.to_move
        out = []
        for a in m.legal_actions():
            c = m.clone()
            c.apply(a, check=False)
            if c.winner is not None:
                out.append(("end", 1 if c.winner == me else -1))
                continue
            assert c.to_move != me
            d = a[1]
            if a[0] != "place" and c.cells[d] == HIDDEN:
                c.cells[d] = EMPTY  # placeholder, set per kind below
                branches = []
                for k in sorted(set(pool)):
                    cc = c.clone()
                    cc.cells[d] = k
                    rest = list(pool)
                    rest.remove(k)
                    branches.append((pool.count(k), self._add(cc, tuple(rest))))
                out.append(("chance", branches))
            else:
                out.append(("move", self._add(c, pool)))
        return out

    def _iterate(self) -> list[Fraction]:
        n = len(self.nodes)
        v = [Fraction(0)] * n
        while True:
            new = []
            for acts in self.nodes:
                best = None
                for kind, x in acts:
                    if kind == "end":
                        w = Fraction(x)
                    elif kind == "move":
                        w = -v[x]
                    else:
                        w = -Fraction(sum(c * v[j] for c, j in x), sum(c for c, _ in x))
                    if best is None or w > best:
                        best = w
                new.append(Fraction(-1) if best is None else best)
            if new == v:
                return v
            v = new

    def value_of(self, m: Match) -> Fraction:
        c = m.clone()
        pool = _hide(c)
        c.options = self.matches[0].options
        return self.values[self.index[_key(c, pool)]]

    def sample_at(self, j: int) -> Match:
        """Reachable position ``j`` with the dark cards' letters filled back in from its unseen
        kinds (an arbitrary arrangement: values depend only on the kinds)."""
        m = self.matches[j].clone()
        pool = list(self.pools[j])
        for i, ch in enumerate(m.cells):
            if ch == HIDDEN:
                m.cells[i] = pool.pop()
        return m

    def sample(self, count: int, seed: int = 0) -> list[tuple[Match, Fraction]]:
        """``count`` reachable positions (seeded) with their values (see :meth:`sample_at`)."""
        rng = random.Random(seed)
        picks = rng.sample(range(len(self.matches)), min(count, len(self.matches)))
        return [(self.sample_at(j), self.values[j]) for j in picks]

    # -- the longest defence, by bounded horizons -------------------------------------------
    def plies_to_end(self) -> list[int | None]:
        """Per position: the smallest ``k`` such that one player can force the end of the match
        within ``k`` plies with a win for itself, whatever the other player does and whatever
        cards are lit (None when nobody can: a value other than +1 / -1). Computed from the
        graph alone, by growing horizons: a position is *won within k* when some action wins at
        once, or leads to a position lost within k - 1, or lights a card every kind of which gives
        such a position; it is *lost within k* when every action loses at once or leads (for every
        kind) to a position won within k - 1, and lost within 0 when it has no action. This is the
        solver's longest defence (the winner hurrying, the loser delaying, chance counted at its
        longest), found without its levels, layers or Dijkstra."""
        n = len(self.nodes)
        plies: list[int | None] = [None] * n
        won = [False] * n  # the sign: True when the player to move is the one who forces the end
        for i, acts in enumerate(self.nodes):
            if not acts:
                plies[i] = 0
        k = 0
        while True:
            k += 1

            def lost(j):
                return plies[j] is not None and not won[j]

            def win(j):
                return plies[j] is not None and won[j]

            new = []
            for i, acts in enumerate(self.nodes):
                if plies[i] is not None:
                    continue
                if any((kind == "end" and x == 1) or (kind == "move" and lost(x))
                       or (kind == "chance" and all(lost(j) for _, j in x)) for kind, x in acts):
                    new.append((i, True))
                elif all((kind == "end" and x == -1) or (kind == "move" and win(x))
                         or (kind == "chance" and all(win(j) for _, j in x)) for kind, x in acts):
                    new.append((i, False))
            if not new:
                return plies
            for i, w in new:
                plies[i], won[i] = k, w

    def action_plies(self, j: int, plies: list[int | None]) -> dict:
        """For position ``j``: each legal action of the engine -> (its value for the mover, the
        plies to the end after it, the action counted, chance at its longest; None when the end is
        not forced)."""
        out = {}
        for a, (kind, x) in zip(self.matches[j].legal_actions(), self.nodes[j]):
            if kind == "end":
                out[a] = (Fraction(x), 1)
            elif kind == "move":
                out[a] = (-self.values[x], None if plies[x] is None else plies[x] + 1)
            else:
                ps = [plies[i] for _, i in x]
                v = -Fraction(sum(c * self.values[i] for c, i in x), sum(c for c, _ in x))
                out[a] = (v, None if None in ps else max(ps) + 1)
        return out

    def index_of(self, m: Match) -> int:
        """The position number of a live match (its dark cards' letters ignored)."""
        c = m.clone()
        pool = _hide(c)
        c.options = self.matches[0].options
        return self.index[_key(c, pool)]
