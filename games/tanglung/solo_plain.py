"""The Tanglung solo search in plain Python: the kernel's search step for step, so that a single
solve needs neither numba nor numpy (start-up); tests compare the two on random layouts."""

from __future__ import annotations

from ...errors import SolverError

# the search's bucket grid, the kernel's too
FMAX = 160  # bucket grid side: f and g stay below this
PUSH_CAP = 1 << 22
PATH_CAP = FMAX + 1


def search_graph_python(adj, noflip, n, start, lit0, use_h=1, max_expanded=None):
    """The kernel's search step for step in plain Python (same bucket order, so the same moves,
    tour count, tour and states expanded), for single small solves that need not load numba.

    ``adj`` is a list of destination lists. Returns (moves or -1, tours, path, expanded), or
    None once more than ``max_expanded`` states would be expanded."""
    full = (1 << n) - 1
    outmask = [0] * 16
    for a in range(n):
        for q in adj[a]:
            outmask[a] |= 1 << q
    covc = {}

    def bound(nl, p):
        dark = full & ~nl
        h = bin(dark).count("1")
        if use_h >= 2:
            cv = covc.get(dark)
            if cv is None:
                cv = 0
                d = dark
                while d:
                    b = (d & -d).bit_length() - 1
                    cv |= outmask[b]
                    d &= d - 1
                covc[dark] = cv
            if dark & ~(cv | outmask[p]):
                h += 1
        return h

    s0 = (start << 16) | lit0
    dist = {s0: 0}
    cnt = {s0: 1}
    parent = {s0: -1}
    if lit0 == full:
        return 0, 1, [start], 0
    h0 = bound(lit0, start) if use_h > 0 else 0
    fmax = FMAX
    buckets = {h0 * fmax: [s0]}
    buckets_get = buckets.get
    dist_get = dist.get
    budget = max_expanded if max_expanded is not None else 1 << 62
    # per cell: (bit, state high part) of each destination, and the lit mask kept when leaving
    moves_of = [[(1 << q, q << 16) for q in adj[a]] for a in range(n)]
    keepmask = [full if (noflip >> a) & 1 else full & ~(1 << a) for a in range(n)]
    pending = 1
    expanded = 0
    moves = -1
    tours = 0
    goal = -1
    for F in range(h0, fmax):
        if pending == 0:
            break
        last_g = F if use_h == 0 else F - 1
        for g in range(0, last_g + 1):
            if g == F:
                for p in range(n):
                    gs = (p << 16) | full
                    if dist.get(gs, -1) == F:
                        if goal < 0:
                            goal = gs
                        tours += cnt[gs]
                if goal >= 0:
                    moves = F
                    break
            lst = buckets.pop(F * fmax + g, None)
            if not lst:
                continue
            pending -= len(lst)
            ng = g + 1
            for st in reversed(lst):
                if dist[st] != g:
                    continue
                lit = st & 0xFFFF
                if lit == full:
                    continue
                expanded += 1
                if expanded > budget:
                    return None
                p = st >> 16
                c = cnt[st]
                clear = keepmask[p]
                for qbit, qhigh in moves_of[p]:
                    nl = (lit & clear) if lit & qbit else (lit | qbit)
                    ns = qhigh | nl
                    d = dist_get(ns)
                    if d is None or ng < d:
                        dist[ns] = ng
                        cnt[ns] = c
                        parent[ns] = st
                        if use_h == 0:
                            nf = ng
                        elif use_h == 1 or nl == full:
                            nf = ng + n - nl.bit_count()
                        else:
                            nf = ng + bound(nl, qhigh >> 16)
                        if nf >= fmax:
                            raise SolverError("solo search ran out of bucket space")
                        key = nf * fmax + ng
                        b = buckets_get(key)
                        if b is None:
                            buckets[key] = [ns]
                        else:
                            b.append(ns)
                        pending += 1
                    elif ng == d:
                        cnt[ns] += c
            if goal >= 0:
                break
        if goal >= 0:
            break
        if use_h > 0:
            for p in range(n):
                gs = (p << 16) | full
                if dist.get(gs, -1) == F:
                    if goal < 0:
                        goal = gs
                    tours += cnt[gs]
            if goal >= 0:
                moves = F
                break
    path = []
    if goal >= 0:
        s = goal
        for i in range(moves + 1):
            path.append(s >> 16)
            s = parent[s]
        path.reverse()
    return moves, tours, path, expanded


