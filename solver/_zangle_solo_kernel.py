"""Numba kernels of the Zangle solo solver: move generation, memoised DFS, random playouts.

Imported lazily (this module imports numba). A deal's cards are numbered: first the draw
sequence (initial middle, then the draw pile, next card first), then the tableau piles. A state
is the pile arrays (slot order kept, so lines name real piles), the middle as a bitmask over the
draw sequence, the number of cards drawn so far and the phase (0 play, 1 fill). Its memo key is
slot-free: (middle | remaining tableau cards, tableau tops, drawn + phase), which determines the
piles up to their order (a pile is an original prefix or a single moved card); the middle enters
it with same-shape cards merged (``_canonical_middle``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, objmode

from ._zangle_kernel import _search

MIDDLE = 3
K_ZANGLE, K_FILL, K_SKIP, K_DISCARD = 0, 1, 2, 3
CAP_UNKNOWN = -1


@njit(cache=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _gen(piles, hts, npiles, mid, drawn, nd, phase, sid, area, h, g, keys, ent_t, ent_p,
         fill_may, voluntary, zmin, mk, mv, buf_t, buf_m, vis_idx, vis_sid, vis_pl, dummy):
    """Distinct moves of a state into ``mk``/``mv`` (kind, value), best first; -1 on overflow.

    A Zangle's value is the bitmask of the deal cards it uses (two Zangles with the same cards
    lead to the same state); a fill's value is ``src * 64 + dst`` with ``dst`` the first empty pile.
    """
    n = 0
    if phase == 1:
        dst = -1
        for p in range(npiles):
            if hts[p] == 0:
                dst = p
                break
        for s in range(npiles):
            if hts[s] >= 2:
                mk[n] = K_FILL
                mv[n] = s * 64 + dst
                n += 1
        if fill_may:
            mk[n] = K_SKIP
            mv[n] = 0
            n += 1
        return n
    nv = 0
    nmid = 0
    for i in range(nd):
        if (mid >> i) & 1:
            vis_idx[nv] = i
            vis_sid[nv] = sid[i]
            vis_pl[nv] = 0
            nv += 1
            nmid += 1
    for p in range(npiles):
        if hts[p] > 0:
            c = piles[p, hts[p] - 1]
            vis_idx[nv] = c
            vis_sid[nv] = sid[c]
            vis_pl[nv] = 1
            nv += 1
    cnt = 0
    if nmid > 0 and nv > nmid:
        cnt, _b = _search(vis_sid[:nv], vis_pl[:nv], area, h, g, keys, ent_t, ent_p, buf_t, buf_m, 0,
                          -1, dummy, 0)
        if cnt > buf_t.shape[0]:
            return -1
    zall = 0
    for j in range(nv):
        if area[vis_sid[j]] == 0:
            zall |= 1 << j
    for r in range(cnt):
        t = buf_t[r]
        m = buf_m[r]
        sel = (1 << t) | m
        if zall != 0:
            if not zmin:
                sel |= zall
            else:
                has_mid = False
                has_own = False
                npc = 0
                for j in range(nv):
                    if (sel >> j) & 1:
                        if vis_pl[j] == 0:
                            has_mid = True
                        else:
                            has_own = True
                        if j != t:
                            npc += 1
                zsel = -1
                if not has_mid or not has_own:
                    want = 0 if not has_mid else 1
                    for j in range(nv):
                        if (zall >> j) & 1 and vis_pl[j] == want:
                            zsel = j
                            break
                elif npc == 1:
                    for j in range(nv):
                        if (zall >> j) & 1:
                            zsel = j
                            break
                if zsel >= 0:
                    sel |= 1 << zsel
        used = 0
        score = 0
        for j in range(nv):
            if (sel >> j) & 1:
                used |= 1 << vis_idx[j]
                score += 64 if vis_pl[j] == 1 else -1
        dup = False
        for q in range(n):
            if mv[q] == used:
                dup = True
                break
        if dup:
            continue
        if n >= mk.shape[0] - 1:
            return -1
        # insertion by score (most tableau cards, then fewest middle cards), stable
        q = n
        while q > 0 and _score_of(mv[q - 1], nd) < score:
            mk[q] = mk[q - 1]
            mv[q] = mv[q - 1]
            q -= 1
        mk[q] = K_ZANGLE
        mv[q] = used
        n += 1
    if drawn < nd and (n == 0 or voluntary):
        mk[n] = K_DISCARD
        mv[n] = 0
        n += 1
    return n


@njit(cache=True)
def _score_of(used, nd):
    s = 0
    x = used
    i = 0
    while x:
        if x & 1:
            s += 64 if i >= nd else -1
        x >>= 1
        i += 1
    return s


@njit(cache=True)
def _apply(piles, hts, npiles, mid, drawn, nd, kind, val):
    """Play one move on (piles, hts) in place; returns (mid, drawn, phase)."""
    phase = 0
    if kind == K_ZANGLE:
        mid &= ~val
        for p in range(npiles):
            if hts[p] > 0 and (val >> piles[p, hts[p] - 1]) & 1:
                hts[p] -= 1
        while _popcount(mid) < MIDDLE and drawn < nd:
            mid |= 1 << drawn
            drawn += 1
        if _fill_possible(hts, npiles):
            phase = 1
    elif kind == K_FILL:
        s = val // 64
        d = val % 64
        piles[d, 0] = piles[s, hts[s] - 1]
        hts[d] = 1
        hts[s] -= 1
        if _fill_possible(hts, npiles):
            phase = 1
    elif kind == K_DISCARD:
        mid = 0
        while _popcount(mid) < MIDDLE and drawn < nd:
            mid |= 1 << drawn
            drawn += 1
    return mid, drawn, phase


@njit(cache=True)
def _fill_possible(hts, npiles):
    empty = False
    src = False
    for p in range(npiles):
        if hts[p] == 0:
            empty = True
        elif hts[p] >= 2:
            src = True
    return empty and src


@njit(cache=True)
def _area_bound_fails(piles, hts, npiles, mid, drawn, nd, sid, area):
    """Sound cut. Charge each Zangle to one middle card c it spends (every Zangle spends one).
    Its target is a card still in play, so it has at most amax triangles (the largest card left
    in the tableau or the middle supply). If c is a piece, the Zangle clears at most
    2 * amax - area(c) tableau triangles; if c is the target, at most area(c) <= that. So the
    tableau's triangles must fit in the sum of 2 * amax - area(c) over the middle cards left."""
    tab = 0
    amax = 0
    for p in range(npiles):
        for k in range(hts[p]):
            a = area[sid[piles[p, k]]]
            tab += a
            if a > amax:
                amax = a
    for i in range(nd):
        if i >= drawn or (mid >> i) & 1:
            a = area[sid[i]]
            if a > amax:
                amax = a
    budget = 0
    for i in range(nd):
        if i >= drawn or (mid >> i) & 1:
            budget += 2 * amax - area[sid[i]]
    return tab > budget


