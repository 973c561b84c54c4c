"""Numba kernel of the exact-cover engine: first-empty-item counting on a 128-bit board.

For plain exact cover (primary items only, at most 128) in a given item order, the search
always covers the first uncovered item (de Bruijn's method for tilings, with the cells ordered
along the region's short side). The board is two 64-bit words; the options whose first item is
``i`` are the candidates at ``i``, in groups of at most 64. Which candidates of a group fit the
board is found with a few table look-ups instead of a test per candidate: for every byte of the
board that some candidate of the group touches, a precomputed table maps the byte's value to
the candidates that clash with it, so the fitting candidates are the complement of the OR of
those entries - one bit each, and every set bit is a placement that fits. The kernel walks
only placements that fit, in the order of the options (the same search as a plain first-item
backtrack, ``reference_firstcell_count``). Resumable after a node budget. Numba is imported
here only, so import this module lazily.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .. import numba_cache  # noqa: F401  (its cache locator, before the kernels below are defined)
from ..errors import SolverError
from ..kernelargs import kernel_bundle

# st[]: resumable state shared by FirstCellMatrix and the kernel
ST_DEPTH, ST_COUNT, ST_NODES, ST_DONE = range(4)
ST_FIELDS = 4
# ctl[]
CTL_MAX_NODES = 0
CTL_FIELDS = 1

MAX_ITEMS = 128
_FULL = (1 << 64) - 1


class FirstCellArgs(NamedTuple):
    """Tables and stack of ``firstcell_count`` (bit sets unsigned: no signed overflow)."""

    DTYPES = {"lo": np.uint64, "hi": np.uint64, "gvalid": np.uint64, "ltab": np.uint64,
              "blo": np.uint64, "bhi": np.uint64, "rem": np.uint64}

    lo: np.ndarray      # (options) item bits 0..63 of each option (options sorted by first item)
    hi: np.ndarray      # (options) item bits 64..127
    gfirst: np.ndarray  # (129) groups of item i: gfirst[i] .. gfirst[i + 1] - 1
    gbase: np.ndarray   # (groups) first option of each group
    gvalid: np.ndarray  # (groups) one bit per candidate of the group
    lptr: np.ndarray    # (groups + 1) look-ups of group g: lptr[g] .. lptr[g + 1] - 1
    lbyte: np.ndarray   # (look-ups) board byte 0..15 read
    ltab: np.ndarray    # (look-ups * 256) clash masks, 256 per look-up
    blo: np.ndarray     # (depth) board per depth
    bhi: np.ndarray
    grp: np.ndarray     # (depth) group being tried
    gend: np.ndarray    # (depth) past the last group of the depth's item
    rem: np.ndarray     # (depth) fitting candidates of the group not yet tried
    st: np.ndarray      # ST_* fields
    ctl: np.ndarray     # CTL_* fields


@njit(cache=True, inline="always")
def _fits(a, g, x, y):
    m = np.uint64(0)
    for k in range(a.lptr[g], a.lptr[g + 1]):
        b = a.lbyte[k]
        w = x if b < 8 else y
        m |= a.ltab[(k << 8) + np.int64((w >> np.uint64((b & 7) << 3)) & np.uint64(255))]
    return ~m & a.gvalid[g]


@njit(cache=True)
def firstcell_count(a):
    """Count exact covers from the saved stack (``st[ST_DEPTH]`` < 0: finished). Stops after
    about ``ctl[CTL_MAX_NODES]`` placements (<= 0: no budget); returns the count so far."""
    st = a.st
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    d = st[ST_DEPTH]
    count = st[ST_COUNT]
    max_nodes = a.ctl[CTL_MAX_NODES]
    nodes = 0
    while d >= 0:
        r = a.rem[d]
        if r == 0:
            g = a.grp[d] + 1
            if g < a.gend[d]:
                a.grp[d] = g
                a.rem[d] = _fits(a, g, a.blo[d], a.bhi[d])
            else:
                d -= 1
            continue
        a.rem[d] = r & (r - np.uint64(1))
        o = a.gbase[a.grp[d]] + np.int64(trailing_zeros(r))
        nodes += 1
        x = a.blo[d] | a.lo[o]
        y = a.bhi[d] | a.hi[o]
        if x != full:
            i = np.int64(trailing_zeros(~x))
        elif y != full:
            i = 64 + np.int64(trailing_zeros(~y))
        else:
            count += 1
            continue
        g = a.gfirst[i]
        ge = a.gfirst[i + 1]
        if g == ge:
            continue
        r = _fits(a, g, x, y)
        if r == 0 and g + 1 == ge:
            continue  # nothing fits at the first empty item: a dead end, no need to descend
        d += 1
        a.blo[d] = x
        a.bhi[d] = y
        a.grp[d] = g
        a.gend[d] = ge
        a.rem[d] = r
        if max_nodes > 0 and nodes >= max_nodes:
            break
    st[ST_DEPTH] = d
    st[ST_COUNT] = count
    st[ST_NODES] += nodes
    st[ST_DONE] = 1 if d < 0 else 0
    return count


@njit(cache=True)
def _build_tables(lo, hi, start, end, gfirst, gbase, gvalid, lptr, lbyte, ltab, count_only):
    """Groups of at most 64 candidates per item and their look-up tables. With ``count_only``
    only the sizes are computed (gfirst[-1] groups, lptr[-1] look-ups)."""
    n_groups = 0
    n_look = 0
    for i in range(128):
        gfirst[i] = n_groups
        for g0 in range(start[i], end[i], 64):
            g1 = min(end[i], g0 + 64)
            u0 = np.uint64(0)
            u1 = np.uint64(0)
            for o in range(g0, g1):
                u0 |= lo[o]
                u1 |= hi[o]
            if not count_only:
                gbase[n_groups] = g0
                n = g1 - g0
                gvalid[n_groups] = (np.uint64(0xFFFFFFFFFFFFFFFF) if n == 64
                                    else (np.uint64(1) << np.uint64(n)) - np.uint64(1))
                lptr[n_groups] = n_look
            for b in range(16):
                u = u0 if b < 8 else u1
                if (u >> np.uint64((b & 7) << 3)) & np.uint64(255) == 0:
                    continue
                if not count_only:
                    lbyte[n_look] = b
                    base = n_look << 8
                    for v in range(256):
                        ltab[base + v] = 0
                    for o in range(g0, g1):
                        w = lo[o] if b < 8 else hi[o]
                        ob = np.int64((w >> np.uint64((b & 7) << 3)) & np.uint64(255))
                        bit = np.uint64(1) << np.uint64(o - g0)
                        for t in range(8):
                            if (ob >> t) & 1:
                                ltab[base + (1 << t)] |= bit
                    # every value: OR of its single-bit entries
                    for v in range(3, 256):
                        if v & (v - 1):
                            ltab[base + v] = ltab[base + (v & (v - 1))] | ltab[base + (v & (256 - v))]
                n_look += 1
            n_groups += 1
    gfirst[128] = n_groups
    if not count_only:
        lptr[n_groups] = n_look
    return n_groups, n_look


def _first_uncovered(lo: int, hi: int) -> int:
    """Position of the first uncovered item of a board (two unsigned 64-bit words)."""
    a = lo & _FULL
    if a != _FULL:
        return ((~a) & (a + 1)).bit_length() - 1
    b = hi & _FULL
    return 64 + ((~b) & (b + 1)).bit_length() - 1


class FirstCellMatrix:
    """A plain exact-cover problem (primary items only, at most 128) packed for
    ``firstcell_count``; ``order`` is the item order the search covers them in."""

    MAX_ITEMS = MAX_ITEMS

    def __init__(self, n_items: int, ptr, items, order=None):
        if n_items > MAX_ITEMS:
            raise SolverError(f"the first-cell kernel takes at most {MAX_ITEMS} items")
        pos = np.arange(n_items, dtype=np.int64)
        if order is not None:
            order = np.asarray(order, dtype=np.int64)
            if len(order) != n_items or not np.array_equal(np.sort(order), pos):
                raise SolverError("item order must be a permutation of the items")
            pos = np.empty(n_items, dtype=np.int64)
            pos[order] = np.arange(n_items, dtype=np.int64)
        ptr = np.asarray(ptr, dtype=np.int64)
        items = np.asarray(items, dtype=np.int64)
        n_opt = len(ptr) - 1
        p = pos[items] if len(items) else np.zeros(0, dtype=np.int64)
        lens = np.diff(ptr)
        nonempty = lens > 0
        first = np.full(n_opt, 1 << 20, dtype=np.int64)
        if len(p):
            first[nonempty] = np.minimum.reduceat(p, ptr[:-1][nonempty])
        # an option's bits: 1 << pos in the low or high word (no item twice in an option)
        u = np.uint64
        lo_bits = np.where(p < 64, np.left_shift(u(1), (p % 64).astype(u)), u(0))
        hi_bits = np.where(p >= 64, np.left_shift(u(1), (p % 64).astype(u)), u(0))
        keep = np.nonzero(first < n_items)[0]  # an option with no item never covers anything
        order_o = keep[np.argsort(first[keep], kind="stable")]
        if len(p):
            lo_all = np.bitwise_or.reduceat(lo_bits, ptr[:-1][nonempty]) if nonempty.any() else np.zeros(0, u)
            hi_all = np.bitwise_or.reduceat(hi_bits, ptr[:-1][nonempty]) if nonempty.any() else np.zeros(0, u)
            full_lo = np.zeros(n_opt, dtype=u)
            full_hi = np.zeros(n_opt, dtype=u)
            full_lo[nonempty] = lo_all
            full_hi[nonempty] = hi_all
        else:
            full_lo = full_hi = np.zeros(n_opt, dtype=u)
        lo = full_lo[order_o]
        hi = full_hi[order_o]
        self.option_of = order_o
        f = first[order_o]
        self.start = np.searchsorted(f, np.arange(MAX_ITEMS), side="left").astype(np.int64)
        self.end = np.searchsorted(f, np.arange(MAX_ITEMS), side="right").astype(np.int64)
        gfirst = np.zeros(MAX_ITEMS + 1, dtype=np.int64)
        one = np.zeros(1, dtype=np.int64)
        uone = np.zeros(1, dtype=np.uint64)
        n_groups, n_look = _build_tables(lo, hi, self.start, self.end, gfirst, one, uone, one, one, uone, True)
        gbase = np.zeros(max(1, n_groups), dtype=np.int64)
        gvalid = np.zeros(max(1, n_groups), dtype=np.uint64)
        lptr = np.zeros(n_groups + 1, dtype=np.int64)
        lbyte = np.zeros(max(1, n_look), dtype=np.int64)
        ltab = np.zeros(max(1, n_look) * 256, dtype=np.uint64)
        _build_tables(lo, hi, self.start, self.end, gfirst, gbase, gvalid, lptr, lbyte, ltab, False)
        init = sum(1 << q for q in range(n_items, MAX_ITEMS))
        self.init_lo, self.init_hi = np.uint64(init & _FULL), np.uint64(init >> 64)
        self.n_items = n_items
        depth = n_items + 2
        self.args = kernel_bundle(
            FirstCellArgs,
            shapes={"blo": depth, "bhi": depth, "grp": depth, "gend": depth, "rem": depth,
                    "st": ST_FIELDS, "ctl": CTL_FIELDS},
            lo=lo, hi=hi, gfirst=gfirst, gbase=gbase, gvalid=gvalid, lptr=lptr, lbyte=lbyte, ltab=ltab,
        )
        self.reset()

    # the option bitsets as Python ints, for the frontier split
    @property
    def lo(self) -> np.ndarray:
        return self.args.lo

    @property
    def hi(self) -> np.ndarray:
        return self.args.hi

    def reset(self) -> None:
        """Back to the empty board, for a new count of the same problem."""
        self.start_at(int(self.init_lo) & _FULL, int(self.init_hi) & _FULL)

    def start_at(self, x: int, y: int) -> None:
        """Reset the stack to count the covers completing board (x, y) (unsigned words)."""
        a = self.args
        a.st[:] = 0
        a.st[ST_DEPTH] = 0
        if x == _FULL and y == _FULL:
            a.st[ST_DEPTH] = -1
            a.st[ST_COUNT] = 1  # the empty cover (or a board already full)
            a.st[ST_DONE] = 1
            return
        i = _first_uncovered(x, y)
        a.blo[0], a.bhi[0] = np.uint64(x), np.uint64(y)
        g, ge = int(a.gfirst[i]), int(a.gfirst[i + 1])
        a.grp[0], a.gend[0] = g, ge
        a.rem[0] = 0
        if g < ge:
            a.rem[0] = _fits(a, g, a.blo[0], a.bhi[0])
        else:
            a.st[ST_DEPTH] = -1
            a.st[ST_DONE] = 1

    @property
    def state(self) -> np.ndarray:
        """(depth, count, nodes, done) - the kernel's ``st`` array."""
        return self.args.st

    @property
    def finished(self) -> bool:
        return bool(self.args.st[ST_DONE])

    def count(self, max_nodes: int = 0) -> int:
        """Go on counting for about ``max_nodes`` placements (0: to the end); the count so far."""
        if not self.finished:
            self.args.ctl[CTL_MAX_NODES] = max_nodes
            firstcell_count(self.args)
        return int(self.args.st[ST_COUNT])


