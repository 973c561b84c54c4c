"""Exact values of Tanglung duel match positions: expectiminimax with retrograde analysis.

The duel is treated as a game of perfect information with chance: nobody knows the kind of a
dark card, so lighting one reveals a kind drawn uniformly from the cards not seen yet (the card
set minus the lit and the removed cards; as a multiset, the kinds of the dark cards). The value
of a position is the expected result of the *current match* for the player to move under
optimal play by both (+1 a won match, -1 a lost one, 0 a drawn one), chance uniform over the
unseen cards. ``(value + 1) / 2`` is the expected match points (a draw counting a half); when no
draw is possible it is the probability of winning the match.

**State encoding** (two integers, ``A`` the cards and ``B`` the rest, relative to the player to
move: "me" moves, "op" is the other player):

* ``A``: 3 bits per cell ``i`` (bits ``3i .. 3i+2``): 0 empty space, 1 dark card, 2..7 a lit
  card of kind C, R, B, F, H, D.
* ``B``: bits 0-19 the unseen cards, 4 bits per lantern kind R, B, F, H, D (how many of that
  kind are still face down somewhere); bits 20-24 my matchbox, 25-29 the other's (cell, 16 =
  off the grid), 30-34 the Fan (16 = not placed), bit 35 my bumps, 36 theirs (0 or 1: a second
  bump ends the match), bit 37 whether I have taken a Rooster action, 38 the same for the other.
  A matchbox off the grid with no bump is at the set-up (placed on a Rooster), with one bump
  it re-enters on a lit card.

The key of a position is ``A << 39 | B``. The turn count is not part of it: the solver ignores
the engine's ``max_turns`` safety cap.

**Levels and repetition.** Every action but one is irreversible: a Lantern action removes a
card, lighting a card, placing a matchbox, a bump and a player's first Rooster action change
the position for good. Only a Rooster action onto a card that is already lit (after the first)
keeps the cards as they are, so positions repeat only within a *level* (same cards, lit cards,
bumps, set-up state and Rooster flags; the matchboxes, the Fan and the player to move vary).
Under the ``repetition`` rule option (default 3) a match in which a position occurs for the
third time ends drawn. Both players have positional optimal strategies in such a level (a
deterministic game whose exits have known values and whose endless plays are draws), and a
player who can force more than a draw never needs to repeat; so the value does not depend on
how many repetitions the rule allows, and the solver treats an endless play as a draw (0).

The solver explores the in-level closure of a position (positions solved before are exits with
their value), gets the value of every exit by recursion into later levels (a chance exit
averages over the unseen kinds), then runs a retrograde analysis over thresholds: for each
absolute exit value ``t`` (descending) the positions whose mover can force ``>= t`` and those
whose mover cannot avoid ``<= -t`` are propagated backwards; the rest are 0. Alongside it keeps
the *layer* (distance to the exit that fixes the value, so a player keeps its value by moving
to a lower layer and never cycles) and, for won and lost positions (value +1 / -1), the number
of plies to the end when the winner hurries and the loser delays (chance outcomes counted at
their longest): the longest defence.

This module is the plain-Python solver (exact ``Fraction`` values or floats) and the move
generator shared with the numba kernel (``duel_kernels.py``); ``duel_reference.py`` is an
independent check built on the engine.
"""

from __future__ import annotations

import heapq
import time
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction

from ...errors import SolverError
from .cards import EMPTY
from .grid import N_CELLS, SIZE
from .moves import DIAG, KNIGHT, ORTHO, _horse_routes
from .rules import TanglungOptions

#: cell codes of the A word
DARK = 1
CODE_LETTERS = ".?CRBFHD"  # code -> letter (0 empty, 1 dark)
LETTER_CODE = {ch: i for i, ch in enumerate(CODE_LETTERS) if i >= 2}
LANTERN_KINDS = "RBFHD"  # the unseen counts, 4 bits each, in this order (code - 3)
OFF = 16
MAX_ACTIONS = 128
#: action results
WIN, INLEVEL, PROGRESS, CHANCE = 0, 1, 2, 3
B_BITS = 39