@njit(cache=True)
def _canonical_middle(mid, drawn, sid):
    """The middle with same-shape cards merged: for each shape held c times, the first c cards
    of that shape in the draw sequence. Cards of one shape are interchangeable and the draw
    pile's future is fixed by ``drawn``, so states differing only in which copies lie in the
    middle have the same value and the same number of winning lines (renaming is a bijection)."""
    cmid = 0
    for i in range(drawn):
        if (mid >> i) & 1:
            for j in range(drawn):
                if sid[j] == sid[i] and not (cmid >> j) & 1:
                    cmid |= 1 << j
                    break
    return cmid


@njit(cache=True)
def _key(piles, hts, npiles, mid, drawn, phase, sid):
    """Memo key (k1, k2, k3) with interchangeable cards merged.

    k1: the canonical middle and the cards of piles of height >= 2 (always an original prefix);
    k2: the single-card piles (an original first card or a moved card) as a multiset of shapes,
    encoded like the middle by the first cards of each shape; k3: drawn and phase.
    """
    present = _canonical_middle(mid, drawn, sid)
    singles = 0
    ncards = sid.shape[0]
    for p in range(npiles):
        hp = hts[p]
        if hp >= 2:
            for k in range(hp):
                present |= 1 << piles[p, k]
        elif hp == 1:
            s = sid[piles[p, 0]]
            for j in range(ncards):
                if sid[j] == s and not (singles >> j) & 1:
                    singles |= 1 << j
                    break
    return present, singles, drawn * 2 + phase


@njit(cache=True)
def _slot(k1, k2, k3, size):
    x = (k1 * np.int64(-7046029254386353131)) ^ (k2 * np.int64(-4658895280553007687)) ^ (k3 * 1442695040888963407)
    x ^= x >> 29
    return x & (size - 1)


@njit(cache=True)
def _memo_get(tk, tv, k1, k2, k3):
    size = tv.shape[0]
    s = _slot(k1, k2, k3, size)
    while True:
        if tk[s, 2] == -1:
            return -1
        if tk[s, 0] == k1 and tk[s, 1] == k2 and tk[s, 2] == k3:
            return tv[s]
        s = (s + 1) & (size - 1)