def reference_firstcell_count(n_items: int, options: list[tuple[int, ...]], order=None) -> int:
    """Plain-Python first-uncovered-item backtrack (the search ``firstcell_count`` performs)."""
    rank = list(range(n_items)) if order is None else [0] * n_items
    if order is not None:
        for k, i in enumerate(order):
            rank[i] = k
    by_first: dict[int, list[int]] = {}
    for opt in options:
        if not opt:
            continue
        m = 0
        for i in opt:
            m |= 1 << rank[i]
        by_first.setdefault(min(rank[i] for i in opt), []).append(m)
    full = (1 << n_items) - 1

    def rec(board: int) -> int:
        if board == full:
            return 1
        i = ((~board) & (board + 1)).bit_length() - 1
        return sum(rec(board | m) for m in by_first.get(i, ()) if m & board == 0)

    return rec(0)


def _firstcell_frontier(m: FirstCellMatrix, parts: int, max_depth: int = 4) -> tuple[list[tuple[int, int]], int]:
    """Boards after the first levels of the search (expanded breadth-first until there are at
    least ``parts``), and the solutions met on the way: disjoint subtrees whose counts add up."""
    boards = [(int(m.init_lo) & _FULL, int(m.init_hi) & _FULL)]
    found = 0
    lo = [int(v) & _FULL for v in m.lo]
    hi = [int(v) & _FULL for v in m.hi]
    if boards[0] == (_FULL, _FULL):
        return [], 1
    for _ in range(max_depth):
        if len(boards) >= parts:
            break
        nxt = []
        for x, y in boards:
            i = _first_uncovered(x, y)
            for o in range(int(m.start[i]), int(m.end[i])):
                if lo[o] & x == 0 and hi[o] & y == 0:
                    nx, ny = x | lo[o], y | hi[o]
                    if nx == _FULL and ny == _FULL:
                        found += 1
                    else:
                        nxt.append((nx, ny))
        boards = nxt
    return boards, found