# -- tables ----------------------------------------------------------------------------------
def move_tables(options: TanglungOptions) -> tuple:
    """Flat lookup tables of the 4x4 grid (``-1`` padded), built from the engine's move
    definitions: orthogonal neighbours (4 per cell), king neighbours (8), knight targets (8)
    with their two L-routes (2 cells each), and the 8 rays (3 cells each; directions 0-3
    orthogonal, 4-7 diagonal); then the flags ``literal_blocking`` and ``horse_fan_route ==
    'both'``."""
    nb4 = [-1] * (N_CELLS * 4)
    nb8 = [-1] * (N_CELLS * 8)
    kn = [-1] * (N_CELLS * 8)
    kra = [-1] * (N_CELLS * 16)
    krb = [-1] * (N_CELLS * 16)
    ray = [-1] * (N_CELLS * 24)

    def on(r, c):
        return 0 <= r < SIZE and 0 <= c < SIZE

    for p in range(N_CELLS):
        r0, c0 = divmod(p, SIZE)
        for k, (dr, dc) in enumerate(ORTHO):
            if on(r0 + dr, c0 + dc):
                nb4[p * 4 + k] = (r0 + dr) * SIZE + c0 + dc
        for k, (dr, dc) in enumerate(ORTHO + DIAG):
            if on(r0 + dr, c0 + dc):
                nb8[p * 8 + k] = (r0 + dr) * SIZE + c0 + dc
            r, c, s = r0 + dr, c0 + dc, 0
            while on(r, c):
                ray[(p * 8 + k) * 3 + s] = r * SIZE + c
                r, c, s = r + dr, c + dc, s + 1
        for k, (dr, dc) in enumerate(KNIGHT):
            if on(r0 + dr, c0 + dc):
                kn[p * 8 + k] = (r0 + dr) * SIZE + c0 + dc
                ra, rb = _horse_routes(r0, c0, dr, dc)
                for s, cell in enumerate(ra):
                    kra[(p * 8 + k) * 2 + s] = cell
                for s, cell in enumerate(rb):
                    krb[(p * 8 + k) * 2 + s] = cell
    return (nb4, nb8, kn, kra, krb, ray, int(options.literal_blocking), int(options.horse_fan_route == "both"))


def check_options(options: TanglungOptions) -> None:
    if not options.roosters_start_lit:
        raise SolverError("the exact duel solver needs roosters_start_lit=true (a dark Rooster's place is known, "
                          "which the chance model of unseen kinds does not cover)")