@njit(cache=True)
def _grow(tk, tv):
    """The memo at twice the size (entries re-inserted)."""
    size = tv.shape[0] * 2
    nk = np.full((size, 3), -1, np.int64)
    nvv = np.zeros(size, np.int64)
    for i in range(tv.shape[0]):
        if tk[i, 2] != -1:
            _memo_put(nk, nvv, tk[i, 0], tk[i, 1], tk[i, 2], tv[i], 0)
    return nk, nvv


@njit(cache=True)
def _memo_put(tk, tv, k1, k2, k3, v, filled):
    size = tv.shape[0]
    if filled * 4 >= size * 3:
        return filled  # full enough: stop storing (sound, only slower)
    s = _slot(k1, k2, k3, size)
    while True:
        if tk[s, 2] == -1:
            tk[s, 0] = k1
            tk[s, 1] = k2
            tk[s, 2] = k3
            tv[s] = v
            return filled + 1
        if tk[s, 0] == k1 and tk[s, 1] == k2 and tk[s, 2] == k3:
            tv[s] = v
            return filled
        s = (s + 1) & (size - 1)


@njit(cache=True)
def solve_kernel(piles0, hts0, nd, m0, sid, area, h, g, keys, ent_t, ent_p, fill_may, voluntary, zmin,
                 count_mode, cap, max_nodes, deadline, max_memo, line_k, line_v, stats):
    """Depth-first search with a memo of finished states.

    Returns the number of winning lines from the start (capped at ``cap``; in first-solution mode
    0 or 1), or -1 when a limit was hit. ``stats`` gets [states, line length, reason] where
    reason is 0 done, 1 node limit, 2 time limit, 3 move buffer overflow.
    """
    npiles, hmax = piles0.shape
    depth_max = nd * (npiles + 3) + 8
    nv_max = MIDDLE + npiles
    mmax = (1 << nv_max) + 2
    tk = np.full((1 << 12, 3), -1, np.int64)
    tv = np.zeros(1 << 12, np.int64)
    P = np.zeros((depth_max + 1, npiles, hmax), np.int64)
    H = np.zeros((depth_max + 1, npiles), np.int64)
    MID = np.zeros(depth_max + 1, np.int64)
    DR = np.zeros(depth_max + 1, np.int64)
    PH = np.zeros(depth_max + 1, np.int64)
    MK = np.zeros((depth_max + 1, mmax), np.int64)
    MV = np.zeros((depth_max + 1, mmax), np.int64)
    NM = np.zeros(depth_max + 1, np.int64)
    IX = np.zeros(depth_max + 1, np.int64)
    ACC = np.zeros(depth_max + 1, np.int64)
    KEY = np.zeros((depth_max + 1, 3), np.int64)
    buf_t = np.empty(nv_max << nv_max, np.int64)
    buf_m = np.empty(nv_max << nv_max, np.int64)
    vis_idx = np.empty(nv_max, np.int64)
    vis_sid = np.empty(nv_max, np.int64)
    vis_pl = np.empty(nv_max, np.int64)
    dummy = np.empty(0, np.int64)
    P[0] = piles0
    H[0] = hts0
    mid0 = 0
    for i in range(m0):
        mid0 |= 1 << i
    MID[0] = mid0
    DR[0] = m0
    PH[0] = 0
    nodes = 0
    filled = 0
    stats[1] = 0
    stats[2] = 0
    # evaluate the root
    left = 0
    for p in range(npiles):
        left += H[0, p]
    if left == 0:
        stats[0] = 1
        return 1
    n = _gen(P[0], H[0], npiles, MID[0], DR[0], nd, PH[0], sid, area, h, g, keys, ent_t, ent_p,
             fill_may, voluntary, zmin, MK[0], MV[0], buf_t, buf_m, vis_idx, vis_sid, vis_pl, dummy)
    nodes = 1
    if n < 0:
        stats[0] = nodes
        stats[2] = 3
        return -1
    if n == 0:
        stats[0] = nodes
        return 0
    NM[0] = n
    IX[0] = 0
    ACC[0] = 0
    k1, k2, k3 = _key(P[0], H[0], npiles, MID[0], DR[0], PH[0], sid)
    KEY[0, 0] = k1
    KEY[0, 1] = k2
    KEY[0, 2] = k3
    d = 0
    while True:
        i = IX[d]
        done = i >= NM[d] or ACC[d] >= cap or (count_mode == 0 and ACC[d] > 0)
        if not done:
            IX[d] = i + 1
            c = d + 1
            P[c] = P[d]
            H[c] = H[d]
            mid, dr, ph = _apply(P[c], H[c], npiles, MID[d], DR[d], nd, MK[d, i], MV[d, i])
            MID[c] = mid
            DR[c] = dr
            PH[c] = ph
            left = 0
            for p in range(npiles):
                left += H[c, p]
            v = -1
            if left == 0:
                v = 1
            else:
                k1, k2, k3 = _key(P[c], H[c], npiles, mid, dr, ph, sid)
                v = _memo_get(tk, tv, k1, k2, k3)
                if v < 0 and _area_bound_fails(P[c], H[c], npiles, mid, dr, nd, sid, area):
                    v = 0
                if v < 0:
                    nodes += 1
                    if nodes > max_nodes:
                        stats[0] = nodes
                        stats[2] = 1
                        return -1
                    if (nodes & 4095) == 0 and deadline > 0:
                        with objmode(now="float64"):
                            now = _now()
                        if now > deadline:
                            stats[0] = nodes
                            stats[2] = 2
                            return -1
                    n = _gen(P[c], H[c], npiles, mid, dr, nd, ph, sid, area, h, g, keys, ent_t, ent_p,
                             fill_may, voluntary, zmin, MK[c], MV[c], buf_t, buf_m, vis_idx, vis_sid,
                             vis_pl, dummy)
                    if n < 0:
                        stats[0] = nodes
                        stats[2] = 3
                        return -1
                    if n == 0:
                        v = 0
                        filled = _memo_put(tk, tv, k1, k2, k3, 0, filled)
                        if filled * 4 >= tv.shape[0] * 3 and tv.shape[0] < max_memo:
                            tk, tv = _grow(tk, tv)
                    else:
                        NM[c] = n
                        IX[c] = 0
                        ACC[c] = 0
                        KEY[c, 0] = k1
                        KEY[c, 1] = k2
                        KEY[c, 2] = k3
            if v >= 0:
                if v > 0 and stats[1] == 0:
                    for q in range(c):
                        line_k[q] = MK[q, IX[q] - 1]
                        line_v[q] = MV[q, IX[q] - 1]
                    stats[1] = c
                ACC[d] = min(cap, ACC[d] + v)
            else:
                d = c
        else:
            v = ACC[d]
            if count_mode == 1 or v == 0:
                filled = _memo_put(tk, tv, KEY[d, 0], KEY[d, 1], KEY[d, 2], v, filled)
                if filled * 4 >= tv.shape[0] * 3 and tv.shape[0] < max_memo:
                    tk, tv = _grow(tk, tv)
            if d == 0:
                stats[0] = nodes
                return v
            d -= 1
            ACC[d] = min(cap, ACC[d] + v)


