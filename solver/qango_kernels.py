"""Numba kernels of the QANGO solver: bitboard threats and a bounded "mover wins within r plies" search.

A position is two int64 masks (mover, opponent). ``wins_within(me, opp, r)`` is monotone in r, so the
transposition table keeps two bounds per position: the smallest r proven winning and the largest r
proven not winning (keys merged under the board symmetries while few counters are down). Pruning that
keeps the answer exact: immediate wins, forced blocks (one enemy threat = one legal reply, two = lost),
double threats (won in 3), only double-threat moves when 3 or 4 plies remain, attacker moves limited
to patterns it can still complete in time, defender replies outside every pattern either side can
complete in time covered by one null-move search (an extra own counter never hurts), threat- and
pattern-ordered moves, killer replies. Imported lazily (numba); ``qango_reference.py`` is the
plain-Python oracle the tests compare against."""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

NO_WIN = 127  # tt_w value meaning "no win proven yet"
MAX_LEVELS = 160  # move-buffer rows (two per attacker ply)
H1 = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64
H2 = -4417276706812531889  # 0xC2B2AE3D27D4EB4F as int64


@njit(cache=True, inline="always")
def popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True)
def threats(me, opp, pats):
    """Mask of empty cells that would complete a pattern for ``me``."""
    t = np.int64(0)
    for i in range(pats.shape[0]):
        p = pats[i]
        if p & opp == 0:
            rest = p & ~me
            if rest != 0 and (rest & (rest - 1)) == 0:
                t |= rest
    return t


@njit(cache=True)
def live_cells(me, opp, empty, moves, pats):
    """Empty cells of the patterns free of ``opp`` that ``me`` could fill with at most ``moves`` counters."""
    u = np.int64(0)
    for i in range(pats.shape[0]):
        p = pats[i]
        if p & opp == 0:
            e = p & ~me
            if popcount(e) <= moves:
                u |= e
    return u & empty


@njit(cache=True)
def has_pattern(me, pats):
    for i in range(pats.shape[0]):
        if pats[i] & me == pats[i]:
            return True
    return False


@njit(cache=True, inline="always")
def _slot(me, opp, tmask):
    h = (me * H1) ^ (opp * H2)
    h ^= h >> 31
    h *= H1
    h ^= h >> 29
    return h & tmask & ~np.int64(1)


@njit(cache=True, inline="always")
def _transform(x, t, symtab):
    """Image of mask x under symmetry t (byte-wise lookup tables)."""
    y = np.int64(0)
    b = 0
    while x != 0:
        y |= symtab[t, b, x & 255]
        x >>= 8
        b += 1
    return y


def symmetry_tables(perms, ncells):
    """Byte lookup tables, permutations and inverses for ``_transform`` (identity first)."""
    S = len(perms)
    tab = np.zeros((S, 8, 256), dtype=np.int64)
    for t, p in enumerate(perms):
        for b in range(8):
            for v in range(256):
                m = 0
                for k in range(8):
                    c = 8 * b + k
                    if v >> k & 1 and c < ncells:
                        m |= 1 << p[c]
                tab[t, b, v] = m
    perm = np.array([list(p) for p in perms], dtype=np.int8)
    inv = np.zeros_like(perm)
    for t, p in enumerate(perms):
        for c, d in enumerate(p):
            inv[t, d] = c
    return tab, perm, inv


@njit(cache=True)
def _cell_score(c, me, opp, pats, cell_pats):
    """Heuristic value of cell c for ``me``: own pattern progress plus blocking value."""
    s = 0
    for j in range(cell_pats.shape[1]):
        k = cell_pats[c, j]
        if k < 0:
            break
        p = pats[k]
        if p & opp == 0:
            s += 1 << (3 * popcount(p & me))
        if p & me == 0:
            s += (1 << (3 * popcount(p & opp))) >> 1
    return s