# -- the move generator (plain Python; the kernel compiles the very same function) -----------
def expand(A, B, nb4, nb8, kn, kra, krb, ray, literal, horse_both, out_act, out_typ, out_a, out_b, out_d):
    """Every legal action of the player to move in position (A, B), written to the ``out_*``
    arrays; returns their number. ``out_typ``: WIN (the action wins the match at once),
    INLEVEL (a Rooster action onto a lit card: same level), PROGRESS (another level), CHANCE
    (the action lights the dark card ``out_d``: the child ``out_a`` still shows it dark and the
    caller reveals each unseen kind). Children are from the other player's point of view."""
    n = 0
    counts = B & 0xFFFFF
    me = (B >> 20) & 31
    op = (B >> 25) & 31
    fan = (B >> 30) & 31
    mb = (B >> 35) & 1
    ob = (B >> 36) & 1
    mu = (B >> 37) & 1
    ou = (B >> 38) & 1
    ndark = 0
    for i in range(16):
        if (A >> (3 * i)) & 7 == 1:
            ndark += 1
    if me == 16:
        for i in range(16):
            if i == op:
                continue
            code = (A >> (3 * i)) & 7
            if mb == 0:
                ok = code == 2
            else:
                ok = code >= 2 and i != fan
            if ok:
                out_act[n] = i
                out_typ[n] = 2
                out_a[n] = A
                out_b[n] = counts | (op << 20) | (i << 25) | (fan << 30) | (ob << 35) | (mb << 36) | (ou << 37) | (mu << 38)
                out_d[n] = -1
                n += 1
        return n
    pos = me
    pcode = (A >> (3 * pos)) & 7
    # Rooster action: one orthogonal step, light it, the first one removes the Rooster card
    # left, then the Fan moves to another card
    removes = mu == 0 and pcode == 2
    A1 = A
    if removes:
        A1 = A & ~(7 << (3 * pos))
    for k in range(4):
        d = nb4[pos * 4 + k]
        if d < 0 or d == fan or d == op:
            continue
        dcode = (A >> (3 * d)) & 7
        if dcode == 0:
            continue
        win = ndark - (1 if dcode == 1 else 0) == 0
        for f in range(16):
            if f == fan or f == d or f == op:
                continue
            if (A1 >> (3 * f)) & 7 == 0:
                continue
            out_act[n] = 32 + 16 * d + f
            out_a[n] = A1
            out_b[n] = counts | (op << 20) | (d << 25) | (f << 30) | (ob << 35) | (mb << 36) | (ou << 37) | (1 << 38)
            out_d[n] = -1
            if win:
                out_typ[n] = 0
            elif dcode == 1:
                out_typ[n] = 3
                out_d[n] = d
            elif mu == 0:
                out_typ[n] = 2
            else:
                out_typ[n] = 1
            n += 1
    # Lantern action: only from a lit lantern; the card left is removed
    if pcode >= 3:
        A2 = A & ~(7 << (3 * pos))
        m0 = n  # destinations are collected first in out_d
        if pcode == 5:  # Fish: one step in 8 directions
            for k in range(8):
                d = nb8[pos * 8 + k]
                if d >= 0 and d != fan and (A >> (3 * d)) & 7 != 0:
                    out_d[n] = d
                    n += 1
        elif pcode == 6:  # Horse: a knight's jump; the Fan may block its L-routes
            for k in range(8):
                d = kn[pos * 8 + k]
                if d < 0 or d == fan or (A >> (3 * d)) & 7 == 0:
                    continue
                if fan != 16:
                    ina = kra[(pos * 8 + k) * 2] == fan or kra[(pos * 8 + k) * 2 + 1] == fan
                    inb = krb[(pos * 8 + k) * 2] == fan or krb[(pos * 8 + k) * 2 + 1] == fan
                    if horse_both == 1:
                        if ina or inb:
                            continue
                    elif ina and inb:
                        continue
                out_d[n] = d
                n += 1
        else:  # slides: Rabbit (3) orthogonal, Butterfly (4) diagonal, Dragon (7) both
            k0 = 4 if pcode == 4 else 0
            k1 = 4 if pcode == 3 else 8
            for k in range(k0, k1):
                for s in range(3):
                    i = ray[(pos * 8 + k) * 3 + s]
                    if i < 0 or i == fan:
                        break
                    if (A >> (3 * i)) & 7 == 0:
                        if pcode != 7:
                            break
                        continue
                    out_d[n] = i
                    n += 1
                    if pcode != 7 and (literal == 1 or i == op):
                        break
        for j in range(m0, n):
            d = out_d[j]
            dcode = (A >> (3 * d)) & 7
            out_act[j] = 16 + d
            out_a[j] = A2
            out_d[j] = -1
            nob = ob
            nop = op
            win = False
            if d == op:
                if ob == 1:
                    win = True
                nob = 1
                nop = 16
            if not win and ndark - (1 if dcode == 1 else 0) == 0:
                win = True
            out_b[j] = counts | (nop << 20) | (d << 25) | (fan << 30) | (nob << 35) | (mb << 36) | (ou << 37) | (mu << 38)
            if win:
                out_typ[j] = 0
            elif dcode == 1:
                out_typ[j] = 3
                out_d[j] = d
            else:
                out_typ[j] = 2
    return n


# -- positions -------------------------------------------------------------------------------
def encode_match(match, pool: list[str] | None = None) -> tuple[int, int]:
    """(A, B) of a live engine ``Match`` for its player to move. ``pool``: the unseen cards
    (default: the kinds of the dark cards, which is what the card set minus the seen cards is
    in a real game)."""
    if match.winner is not None or match.reason is not None:
        raise SolverError("the match is already over")
    check_options(match.options)
    A = 0
    dark = []
    for i, ch in enumerate(match.cells):
        if ch == EMPTY:
            code = 0
        elif match.lit >> i & 1:
            code = LETTER_CODE[ch]
        else:
            code = DARK
            dark.append(ch)
        A |= code << (3 * i)
    pool = list(dark if pool is None else pool)
    if len(pool) != len(dark):
        raise SolverError(f"{len(dark)} dark card(s) but {len(pool)} unseen card(s) in the card set")
    counts = 0
    for j, k in enumerate(LANTERN_KINDS):
        c = pool.count(k)
        if c > 15:
            raise SolverError(f"more than 15 unseen {k} cards: not supported by the exact solver")
        counts |= c << (4 * j)
    if any(ch not in LANTERN_KINDS for ch in pool):
        raise SolverError("a dark Rooster is not supported by the exact solver (roosters_start_lit=true)")
    me = match.to_move
    op = 1 - me
    for j in (0, 1):
        b = match.boxes[j]
        if match.bumps[j] > 1:
            raise SolverError("the match is already over (two bumps)")
        want = "play" if b is not None else ("setup" if match.bumps[j] == 0 else "reenter")
        if match.phase[j] != want:
            raise SolverError(f"player {j}: phase {match.phase[j]!r} does not fit the matchbox and bumps "
                              f"(expected {want!r})")
        if b is not None and not match.lit >> b & 1:
            raise SolverError(f"player {j}'s matchbox stands on a dark card")

    def box(j):
        b = match.boxes[j]
        return OFF if b is None else b

    fan = OFF if match.fan is None else match.fan
    B = (counts | (box(me) << 20) | (box(op) << 25) | (fan << 30) | (match.bumps[me] << 35)
         | (match.bumps[op] << 36) | (int(match.used[me]) << 37) | (int(match.used[op]) << 38))
    return A, B


