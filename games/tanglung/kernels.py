"""Numba kernels of the Tanglung solo solver (compiled lazily, cached on disk).

Kernels take their arrays as NamedTuple bundles made by :func:`tanglekit.kernelargs.kernel_bundle`
(the problem, a reusable workspace, the outputs); the indices into the ``stats`` array they
report through are the ``STAT_*`` constants below, read by the Python side by name.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ... import numba_cache  # noqa: F401  (its cache locator, before the kernels below are defined)

# --- shared indices and codes -----------------------------------------------------------------
STAT_MOVES = 0  # fewest moves, -1 when no tour
STAT_TOURS = 1  # number of optimal tours
STAT_EXPANDED = 2  # states expanded
STAT_TOUCHED = 3  # states given a distance
N_STATS = 4
OK = 0
OUT_OF_SPACE = -2  # the A* search ran out of bucket space
LEVEL_STATES = 1 << 20  # (lit set << 4 | cell) codes of a 16-cell grid


class SoloProblem(NamedTuple):
    """One solo search: the move graph ``adj[p, :adjn[p]]`` on ``n`` <= 16 cells, the cells whose
    card never flips (``noflip`` mask), the start cell, the lit set at the start and the bound
    (``use_h`` 0: plain BFS, 1: dark cards, 2: dark cards + dead-end term)."""

    DTYPES = {"adj": np.int32, "adjn": np.int32}
    adj: np.ndarray
    adjn: np.ndarray
    noflip: int
    n: int
    start: int
    lit0: int
    use_h: int


class SoloWork(NamedTuple):
    """Workspace of :func:`solo_search`, reused across searches (left reset), and its outputs:
    ``stats`` (``STAT_*``) and ``path`` (one optimal tour, start first)."""

    DTYPES = {"dist": np.int16, "parent": np.int32, "touched": np.int32, "bstate": np.int32,
              "bnext": np.int32, "bhead": np.int32, "path": np.int32, "pop": np.int8}
    dist: np.ndarray  # per state, -1 = unseen
    cnt: np.ndarray
    parent: np.ndarray
    touched: np.ndarray
    bstate: np.ndarray
    bnext: np.ndarray
    bhead: np.ndarray  # fmax * fmax bucket heads, -1 = empty
    path: np.ndarray
    stats: np.ndarray
    fmax: int
    pop: np.ndarray  # 16-bit popcount table
    cov: np.ndarray


class LevelWork(NamedTuple):
    """Workspace of :func:`first_level` and :func:`count_reachable`: ``cnt`` per state code
    (zero, left zero), the states in the order found, the index of each one's parent, and a
    bitset of seen states (LEVEL_STATES bits, zero, left zero)."""

    DTYPES = {"order": np.int32, "par": np.int32, "seen": np.uint64}
    cnt: np.ndarray
    order: np.ndarray
    par: np.ndarray
    seen: np.ndarray


class DPWork(NamedTuple):
    """Workspace of :func:`count_no_revisit`: ``cnt`` (2^20) and ``flag`` (2^16) zero and left
    zero, ``cov`` (2^16) scratch."""

    DTYPES = {"flag": np.int32}
    cnt: np.ndarray
    flag: np.ndarray
    cov: np.ndarray


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
def solo_search(pr, w):
    """Layered best-first search over pos << 16 | lit states (see tanglung_solo) of the
    problem ``pr`` (SoloProblem) in the workspace ``w`` (SoloWork).

    ``w.pop`` is a 16-bit popcount table; ``w.cov`` (65536 entries) is filled here: cov[D] =
    cells reachable in one move from some cell of D. Writes w.stats (STAT_*) and the tour into
    w.path. Resets dist and bhead before returning; returns OK, or OUT_OF_SPACE.
    """
    adj = pr.adj
    adjn = pr.adjn
    noflip = pr.noflip
    n = pr.n
    start = pr.start
    lit0 = pr.lit0
    use_h = pr.use_h
    dist = w.dist
    cnt = w.cnt
    parent = w.parent
    touched = w.touched
    bstate = w.bstate
    bnext = w.bnext
    bhead = w.bhead
    path = w.path
    stats = w.stats
    fmax = w.fmax
    pop = w.pop
    cov = w.cov
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
    status = OK
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
                                nf = ng + _bound(nl, np.int64(q), full, cov, outmask, use_h, pop)  # int64: one compile
                            if nf >= fmax or npush >= cap:
                                status = OUT_OF_SPACE
                                break
                            bstate[npush] = ns
                            bnext[npush] = bhead[nf * fmax + ng]
                            bhead[nf * fmax + ng] = npush
                            npush += 1
                            pending += 1
                        elif ng == d:
                            cnt[ns] += c
                    if status != OK:
                        break
                if status != OK or goal >= 0:
                    break
            if status != OK or goal >= 0:
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
    if goal >= 0 and status == OK:
        # walk parents back from the goal
        s = goal
        for i in range(moves, -1, -1):
            path[i] = s >> 16
            s = parent[s]
    stats[STAT_MOVES] = moves if status == OK else -1
    stats[STAT_TOURS] = tours
    stats[STAT_EXPANDED] = expanded
    stats[STAT_TOUCHED] = ntouched
    for i in range(ntouched):
        dist[touched[i]] = -1
    for i in range(bhead.shape[0]):
        bhead[i] = -1
    return status


@njit(cache=True)
def first_level(pr, lv, w):
    """The first f-level of solo_search with ``use_h`` 1 (f = the dark cards at the start),
    step for step, without buckets: True, with w.stats and w.path as solo_search leaves them,
    when that level holds a goal (a tour moving onto dark cards only); False otherwise (the
    full search must run), or when a row of ``adj`` is not in increasing order.

    On that level a state is reached only by moves onto dark cards, so it lies on layer g =
    cards lit since the start, at its final distance from the first time it is found;
    solo_search expands a layer in the reverse of the order its states were pushed (a bucket
    is a stack) and keeps the first parent. A state is coded m << 4 | cell, where bit r of m
    is the r-th card dark at the start, now lit (a compact index: 2^dark * 16 codes)."""
    n = pr.n
    full = (1 << n) - 1
    lit0 = pr.lit0
    adj = pr.adj
    adjn = pr.adjn
    path = w.path
    stats = w.stats
    if lit0 == full:
        path[0] = pr.start
        stats[STAT_MOVES] = 0
        stats[STAT_TOURS] = 1
        stats[STAT_EXPANDED] = 0
        stats[STAT_TOUCHED] = 1
        return True
    cell_of = np.zeros(16, dtype=np.int64)  # bit r of m -> its cell
    depth = 0
    for q in range(n):
        if not (lit0 >> q) & 1:
            cell_of[depth] = q
            depth += 1
    for p in range(n):  # the walk below takes moves in increasing cell order, like sorted rows
        for j in range(1, adjn[p]):
            if adj[p, j] <= adj[p, j - 1]:
                return False
    dm = np.zeros(16, dtype=np.int64)  # per cell: the m-bits of the dark-at-start cells it reaches
    for p in range(n):
        r = 0
        for q in range(n):
            if not (lit0 >> q) & 1:
                for j in range(adjn[p]):
                    if adj[p, j] == q:
                        dm[p] |= 1 << r
                r += 1
    goal_m = (1 << depth) - 1
    cnt = lv.cnt
    order = lv.order
    par = lv.par
    order[0] = pr.start
    par[0] = -1
    cnt[pr.start] = 1
    nst = 1
    lo = 0
    hi = 1
    for _g in range(depth):
        for i in range(hi - 1, lo - 1, -1):
            st = order[i]
            p = st & 15
            m = st >> 4
            c = cnt[st]
            t = dm[p] & ~m  # moves onto cards still dark, in increasing cell order (adj's order)
            while t:
                b = t & -t
                t ^= b
                q = cell_of[trailing_zeros(b)]
                ns = ((m | b) << 4) | q
                if cnt[ns] == 0:
                    cnt[ns] = c
                    order[nst] = ns
                    par[nst] = i
                    nst += 1
                else:
                    cnt[ns] += c
        lo = hi
        hi = nst
    goal = -1
    tours = 0
    for i in range(lo, hi):  # the last layer: every card lit (m == goal_m)
        st = order[i]
        tours += cnt[st]
        if goal < 0 or (st & 15) < (order[goal] & 15):
            goal = i
    for i in range(nst):
        cnt[order[i]] = 0
    if goal < 0 or (order[goal] >> 4) != goal_m:
        return False
    i = goal
    k = depth
    while i >= 0:
        path[k] = order[i] & 15
        i = par[i]
        k -= 1
    stats[STAT_MOVES] = depth
    stats[STAT_TOURS] = tours
    stats[STAT_EXPANDED] = lo
    stats[STAT_TOUCHED] = nst
    return True


@njit(cache=True)
def unreachable_dark(pr):
    """True when some card dark at the start is on no cell the start leads to in one or more
    moves: then no tour lights it (solo_search answers -1 after expanding every state it
    reaches)."""
    reach = 0
    for j in range(pr.adjn[pr.start]):
        reach |= 1 << pr.adj[pr.start, j]
    while True:
        nr = reach
        t = reach
        while t:
            q = trailing_zeros(t)
            t &= t - 1
            for j in range(pr.adjn[q]):
                nr |= 1 << pr.adj[q, j]
        if nr == reach:
            break
        reach = nr
    dark = ((1 << pr.n) - 1) & ~pr.lit0
    return (dark & ~reach) != 0


@njit(cache=True)
def count_reachable(pr, lv, fmax, cap):
    """The states reachable from ``pr``'s start (the solo move rule: onto a dark card lights
    it, onto a lit one darkens the card left unless it never flips): what solo_search expands
    on a problem without a tour, where it expands every state it reaches once. -1 when
    solo_search could run out of space on it (a state at distance d may be pushed with f up to
    d + 1 + 16, and a state pushes at most 15 others), so only solo_search can answer."""
    n = pr.n
    full = (1 << n) - 1
    seen = lv.seen
    queue = lv.order
    s0 = (pr.lit0 << 4) | pr.start
    seen[s0 >> 6] |= np.uint64(1) << np.uint64(s0 & 63)
    queue[0] = s0
    nst = 1
    lo = 0
    hi = 1
    depth = 0
    while lo < hi:
        for i in range(lo, hi):
            st = queue[i]
            p = st & 15
            lit = st >> 4
            if lit == full:
                continue
            keep = full if (pr.noflip >> p) & 1 else full & ~(1 << p)
            for j in range(pr.adjn[p]):
                q = pr.adj[p, j]
                if (lit >> q) & 1:
                    nl = lit & keep
                else:
                    nl = lit | (1 << q)
                ns = (nl << 4) | q
                word = seen[ns >> 6]
                bit = np.uint64(1) << np.uint64(ns & 63)
                if (word & bit) == 0:
                    seen[ns >> 6] = word | bit
                    queue[nst] = ns
                    nst += 1
        lo = hi
        hi = nst
        depth += 1
    for i in range(nst):
        seen[queue[i] >> 6] = np.uint64(0)
    if depth - 1 + 17 >= fmax or nst * 16 >= cap:
        return -1
    return nst


@njit(cache=True)
def solve_one(pr, lv, w):
    """solo_search's answer for ``pr`` (same w.stats and w.path), found faster where it can be:
    through first_level when the bound is the dark cards, by counting the reachable states when
    a dark card is out of reach; returns OK or OUT_OF_SPACE."""
    if pr.use_h == 1:
        if first_level(pr, lv, w):
            return OK
        if unreachable_dark(pr):
            count = count_reachable(pr, lv, w.fmax, w.bstate.shape[0])
            if count >= 0:
                w.stats[STAT_MOVES] = -1
                w.stats[STAT_TOURS] = 0
                w.stats[STAT_EXPANDED] = count
                w.stats[STAT_TOUCHED] = count
                return OK
    return solo_search(pr, w)


class SoloBatch(NamedTuple):
    """Many solo layouts on a 16-cell grid, solved as solve_solo does (every start in turn,
    stopping at a tour of as many moves as dark cards; a later start wins only with strictly
    fewer moves): per layout the move masks of its cells (``outmask[i, p]``), the never-flipping
    cells, the lit set at the start and the start cells ``starts[i, :nstarts[i]]``."""

    outmask: np.ndarray
    noflip: np.ndarray
    lit0: np.ndarray
    starts: np.ndarray
    nstarts: np.ndarray
    use_h: int


class SoloBatchOut(NamedTuple):
    """Per layout: fewest moves (-1 none), optimal tours, states expanded, the start kept, one
    optimal tour (``path[i, :moves + 1]``) and the status (OK or OUT_OF_SPACE)."""

    DTYPES = {"path": np.int8}
    moves: np.ndarray
    tours: np.ndarray
    expanded: np.ndarray
    start: np.ndarray
    path: np.ndarray
    status: np.ndarray


@njit(cache=True)
def solve_batch(b, lv, w, out):
    """Solve every layout of ``b`` (SoloBatch) into ``out`` (SoloBatchOut)."""
    adj = np.zeros((16, 16), dtype=np.int32)
    adjn = np.zeros(16, dtype=np.int32)
    for i in range(b.outmask.shape[0]):
        for p in range(16):
            nn = 0
            m = b.outmask[i, p]
            for q in range(16):
                if (m >> q) & 1:
                    adj[p, nn] = q
                    nn += 1
            adjn[p] = nn
        lit0 = b.lit0[i]
        ndark = 0
        t = 0xFFFF & ~lit0
        while t:
            ndark += 1
            t &= t - 1
        best = -3
        out.status[i] = OK
        if b.use_h == 1:  # the first start with a tour of ndark moves wins, if any has one
            for si in range(b.nstarts[i]):
                s = b.starts[i, si]
                if first_level(SoloProblem(adj, adjn, b.noflip[i], np.int64(16), s, lit0, b.use_h), lv, w):
                    best = ndark
                    out.moves[i] = ndark
                    out.tours[i] = w.stats[STAT_TOURS]
                    out.expanded[i] = w.stats[STAT_EXPANDED]
                    out.start[i] = s
                    for k in range(ndark + 1):
                        out.path[i, k] = w.path[k]
                    break
        if best == ndark:
            continue
        for si in range(b.nstarts[i]):
            s = b.starts[i, si]
            pr = SoloProblem(adj, adjn, b.noflip[i], np.int64(16), s, lit0, b.use_h)
            if b.use_h == 1 and best != -3 and unreachable_dark(pr):
                continue  # no tour from here: only the first start's answer is kept then
            if b.use_h == 1:
                status = OK
                count = count_reachable(pr, lv, w.fmax, w.bstate.shape[0]) if unreachable_dark(pr) else -1
                if count >= 0:
                    w.stats[STAT_MOVES] = -1
                    w.stats[STAT_TOURS] = 0
                    w.stats[STAT_EXPANDED] = count
                else:
                    status = solo_search(pr, w)
            else:
                status = solo_search(pr, w)
            if status != OK:
                out.status[i] = status
                break
            mv = w.stats[STAT_MOVES]
            if best == -3 or (mv >= 0 and (best < 0 or mv < best)):
                best = mv
                out.moves[i] = mv
                out.tours[i] = w.stats[STAT_TOURS]
                out.expanded[i] = w.stats[STAT_EXPANDED]
                out.start[i] = s
                for k in range(mv + 1):
                    out.path[i, k] = w.path[k]
            if best == ndark:
                break


# --- census batch path ----------------------------------------------------------------------
# Kept in this file so numba's on-disk cache of the census kernel is invalidated together with
# solo_search, which it calls for the layouts that have no no-revisit tour.


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
def count_no_revisit(outmask, start, lit0, dp):
    """Number of tours from ``start`` that only ever move onto dark cards and light them all
    (the optimal tours when fewest moves = dark cards): a DP over (visited set, position) in
    increasing order of the set. States from which some dark card can no longer be entered
    (from the cards still dark or the current cell) are dropped. ``dp`` is a DPWork.
    Dark cells forming a contiguous bit run are packed into a small index."""
    cnt = dp.cnt
    flag = dp.flag
    cov = dp.cov
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


class CensusChunk(NamedTuple):
    """Standard layouts by rank (Roosters on cells 0 and 15, lanterns by rank as
    unrank_lanterns) with the tables to build them: lantern counts per kind, factorials, the
    move mask ``table[kind, p]`` of a card of that kind (index len(counts) = Rooster) on cell
    p, the letter order of the kinds, the inverse diagonal symmetries, the lit set at the start
    and the never-flipping cells."""

    ranks: np.ndarray
    counts: np.ndarray
    fact: np.ndarray
    table: np.ndarray
    order: np.ndarray
    inv_syms: np.ndarray
    lit0: int
    noflip: int


class CensusOut(NamedTuple):
    """Per rank: canonical (1) or skipped (0), fewest moves (-1 unsolvable), optimal tours."""

    DTYPES = {"keep": np.int8}
    keep: np.ndarray
    moves: np.ndarray
    tours: np.ndarray


@njit(cache=True)
def census_batch(c, dp, w, out):
    """Solve the layouts of ``c`` (CensusChunk) that are canonical under its symmetries, like
    solve_solo with start=None: from cell 0, then cell 15 unless cell 0 has a no-revisit tour;
    the later start wins only with strictly fewer moves. ``dp`` is a DPWork, ``w`` a SoloWork,
    ``out`` a CensusOut.

    Per layout: a reachability test (a dark card no move reaches: unsolvable from that start),
    else the no-revisit DP, else the full layered A* search (solo_search). Returns OK, or
    OUT_OF_SPACE when the A* search ran out of bucket space.
    """
    ranks = c.ranks
    counts = c.counts
    fact = c.fact
    table = c.table
    order = c.order
    inv_syms = c.inv_syms
    lit0 = c.lit0
    noflip = c.noflip
    keep = out.keep
    moves_out = out.moves
    tours_out = out.tours
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
                tr = count_no_revisit(outmask, s, lit0, dp)
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
                    status = solo_search(SoloProblem(adj, adjn, noflip, np.int64(16), np.int64(s), lit0,
                                                     np.int64(1)), w)
                    if status != OK:
                        return status
                    mv = w.stats[STAT_MOVES]
                    tr = w.stats[STAT_TOURS]
            if best_m == -3 or (mv >= 0 and (best_m < 0 or mv < best_m)):
                best_m = mv
                best_t = tr
            if best_m == ndark:
                break
        moves_out[i] = best_m
        tours_out[i] = best_t
    return OK


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