@njit(cache=True)
def _order(level, cand, me, opp, pats, cell_pats, ncells, hint, mbuf, sbuf):
    """Fill mbuf[level] with the cells of ``cand``, best first; returns how many."""
    k = 0
    for c in range(ncells):
        if (cand >> c) & 1:
            s = _cell_score(c, me, opp, pats, cell_pats)
            t = threats(me | (np.int64(1) << c), opp, pats)
            nt = popcount(t)
            s += 4096 * (nt if nt < 3 else 3)
            if c == hint:
                s += 1 << 30
            # insertion sort, descending score
            j = k
            while j > 0 and sbuf[level, j - 1] < s:
                mbuf[level, j] = mbuf[level, j - 1]
                sbuf[level, j] = sbuf[level, j - 1]
                j -= 1
            mbuf[level, j] = c
            sbuf[level, j] = s
            k += 1
    return k


@njit(cache=True)
def _tt_store(me, opp, r, won, move, tt_a, tt_b, tt_w, tt_n, tt_m):
    tmask = tt_a.shape[0] - 1
    i = _slot(me, opp, tmask)
    for s in (i, i + 1):
        if tt_a[s] == me and tt_b[s] == opp:
            if won:
                if r < tt_w[s]:
                    tt_w[s] = r
                    tt_m[s] = move
            elif r > tt_n[s]:
                tt_n[s] = r
                if tt_m[s] < 0:
                    tt_m[s] = move
            return
    # replace the slot holding less work (its largest proven depth)
    d0 = tt_n[i] if tt_w[i] == NO_WIN else max(tt_n[i], tt_w[i])
    d1 = tt_n[i + 1] if tt_w[i + 1] == NO_WIN else max(tt_n[i + 1], tt_w[i + 1])
    s = i if d0 <= d1 else i + 1
    tt_a[s] = me
    tt_b[s] = opp
    tt_w[s] = r if won else NO_WIN
    tt_n[s] = 0 if won else r
    tt_m[s] = move