def decode_text(A: int, B: int) -> str:
    """A short text of an encoded position (for messages and tests)."""
    cells = "".join(CODE_LETTERS[(A >> (3 * i)) & 7] for i in range(16))
    rows = "/".join(cells[i:i + 4] for i in range(0, 16, 4))
    counts = {k: (B >> (4 * j)) & 15 for j, k in enumerate(LANTERN_KINDS)}
    f = lambda v: "-" if v == OFF else str(v)  # noqa: E731
    return (f"{rows} unseen={''.join(k * n for k, n in counts.items())} me={f((B >> 20) & 31)} "
            f"op={f((B >> 25) & 31)} fan={f((B >> 30) & 31)} bumps={(B >> 35) & 1}{(B >> 36) & 1} "
            f"used={(B >> 37) & 1}{(B >> 38) & 1}")


def chance_outcomes(A: int, B: int, d: int) -> list[tuple[int, int, int]]:
    """(count, A, B) for each kind the dark card ``d`` of child (A, B) may turn out to be."""
    out = []
    for j in range(5):
        c = (B >> (4 * j)) & 15
        if c:
            out.append((c, A & ~(7 << (3 * d)) | ((j + 3) << (3 * d)), B - (1 << (4 * j))))
    return out


# -- the plain-Python solver -----------------------------------------------------------------
class Abort(Exception):
    pass


@dataclass
class Entry:
    value: object  # Fraction or float, for the player to move
    layer: int  # in-level distance to the exit that fixes the value
    plies: int  # plies to the end for value +1 / -1 (winner hurries, loser delays), else -1
    comp: int = 0  # which level solve decided it (layers compare within one solve)


@dataclass
class ActionValue:
    action: int  # the API's action number (encode_duel)
    value: object
    plies: int  # for +1 / -1 values, else -1
    kind: str  # "win", "level", "progress" or "chance"
    child: int | None = None  # key of the in-level child (for the layer rule)


