"""Tanglung cooperative solver: two matchboxes alternate (never sharing a card); fewest moves.

Plain-Python layered best-first search over (box positions, lit set, box to move) states,
bucketed by f = g + dark cards like the solo kernel (a move lights at most one card, so the
bound is consistent and the optimal-sequence count is exact). The other matchbox blocks
Rabbit, Butterfly and Fish like in the duel, and no move lands on it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ...errors import RuleError
from ...limits import LimitReached, as_deadline, check_count
from .cards import ROOSTER, CardSet, default_card_set
from .layout import Layout, rc
from .moves import destinations
from .rules import TanglungOptions
from .solo import FULL, apply_solo_move, initial_lit


@dataclass
class CoopSolution:
    """Fewest total moves (both boxes), one optimal sequence, how many optimal sequences."""

    layout: str
    starts: tuple[int, int]
    moves: int | None
    optimal_sequences: int
    sequence: list[int] = field(default_factory=list)  # destinations, boxes alternating
    expanded: int = 0
    complete: bool = True  # False: a limit stopped the search (moves and counts unknown)
    reason: str = ""

    @property
    def solvable(self) -> bool | None:
        if not self.complete:
            return None
        return self.moves is not None

    def to_json(self) -> dict:
        return {
            "solvable": self.solvable,
            "moves": self.moves,
            "starts": [list(rc(s)) for s in self.starts],
            "sequence": [list(rc(p)) for p in self.sequence],
            "optimal_sequences": self.optimal_sequences,
        }


def search_coop(layout: Layout, options: TanglungOptions, starts: tuple[int, int], max_states: int,
            lit0: int | None = None, deadline=None):
    """Fewest moves from box ``starts[0]`` to move, the other on ``starts[1]``, cards ``lit0`` lit
    (default: the start of a game)."""
    cells = layout.cells
    if lit0 is None:
        lit0 = initial_lit(layout, options)
    s0 = (starts[0], starts[1], lit0, 0)
    if lit0 == FULL:
        return 0, 1, [], 0

    def h(lit: int) -> int:
        return 16 - bin(lit).count("1")

    dist = {s0: 0}
    cnt = {s0: 1}
    parent: dict = {s0: None}
    buckets: dict[tuple[int, int], list] = defaultdict(list)
    buckets[(h(lit0), 0)].append(s0)
    expanded = 0
    F = h(lit0)
    fmax = 200
    while F < fmax and any(buckets.values()):
        for g in range(F):
            items = buckets.pop((F, g), [])
            for st in items:
                if dist[st] != g:
                    continue
                expanded += 1
                if expanded > max_states:
                    raise LimitReached("state limit")
                if deadline is not None and expanded & 1023 == 0:
                    deadline.check("cooperative search")
                a, b, lit, turn = st
                me, other = (a, b) if turn == 0 else (b, a)
                c = cnt[st]
                for q in destinations(cells, me, cells[me], options, None, {other}):
                    if q == other:
                        continue
                    nl = apply_solo_move(layout, lit, me, q)
                    ns = (q, b, nl, 1) if turn == 0 else (a, q, nl, 0)
                    d = dist.get(ns)
                    ng = g + 1
                    if d is None or ng < d:
                        dist[ns] = ng
                        cnt[ns] = c
                        parent[ns] = st
                        buckets[(ng + h(nl), ng)].append(ns)
                    elif ng == d:
                        cnt[ns] += c
        goals = [s for s in buckets.pop((F, F), []) if s[2] == FULL and dist[s] == F]
        goals = sorted(set(goals))
        if goals:
            total = sum(cnt[s] for s in goals)
            seq = []
            s = goals[0]
            while parent[s] is not None:
                p = parent[s]
                seq.append(s[0] if p[3] == 0 else s[1])
                s = p
            return F, total, seq[::-1], expanded
        F += 1
    return -1, 0, [], expanded


def solve_coop(
    layout: Layout | str,
    starts: tuple[int, int] | None = None,
    options: TanglungOptions | None = None,
    card_set: CardSet | None = None,
    max_states: int = 1_000_000,
    deadline=None,
) -> CoopSolution:
    """Fewest total moves for two alternating matchboxes starting on two Roosters.

    ``starts`` = (cell of the box that moves first, cell of the other); None tries both
    orders on the first two Roosters and keeps the shorter (ties: the first). ``max_states``
    (0 = stop at once) and ``deadline`` (a limits.Deadline or seconds) stop the search: the result then
    has ``complete`` False and unknown moves."""
    max_states = check_count(max_states, "max_states", minimum=0)
    deadline = as_deadline(deadline)
    if isinstance(layout, str):
        layout = Layout.parse(layout)
    options = options or TanglungOptions()
    layout.validate(card_set or default_card_set(), options)
    roosters = layout.roosters()
    if starts is None:
        if len(roosters) < 2:
            raise RuleError("cooperative play needs two Rooster cards to start from")
        orders = [(roosters[0], roosters[1]), (roosters[1], roosters[0])]
    else:
        if len(set(starts)) != 2 or any(layout[s] != ROOSTER for s in starts):
            raise RuleError("both matchboxes start on different Rooster cards")
        orders = [tuple(starts)]
    # a dark card that no card's action can ever reach makes every game unwinnable
    lit0 = initial_lit(layout, options)
    reach = 0
    for p in range(16):
        for q in destinations(layout.cells, p, layout[p], options):
            reach |= 1 << q
    if (~lit0 & FULL) & ~reach:
        return CoopSolution(str(layout), tuple(orders[0]), None, 0, [], 0)
    best: CoopSolution | None = None
    spent = 0
    for o in orders:
        try:
            deadline.check("cooperative search")
            moves, total, seq, expanded = search_coop(layout, options, o, max_states - spent, deadline=deadline)
        except LimitReached as e:
            why = "state limit" if str(e) == "state limit" else "time limit"
            return CoopSolution(str(layout), tuple(orders[0]), None, 0, [], max_states if why == "state limit" else spent,
                                complete=False, reason=why)
        spent += expanded
        sol = CoopSolution(str(layout), o, None if moves < 0 else moves, total, seq, expanded)
        if best is None or (sol.moves is not None and (best.moves is None or sol.moves < best.moves)):
            best = sol
    assert best is not None
    return best
