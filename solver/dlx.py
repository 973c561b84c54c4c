"""Numba kernels of the exact-cover engine: dancing links (Knuth's Algorithm C) and bitsets.

``search`` is Algorithm C over packed int32 link arrays (any size, colours). ``bitset_search``
is the same search (Algorithm X with the same minimum-remaining-values choice, so the same
tree in the same order) on item bitsets with per-depth live-option lists, used for colourless
problems of at most 256 items such as polyform tilings, where it is about 3x faster;
``bitset_count_memo`` adds a cache of subtree counts for full counts. Every kernel is
resumable and non-recursive: it returns to Python only to hand over a batch of solutions or
after a node budget (so enumeration streams, and time limits and Ctrl-C work); no Python runs
inside. Numba is imported here only, so import this module lazily.
"""

from __future__ import annotations

import time
from typing import Iterator

import numpy as np
from numba import njit

from ..errors import SolverError

# Node fields, packed so that one node is one 16-byte record (the hot loops read all four).
_TOP, _UP, _DOWN, _COL = 0, 1, 2, 3


@njit(cache=True, inline="always")
def _hide(nd, ln, p):
    q = p + 1
    while q != p:
        x = nd[q, _TOP]
        if x <= 0:  # spacer: jump back to the first node of the option
            q = nd[q, _UP]
        else:
            if nd[q, _COL] >= 0:
                u = nd[q, _UP]
                d = nd[q, _DOWN]
                nd[u, _DOWN] = d
                nd[d, _UP] = u
                ln[x] -= 1
            q += 1


@njit(cache=True, inline="always")
def _unhide(nd, ln, p):
    q = p - 1
    while q != p:
        x = nd[q, _TOP]
        if x <= 0:
            q = nd[q, _DOWN]
        else:
            if nd[q, _COL] >= 0:
                u = nd[q, _UP]
                d = nd[q, _DOWN]
                nd[u, _DOWN] = q
                nd[d, _UP] = q
                ln[x] += 1
            q -= 1


@njit(cache=True, inline="always")
def _cover(nd, ln, llink, rlink, i):
    p = nd[i, _DOWN]
    while p != i:
        _hide(nd, ln, p)
        p = nd[p, _DOWN]
    a = llink[i]
    b = rlink[i]
    rlink[a] = b
    llink[b] = a


@njit(cache=True, inline="always")
def _uncover(nd, ln, llink, rlink, i):
    a = llink[i]
    b = rlink[i]
    rlink[a] = i
    llink[b] = i
    p = nd[i, _UP]
    while p != i:
        _unhide(nd, ln, p)
        p = nd[p, _UP]


@njit(cache=True, inline="always")
def _purify(nd, ln, p):
    c = nd[p, _COL]
    i = nd[p, _TOP]
    q = nd[i, _DOWN]
    while q != i:
        if nd[q, _COL] == c:
            if q != p:  # p keeps its colour: uncommit reads it to know what to undo
                nd[q, _COL] = -1
        else:
            _hide(nd, ln, q)
        q = nd[q, _DOWN]


@njit(cache=True, inline="always")
def _unpurify(nd, ln, p):
    c = nd[p, _COL]
    i = nd[p, _TOP]
    q = nd[i, _UP]
    while q != i:
        if nd[q, _COL] < 0:
            nd[q, _COL] = c
        else:
            _unhide(nd, ln, q)
        q = nd[q, _UP]


@njit(cache=True, inline="always")
def _commit_option(nd, ln, llink, rlink, xl):
    """Cover (or purify, for a coloured secondary entry) every other item of xl's option."""
    p = xl + 1
    while p != xl:
        j = nd[p, _TOP]
        if j <= 0:
            p = nd[p, _UP]
        else:
            c = nd[p, _COL]
            if c == 0:
                _cover(nd, ln, llink, rlink, j)
            elif c > 0:
                _purify(nd, ln, p)
            p += 1


@njit(cache=True, inline="always")
def _uncommit_option(nd, ln, llink, rlink, xl):
    p = xl - 1
    while p != xl:
        j = nd[p, _TOP]
        if j <= 0:
            p = nd[p, _DOWN]
        else:
            c = nd[p, _COL]
            if c == 0:
                _uncover(nd, ln, llink, rlink, j)
            elif c > 0:
                _unpurify(nd, ln, p)
            p -= 1


