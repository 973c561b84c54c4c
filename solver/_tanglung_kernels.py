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