def first_level_python(adj, n, start, lit0):
    """The first f-level of the ``astar`` search (h = dark cards), exactly as the kernel runs it,
    or None when that level holds no goal (no tour that only moves onto dark cards).

    On that level every state is reached by moves onto dark cards only, so it sits on layer
    g = cards lit since the start and is reached at its final distance the first time; the
    kernel expands layer g in the reverse of the order its states were found (its bucket is a
    stack) and gives each state the parent that found it first. Walking the layers in that
    order gives the kernel's fewest moves, tour count, tour and states expanded, without the
    buckets, the f-values and the moves onto lit cards (which only feed later levels)."""
    full = (1 << n) - 1
    if lit0 == full:
        return 0, 1, [start], 0
    depth = n - lit0.bit_count()
    moves_of = [[(1 << q, q << 16) for q in adj[a]] for a in range(n)]
    s0 = (start << 16) | lit0
    order = [s0]
    par = [-1]
    cnt = {s0: 1}
    cnt_get = cnt.get
    append = order.append
    pappend = par.append
    lo, hi = 0, 1
    for _ in range(depth):
        for i in range(hi - 1, lo - 1, -1):
            st = order[i]
            lit = st & 0xFFFF
            c = cnt[st]
            for qbit, qhigh in moves_of[st >> 16]:
                if lit & qbit:
                    continue
                ns = qhigh | lit | qbit
                old = cnt_get(ns)
                if old is None:
                    cnt[ns] = c
                    append(ns)
                    pappend(i)
                else:
                    cnt[ns] = old + c
        lo, hi = hi, len(order)
    goal = -1
    tours = 0
    for p in range(n):
        c = cnt_get((p << 16) | full)
        if c is not None:
            if goal < 0:
                goal = (p << 16) | full
            tours += c
    if goal < 0:
        return None
    i = order.index(goal, lo)
    path = []
    while i >= 0:
        path.append(order[i] >> 16)
        i = par[i]
    path.reverse()
    return depth, tours, path, lo


def unreachable_dark_python(adj, n, start, lit0) -> bool:
    """Whether some card dark at the start lies on no cell the start leads to (no tour then)."""
    reach = set()
    todo = list(adj[start])
    while todo:
        q = todo.pop()
        if q not in reach:
            reach.add(q)
            todo.extend(adj[q])
    return any(not (lit0 >> c) & 1 and c not in reach for c in range(n))


def count_reachable_python(adj, noflip, n, start, lit0):
    """The kernel's count_reachable in plain Python: the states reachable from the start (what
    the search expands when no tour exists), or None when only the search can answer (it could
    run out of bucket space)."""
    full = (1 << n) - 1
    s0 = (lit0 << 4) | start
    seen = {s0}
    layer = [s0]
    total = 1
    depth = 0
    moves_of = [[(1 << q, q) for q in adj[a]] for a in range(n)]
    keep = [full if (noflip >> a) & 1 else full & ~(1 << a) for a in range(n)]
    while layer:
        nxt = []
        for st in layer:
            p = st & 15
            lit = st >> 4
            if lit == full:
                continue
            k = keep[p]
            for qbit, q in moves_of[p]:
                ns = (((lit & k) if lit & qbit else (lit | qbit)) << 4) | q
                if ns not in seen:
                    seen.add(ns)
                    nxt.append(ns)
        total += len(nxt)
        layer = nxt
        depth += 1
    if depth - 1 + 17 >= FMAX or total * 16 >= PUSH_CAP:
        return None
    return total