class PlainSolver:
    """Memoised expectiminimax with in-level retrograde analysis, in plain Python.
    ``exact``: ``Fraction`` values (else floats). ``node_limit`` / ``deadline`` (perf_counter
    seconds) raise ``Abort`` inside :meth:`value`."""

    def __init__(self, options: TanglungOptions | None = None, exact: bool = True,
                 node_limit: int | None = None, deadline: float | None = None) -> None:
        self.options = options or TanglungOptions()
        check_options(self.options)
        self.tables = move_tables(self.options)
        self.exact = exact
        self.memo: dict[int, Entry] = {}
        self.node_limit = node_limit
        self.deadline = deadline
        self.expanded = 0
        self.components = 0
        self._one = Fraction(1) if exact else 1.0
        self._zero = Fraction(0) if exact else 0.0

    def _moves(self, A, B):
        act = [0] * MAX_ACTIONS
        typ = [0] * MAX_ACTIONS
        ca = [0] * MAX_ACTIONS
        cb = [0] * MAX_ACTIONS
        cd = [0] * MAX_ACTIONS
        n = expand(A, B, *self.tables, act, typ, ca, cb, cd)
        return [(act[j], typ[j], ca[j], cb[j], cd[j]) for j in range(n)]

    def entry(self, A: int, B: int) -> Entry:
        key = A << B_BITS | B
        e = self.memo.get(key)
        if e is None:
            self._solve_level(A, B)
            e = self.memo[key]
        return e

    def value(self, A: int, B: int):
        return self.entry(A, B).value

    def _chance(self, A, B, d):
        """(value for the mover, plies or -1) of a chance exit: minus the children's average."""
        tot = 0
        num = 0
        plies = 0
        for c, a, b in chance_outcomes(A, B, d):
            e = self.entry(a, b)
            tot = tot + c * e.value
            num += c
            plies = max(plies, e.plies) if e.plies >= 0 and plies >= 0 else -1
        v = -(Fraction(tot, num) if self.exact else tot / num)
        return v, (plies + 1 if plies >= 0 and abs(v) == 1 else -1)

    def action_values(self, A: int, B: int) -> list[ActionValue]:
        """The value of every legal action for the player to move (children solved)."""
        out = []
        for act, typ, a, b, d in self._moves(A, B):
            if typ == WIN:
                out.append(ActionValue(act, self._one, 1, "win"))
            elif typ == CHANCE:
                v, p = self._chance(a, b, d)
                out.append(ActionValue(act, v, p, "chance"))
            else:
                e = self.entry(a, b)
                out.append(ActionValue(act, -e.value, e.plies + 1 if e.plies >= 0 else -1,
                                       "level" if typ == INLEVEL else "progress", a << B_BITS | b))
        return out

    def _tick(self):
        self.expanded += 1
        if self.node_limit is not None and self.expanded > self.node_limit:
            raise Abort("node limit")
        if self.deadline is not None and (self.expanded & 63) == 0 and time.perf_counter() > self.deadline:
            raise Abort("time limit")

    def _solve_level(self, A0: int, B0: int) -> None:
        memo = self.memo
        one = self._one
        root = A0 << B_BITS | B0
        keys = [root]
        index = {root: 0}
        succ: list[list[int]] = []
        exits: list[list[tuple]] = []  # (value, plies) per node
        i = 0
        while i < len(keys):
            self._tick()
            key = keys[i]
            A, B = key >> B_BITS, key & ((1 << B_BITS) - 1)
            s: list[int] = []
            ex: list[tuple] = []
            moves = self._moves(A, B)
            if any(m[1] == WIN for m in moves):  # an immediate win decides it (in one ply)
                moves = [next(m for m in moves if m[1] == WIN)]
            for _act, typ, a, b, d in moves:
                if typ == WIN:
                    ex.append((one, 1))
                elif typ == CHANCE:
                    ex.append(self._chance(a, b, d))
                else:
                    ck = a << B_BITS | b
                    e = memo.get(ck)
                    if typ == PROGRESS and e is None:
                        e = self.entry(a, b)
                    if e is not None:
                        ex.append((-e.value, e.plies + 1 if e.plies >= 0 else -1))
                    else:
                        j = index.get(ck)
                        if j is None:
                            j = index[ck] = len(keys)
                            keys.append(ck)
                        if j not in s:
                            s.append(j)
            succ.append(s)
            exits.append(ex)
            i += 1
        values, layers, plies = retrograde(succ, exits, self._zero, one)
        self.components += 1
        comp = self.components
        for k, key in enumerate(keys):
            memo[key] = Entry(values[k], layers[k], plies[k], comp)


def retrograde(succ: list[list[int]], exits: list[list[tuple]], zero, one):
    """Values, layers and plies of the nodes of one level (see the module doc). ``succ``: the
    in-level children of each node; ``exits``: (value, plies) of every other action."""
    n = len(succ)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, s in enumerate(succ):
        for j in s:
            preds[j].append(i)
    NONE = None
    exits = [ex if ex or s else [(-one, 0)] for ex, s in zip(exits, succ)]  # no action: lost
    best = [max((v for v, _ in ex), default=NONE) for ex in exits]
    cnt = [len(s) for s in succ]
    val: list = [NONE] * n
    layer = [0] * n
    ts = sorted({abs(b) for b in best if b is not None and b != 0}, reverse=True)
    for t in ts:
        q: deque[int] = deque()
        for i in range(n):
            if val[i] is NONE and best[i] is not None:
                if best[i] == t or (best[i] == -t and cnt[i] == 0):
                    val[i] = best[i]
                    q.append(i)
        while q:
            c = q.popleft()
            if val[c] > 0:
                for p in preds[c]:
                    cnt[p] -= 1
                    if val[p] is NONE and cnt[p] == 0 and (best[p] is None or best[p] <= -t):
                        val[p] = -t
                        layer[p] = layer[c] + 1
                        q.append(p)
            else:
                for p in preds[c]:
                    if val[p] is NONE:
                        val[p] = t
                        layer[p] = layer[c] + 1
                        q.append(p)
    for i in range(n):
        if val[i] is NONE:
            val[i] = zero
    plies = plies_to_end(succ, preds, exits, val, one)
    return val, layer, plies