@njit(cache=True)
def wins_within(me, opp, r, level, pats, cell_pats, board, first, limit, ncells,
                tt_a, tt_b, tt_w, tt_n, tt_m, stats, deadline, mbuf, sbuf, symtab, perm, inv, sym_n, killer):
    """True when the side to move (``me``) can force a win within ``r`` plies (its own move first).

    stats = [nodes, node_limit, aborted]; on abort returns False and the caller must discard results.
    """
    stats[0] += 1
    if (stats[0] & 8191) == 0:
        with objmode(t="float64"):
            t = time.perf_counter()
        if t > deadline or (stats[1] > 0 and stats[0] > stats[1]):
            stats[2] = 1
    if stats[2] != 0:
        return False
    if r <= 0:
        return False
    occ = me | opp
    empty = board & ~occ
    n = popcount(occ)
    if n >= limit or empty == 0:
        return False
    mt = threats(me, opp, pats)
    if mt != 0:
        return True
    if r < 3:
        return False
    ot = threats(opp, me, pats)
    if ot & (ot - 1):
        return False  # two enemy threats: one block cannot stop both
    if n + 3 > limit or popcount(empty) < 3:
        return False  # no room for move, reply and a winning move
    # transposition table, keyed by the least symmetric image while few counters are down
    ka, kb, sx = me, opp, 0
    if 0 < n <= sym_n:
        for t in range(1, symtab.shape[0]):
            ta = _transform(me, t, symtab)
            tb = _transform(opp, t, symtab)
            if ta < ka or (ta == ka and tb < kb):
                ka, kb, sx = ta, tb, t
    tmask = tt_a.shape[0] - 1
    i0 = _slot(ka, kb, tmask)
    hint = -1
    for s in (i0, i0 + 1):
        if tt_a[s] == ka and tt_b[s] == kb:
            if r >= tt_w[s]:
                return True
            if r <= tt_n[s]:
                return False
            if tt_m[s] >= 0:
                hint = inv[sx, tt_m[s]]
    if ot != 0:
        cand = ot
    elif n == 0:
        cand = empty & first
    else:
        # only cells of patterns the mover can still complete in time matter (a move elsewhere is a
        # pass, and an extra own counter never hurts, so some move inside does at least as well)
        cand = live_cells(me, opp, empty, (r + 1) // 2, pats)
        if cand == 0:
            _tt_store(ka, kb, r, False, -1, tt_a, tt_b, tt_w, tt_n, tt_m)
            return False
    k = _order(level, cand, me, opp, pats, cell_pats, ncells, hint, mbuf, sbuf)
    for i in range(k):
        c = mbuf[level, i]
        bit = np.int64(1) << c
        me2 = me | bit
        empty2 = empty & ~bit
        at = threats(me2, opp, pats)
        if at & (at - 1):
            # the defender has no immediate win (any enemy threat was just blocked) and n + 3 <= limit
            _tt_store(ka, kb, 3, True, perm[sx, c], tt_a, tt_b, tt_w, tt_n, tt_m)
            return True
        if r < 5:
            continue  # with 3 or 4 plies left only a double threat wins
        if at != 0:
            ok = wins_within(me2, opp | at, r - 2, level + 2, pats, cell_pats, board, first, limit, ncells,
                             tt_a, tt_b, tt_w, tt_n, tt_m, stats, deadline, mbuf, sbuf, symtab, perm, inv, sym_n,
                             killer)
        else:
            replies = empty2
            ok = True
            if n + r + 1 <= limit:
                # a reply outside every pattern either side can still complete in time acts as a pass
                # (the draw limit is out of reach): one null-move search covers all of them
                rel = (live_cells(me2, opp, empty2, (r - 1) // 2, pats)
                       | live_cells(opp, me2, empty2, r // 2, pats))
                if empty2 & ~rel:
                    replies = rel
                    ok = wins_within(me2, opp, r - 2, level + 2, pats, cell_pats, board, first, limit, ncells,
                                     tt_a, tt_b, tt_w, tt_n, tt_m, stats, deadline, mbuf, sbuf, symtab, perm,
                                     inv, sym_n, killer)
            kk = 0
            if ok:
                kk = _order(level + 1, replies, opp, me2, pats, cell_pats, ncells, killer[level + 1], mbuf, sbuf)
            for j in range(kk):
                y = mbuf[level + 1, j]
                if not wins_within(me2, opp | (np.int64(1) << y), r - 2, level + 2, pats, cell_pats, board, first,
                                   limit, ncells, tt_a, tt_b, tt_w, tt_n, tt_m, stats, deadline, mbuf, sbuf,
                                   symtab, perm, inv, sym_n, killer):
                    ok = False
                    killer[level + 1] = y
                    break
        if stats[2] != 0:
            return False
        if ok:
            _tt_store(ka, kb, r, True, perm[sx, c], tt_a, tt_b, tt_w, tt_n, tt_m)
            return True
    _tt_store(ka, kb, r, False, perm[sx, mbuf[level, 0]] if k > 0 else -1, tt_a, tt_b, tt_w, tt_n, tt_m)
    return False


@njit(cache=True)
def move_wins_within(me, opp, c, r, level, pats, cell_pats, board, first, limit, ncells,
                     tt_a, tt_b, tt_w, tt_n, tt_m, stats, deadline, mbuf, sbuf, symtab, perm, inv, sym_n, killer):
    """True when the mover's move ``c`` (legal, assumed) forces a win within ``r`` plies."""
    bit = np.int64(1) << c
    me2 = me | bit
    if has_pattern(me2, pats):
        return r >= 1
    occ2 = me2 | opp
    empty2 = board & ~occ2
    if popcount(occ2) >= limit or empty2 == 0 or r < 3:
        return False
    if threats(opp, me2, pats) != 0:
        return False  # the defender completes a pattern at once
    at = threats(me2, opp, pats)
    cand = at if at != 0 else empty2
    if at & (at - 1):
        return popcount(occ2) + 2 <= limit
    for y in range(ncells):
        if (cand >> y) & 1:
            if not wins_within(me2, opp | (np.int64(1) << y), r - 2, level, pats, cell_pats, board, first, limit,
                               ncells, tt_a, tt_b, tt_w, tt_n, tt_m, stats, deadline, mbuf, sbuf, symtab, perm, inv,
                               sym_n, killer):
                return False
    return True