def _now() -> float:
    import time

    return time.perf_counter()


@njit(cache=True)
def playout_kernel(piles0, hts0, nd, m0, sid, area, h, g, keys, ent_t, ent_p, fill_may, voluntary, zmin,
                   n_games, seed):
    """Wins out of ``n_games`` playouts that pick uniformly among the distinct moves."""
    np.random.seed(seed)
    npiles, hmax = piles0.shape
    nv_max = MIDDLE + npiles
    mmax = (1 << nv_max) + 2
    mk = np.zeros(mmax, np.int64)
    mv = np.zeros(mmax, np.int64)
    buf_t = np.empty(nv_max << nv_max, np.int64)
    buf_m = np.empty(nv_max << nv_max, np.int64)
    vis_idx = np.empty(nv_max, np.int64)
    vis_sid = np.empty(nv_max, np.int64)
    vis_pl = np.empty(nv_max, np.int64)
    dummy = np.empty(0, np.int64)
    wins = 0
    mid0 = 0
    for i in range(m0):
        mid0 |= 1 << i
    piles = np.empty_like(piles0)
    hts = np.empty_like(hts0)
    for _ in range(n_games):
        piles[:] = piles0
        hts[:] = hts0
        mid = mid0
        dr = m0
        ph = 0
        while True:
            left = 0
            for p in range(npiles):
                left += hts[p]
            if left == 0:
                wins += 1
                break
            n = _gen(piles, hts, npiles, mid, dr, nd, ph, sid, area, h, g, keys, ent_t, ent_p, fill_may,
                     voluntary, zmin, mk, mv, buf_t, buf_m, vis_idx, vis_sid, vis_pl, dummy)
            if n <= 0:
                break
            j = np.random.randint(0, n)
            mid, dr, ph = _apply(piles, hts, npiles, mid, dr, nd, mk[j], mv[j])
    return wins