def plies_to_end(succ, preds, exits, val, one) -> list[int]:
    """For value +1 / -1 nodes: plies to the end, the winner choosing the fastest win, the
    loser the longest defence (Dijkstra over the level, exits with their own plies)."""
    n = len(succ)
    INF = 1 << 60
    tent = [INF] * n
    lcnt = [0] * n
    final = [-1] * n
    heap: list[tuple[int, int]] = []
    for i in range(n):
        if val[i] == one:
            tent[i] = min((p for v, p in exits[i] if v == one), default=INF)
            if tent[i] < INF:
                heapq.heappush(heap, (tent[i], i))
        elif val[i] == -one:
            tent[i] = max((p for v, p in exits[i]), default=0)
            lcnt[i] = len(succ[i])
            if lcnt[i] == 0:
                heapq.heappush(heap, (tent[i], i))
    while heap:
        d, i = heapq.heappop(heap)
        if final[i] >= 0:
            continue
        final[i] = d
        for p in preds[i]:
            if final[p] >= 0:
                continue
            if val[p] == one and val[i] == -one:
                if d + 1 < tent[p]:
                    tent[p] = d + 1
                    heapq.heappush(heap, (d + 1, p))
            elif val[p] == -one and val[i] == one:
                lcnt[p] -= 1
                tent[p] = max(tent[p], d + 1)
                if lcnt[p] == 0:
                    heapq.heappush(heap, (tent[p], p))
    return final


# -- choosing an action from solved values ---------------------------------------------------
def choose(values: list[ActionValue], here: Entry | None, entry_of) -> ActionValue:
    """The action an optimal player takes: the best value; among won (+1) actions the fastest,
    among lost (-1) ones the longest defence; otherwise an exit that achieves the value or an
    in-level move to a lower layer (so a value is never lost to an endless repetition)."""
    top = max(v.value for v in values)
    best = [v for v in values if v.value == top]
    if top == 1:
        return min(best, key=lambda v: v.plies)
    if top == -1:
        return max(best, key=lambda v: v.plies)
    if top == 0:
        return best[0]
    for v in best:
        if v.kind != "level":
            return v
    if here is not None:
        # a child decided by an earlier level solve was an exit of this one
        rank = {id(v): (entry_of(v.child).comp, entry_of(v.child).layer) for v in best}
        lower = [v for v in best if rank[id(v)] < (here.comp, here.layer)]
        if lower:
            return min(lower, key=lambda v: rank[id(v)])
    return best[0]


@dataclass
class ExactResult:
    """An exact value of a match position for the player to move (see the module doc)."""

    value: object | None  # Fraction / float, None when incomplete
    best: int | None  # the API action number of the chosen action
    actions: list[ActionValue] = field(default_factory=list)
    plies: int = -1
    states: int = 0
    expanded: int = 0
    complete: bool = True
    reason: str = ""
    seconds: float = 0.0
    engine: str = "plain"


def solve_plain(match, exact: bool = True, node_limit: int | None = None, time_limit: float | None = None,
                pool: list[str] | None = None, solver: PlainSolver | None = None) -> ExactResult:
    """Solve a live engine ``Match`` position in plain Python (``exact``: Fractions)."""
    t0 = time.perf_counter()
    A, B = encode_match(match, pool)
    s = solver or PlainSolver(match.options, exact, node_limit,
                              None if time_limit is None else t0 + time_limit)
    try:
        here = s.entry(A, B)
        vals = s.action_values(A, B)
    except Abort as e:
        return ExactResult(None, None, [], -1, len(s.memo), s.expanded, False, str(e), time.perf_counter() - t0)
    pick = choose(vals, here, lambda k: s.memo[k])
    return ExactResult(here.value, pick.action, vals, here.plies, len(s.memo), s.expanded, True, "",
                       time.perf_counter() - t0)