@njit(cache=True)
def search(nd, ln, llink, rlink, opt_of, x, state, limit, record, out, out_len, max_nodes):
    """Run Algorithm C from the saved ``state`` = [forward, level, finished].

    Stops after ``limit`` solutions (``limit <= 0``: no limit) or ``max_nodes`` search nodes
    (``<= 0``: no budget). With ``record`` the options of each solution go to ``out[k]``
    (length in ``out_len[k]``). Returns (solutions found in this call, nodes visited).
    """
    forward = state[0] == 1
    lev = state[1]
    found = 0
    nodes = 0
    while True:
        if forward:
            if rlink[0] == 0:
                if record:
                    for k in range(lev):
                        out[found, k] = opt_of[x[k]]
                    out_len[found] = lev
                found += 1
                forward = False
                if limit > 0 and found >= limit:
                    state[0] = 0
                    state[1] = lev
                    return found, nodes
                continue
            if max_nodes > 0 and nodes >= max_nodes:
                state[0] = 1
                state[1] = lev
                return found, nodes
            nodes += 1
            # C3: the primary item with the fewest remaining options (first one on ties)
            i = rlink[0]
            best = ln[i]
            p = rlink[i]
            while p != 0 and best > 0:
                v = ln[p]
                if v < best:
                    best = v
                    i = p
                p = rlink[p]
            if best == 0:
                forward = False
                continue
            _cover(nd, ln, llink, rlink, i)
            xl = nd[i, _DOWN]
            x[lev] = xl
            _commit_option(nd, ln, llink, rlink, xl)
            lev += 1
        else:
            if lev == 0:
                state[0] = 0
                state[1] = 0
                state[2] = 1
                return found, nodes
            lev -= 1
            xl = x[lev]
            _uncommit_option(nd, ln, llink, rlink, xl)
            i = nd[xl, _TOP]
            xl = nd[xl, _DOWN]
            if xl == i:
                _uncover(nd, ln, llink, rlink, i)
            else:
                x[lev] = xl
                _commit_option(nd, ln, llink, rlink, xl)
                lev += 1
                forward = True


class DlxMatrix:
    """The dancing-links structure of one problem (items 1..N, primary ones first).

    ``opt_ptr``/``opt_items``/``opt_colour`` are the options in CSR form with 0-based items;
    colours are > 0 on secondary entries that may be shared, 0 otherwise.
    """

    def __init__(self, n_primary: int, n_secondary: int, opt_ptr, opt_items, opt_colour=None):
        n_items = n_primary + n_secondary
        opt_ptr = np.asarray(opt_ptr, dtype=np.int64)
        opt_items = np.asarray(opt_items, dtype=np.int64)
        n_opts = len(opt_ptr) - 1
        n_entries = len(opt_items)
        if opt_colour is None:
            opt_colour = np.zeros(n_entries, dtype=np.int64)
        opt_colour = np.asarray(opt_colour, dtype=np.int64)
        self.n_primary, self.n_secondary, self.n_options = n_primary, n_secondary, n_opts
        z = n_items + 1 + n_entries + n_opts + 1
        if z >= 2**31 - 1:
            raise MemoryError("exact-cover matrix too large for 32-bit node indices")
        nd = np.zeros((z, 4), dtype=np.int32)
        ln = np.zeros(n_items + 2, dtype=np.int32)
        opt_of = np.full(z, -1, dtype=np.int32)
        # item headers: primary list from 0, secondary list from N + 1
        llink = np.zeros(n_items + 2, dtype=np.int32)
        rlink = np.zeros(n_items + 2, dtype=np.int32)
        prim = list(range(0, n_primary + 1))
        for a, b in zip(prim, prim[1:] + [0]):
            rlink[a] = b
            llink[b] = a
        sec = [n_items + 1] + list(range(n_primary + 1, n_items + 1))
        for a, b in zip(sec, sec[1:] + [n_items + 1]):
            rlink[a] = b
            llink[b] = a
        for i in range(1, n_items + 1):
            nd[i, _UP] = i
            nd[i, _DOWN] = i
        _fill_nodes(nd, ln, opt_of, n_items, opt_ptr, opt_items, opt_colour)
        self.nd, self.ln, self.llink, self.rlink = nd, ln, llink, rlink
        self.opt_of = opt_of
        self.max_depth = n_primary + 1
        self.reset()

    def reset(self) -> None:
        self.x = np.zeros(self.max_depth + 1, dtype=np.int32)
        self.state = np.array([1, 0, 0], dtype=np.int64)

    @property
    def finished(self) -> bool:
        return bool(self.state[2])

    def run(self, limit: int = 0, record: bool = False, batch: int = 1, max_nodes: int = 0):
        """One kernel call; returns (found, nodes, solutions as lists of option indices)."""
        rows = max(1, batch if record else 1)
        out = np.zeros((rows if record else 1, self.max_depth + 1), dtype=np.int32)
        out_len = np.zeros(rows, dtype=np.int32)
        found, nodes = search(
            self.nd, self.ln, self.llink, self.rlink, self.opt_of, self.x,
            self.state, limit, record, out, out_len, max_nodes,
        )
        sols = [out[k, : out_len[k]].tolist() for k in range(found)] if record else []
        return int(found), int(nodes), sols


