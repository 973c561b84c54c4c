"""Tangle best-turn search: the placement chain (through capture extra turns) scoring the most.

Two objectives: ``points`` (most points this turn) and ``safe`` (most points among turns after
which the next player has no capture; if no such turn exists, the best unsafe one, flagged).
:func:`best_turn` is an exact depth-first search with memoisation on (occupied sides, pieces
left, placements left, score). With one placement left it expands only captures (any other
placement ends the turn); with more left, only captures and set-ups that let a later placement
close one of the player's open tiles (any other placement can be moved to the end of the turn
without changing the points). The final placement's safety is checked against the opponent's
capture list. The search is exponential in the number of captures open at once, so it takes a
node budget and raises SolverError past it.
:func:`brute_force_best_turn` is the plain reference: every move sequence, no memo, no
shortcuts, for small boards in tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import SolverError
from ...shapes.hexgrid import side_tiles
from .engine import PASS, TangleState

MODES = ("points", "safe")
_NEG = (-1, -1)


@dataclass
class TurnResult:
    """Best turn found: points, whether it leaves no capture to the next player, the moves."""

    points: int
    placements: list[int]
    safe: bool = True
    nodes: int = 0
    mode: str = "points"
    exact: bool = True
    reason: str | None = None  # why the search stopped early ("node limit", "time limit")

    @property
    def complete(self) -> bool:
        """Whether the search finished (the answer is proven best), as docs/json.md names it."""
        return self.exact

    def to_json(self, state: TangleState) -> dict:
        g = state.game
        return {
            "points": self.points,
            "placements": [g.move_json(p) for p in self.placements],
            "moves": [g.move_text(p) for p in self.placements],
            "mode": self.mode,
            "safe": self.safe,
            "nodes": self.nodes,
            "exact": self.exact,
            "complete": self.exact,
        }


def _turn_continues(s: TangleState, player: int) -> bool:
    return not s.over and s.to_move == player


def _opponent_threats(s: TangleState, opp: int) -> list[tuple[int, tuple[int, ...]]]:
    """(opponent capturing placement, tiles it would capture) in the current occupancy."""
    g = s.game
    out = []
    for r in s.capturing_placements(player=opp):
        m = g.pl_mask[r]
        occ = s.occ | m
        tm = s.tmask[g.team_of[opp]] | m
        tiles = tuple(t for t in g.pl_tiles[r] if not (g.tile_mask[t] & ~occ) and not (g.tile_mask[t] & ~tm))
        out.append((r, tiles))
    return out


def leaves_no_capture(s: TangleState) -> bool:
    """Whether the player to move (turn just ended) has no capturing placement: full check."""
    if s.over:
        return True
    return not s.capturing_placements()


class _Budget(Exception):
    pass


def best_turn(
    state: TangleState, mode: str = "points", node_limit: int | None = None, partial: bool = False,
    deadline=None,
) -> TurnResult:
    """Exact best turn for the player to move (see module doc). ``state`` is left unchanged.

    Past ``node_limit`` nodes or the ``deadline`` (a ``limits.Deadline``): SolverError, or with
    ``partial`` the best chain met so far, marked ``exact=False`` (in points mode a lower bound
    on the true best; in safe mode no answer, points -1).
    """
    if mode not in MODES:
        raise SolverError(f"unknown best-turn mode {mode!r}: expected points or safe")
    if state.over:
        raise SolverError("the game is over: no turn to play")
    s = state.copy_position()
    g = s.game
    me = s.to_move
    team = g.team_of[me]
    opp = (me + 1) % g.n_players
    six_side = any(max(_tile_cover(k.shape)) >= 6 for k in g.pieces.kinds)
    memo: dict = {}
    nodes = [0]
    prune = g.max_cover < 6
    start = s.scores[team]
    path: list[int] = []
    incumbent: list = [0, []]  # best (points, placements) seen on the way, for partial answers

    def key():
        return (s.occ, tuple(s.remaining[me]), s.turns_left, s.scores[team])

    def leaf_safe_choice(plain: list[int]) -> tuple[int, int] | None:
        """A non-capturing placement that ends the turn leaving no capture (or None)."""
        if s.turns_left != 1:
            return None
        # the fast test (q must block or spoil every opponent capture) is exact unless q itself
        # can end the game or a piece can close a bare tile alone (then q could connect it)
        slow = six_side or sum(s.remaining[me]) <= 1 or g.options.end_timing != "immediate"
        threats = [] if slow else _opponent_threats(s, opp)
        for q in plain:
            if not slow:
                qm = g.pl_mask[q]
                ok = True
                for r, tiles in threats:
                    if g.pl_mask[r] & qm:
                        continue
                    if all(g.tile_mask[t] & qm for t in tiles):
                        continue
                    ok = False
                    break
                if ok:
                    return q
            else:
                s._apply(q)
                ok = leaves_no_capture(s)
                s.pop()
                if ok:
                    return q
        return None

    def search() -> tuple[tuple[int, int], list[int]]:
        """Best (safe, points) from here to the end of the turn, with its placements."""
        nodes[0] += 1
        if mode == "points" and s.scores[team] - start > incumbent[0]:
            incumbent[0], incumbent[1] = s.scores[team] - start, list(path)
        if node_limit is not None and nodes[0] > node_limit:
            raise _Budget("node limit")
        if deadline is not None and (nodes[0] & 63) == 1 and deadline.expired():
            raise _Budget("time limit")
        k = key()
        hit = memo.get(k)
        if hit is not None:
            return hit
        tl = s.turns_left
        if tl == 1:
            caps = s.capturing_placements()
            capset = set(caps)
            if mode == "points":
                best: tuple[tuple[int, int], list[int]] = ((1, 0), [])
            else:
                legal = s.legal_placements()
                if not legal:
                    best = ((1 if _pass_safe(s) else 0, 0), [PASS])
                else:
                    plain = [q for q in legal if q not in capset]
                    q = leaf_safe_choice(plain)
                    best = ((1, 0), [q]) if q is not None else ((0, 0), plain[:1]) if plain else (_NEG, [])
            moves = caps
        else:
            # more than one placement left: besides captures, only placements that cover a
            # side of one of our open tiles (or, in safe mode, spoil an opponent capture) can
            # change the outcome; any other placement can be moved to the end of the turn
            legal = s.legal_placements()
            capset = set(s.capturing_placements())
            if prune:
                moves = [p for p in legal if p in capset or _setup_useful(s, p, team, tl)]
                if mode == "safe":
                    threats = _opponent_threats(s, opp)
                    moves += [q for q in legal if q not in capset and not _setup_useful(s, q, team, tl)
                              and any((g.pl_mask[r] & g.pl_mask[q]) or any(g.tile_mask[t] & g.pl_mask[q] for t in tiles)
                                      for r, tiles in threats)]
                if mode == "safe" and not moves:
                    moves = legal
            else:
                moves = legal
            if mode == "points":
                best = ((1, 0), [])
            else:
                best = (_NEG, [])
            if not legal:
                best = ((1 if mode == "points" or _pass_safe(s) else 0, 0), [PASS] if mode == "safe" else [])
        if len(moves) > 1:  # biggest immediate gain first: good incumbents early
            moves = sorted(moves, key=lambda q: -s.capture_points(q)[1])
        for p in moves:
            before = s.scores[team]
            s._apply(p)
            gained = s.scores[team] - before
            if mode == "points" and s.scores[team] - start > incumbent[0]:
                incumbent[0], incumbent[1] = s.scores[team] - start, path + [p]
            if _turn_continues(s, me):
                path.append(p)
                try:
                    (sf, pts), seq = search()
                finally:
                    path.pop()
            elif mode == "safe" and not s.over:
                sf, pts, seq = (1 if leaves_no_capture(s) else 0), 0, []
            else:
                sf, pts, seq = 1, 0, []
            s.pop()
            if sf < 0:
                continue
            cand = (sf, pts + gained) if mode == "safe" else (1, pts + gained)
            if cand > best[0]:
                best = (cand, [p] + seq)
        memo[k] = best
        return best

    try:
        (sf, pts), seq = search()
    except _Budget as stop:
        reason = str(stop)
        if partial and mode == "points":
            return TurnResult(points=incumbent[0], placements=incumbent[1], safe=True, nodes=nodes[0],
                              mode=mode, exact=False, reason=reason)
        if partial:
            return TurnResult(points=-1, placements=[], safe=False, nodes=nodes[0], mode=mode, exact=False,
                              reason=reason)
        if reason == "time limit":
            raise SolverError("best-turn search passed its time limit") from None
        raise SolverError(
            f"best-turn search passed its node limit ({node_limit} nodes): too many open captures "
            "to search exactly; raise the limit"
        ) from None
    if sf < 0:
        sf, pts, seq = 0, 0, []
    return TurnResult(points=pts, placements=seq, safe=bool(sf), nodes=nodes[0], mode=mode)


def _setup_useful(s: TangleState, q: int, team: int, tl: int) -> bool:
    """Whether non-capturing ``q`` (with ``tl`` placements left, counting ``q``) can help a
    capture later this turn: it must cover a side of an open own tile whose remaining free
    sides the ``tl - 1`` later placements can still close. With two placements left that means
    one legal placement covering them all; otherwise a size bound. A setup that fails this
    test can be moved to the end of the turn without losing points."""
    g = s.game
    tm = s.tmask[team]
    qm = g.pl_mask[q]
    occ = s.occ | qm
    me = s.to_move
    rem = s.remaining[me]
    qk = g.pl_kind[q]
    for t in g.pl_tiles[q]:
        tmk = g.tile_mask[t]
        covered = tmk & s.occ
        if covered & ~tm or covered == tmk:
            continue
        free = tmk & ~occ
        if not free:
            continue  # q itself would close it: a capture, not a setup
        if tl > 2:
            if free.bit_count() <= (tl - 1) * g.max_cover:
                return True
            continue
        if free.bit_count() > g.max_cover:
            continue
        for p in g.side_pl[(free & -free).bit_length() - 1]:
            pm = g.pl_mask[p]
            if (pm & free) == free and not (pm & occ):
                k = g.pl_kind[p]
                if rem[k] - (1 if k == qk else 0) > 0:
                    return True
    return False


def _pass_safe(s: TangleState) -> bool:
    s._apply(PASS)
    ok = leaves_no_capture(s)
    s.pop()
    return ok


def _tile_cover(shape) -> list[int]:
    count: dict = {}
    for c in shape.cells:
        for t in side_tiles(c):
            count[t] = count.get(t, 0) + 1
    return list(count.values())


def brute_force_best_turn(state: TangleState, mode: str = "points", node_limit: int | None = None) -> tuple[int, bool]:
    """Reference (best points, safe) by trying every move sequence of the turn; small boards only."""
    if mode not in MODES:
        raise SolverError(f"unknown best-turn mode {mode!r}")
    s = state.copy_position()
    me = s.to_move
    team = s.game.team_of[me]
    start = s.scores[team]
    nodes = [0]

    def rec() -> tuple[int, int]:
        nodes[0] += 1
        if node_limit is not None and nodes[0] > node_limit:
            raise SolverError(f"brute-force search passed its node limit ({node_limit})")
        best = (-1, -1)
        for p in s.legal_moves():
            s._apply(p)
            if not s.over and s.to_move == me:
                cand = rec()
            else:
                sf = 1 if (mode == "points" or s.over or not _brute_threat(s)) else 0
                cand = (sf, s.scores[team] - start)
            s.pop()
            best = max(best, cand)
        return best

    sf, pts = rec()
    return pts, bool(sf)


def _brute_threat(s: TangleState) -> bool:
    """Whether the player to move has any capturing placement (plain loop over legal moves)."""
    for p in s.legal_placements():
        if s.capture_points(p)[0]:
            return True
    return False
