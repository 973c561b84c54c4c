"""Numba kernels of the Tanglung solo solver (compiled lazily, cached on disk)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _bound(nl, p, full, cov, outmask, level, pop):
    """Admissible, consistent lower bound on the moves left: the dark cards, plus 1 (level 2)
    when some dark card has no move into it from a dark card or the current cell (it must then
    be entered from a lit card, which first takes a move onto a lit card). ``cov[D]`` is the
    set of cells some card of D can move to."""
    dark = full & ~nl
    h = pop[dark]
    if level >= 2 and (dark & ~(cov[dark] | outmask[p])) != 0:
        h += 1
    return h


@njit(cache=True)
def solo_search(adj, adjn, noflip, n, start, lit0, use_h, dist, cnt, parent, touched,
                bstate, bnext, bhead, path, stats, fmax, pop, cov):
    """Layered best-first search over pos << 16 | lit states (see tanglung_solo).

    use_h: 0 plain BFS, 1 bound = dark cards, 2 dark cards + dead-end term. ``pop`` is a
    16-bit popcount table; ``cov`` (65536 entries) is filled here: cov[D] = cells reachable
    in one move from some cell of D.
    Writes stats = (moves or -1, optimal tours, expanded, touched) and the tour into path.
    Resets dist and bhead before returning; returns 0, or -2 when out of bucket space.
    """
    full = (1 << n) - 1
    cap = bstate.shape[0]
    outmask = np.zeros(16, dtype=np.int64)
    for a in range(n):
        for j in range(adjn[a]):
            outmask[a] |= 1 << adj[a, j]
    if use_h >= 2:
        cov[0] = 0
        for b in range(16):
            lo = 1 << b
            for d in range(lo, lo << 1):
                cov[d] = cov[d - lo] | outmask[b]
    s0 = (start << 16) | lit0
    dist[s0] = 0
    cnt[s0] = 1
    parent[s0] = -1
    touched[0] = s0
    ntouched = 1
    npush = 0
    pending = 0
    expanded = 0
    status = 0
    h0 = _bound(lit0, start, full, cov, outmask, use_h, pop) if use_h > 0 else 0
    moves = -1
    tours = 0
    goal = -1
    if lit0 == full:
        moves = 0
        tours = 1
        goal = s0
    else:
        bstate[0] = s0
        bnext[0] = -1
        bhead[h0 * fmax + 0] = 0
        npush = 1
        pending = 1
        for F in range(h0, fmax):
            if pending == 0:
                break
            last_g = F if use_h == 0 else F - 1
            for g in range(0, last_g + 1):
                if g == F:
                    # plain BFS: goals at depth F are final before expanding depth F
                    for p in range(n):
                        gs = (p << 16) | full
                        if dist[gs] == F:
                            if goal < 0:
                                goal = gs
                            tours += cnt[gs]
                    if goal >= 0:
                        moves = F
                        break
                k = bhead[F * fmax + g]
                bhead[F * fmax + g] = -1
                while k >= 0:
                    st = bstate[k]
                    k = bnext[k]
                    pending -= 1
                    if dist[st] != g:
                        continue
                    if (st & 0xFFFF) == full:
                        continue
                    expanded += 1
                    p = st >> 16
                    lit = st & 0xFFFF
                    c = cnt[st]
                    ng = g + 1
                    for j in range(adjn[p]):
                        q = adj[p, j]
                        if (lit >> q) & 1:
                            if (noflip >> p) & 1:
                                nl = lit
                            else:
                                nl = lit & ~(1 << p)
                        else:
                            nl = lit | (1 << q)
                        ns = (q << 16) | nl
                        d = dist[ns]
                        if d == -1 or ng < d:
                            if d == -1:
                                touched[ntouched] = ns
                                ntouched += 1
                            dist[ns] = ng
                            cnt[ns] = c
                            parent[ns] = st
                            if use_h == 0:
                                nf = ng
                            elif use_h == 1 or nl == full:
                                nf = ng + pop[full & ~nl]
                            else:
                                nf = ng + _bound(nl, q, full, cov, outmask, use_h, pop)
                            if nf >= fmax or npush >= cap:
                                status = -2
                                break
                            bstate[npush] = ns
                            bnext[npush] = bhead[nf * fmax + ng]
                            bhead[nf * fmax + ng] = npush
                            npush += 1
                            pending += 1
                        elif ng == d:
                            cnt[ns] += c
                    if status != 0:
                        break
                if status != 0 or goal >= 0:
                    break
            if status != 0 or goal >= 0:
                break
            if use_h > 0:
                for p in range(n):
                    gs = (p << 16) | full
                    if dist[gs] == F:
                        if goal < 0:
                            goal = gs
                        tours += cnt[gs]
                if goal >= 0:
                    moves = F
                    break
    if goal >= 0 and status == 0:
        # walk parents back from the goal
        s = goal
        for i in range(moves, -1, -1):
            path[i] = s >> 16
            s = parent[s]
    stats[0] = moves if status == 0 else -1
    stats[1] = tours
    stats[2] = expanded
    stats[3] = ntouched
    for i in range(ntouched):
        dist[touched[i]] = -1
    for i in range(bhead.shape[0]):
        bhead[i] = -1
    return status


# --- census batch path ----------------------------------------------------------------------
# Kept in this file so numba's on-disk cache of the census kernel is invalidated together with
# solo_search, which it calls for the layouts that have no no-revisit tour.
from numba.cpython.unsafe.numbers import trailing_zeros  # noqa: E402


@njit(cache=True)
def _multinomial(counts, fact):
    """(sum counts)! / prod(counts!) for small counts (factorials from ``fact``)."""
    tot = 0
    for j in range(counts.shape[0]):
        tot += counts[j]
    out = fact[tot]
    for j in range(counts.shape[0]):
        out //= fact[counts[j]]
    return out


@njit(cache=True)
def unrank_lanterns(rank, counts0, fact, seq):
    """The ``rank``-th lexicographic arrangement of the lantern multiset (kind indices) into
    ``seq``; the same order as layout.unrank_standard_layout."""
    counts = counts0.copy()
    nk = counts.shape[0]
    for i in range(seq.shape[0]):
        for j in range(nk):
            if counts[j] == 0:
                continue
            counts[j] -= 1
            block = _multinomial(counts, fact)
            if rank < block:
                seq[i] = j
                break
            rank -= block
            counts[j] += 1


@njit(cache=True)
def next_lanterns(seq):
    """Advance ``seq`` to the next lexicographic multiset permutation in place (rank + 1);
    returns False (and leaves seq unchanged) at the last one."""
    n = seq.shape[0]
    i = n - 2
    while i >= 0 and seq[i] >= seq[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = n - 1
    while seq[j] <= seq[i]:
        j -= 1
    t = seq[i]
    seq[i] = seq[j]
    seq[j] = t
    a = i + 1
    b = n - 1
    while a < b:
        t = seq[a]
        seq[a] = seq[b]
        seq[b] = t
        a += 1
        b -= 1
    return True


@njit(cache=True)
def is_canonical(cells, order, inv_syms):
    """True when no image of ``cells`` (kind indices) under the permutations whose inverses
    are the rows of ``inv_syms`` is smaller as text (letters compared by ``order``): the rule of
    Layout.canonical, where image cell j holds the card of cell inv[j]."""
    for k in range(inv_syms.shape[0]):
        for j in range(16):
            a = order[cells[inv_syms[k, j]]]
            b = order[cells[j]]
            if a < b:
                return False
            if a > b:
                break
    return True


@njit(cache=True)
def reach_mask(outmask, start):
    """Cells reachable from ``start`` in one or more moves."""
    r = outmask[start]
    while True:
        nr = r
        t = r
        while t:
            q = trailing_zeros(t)
            t &= t - 1
            nr |= outmask[q]
        if nr == r:
            return r
        r = nr


@njit(cache=True)
def count_no_revisit(outmask, start, lit0, cnt, flag, cov):
    """Number of tours from ``start`` that only ever move onto dark cards and light them all
    (the optimal tours when fewest moves = dark cards): a DP over (visited set, position) in
    increasing order of the set. States from which some dark card can no longer be entered
    (from the cards still dark or the current cell) are dropped. ``cnt`` (2^20 int64) and
    ``flag`` (2^16 int32) must be zero and are left zero; ``cov`` (2^16) is scratch.
    Dark cells forming a contiguous bit run are packed into a small index."""
    dark = 0xFFFF & ~lit0
    if dark == 0:
        return 1
    sh = trailing_zeros(dark)
    k = 0
    t = dark
    while t:
        k += 1
        t &= t - 1
    if (dark >> sh) != (1 << k) - 1:  # not contiguous: index by the full 16-bit lit set
        sh = 0
        k = 16
        m0 = lit0
    else:
        m0 = 0
    K = (1 << k) - 1
    omc = np.empty(16, dtype=np.int64)
    for p in range(16):
        omc[p] = ((outmask[p] & dark) >> sh) & K
    cov[0] = 0
    for b in range(k):
        lo = 1 << b
        ob = omc[b + sh] if (dark >> (b + sh)) & 1 else 0
        for d in range(lo, lo << 1):
            cov[d] = cov[d - lo] | ob
    cnt[(m0 << 4) | start] = 1
    flag[m0] = 1 << start
    for m in range(m0, K):
        pm = np.int64(flag[m])
        if pm == 0:
            continue
        flag[m] = 0
        base = m << 4
        while pm:
            p = trailing_zeros(pm)
            pm &= pm - 1
            c = cnt[base + p]
            cnt[base + p] = 0
            if c == 0:
                continue
            t = omc[p] & ~m
            while t:
                b = t & -t
                q = trailing_zeros(t) + sh
                t ^= b
                nm = m | b
                rest = K & ~nm
                ok = np.int64((rest & ~(cov[rest & ~m0] | omc[q])) == 0)
                cnt[(nm << 4) | q] += c * ok
                flag[nm] |= ok << q
    tot = 0
    base = K << 4
    for p in range(16):
        tot += cnt[base + p]
        cnt[base + p] = 0
    flag[K] = 0
    return tot


@njit(cache=True)
def census_batch(ranks, counts, fact, table, order, inv_syms, lit0, noflip,
                 dp_cnt, dp_flag, dp_cov,
                 dist, cnt, parent, touched, bstate, bnext, bhead, path, stats, fmax, pop, cov,
                 keep, moves_out, tours_out):
    """Solve the standard layouts of ``ranks`` (Roosters on cells 0 and 15, lanterns by rank
    as unrank_lanterns) that are canonical under the symmetries ``inv_syms``, like solve_solo
    with start=None: from cell 0, then cell 15 unless cell 0 has a no-revisit tour; the later
    start wins only with strictly fewer moves.

    Per layout: a reachability test (a dark card no move reaches: unsolvable from that start),
    else the no-revisit DP, else the full layered A* search (solo_search). ``table[kind, p]``
    is the move mask of a card of that kind (index len(counts) = Rooster) on cell p.
    Writes keep[i] (canonical), moves_out[i] (-1 unsolvable) and tours_out[i]. Returns 0, or -2
    when the A* search ran out of bucket space.
    """
    n = ranks.shape[0]
    nk = counts.shape[0]
    nl = 0
    for j in range(nk):
        nl += counts[j]
    seq = np.zeros(nl, dtype=np.int64)
    cells = np.zeros(16, dtype=np.int64)
    cells[0] = nk
    cells[15] = nk
    outmask = np.zeros(16, dtype=np.int64)
    adj = np.zeros((16, 16), dtype=np.int32)
    adjn = np.zeros(16, dtype=np.int32)
    full = 0xFFFF
    ndark = 0
    t = full & ~lit0
    while t:
        ndark += 1
        t &= t - 1
    prev = -2
    for i in range(n):
        r = ranks[i]
        if r == prev + 1 and next_lanterns(seq):
            pass
        else:
            unrank_lanterns(r, counts, fact, seq)
        prev = r
        for c in range(nl):
            cells[c + 1] = seq[c]
        if not is_canonical(cells, order, inv_syms):
            keep[i] = 0
            continue
        keep[i] = 1
        for p in range(16):
            outmask[p] = table[cells[p], p]
        best_m = -3
        best_t = 0
        graph_built = False
        for si in range(2):
            s = 0 if si == 0 else 15
            mv = -1
            tr = 0
            dark = full & ~lit0
            if (dark & ~reach_mask(outmask, s)) == 0:
                tr = count_no_revisit(outmask, s, lit0, dp_cnt, dp_flag, dp_cov)
                if tr > 0:
                    mv = ndark
                else:
                    if not graph_built:
                        for p in range(16):
                            nn = 0
                            for q in range(16):
                                if (outmask[p] >> q) & 1:
                                    adj[p, nn] = q
                                    nn += 1
                            adjn[p] = nn
                        graph_built = True
                    status = solo_search(adj, adjn, noflip, 16, s, lit0, 1, dist, cnt, parent,
                                         touched, bstate, bnext, bhead, path, stats, fmax, pop, cov)
                    if status != 0:
                        return status
                    mv = stats[0]
                    tr = stats[1]
            if best_m == -3 or (mv >= 0 and (best_m < 0 or mv < best_m)):
                best_m = mv
                best_t = tr
            if best_m == ndark:
                break
        moves_out[i] = best_m
        tours_out[i] = best_t
    return 0


@njit(cache=True)
def census_accumulate(keep, moves, tours, ndark, hist_moves, hist_bins, agg):
    """Chunk summary of census_batch's output: hist_moves[m] (index len-1: unsolvable),
    hist_bins[b] (b = bit length of the tour count), agg = (layouts, no_revisit, unsolvable,
    tours_total, max tours, index of its first layout, min tours, index of its first layout)."""
    un = hist_moves.shape[0] - 1
    agg[4] = 0
    agg[5] = -1
    agg[6] = -1
    agg[7] = -1
    for i in range(keep.shape[0]):
        if keep[i] == 0:
            continue
        agg[0] += 1
        m = moves[i]
        if m < 0:
            agg[2] += 1
            hist_moves[un] += 1
            continue
        hist_moves[m] += 1
        t = tours[i]
        b = 0
        x = t
        while x > 0:
            b += 1
            x >>= 1
        hist_bins[b] += 1
        agg[3] += t
        if m == ndark:
            agg[1] += 1
        if t > agg[4]:
            agg[4] = t
            agg[5] = i
        if agg[6] < 0 or t < agg[6]:
            agg[6] = t
            agg[7] = i