@njit(cache=True)
def _fill_nodes(nd, ln, opt_of, n_items, opt_ptr, opt_items, opt_colour):
    x = n_items + 1  # first spacer
    nd[x, _TOP] = 0
    last_spacer = x
    n_opts = len(opt_ptr) - 1
    for o in range(n_opts):
        a = opt_ptr[o]
        b = opt_ptr[o + 1]
        first = x + 1
        for e in range(a, b):
            x += 1
            item = opt_items[e] + 1
            nd[x, _TOP] = item
            nd[x, _COL] = opt_colour[e]
            opt_of[x] = o
            ln[item] += 1
            # append at the bottom of the item's column
            up = nd[item, _UP]
            nd[x, _UP] = up
            nd[x, _DOWN] = item
            nd[up, _DOWN] = x
            nd[item, _UP] = x
        x += 1
        nd[x, _TOP] = -(o + 1)
        nd[x, _UP] = first
        nd[last_spacer, _DOWN] = x - 1
        last_spacer = x
    nd[last_spacer, _DOWN] = 0


class BitsetMatrix:
    """State of ``bitset_search`` for one problem: option bitsets and per-depth live lists.

    Used for colourless problems with at most ``MAX_BITSET_ITEMS`` items (polyform tilings);
    same interface as DlxMatrix.
    """

    def __init__(self, n_primary: int, n_secondary: int, opt_ptr, opt_items):
        n_items = n_primary + n_secondary
        opt_ptr = np.asarray(opt_ptr, dtype=np.int64)
        opt_items = np.asarray(opt_items, dtype=np.int64)
        n_opts = len(opt_ptr) - 1
        nw = max(1, (n_items + 63) // 64)
        self.n_primary, self.n_secondary, self.n_options = n_primary, n_secondary, n_opts
        lens = np.diff(opt_ptr)
        kk = max(1, int(lens.max()) if n_opts else 1)
        rows = np.repeat(np.arange(n_opts), lens)
        cols = np.arange(len(opt_items)) - np.repeat(opt_ptr[:-1], lens)
        self.oit = np.full((max(1, n_opts), kk), n_items, dtype=np.int32)  # pad: dummy item
        self.oit[rows, cols] = opt_items
        omask = np.zeros((max(1, n_opts), nw), dtype=np.uint64)
        np.bitwise_or.at(
            omask, (rows, opt_items // 64),
            np.left_shift(np.uint64(1), (opt_items % 64).astype(np.uint64)),
        )
        prim = np.zeros(nw, dtype=np.uint64)
        for i in range(n_primary):
            prim[i // 64] |= np.uint64(1) << np.uint64(i % 64)
        self.omask, self.primmask = omask, prim
        self.max_depth = n_primary + 1
        d = self.max_depth + 1
        cap = max(1, n_opts) * (d + 1)
        self.bufid = np.zeros(cap, dtype=np.int32)
        self.bufm = np.zeros((cap, nw), dtype=np.uint64)
        self.rem = np.zeros(max(1, n_opts), dtype=np.int32)
        self.lstart = np.zeros(d + 1, dtype=np.int64)
        self.lend = np.zeros(d + 1, dtype=np.int64)
        self.cmask = np.zeros((d + 1, nw), dtype=np.uint64)
        self.cnt = np.zeros((d + 1, n_items + 1), dtype=np.int32)
        self.item_at = np.zeros(d + 1, dtype=np.int64)
        self.pos = np.zeros(d + 1, dtype=np.int64)
        self.chosen = np.zeros(d + 1, dtype=np.int32)
        self.counts0 = np.bincount(opt_items, minlength=n_items + 1)[: n_items + 1]
        self.reset()

    def reset(self) -> None:
        n = self.n_options
        self.bufid[:n] = np.arange(n, dtype=np.int32)
        self.bufm[:n] = self.omask[:n]
        self.lstart[0], self.lend[0] = 0, n
        self.cmask[0] = 0
        self.cnt[0] = self.counts0
        self.state = np.array([1, 0, 0], dtype=np.int64)

    @property
    def finished(self) -> bool:
        return bool(self.state[2])

    def run(self, limit: int = 0, record: bool = False, batch: int = 1, max_nodes: int = 0):
        rows = max(1, batch if record else 1)
        out = np.zeros((rows, self.max_depth + 1), dtype=np.int32)
        out_len = np.zeros(rows, dtype=np.int32)
        found, nodes = bitset_search(
            self.oit, self.primmask, self.bufid, self.bufm, self.rem, self.lstart, self.lend,
            self.cmask, self.cnt, self.item_at, self.pos, self.chosen, self.n_primary,
            self.state, limit, record, out, out_len, max_nodes,
        )
        sols = [out[k, : out_len[k]].tolist() for k in range(found)] if record else []
        return int(found), int(nodes), sols

    def count_memo(self, max_nodes: int = 0, log_table: int = 18) -> tuple[int, int, int]:
        """Count with the memo cache (from a fresh state, resumable across node budgets);
        returns (total so far, nodes, cache hits). ``finished`` tells when it is exact."""
        if getattr(self, "_memo", None) is None:
            nw = self.bufm.shape[1]
            size = 1 << max(10, min(log_table, (4 * self.n_options).bit_length()))
            self._memo = (
                np.zeros(len(self.lstart), dtype=np.int64),
                np.zeros((size, nw), dtype=np.uint64),
                np.full(size, -1, dtype=np.int64),
                np.array([1, 0, 0, 0], dtype=np.int64),
            )
        lbase, tkeys, tvals, st = self._memo
        found, nodes, hits = bitset_count_memo(
            self.oit, self.primmask, self.bufid, self.bufm, self.rem, self.lstart, self.lend,
            self.cmask, self.cnt, self.item_at, self.pos, lbase, tkeys, tvals, self.n_primary,
            st, max_nodes,
        )
        self.state[2] = st[2]
        return int(found), int(nodes), int(hits)


MAX_BITSET_ITEMS = 256
MAX_BITSET_BUFFER = 4_000_000  # live-list entries (id + bitset each, <= 36 bytes)


def make_matrix(n_primary: int, n_secondary: int, opt_ptr, opt_items, opt_colour=None,
                kind: str = "auto"):
    """The fastest kernel state for a problem: bitsets when small and colourless, else links."""
    if kind not in ("auto", "links", "bitset"):
        raise SolverError(f"unknown kernel {kind!r}: expected auto, links or bitset")
    n_opts = len(opt_ptr) - 1
    coloured = opt_colour is not None and np.any(np.asarray(opt_colour) != 0)
    small = (
        n_primary + n_secondary <= MAX_BITSET_ITEMS
        and n_opts * (n_primary + 3) <= MAX_BITSET_BUFFER
    )
    if kind == "bitset" or (kind == "auto" and small and not coloured):
        if coloured:
            raise SolverError("the bitset kernel does not handle colours; use links")
        return BitsetMatrix(n_primary, n_secondary, opt_ptr, opt_items)
    return DlxMatrix(n_primary, n_secondary, opt_ptr, opt_items, opt_colour)


def dlx_solutions(
    matrix, limit: int | None = None, batch: int = 256, time_limit: float | None = None
) -> Iterator[list[int]]:
    """Stream solutions (lists of option indices) of a fresh matrix, at most ``limit``."""
    t_end = None if time_limit is None else time.perf_counter() + time_limit
    given = 0
    while not matrix.finished:
        want = batch if limit is None else min(batch, limit - given)
        if want <= 0:
            return
        found, _, sols = matrix.run(limit=want, record=True, batch=want, max_nodes=1_000_000)
        for s in sols:
            yield s
        given += found
        if t_end is not None and time.perf_counter() > t_end:
            return


def dlx_count(
    matrix, limit: int | None = None, time_limit: float | None = None, memo: bool = True
) -> tuple[int, bool]:
    """Count solutions of a fresh matrix; returns (count, complete). A full count on the
    bitset kernel uses the memo cache (``bitset_count_memo``) unless ``memo`` is False."""
    t_end = None if time_limit is None else time.perf_counter() + time_limit
    if isinstance(matrix, BitsetMatrix) and limit is None and memo:
        total = 0
        while not matrix.finished:
            total, _, _ = matrix.count_memo(max_nodes=1_000_000)
            if t_end is not None and time.perf_counter() > t_end and not matrix.finished:
                return total, False
        return total, True
    total = 0
    while not matrix.finished:
        want = 0 if limit is None else limit - total
        if limit is not None and want <= 0:
            return total, False
        found, _, _ = matrix.run(limit=want, record=False, max_nodes=1_000_000)
        total += found
        if t_end is not None and time.perf_counter() > t_end and not matrix.finished:
            return total, False
    return total, True


@njit(cache=True)
def bitset_search(oit, primmask, bufid, bufm, rem, lstart, lend, cmask, cnt, item_at, pos,
                  chosen, n_primary, state, limit, record, out, out_len, max_nodes):
    """Algorithm X on bitsets, for problems with few items.

    Depth d keeps its live options in ``bufid/bufm[lstart[d]:lend[d]]`` (id and item bitset,
    copied so the hot loop reads memory in order) and ``cnt[d]``, the live options per item
    (``BIG`` once covered, so the MRV scan is a plain minimum). A child compacts its parent's
    list without branches, keeping options disjoint from the chosen one, and subtracts the
    removed options from the counts. No undo is needed: backtracking just drops a level.
    ``oit[o]`` lists option o's items, padded with a dummy item. Same contract as ``search``.
    """
    nw = bufm.shape[1]
    kk = oit.shape[1]
    n_cnt = cnt.shape[1]
    big = 1 << 30
    forward = state[0] == 1
    d = state[1]
    found = 0
    nodes = 0
    while True:
        if forward:
            done = True
            for w in range(nw):
                if cmask[d, w] & primmask[w] != primmask[w]:
                    done = False
                    break
            if done:
                if record:
                    for k in range(d):
                        out[found, k] = chosen[k]
                    out_len[found] = d
                found += 1
                forward = False
                if limit > 0 and found >= limit:
                    state[0] = 0
                    state[1] = d
                    return found, nodes
                continue
            if max_nodes > 0 and nodes >= max_nodes:
                state[0] = 1
                state[1] = d
                return found, nodes
            nodes += 1
            best = big + 1
            bi = -1
            for i in range(n_primary):
                c = cnt[d, i]
                if c < best:
                    best = c
                    bi = i
                    if c == 0:
                        break
            if best == 0:
                forward = False
                continue
            item_at[d] = bi
            pos[d] = lstart[d]
        else:
            if d == 0:
                state[0] = 0
                state[1] = 0
                state[2] = 1
                return found, nodes
            d -= 1
        # advance at depth d: next live option containing item_at[d]
        bi = item_at[d]
        wi = bi >> 6
        bit = np.uint64(1) << np.uint64(bi & 63)
        k = pos[d]
        e = lend[d]
        while k < e and bufm[k, wi] & bit == 0:
            k += 1
        if k == e:
            forward = False
            continue
        pos[d] = k + 1
        oc = bufid[k]
        chosen[d] = oc
        n = e
        nr = 0
        if nw == 1:
            a0 = bufm[k, 0]
            for k2 in range(lstart[d], e):
                m0 = bufm[k2, 0]
                oid = bufid[k2]
                keep = (m0 & a0) == 0
                bufid[n] = oid
                bufm[n, 0] = m0
                rem[nr] = oid
                n += keep
                nr += 1 - keep
        elif nw == 2:
            a0 = bufm[k, 0]
            a1 = bufm[k, 1]
            for k2 in range(lstart[d], e):
                m0 = bufm[k2, 0]
                m1 = bufm[k2, 1]
                oid = bufid[k2]
                keep = ((m0 & a0) | (m1 & a1)) == 0
                bufid[n] = oid
                bufm[n, 0] = m0
                bufm[n, 1] = m1
                rem[nr] = oid
                n += keep
                nr += 1 - keep
        else:
            for k2 in range(lstart[d], e):
                hit = np.uint64(0)
                for w in range(nw):
                    m = bufm[k2, w]
                    hit |= m & bufm[k, w]
                    bufm[n, w] = m
                oid = bufid[k2]
                keep = hit == 0
                bufid[n] = oid
                rem[nr] = oid
                n += keep
                nr += 1 - keep
        for i in range(n_cnt):
            cnt[d + 1, i] = cnt[d, i]
        for r in range(nr):
            o2 = rem[r]
            for j in range(kk):
                cnt[d + 1, oit[o2, j]] -= 1
        for j in range(kk):
            cnt[d + 1, oit[oc, j]] = big
        for w in range(nw):
            cmask[d + 1, w] = cmask[d, w] | bufm[k, w]
        lstart[d + 1] = e
        lend[d + 1] = n
        d += 1
        forward = True


@njit(cache=True)
def _slot(cmask, d, tmask):
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(cmask.shape[1]):
        h = (h ^ cmask[d, w]) * np.uint64(0xFF51AFD7ED558CCD)
        h ^= h >> np.uint64(31)
    return np.int64(h & np.uint64(tmask))


@njit(cache=True)
def bitset_count_memo(oit, primmask, bufid, bufm, rem, lstart, lend, cmask, cnt, item_at, pos,
                      lbase, tkeys, tvals, n_primary, state, max_nodes):
    """``bitset_search`` for counting only, remembering the count below each finished node.

    The live options of a node are exactly those disjoint from its covered items, so two
    nodes covering the same items have the same number of completions: the count is kept in
    a direct-mapped cache keyed by the covered-item bitset (``tvals`` -1: empty slot) and
    reused when another branch reaches the same set (Knuth's memo idea from Algorithm Z).
    ``state`` = [forward, depth, finished, total found]; returns (total found, nodes, hits).
    """
    nw = bufm.shape[1]
    kk = oit.shape[1]
    n_cnt = cnt.shape[1]
    tmask = tvals.shape[0] - 1
    big = 1 << 30
    forward = state[0] == 1
    d = state[1]
    found = state[3]
    nodes = 0
    hits = 0
    while True:
        if forward:
            done = True
            for w in range(nw):
                if cmask[d, w] & primmask[w] != primmask[w]:
                    done = False
                    break
            if done:
                found += 1
                forward = False
                continue
            slot = _slot(cmask, d, tmask)
            if tvals[slot] >= 0:
                same = True
                for w in range(nw):
                    if tkeys[slot, w] != cmask[d, w]:
                        same = False
                        break
                if same:
                    found += tvals[slot]
                    hits += 1
                    forward = False
                    continue
            if max_nodes > 0 and nodes >= max_nodes:
                state[0] = 1
                state[1] = d
                state[3] = found
                return found, nodes, hits
            nodes += 1
            lbase[d] = found
            best = big + 1
            bi = -1
            for i in range(n_primary):
                c = cnt[d, i]
                if c < best:
                    best = c
                    bi = i
                    if c == 0:
                        break
            item_at[d] = bi
            pos[d] = lstart[d]
            if best == 0:
                pos[d] = lend[d]  # nothing to try: finish (and remember) this node at once
        else:
            if d == 0:
                state[0] = 0
                state[1] = 0
                state[2] = 1
                state[3] = found
                return found, nodes, hits
            d -= 1
        bi = item_at[d]
        wi = bi >> 6
        bit = np.uint64(1) << np.uint64(bi & 63)
        k = pos[d]
        e = lend[d]
        while k < e and bufm[k, wi] & bit == 0:
            k += 1
        if k == e:
            slot = _slot(cmask, d, tmask)
            for w in range(nw):
                tkeys[slot, w] = cmask[d, w]
            tvals[slot] = found - lbase[d]
            forward = False
            continue
        pos[d] = k + 1
        oc = bufid[k]
        n = e
        nr = 0
        if nw == 2:
            a0 = bufm[k, 0]
            a1 = bufm[k, 1]
            for k2 in range(lstart[d], e):
                m0 = bufm[k2, 0]
                m1 = bufm[k2, 1]
                oid = bufid[k2]
                keep = ((m0 & a0) | (m1 & a1)) == 0
                bufid[n] = oid
                bufm[n, 0] = m0
                bufm[n, 1] = m1
                rem[nr] = oid
                n += keep
                nr += 1 - keep
        else:
            for k2 in range(lstart[d], e):
                hit = np.uint64(0)
                for w in range(nw):
                    m = bufm[k2, w]
                    hit |= m & bufm[k, w]
                    bufm[n, w] = m
                oid = bufid[k2]
                keep = hit == 0
                bufid[n] = oid
                rem[nr] = oid
                n += keep
                nr += 1 - keep
        for i in range(n_cnt):
            cnt[d + 1, i] = cnt[d, i]
        for r in range(nr):
            o2 = rem[r]
            for j in range(kk):
                cnt[d + 1, oit[o2, j]] -= 1
        for j in range(kk):
            cnt[d + 1, oit[oc, j]] = big
        for w in range(nw):
            cmask[d + 1, w] = cmask[d, w] | bufm[k, w]
        lstart[d + 1] = e
        lend[d + 1] = n
        d += 1
        forward = True


# --- first-empty-item bitboard kernel (plain exact cover, at most 128 items) -----------------
from numba.cpython.unsafe.numbers import trailing_zeros  # noqa: E402


@njit(cache=True)
def firstcell_count(lo, hi, start, end, blo, bhi, cur, endv, state, max_nodes):
    """Count exact covers by always covering the first uncovered item (in the item order the
    options were packed with): the options of item i are those whose first item is i, as two
    64-bit masks. No MRV, no links: two ANDs per candidate, for tilings whose cells are ordered
    along the short side of the region. Resumable: ``state`` = (depth, count, nodes, done);
    returns after about ``max_nodes`` placements (0 = no budget)."""
    full = np.int64(-1)
    d = state[0]
    count = state[1]
    nodes = 0
    while d >= 0:
        if cur[d] < endv[d]:
            o = cur[d]
            cur[d] = o + 1
            a = lo[o]
            b = hi[o]
            x = blo[d]
            y = bhi[d]
            if (a & x) == 0 and (b & y) == 0:
                nodes += 1
                nx = x | a
                ny = y | b
                if nx == full:
                    if ny == full:
                        count += 1
                        continue
                    i = 64 + trailing_zeros(~ny)
                else:
                    i = trailing_zeros(~nx)
                d += 1
                blo[d] = nx
                bhi[d] = ny
                cur[d] = start[i]
                endv[d] = end[i]
                if max_nodes > 0 and nodes >= max_nodes:
                    break
        else:
            d -= 1
    state[0] = d
    state[1] = count
    state[2] += nodes
    state[3] = 1 if d < 0 else 0
    return count


def _as_i64(v: int) -> np.int64:
    return np.int64(v - (1 << 64) if v >= 1 << 63 else v)


class FirstCellMatrix:
    """A plain exact-cover problem (primary items only, at most 128) packed for
    ``firstcell_count``; ``order`` is the item order the search covers them in."""

    MAX_ITEMS = 128

    def __init__(self, n_items: int, ptr, items, order=None):
        if n_items > self.MAX_ITEMS:
            raise SolverError(f"the first-cell kernel takes at most {self.MAX_ITEMS} items")
        pos = np.arange(n_items, dtype=np.int64) if order is None else np.empty(n_items, dtype=np.int64)
        if order is not None:
            if sorted(order) != list(range(n_items)):
                raise SolverError("item order must be a permutation of the items")
            pos[np.asarray(order, dtype=np.int64)] = np.arange(n_items, dtype=np.int64)
        ptr = np.asarray(ptr, dtype=np.int64)
        items = pos[np.asarray(items, dtype=np.int64)] if len(items) else np.zeros(0, dtype=np.int64)
        n_opt = len(ptr) - 1
        first = np.full(n_opt, 1 << 20, dtype=np.int64)
        lo_u = [0] * n_opt
        hi_u = [0] * n_opt
        for o in range(n_opt):
            a = b = 0
            row = items[ptr[o]:ptr[o + 1]].tolist()
            for p in row:
                if p < 64:
                    a |= 1 << p
                else:
                    b |= 1 << (p - 64)
            lo_u[o], hi_u[o] = a, b
            if row:
                first[o] = min(row)
        keep = np.nonzero(first < n_items)[0]  # an option with no item never covers anything
        order_o = keep[np.argsort(first[keep], kind="stable")]
        self.lo = np.array([_as_i64(lo_u[o]) for o in order_o], dtype=np.int64)
        self.hi = np.array([_as_i64(hi_u[o]) for o in order_o], dtype=np.int64)
        self.option_of = order_o
        f = first[order_o]
        self.start = np.searchsorted(f, np.arange(self.MAX_ITEMS), side="left").astype(np.int64)
        self.end = np.searchsorted(f, np.arange(self.MAX_ITEMS), side="right").astype(np.int64)
        init = sum(1 << p for p in range(n_items, self.MAX_ITEMS))
        self.init_lo, self.init_hi = _as_i64(init & ((1 << 64) - 1)), _as_i64(init >> 64)
        depth = n_items + 2
        self.blo = np.zeros(depth, dtype=np.int64)
        self.bhi = np.zeros(depth, dtype=np.int64)
        self.cur = np.zeros(depth, dtype=np.int64)
        self.endv = np.zeros(depth, dtype=np.int64)
        self.state = np.zeros(4, dtype=np.int64)
        self.blo[0], self.bhi[0] = self.init_lo, self.init_hi
        if n_items == 0:
            self.state[:] = (-1, 1, 0, 1)  # the empty cover
        else:
            i0 = 0
            self.cur[0], self.endv[0] = self.start[i0], self.end[i0]

    @property
    def finished(self) -> bool:
        return bool(self.state[3])

    def count(self, max_nodes: int = 0) -> int:
        """Go on counting for about ``max_nodes`` placements (0: to the end); the count so far."""
        if not self.finished:
            firstcell_count(self.lo, self.hi, self.start, self.end, self.blo, self.bhi, self.cur, self.endv,
                            self.state, np.int64(max_nodes))
        return int(self.state[1])


def _first_uncovered(lo: int, hi: int) -> int:
    """Position of the first uncovered item of a board (two signed 64-bit words)."""
    a = lo & ((1 << 64) - 1)
    if a != (1 << 64) - 1:
        return ((~a) & (a + 1)).bit_length() - 1
    b = hi & ((1 << 64) - 1)
    return 64 + ((~b) & (b + 1)).bit_length() - 1


def _firstcell_frontier(m: "FirstCellMatrix", parts: int, max_depth: int = 4) -> tuple[list[tuple[int, int]], int]:
    """Boards after the first levels of the search (expanded breadth-first until there are at
    least ``parts``), and the solutions met on the way: disjoint subtrees whose counts add up."""
    full = (1 << 64) - 1
    boards = [(int(m.init_lo) & full, int(m.init_hi) & full)]
    found = 0
    lo = [int(v) & full for v in m.lo]
    hi = [int(v) & full for v in m.hi]
    for _ in range(max_depth):
        if len(boards) >= parts:
            break
        nxt = []
        for x, y in boards:
            i = _first_uncovered(x, y)
            for o in range(int(m.start[i]), int(m.end[i])):
                if lo[o] & x == 0 and hi[o] & y == 0:
                    nx, ny = x | lo[o], y | hi[o]
                    if nx == full and ny == full:
                        found += 1
                    else:
                        nxt.append((nx, ny))
        boards = nxt
    return boards, found


def firstcell_count_from(m: "FirstCellMatrix", x: int, y: int) -> int:
    """Covers completing board (x, y) (unsigned words), counted by the kernel."""
    i = _first_uncovered(x, y)
    blo = np.zeros_like(m.blo)
    bhi = np.zeros_like(m.bhi)
    cur = np.zeros_like(m.cur)
    endv = np.zeros_like(m.endv)
    state = np.zeros(4, dtype=np.int64)
    blo[0], bhi[0] = _as_i64(x), _as_i64(y)
    cur[0], endv[0] = m.start[i], m.end[i]
    firstcell_count(m.lo, m.hi, m.start, m.end, blo, bhi, cur, endv, state, np.int64(0))
    return int(state[1])


_POOL_MATRIX: "FirstCellMatrix | None" = None


def _count_boards(boards: list[tuple[int, int]]) -> int:
    assert _POOL_MATRIX is not None
    return sum(firstcell_count_from(_POOL_MATRIX, x, y) for x, y in boards)


def firstcell_count_parallel(m: "FirstCellMatrix", workers: int) -> int:
    """The full count of ``m`` over ``workers`` forked processes (the same count as one)."""
    global _POOL_MATRIX
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    boards, found = _firstcell_frontier(m, 16 * workers)
    if workers <= 1 or len(boards) < 2 or "fork" not in mp.get_all_start_methods():
        return found + sum(firstcell_count_from(m, x, y) for x, y in boards)
    _POOL_MATRIX = m
    chunks = [boards[k::4 * workers] for k in range(4 * workers)]  # interleaved: similar sizes
    chunks = [c for c in chunks if c]
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=mp.get_context("fork")) as pool:
        return found + sum(pool.map(_count_boards, chunks))
