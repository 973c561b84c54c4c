"""Numba kernel of the exact duel solver (the algorithm of ``duel_exact``, floats).

The whole search state lives in arrays owned by :class:`KernelSolver`, so the kernel runs for a
budget of expansions, returns, and is called again: the caller checks its time limit between
calls, grows the transposition table or the node arena when the kernel asks for it, and keeps
everything solved (the table is the memo of every later call too).

Table slot: ``tab_a``/``tab_b`` the key words (``tab_b`` = -1 when empty), ``tab_st`` 1 solved
/ 2 in the level being solved (``tab_aux`` then holds its arena index), ``tab_v`` the value for
the player to move, ``tab_layer``, ``tab_plies`` (-1 unless the value is +1 / -1) and
``tab_comp`` (the level solve that decided it).

Frames: one per level being solved, nested by recursion into later levels: ``fr_start`` (its
first arena node), ``fr_node`` / ``fr_act`` (the scan cursor: node and action). A frame scans
its nodes in order, appending unseen in-level children to the arena; an unsolved child in a
later level (or a chance outcome) pushes a new frame and the scan resumes at the same action
when it is solved. When the scan is through, the level's edges and exits are built and the
retrograde analysis (thresholds, layers, plies) stores the values.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ... import numba_cache  # noqa: F401  (its cache locator, before the kernels below are defined)
from .duel_exact import expand as _expand_py

expand = njit(cache=True, nogil=True)(_expand_py)

DONE, PAUSED, TABLE_FULL, ARENA_FULL, FRAMES_FULL = 0, 1, 2, 3, 4
EMPTY_B = -1


@njit(cache=True, nogil=True, inline="always")
def _hash(a, b, mask):
    h = (a * 0x9E3779B97F4A7C15) ^ (b * 0xC2B2AE3D27D4EB4F)
    h ^= (h >> 29) & 0x7FFFFFFFF
    return h & mask


@njit(cache=True, nogil=True)
def find_slot(tab_a, tab_b, a, b):
    """The slot of key (a, b), or of the empty slot where it would go."""
    mask = len(tab_b) - 1
    s = _hash(a, b, mask)
    while True:
        if tab_b[s] == EMPTY_B or (tab_b[s] == b and tab_a[s] == a):
            return s
        s = (s + 1) & mask


@njit(cache=True, nogil=True, inline="always")
def _reveal(a, b, d, k):
    """The position after the dark card at ``d`` is lit and shows kind ``k`` (one of that kind
    fewer unseen)."""
    return (a & ~(7 << (3 * d))) | ((k + 3) << (3 * d)), b - (1 << (4 * k))


@njit(cache=True, nogil=True)
def _chance(tab_a, tab_b, tab_v, tab_plies, a, b, d):
    """A lighting's chance node from its solved outcomes: the mover's value (the average of the
    outcomes' values, weighted by the unseen counts, from the other side) and its plies to the end
    (the longest outcome's plus one, when the value is decided; else -1)."""
    tot = 0.0
    num = 0
    pm = 0
    for k in range(5):
        c = (b >> (4 * k)) & 15
        if c == 0:
            continue
        a2, b2 = _reveal(a, b, d, k)
        s = find_slot(tab_a, tab_b, a2, b2)
        tot += c * tab_v[s]
        num += c
        if pm >= 0 and tab_plies[s] >= 0:
            pm = max(pm, tab_plies[s])
        else:
            pm = -1
    v = -(tot / num)
    return v, (pm + 1 if pm >= 0 and (v == 1.0 or v == -1.0) else -1)


@njit(cache=True, nogil=True)
def rehash(tab_a, tab_b, tab_st, tab_v, tab_layer, tab_plies, tab_comp, tab_aux,
           na, nb, nst, nv, nlayer, nplies, ncomp, naux, solved_only=False):
    """Copy every entry (``solved_only``: only solved ones) into the new arrays; returns how many."""
    kept = 0
    for s in range(len(tab_b)):
        if tab_b[s] != EMPTY_B and (not solved_only or tab_st[s] == 1):
            kept += 1
            t = find_slot(na, nb, tab_a[s], tab_b[s])
            na[t] = tab_a[s]
            nb[t] = tab_b[s]
            nst[t] = tab_st[s]
            nv[t] = tab_v[s]
            nlayer[t] = tab_layer[s]
            nplies[t] = tab_plies[s]
            ncomp[t] = tab_comp[s]
            naux[t] = tab_aux[s]
    return kept


@njit(cache=True, nogil=True)
def run(tab_a, tab_b, tab_st, tab_v, tab_layer, tab_plies, tab_comp, tab_aux, meta,
        ar_a, ar_b, fr_start, fr_node, fr_act,
        nb4, nb8, kn, kra, krb, ray, literal, horse_both, budget):
    """Run the frames for ``budget`` expansions. ``meta``: [entries in the table, arena top,
    frames, components solved, expansions in all]. Returns DONE, PAUSED or a *_FULL code."""
    act = np.empty(128, np.int64)
    typ = np.empty(128, np.int64)
    ca = np.empty(128, np.int64)
    cb = np.empty(128, np.int64)
    cd = np.empty(128, np.int64)
    cap = len(tab_b)
    work = 0
    while True:
        nf = meta[2]
        if nf == 0:
            return DONE
        if work >= budget:
            return PAUSED
        if meta[0] + 2000 > cap * 3 // 4:
            return TABLE_FULL
        if meta[1] + 2000 > len(ar_a):
            return ARENA_FULL
        if nf + 2 > len(fr_start):
            return FRAMES_FULL
        f = nf - 1
        i = fr_node[f]
        if i < meta[1]:
            # scan node i from action fr_act[f]
            work += 1
            n = expand(ar_a[i], ar_b[i], nb4, nb8, kn, kra, krb, ray, literal, horse_both, act, typ, ca, cb, cd)
            pushed = False
            for j in range(n):  # an immediate win decides the node: nothing else to solve
                if typ[j] == 0:
                    n = 0
                    break
            for j in range(fr_act[f], n):
                t = typ[j]
                if t == 0:
                    continue
                if t == 3:
                    d = cd[j]
                    for k in range(5):
                        c = (cb[j] >> (4 * k)) & 15
                        if c == 0:
                            continue
                        a2, b2 = _reveal(ca[j], cb[j], d, k)
                        s = find_slot(tab_a, tab_b, a2, b2)
                        if tab_b[s] == EMPTY_B:
                            _push(tab_a, tab_b, tab_st, tab_aux, meta, ar_a, ar_b, fr_start, fr_node, fr_act, s, a2, b2)
                            pushed = True
                            break
                    if pushed:
                        fr_act[f] = j
                        break
                    continue
                s = find_slot(tab_a, tab_b, ca[j], cb[j])
                if tab_b[s] != EMPTY_B:
                    continue
                if t == 1:  # a new node of this level
                    tab_a[s] = ca[j]
                    tab_b[s] = cb[j]
                    tab_st[s] = 2
                    tab_aux[s] = meta[1]
                    ar_a[meta[1]] = ca[j]
                    ar_b[meta[1]] = cb[j]
                    meta[1] += 1
                    meta[0] += 1
                else:  # a later level: solve it first
                    _push(tab_a, tab_b, tab_st, tab_aux, meta, ar_a, ar_b, fr_start, fr_node, fr_act, s, ca[j], cb[j])
                    fr_act[f] = j
                    pushed = True
                    break
            if not pushed:
                fr_node[f] = i + 1
                fr_act[f] = 0
            continue
        # every node scanned, every exit solved: the level's retrograde analysis
        meta[3] += 1
        _finish(tab_a, tab_b, tab_st, tab_v, tab_layer, tab_plies, tab_comp, tab_aux, ar_a, ar_b,
                fr_start[f], meta[1], meta[3], nb4, nb8, kn, kra, krb, ray, literal, horse_both, act, typ, ca, cb, cd)
        meta[4] += meta[1] - fr_start[f]
        meta[1] = fr_start[f]
        meta[2] = nf - 1


@njit(cache=True, nogil=True)
def _push(tab_a, tab_b, tab_st, tab_aux, meta, ar_a, ar_b, fr_start, fr_node, fr_act, s, a, b):
    tab_a[s] = a
    tab_b[s] = b
    tab_st[s] = 2
    top = meta[1]
    tab_aux[s] = top
    ar_a[top] = a
    ar_b[top] = b
    meta[1] = top + 1
    meta[0] += 1
    nf = meta[2]
    fr_start[nf] = top
    fr_node[nf] = top
    fr_act[nf] = 0
    meta[2] = nf + 1


@njit(cache=True, nogil=True)
def _finish(tab_a, tab_b, tab_st, tab_v, tab_layer, tab_plies, tab_comp, tab_aux, ar_a, ar_b,
            start, end, comp, nb4, nb8, kn, kra, krb, ray, literal, horse_both, act, typ, ca, cb, cd):
    m = end - start
    NEG = -1e300
    best = np.full(m, NEG)
    winp = np.full(m, 1 << 40, np.int64)  # fewest plies of an exit worth +1
    lossp = np.zeros(m, np.int64)  # most plies of an exit worth -1
    deg = np.zeros(m + 1, np.int64)
    esrc = np.empty(m * 16 + 16, np.int64)
    edst = np.empty(m * 16 + 16, np.int64)
    ne = 0
    for i in range(m):
        n = expand(ar_a[start + i], ar_b[start + i], nb4, nb8, kn, kra, krb, ray, literal, horse_both,
                   act, typ, ca, cb, cd)
        if n == 0:
            best[i] = -1.0
            lossp[i] = 0
            continue
        won = False
        for j in range(n):
            if typ[j] == 0:
                won = True
                break
        if won:  # the fastest win is this one ply; the other actions were not explored
            best[i] = 1.0
            winp[i] = 1
            continue
        for j in range(n):
            t = typ[j]
            v = 0.0
            p = -1
            if t == 0:
                v = 1.0
                p = 1
            elif t == 3:
                v, p = _chance(tab_a, tab_b, tab_v, tab_plies, ca[j], cb[j], cd[j])
            else:
                s = find_slot(tab_a, tab_b, ca[j], cb[j])
                if tab_st[s] == 2:  # an edge inside the level
                    if ne == len(esrc):
                        esrc2 = np.empty(2 * ne, np.int64)
                        edst2 = np.empty(2 * ne, np.int64)
                        esrc2[:ne] = esrc
                        edst2[:ne] = edst
                        esrc = esrc2
                        edst = edst2
                    esrc[ne] = i
                    edst[ne] = tab_aux[s] - start
                    ne += 1
                    continue
                v = -tab_v[s]
                p = tab_plies[s] + 1 if tab_plies[s] >= 0 else -1
            if v > best[i]:
                best[i] = v
            if v == 1.0 and p >= 0 and p < winp[i]:
                winp[i] = p
            if v == -1.0 and p > lossp[i]:
                lossp[i] = p
    # edges as CSR, successors and predecessors (duplicates removed by sorting)
    order = np.argsort(esrc[:ne] * (m + 1) + edst[:ne])
    us = np.empty(ne, np.int64)
    ud = np.empty(ne, np.int64)
    nu = 0
    for q in range(ne):
        e = order[q]
        if nu > 0 and us[nu - 1] == esrc[e] and ud[nu - 1] == edst[e]:
            continue
        us[nu] = esrc[e]
        ud[nu] = edst[e]
        nu += 1
    cnt = np.zeros(m, np.int64)
    pdeg = np.zeros(m + 1, np.int64)
    for q in range(nu):
        cnt[us[q]] += 1
        pdeg[ud[q] + 1] += 1
    for i in range(m):
        pdeg[i + 1] += pdeg[i]
    pred = np.empty(nu, np.int64)
    fill = pdeg[:m].copy()
    for q in range(nu):
        pred[fill[ud[q]]] = us[q]
        fill[ud[q]] += 1
    # thresholds: absolute exit values, descending
    val = np.zeros(m)
    dec = np.zeros(m, np.bool_)
    layer = np.zeros(m, np.int64)
    absb = np.empty(m)
    for i in range(m):
        absb[i] = abs(best[i]) if best[i] > NEG else 0.0
    byt = np.argsort(-absb)
    q = np.empty(m, np.int64)
    g = 0
    while g < m:
        t = absb[byt[g]]
        if t == 0.0:
            break
        h = g
        while h < m and absb[byt[h]] == t:
            h += 1
        qh = 0
        qt = 0
        for r in range(g, h):
            i = byt[r]
            if dec[i]:
                continue
            if best[i] == t or (best[i] == -t and cnt[i] == 0):
                dec[i] = True
                val[i] = best[i]
                q[qt] = i
                qt += 1
        while qh < qt:
            c = q[qh]
            qh += 1
            if val[c] > 0:
                for r in range(pdeg[c], pdeg[c + 1]):
                    p = pred[r]
                    cnt[p] -= 1
                    if not dec[p] and cnt[p] == 0 and best[p] <= -t:
                        dec[p] = True
                        val[p] = -t
                        layer[p] = layer[c] + 1
                        q[qt] = p
                        qt += 1
            else:
                for r in range(pdeg[c], pdeg[c + 1]):
                    p = pred[r]
                    if not dec[p]:
                        dec[p] = True
                        val[p] = t
                        layer[p] = layer[c] + 1
                        q[qt] = p
                        qt += 1
        g = h
    # plies to the end of won / lost nodes (Dijkstra with a binary heap)
    INF = 1 << 40
    final = np.full(m, -1, np.int64)
    tent = np.full(m, INF, np.int64)
    lcnt = np.zeros(m, np.int64)
    hk = np.empty(m + nu + 1, np.int64)
    hv = np.empty(m + nu + 1, np.int64)
    hn = 0
    for i in range(m):
        if val[i] == 1.0:
            tent[i] = winp[i]
            if tent[i] < INF:
                hn = _hpush(hk, hv, hn, tent[i], i)
        elif val[i] == -1.0:
            tent[i] = lossp[i]
    # successor counts of lost nodes (all in-level successors)
    for i in range(m):
        deg[i] = 0
    for r in range(nu):
        deg[us[r]] += 1
    for i in range(m):
        if val[i] == -1.0:
            lcnt[i] = deg[i]
            if lcnt[i] == 0:
                hn = _hpush(hk, hv, hn, tent[i], i)
    while hn > 0:
        d = hk[0]
        i = hv[0]
        hn = _hpop(hk, hv, hn)
        if final[i] >= 0:
            continue
        final[i] = d
        for r in range(pdeg[i], pdeg[i + 1]):
            p = pred[r]
            if final[p] >= 0:
                continue
            if val[p] == 1.0 and val[i] == -1.0:
                if d + 1 < tent[p]:
                    tent[p] = d + 1
                    hn = _hpush(hk, hv, hn, d + 1, p)
            elif val[p] == -1.0 and val[i] == 1.0:
                lcnt[p] -= 1
                if d + 1 > tent[p]:
                    tent[p] = d + 1
                if lcnt[p] == 0:
                    hn = _hpush(hk, hv, hn, tent[p], p)
    for i in range(m):
        s = find_slot(tab_a, tab_b, ar_a[start + i], ar_b[start + i])
        tab_st[s] = 1
        tab_v[s] = val[i]
        tab_layer[s] = layer[i]
        tab_plies[s] = final[i]
        tab_comp[s] = comp
        tab_aux[s] = 0


@njit(cache=True, nogil=True)
def _hpush(hk, hv, hn, k, v):
    if hn == len(hk):  # cannot happen: at most one push per node and per edge
        return hn
    i = hn
    hk[i] = k
    hv[i] = v
    while i > 0:
        p = (i - 1) >> 1
        if hk[p] <= hk[i]:
            break
        hk[p], hk[i] = hk[i], hk[p]
        hv[p], hv[i] = hv[i], hv[p]
        i = p
    return hn + 1


@njit(cache=True, nogil=True)
def _hpop(hk, hv, hn):
    hn -= 1
    hk[0] = hk[hn]
    hv[0] = hv[hn]
    i = 0
    while True:
        l = 2 * i + 1
        if l >= hn:
            break
        c = l
        if l + 1 < hn and hk[l + 1] < hk[l]:
            c = l + 1
        if hk[i] <= hk[c]:
            break
        hk[c], hk[i] = hk[i], hk[c]
        hv[c], hv[i] = hv[i], hv[c]
        i = c
    return hn


@njit(cache=True, nogil=True)
def action_values(tab_a, tab_b, tab_v, tab_layer, tab_plies, tab_comp, a0, b0,
                  nb4, nb8, kn, kra, krb, ray, literal, horse_both, out_act, out_v, out_p, out_kind, out_rank):
    """The value for the mover of every legal action of a solved position (children solved):
    ``out_kind`` 0 win, 1 in-level, 2 later level, 3 chance; ``out_rank`` = comp * 2^32 +
    layer of an in-level child (for the layer rule), else -1."""
    typ = np.empty(128, np.int64)
    ca = np.empty(128, np.int64)
    cb = np.empty(128, np.int64)
    cd = np.empty(128, np.int64)
    n = expand(a0, b0, nb4, nb8, kn, kra, krb, ray, literal, horse_both, out_act, typ, ca, cb, cd)
    for j in range(n):
        t = typ[j]
        out_kind[j] = t
        out_rank[j] = -1
        if t == 0:
            out_v[j] = 1.0
            out_p[j] = 1
        elif t == 3:
            v, p = _chance(tab_a, tab_b, tab_v, tab_plies, ca[j], cb[j], cd[j])
            out_v[j] = v
            out_p[j] = p
        else:
            s = find_slot(tab_a, tab_b, ca[j], cb[j])
            out_v[j] = -tab_v[s]
            out_p[j] = tab_plies[s] + 1 if tab_plies[s] >= 0 else -1
            if t == 1:
                out_rank[j] = tab_comp[s] * (1 << 32) + tab_layer[s]
    return n