def firstcell_count_from(m: FirstCellMatrix, x: int, y: int) -> int:
    """Covers completing board (x, y) (unsigned words), counted by the kernel (resets ``m``)."""
    m.start_at(x, y)
    return m.count()


_POOL_MATRIX: FirstCellMatrix | None = None


def _count_boards(boards: list[tuple[int, int]]) -> int:
    assert _POOL_MATRIX is not None
    return sum(firstcell_count_from(_POOL_MATRIX, x, y) for x, y in boards)


def firstcell_count_parallel(m: FirstCellMatrix, workers: int) -> int:
    """The full count of ``m`` over ``workers`` forked processes (the same count as one); in this
    process when forking is unsafe (another thread runs: the workers inherit ``m`` by fork)."""
    global _POOL_MATRIX
    from ..pools import WorkerPool, start_method  # the pool's modules load only for a pooled count (start-up)

    boards, found = _firstcell_frontier(m, 16 * workers)
    if workers <= 1 or len(boards) < 2 or start_method() != "fork":
        return found + sum(firstcell_count_from(m, x, y) for x, y in boards)
    _POOL_MATRIX = m
    chunks = [boards[k::4 * workers] for k in range(4 * workers)]  # interleaved: similar sizes
    chunks = [c for c in chunks if c]
    with WorkerPool(min(workers, len(chunks))) as pool:
        return found + sum(pool.map_unordered(_count_boards, chunks))
