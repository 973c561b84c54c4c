"""Numba kernels of the exact-cover engine: minimum-remaining-values search on option bitsets.

The live options of a search node are one bitset over the options (one bit per option).
Choosing option ``k`` clears, in one pass over the words, every option that conflicts with
``k`` - the union of ``k``'s *kill sets*, precomputed per item - and subtracts the cleared
options from the per-item live counts that drive the minimum-remaining-values (MRV) choice, a
word of cleared options at a time (popcounts over the transposed kill rows, which vectorise).
Backtracking just drops a level: no undo. This is Knuth's Algorithm C (the same item choice,
first item on ties, and the same option order, so the same tree and the same solutions in the
same order as the dancing-links kernel in ``dlx.search``), with colours:

* a primary item, or a secondary item an option takes without a colour, kills every option
  that touches the item;
* a secondary item ``s`` taken with colour ``c`` kills the options touching ``s`` without
  colour ``c`` (a *colour unit* per pair (s, c) used by some option).

The state below a node is fixed by the *claims* of the chosen options - covered primary items,
secondary items taken without a colour, (item, colour) pairs - so ``bitset_count_memo`` keeps
the count below each finished node in a cache keyed by that claim set (Knuth's memo idea from
Algorithm Z), for colour problems too. For tilings (a cell graph given) both kernels skip an
option that cuts off a region of uncovered cells whose size is no multiple of the options'
common cell count: such subtrees hold no solution, so the solutions and their order stay the
same. Both kernels are resumable and non-recursive: they return to Python only to hand over a
batch of solutions or after a node budget. Numba is imported here only, so import this module
lazily.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from .. import numba_cache  # noqa: F401  (its cache locator, before the kernels below are defined)
from ..kernelargs import kernel_bundle

# st[]: the resumable search state shared by the packer (BitsetMatrix) and the kernels
ST_FORWARD, ST_DEPTH, ST_DONE, ST_FOUND, ST_NODES, ST_HITS = range(6)
ST_FIELDS = 6
# ctl[]: what one kernel call is asked to do (CTL_PRUNE: isolated-region pruning on, when built)
CTL_LIMIT, CTL_RECORD, CTL_MAX_NODES, CTL_PRUNE = range(4)
CTL_FIELDS = 4

_BIG = 1 << 30  # live count of a covered item: never the minimum
MAX_BITSET_BYTES = 96 << 20  # kill sets + per-depth live sets; larger problems use links


@intrinsic
def popcount(typingctx, x):
    """Set bits of a uint64 (LLVM's ctpop, which vectorises)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [args[0].type])
        return builder.call(fn, [args[0]])

    return sig, codegen


class BitsetArgs(NamedTuple):
    """Everything ``bitset_search`` / ``bitset_count_memo`` read and write, by name."""

    DTYPES = {"kill": np.uint64, "killt": np.uint64, "pit": np.int32,
              "live": np.uint64, "acc": np.uint64, "cnt": np.int32, "hk": np.uint64, "chosen": np.int32,
              "out": np.int32, "out_len": np.int32, "tkeys": np.uint64,
              "adj": np.uint64, "ocell": np.uint64, "onbr": np.uint64, "emp": np.uint64, "seed": np.uint64,
              "comp": np.uint64, "front": np.uint64}
    kill: np.ndarray     # (units, W) options killed by each unit (items, then colour units)
    killt: np.ndarray    # (W, n_primary) the primary items' rows of kill, transposed
    kptr: np.ndarray     # (options + 1) option o's units are kidx[kptr[o]:kptr[o + 1]] (its CSR ptr)
    kidx: np.ndarray
    pit: np.ndarray      # (options, kp) primary items of each option, padded with n_primary
    npr: np.ndarray      # (options) number of primary items of each option
    live: np.ndarray     # (depth, W) live options per depth
    acc: np.ndarray      # (W) scratch: the options the chosen one kills
    cnt: np.ndarray      # (depth, n_primary + 1) live options per primary item per depth
    nunc: np.ndarray     # (depth) primary items still uncovered
    hk: np.ndarray       # (depth, UW) claims so far (memo key)
    item_at: np.ndarray  # (depth) item branched on
    pos: np.ndarray      # (depth) next option index to try
    chosen: np.ndarray   # (depth) option taken
    lbase: np.ndarray    # (depth) solutions counted before the node was entered (memo)
    tkeys: np.ndarray    # (table, UW) memo keys
    tvals: np.ndarray    # (table) memo counts, -1: empty slot
    out: np.ndarray      # (batch, depth) recorded solutions
    out_len: np.ndarray  # (batch)
    st: np.ndarray       # ST_* fields
    ctl: np.ndarray      # CTL_* fields
    # isolated-region pruning (tilings): items 0 .. n_cells - 1 are cells of a graph
    adj: np.ndarray      # (cells, CW) neighbours of each cell
    ocell: np.ndarray    # (options, CW) cells of each option
    onbr: np.ndarray     # (options, CW) cells next to each option, outside it
    emp: np.ndarray      # (depth, CW) uncovered cells per depth
    seed: np.ndarray     # (CW) scratch: cells to flood from
    comp: np.ndarray     # (CW) scratch: the component being flooded
    front: np.ndarray    # (CW) scratch: its newest cells
    n_primary: int
    region: int          # every option covers a multiple of this many cells (0: no pruning)
    bound: int           # a flood stops (and passes) past this many cells


@njit(cache=True, inline="always")
def _next_option(kill, live, item_at, pos, d):
    """Index of the next live option at depth d containing the item branched on, or -1."""
    W = live.shape[1]
    bi = item_at[d]
    p = pos[d]
    w = p >> 6
    if w >= W:
        return -1
    m = kill[bi, w] & live[d, w] & (np.uint64(0xFFFFFFFFFFFFFFFF) << np.uint64(p & 63))
    while m == 0:
        w += 1
        if w >= W:
            return -1
        m = kill[bi, w] & live[d, w]
    return (w << 6) + trailing_zeros(m)


@njit(cache=True, inline="always")
def _take(kill, killt, kptr, kidx, pit, npr, live, cnt, nunc, acc, d, oc):
    """Fill depth d + 1 from depth d after taking option oc: clear the options oc kills (the
    union of its units' kill sets) and subtract them from the live counts of the primary items,
    a word of options at a time (popcounts over the transposed kill rows, which vectorise)."""
    W = live.shape[1]
    kp = pit.shape[1]
    n_primary = killt.shape[1]
    for w in range(W):
        acc[w] = 0
    for e in range(kptr[oc], kptr[oc + 1]):
        u = kidx[e]
        for w in range(W):
            acc[w] |= kill[u, w]
    for i in range(cnt.shape[1]):
        cnt[d + 1, i] = cnt[d, i]
    for w in range(W):
        lv = live[d, w]
        k = acc[w]
        live[d + 1, w] = lv & ~k
        r = lv & k
        if r != 0:
            for i in range(n_primary):
                cnt[d + 1, i] -= np.int32(popcount(killt[w, i] & r))
    for j in range(kp):
        cnt[d + 1, pit[oc, j]] = _BIG
    nunc[d + 1] = nunc[d] - npr[oc]


@njit(cache=True, inline="always")
def _isolated(adj, ocell, onbr, emp, seed, comp, front, d, oc, g, bound):
    """Whether taking option oc at depth d leaves, next to it, a connected region of uncovered
    cells whose size is not a multiple of g (no exact cover then: every option's cells are
    connected and number a multiple of g). Regions larger than ``bound`` are not checked."""
    CW = emp.shape[1]
    for w in range(CW):
        seed[w] = onbr[oc, w] & emp[d, w] & ~ocell[oc, w]
    sw = 0
    while True:
        while sw < CW and seed[sw] == 0:
            sw += 1
        if sw == CW:
            return False
        for w in range(CW):
            comp[w] = 0
            front[w] = 0
        t = trailing_zeros(seed[sw])
        bit = np.uint64(1) << np.uint64(t)
        comp[sw] = bit
        front[sw] = bit
        size = 0
        busy = True
        while busy and size <= bound:
            busy = False
            for w in range(CW):
                f = front[w]
                if f == 0:
                    continue
                busy = True
                front[w] = 0
                while f != 0:
                    c = (w << 6) + trailing_zeros(f)
                    f &= f - np.uint64(1)
                    size += 1
                    for w2 in range(CW):
                        new = adj[c, w2] & emp[d, w2] & ~ocell[oc, w2] & ~comp[w2]
                        comp[w2] |= new
                        front[w2] |= new
        if size <= bound and size % g != 0:
            return True
        for w in range(CW):
            seed[w] &= ~comp[w]


@njit(cache=True, inline="always")
def _mrv(cnt, n_primary, d):
    """(item, live count) of the first primary item with the fewest live options."""
    best = _BIG + 1
    bi = -1
    for i in range(n_primary):
        c = cnt[d, i]
        if c < best:
            best = c
            bi = i
            if c == 0:
                break
    return bi, best


@njit(cache=True)
def bitset_search(a):
    """Algorithm C on option bitsets from the saved state ``a.st``.

    Stops after ``ctl[CTL_LIMIT]`` solutions (<= 0: no limit) or ``ctl[CTL_MAX_NODES]``
    search nodes (<= 0: no budget). With ``ctl[CTL_RECORD]`` the options of each solution go
    to ``out[k]`` (length ``out_len[k]``); ``ctl[CTL_PRUNE]`` 0 turns region pruning off.
    Returns (solutions found in this call, nodes).
    """
    st = a.st
    limit = a.ctl[CTL_LIMIT]
    record = a.ctl[CTL_RECORD] != 0
    max_nodes = a.ctl[CTL_MAX_NODES]
    kill, killt, kptr, kidx, pit, npr = a.kill, a.killt, a.kptr, a.kidx, a.pit, a.npr
    live, cnt, nunc, acc, item_at, pos, chosen = a.live, a.cnt, a.nunc, a.acc, a.item_at, a.pos, a.chosen
    adj, ocell, onbr, emp, seed, comp, front = a.adj, a.ocell, a.onbr, a.emp, a.seed, a.comp, a.front
    n_primary, region, bound = a.n_primary, a.region, a.bound
    if a.ctl[CTL_PRUNE] == 0:
        region = 0
    forward = st[ST_FORWARD] == 1
    d = st[ST_DEPTH]
    found = 0
    nodes = 0
    while True:
        if forward:
            if nunc[d] == 0:
                if record:
                    for k in range(d):
                        a.out[found, k] = chosen[k]
                    a.out_len[found] = d
                found += 1
                forward = False
                if limit > 0 and found >= limit:
                    st[ST_FORWARD] = 0
                    st[ST_DEPTH] = d
                    return found, nodes
                continue
            if max_nodes > 0 and nodes >= max_nodes:
                st[ST_FORWARD] = 1
                st[ST_DEPTH] = d
                return found, nodes
            nodes += 1
            bi, best = _mrv(cnt, n_primary, d)
            if best == 0:
                forward = False
                continue
            item_at[d] = bi
            pos[d] = 0
        else:
            if d == 0:
                st[ST_FORWARD] = 0
                st[ST_DEPTH] = 0
                st[ST_DONE] = 1
                return found, nodes
            d -= 1
        while True:
            oc = _next_option(kill, live, item_at, pos, d)
            if oc < 0:
                break
            pos[d] = oc + 1
            if region == 0 or not _isolated(adj, ocell, onbr, emp, seed, comp, front, d, oc, region, bound):
                break
        if oc < 0:
            forward = False
            continue
        chosen[d] = oc
        _take(kill, killt, kptr, kidx, pit, npr, live, cnt, nunc, acc, d, oc)
        if region:
            for w in range(emp.shape[1]):
                emp[d + 1, w] = emp[d, w] & ~ocell[oc, w]
        d += 1
        forward = True


@njit(cache=True, inline="always")
def _slot(hk, tvals, d):
    tmask = np.uint64(tvals.shape[0] - 1)
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(hk.shape[1]):
        h = (h ^ hk[d, w]) * np.uint64(0xFF51AFD7ED558CCD)
        h ^= h >> np.uint64(31)
    return np.int64(h & tmask)


@njit(cache=True)
def bitset_count_memo(a):
    """``bitset_search`` counting only, remembering the count below each finished node.

    Two nodes with the same claims have the same live options and the same items left, so the
    same number of completions: the count is kept in a direct-mapped cache keyed by the claim
    bitset (``tvals`` -1: empty slot) and reused when another branch reaches the same claims.
    The running total is ``st[ST_FOUND]`` (resumable across node budgets); returns (total,
    nodes in this call, cache hits in this call).
    """
    st = a.st
    max_nodes = a.ctl[CTL_MAX_NODES]
    kill, killt, kptr, kidx, pit, npr = a.kill, a.killt, a.kptr, a.kidx, a.pit, a.npr
    live, cnt, nunc, acc, item_at, pos = a.live, a.cnt, a.nunc, a.acc, a.item_at, a.pos
    hk, tkeys, tvals, lbase = a.hk, a.tkeys, a.tvals, a.lbase
    adj, ocell, onbr, emp, seed, comp, front = a.adj, a.ocell, a.onbr, a.emp, a.seed, a.comp, a.front
    n_primary, region, bound = a.n_primary, a.region, a.bound
    UW = hk.shape[1]
    forward = st[ST_FORWARD] == 1
    d = st[ST_DEPTH]
    found = st[ST_FOUND]
    nodes = 0
    hits = 0
    while True:
        if forward:
            if nunc[d] == 0:
                found += 1
                forward = False
                continue
            slot = _slot(hk, tvals, d)
            if tvals[slot] >= 0:
                same = True
                for w in range(UW):
                    if tkeys[slot, w] != hk[d, w]:
                        same = False
                        break
                if same:
                    found += tvals[slot]
                    hits += 1
                    forward = False
                    continue
            if max_nodes > 0 and nodes >= max_nodes:
                st[ST_FORWARD] = 1
                st[ST_DEPTH] = d
                st[ST_FOUND] = found
                return found, nodes, hits
            nodes += 1
            lbase[d] = found
            bi, best = _mrv(cnt, n_primary, d)
            item_at[d] = bi
            pos[d] = 0
            if best == 0:
                pos[d] = live.shape[1] << 6  # nothing to try: finish (and remember) at once
        else:
            if d == 0:
                st[ST_FORWARD] = 0
                st[ST_DEPTH] = 0
                st[ST_DONE] = 1
                st[ST_FOUND] = found
                return found, nodes, hits
            d -= 1
        while True:
            oc = _next_option(kill, live, item_at, pos, d)
            if oc < 0:
                break
            pos[d] = oc + 1
            if region == 0 or not _isolated(adj, ocell, onbr, emp, seed, comp, front, d, oc, region, bound):
                break
        if oc < 0:
            slot = _slot(hk, tvals, d)
            for w in range(UW):
                tkeys[slot, w] = hk[d, w]
            tvals[slot] = found - lbase[d]
            forward = False
            continue
        _take(kill, killt, kptr, kidx, pit, npr, live, cnt, nunc, acc, d, oc)
        if region:
            for w in range(emp.shape[1]):
                emp[d + 1, w] = emp[d, w] & ~ocell[oc, w]
        for w in range(UW):
            hk[d + 1, w] = hk[d, w]
        for e in range(kptr[oc], kptr[oc + 1]):  # the claims of oc: its units
            u = kidx[e]
            hk[d + 1, u >> 6] |= np.uint64(1) << np.uint64(u & 63)
        d += 1
        forward = True


def _region_tables(cells, n_primary: int, ptr: np.ndarray, items: np.ndarray):
    """(g, adjacency, option cells, option neighbours, all cells) for isolated-region pruning;
    g = 0 and 1x1 dummies when there is nothing to prune (no cell graph, or g = 1)."""
    dummy = np.zeros((1, 1), dtype=np.uint64)
    off = (0, dummy, dummy, dummy, np.zeros(1, dtype=np.uint64))
    if cells is None:
        return off
    n_cells, nptr, nidx = cells
    if n_cells > n_primary or n_cells == 0 or len(ptr) < 2:
        return off
    CW = (n_cells + 63) // 64
    n_opts = len(ptr) - 1
    adj = np.zeros((n_cells, CW), dtype=np.uint64)
    ocell = np.zeros((n_opts, CW), dtype=np.uint64)
    onbr = np.zeros((n_opts, CW), dtype=np.uint64)
    emp0 = np.zeros(CW, dtype=np.uint64)
    g = _fill_region(ptr, items, n_cells, np.asarray(nptr, dtype=np.int64), np.asarray(nidx, dtype=np.int64),
                     adj, ocell, onbr, emp0)
    return (g, adj, ocell, onbr, emp0) if g > 1 else off


@njit(cache=True)
def _fill_region(ptr, items, n_cells, nptr, nidx, adj, ocell, onbr, emp0):
    """Fill the pruning tables; returns g, the gcd of the options' cell counts."""
    CW = adj.shape[1]
    one = np.uint64(1)
    for c in range(n_cells):
        emp0[c >> 6] |= one << np.uint64(c & 63)
        for k in range(nptr[c], nptr[c + 1]):
            b = nidx[k]
            adj[c, b >> 6] |= one << np.uint64(b & 63)
    g = 0
    for o in range(len(ptr) - 1):
        n = 0
        for e in range(ptr[o], ptr[o + 1]):
            c = items[e]
            if c < n_cells:
                n += 1
                ocell[o, c >> 6] |= one << np.uint64(c & 63)
                for w in range(CW):
                    onbr[o, w] |= adj[c, w]
        for w in range(CW):
            onbr[o, w] &= ~ocell[o, w]
        a, b = g, n  # g = gcd(g, n)
        while b:
            a, b = b, a % b
        g = a
    return g


def colour_units(n_items: int, items: np.ndarray, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Per entry its unit (the item; a colour unit ``n_items + j`` for a coloured entry), the
    item of each colour unit, and the number of units."""
    if not len(colours) or colours.max() <= 0:
        return items, np.zeros(0, dtype=np.int64), n_items
    unit = items.astype(np.int64).copy()
    coloured = np.nonzero(colours > 0)[0]
    key = items[coloured].astype(np.int64) * (int(colours.max()) + 1) + colours[coloured]
    uniq, inv = np.unique(key, return_inverse=True)
    unit[coloured] = n_items + inv
    pair_item = uniq // (int(colours.max()) + 1)
    return unit, pair_item, n_items + len(uniq)


class BitsetMatrix:
    """State of the option-bitset kernels for one problem (same interface as DlxMatrix).

    Made once per problem and reused: ``reset`` puts the search back at the root (a few array
    writes), the memo table is cleared when a count reuses it, and the region-pruning tables
    are made the first time a pruned search runs (a first solution does not need them)."""

    has_memo = True  # counts with ``count_memo``

    def __init__(self, n_primary: int, n_secondary: int, opt_ptr, opt_items, opt_colour=None,
                 cells=None, bound: int | None = None):
        """``cells`` = (n_cells, ptr, idx): items 0 .. n_cells - 1 are the cells of a graph (the
        neighbours of cell c are ``idx[ptr[c]:ptr[c + 1]]``) and every option's cells are
        connected in it,
        as in a polyform tiling; the search then skips options that cut off a region whose size
        is not a multiple of the options' cell counts (regions up to ``bound`` cells checked,
        all by default). Pruning drops only subtrees without solutions: the solutions and their
        order stay the same."""
        n_items = n_primary + n_secondary
        ptr = np.asarray(opt_ptr, dtype=np.int64)
        items = np.asarray(opt_items, dtype=np.int64)
        colours = np.zeros(len(items), dtype=np.int64) if opt_colour is None else np.asarray(opt_colour, dtype=np.int64)
        n_opts = len(ptr) - 1
        self.n_primary, self.n_secondary, self.n_options = n_primary, n_secondary, n_opts
        unit, pair_item, n_units = colour_units(n_items, items, colours)
        W = max(1, (n_opts + 63) // 64)
        UW = max(1, (n_units + 63) // 64)
        depth = n_primary + 2
        self.max_depth = n_primary + 1
        kill, pit, npr, live0, cnt0 = _pack(n_primary, n_items, ptr, items, unit, pair_item, n_units, W)
        killt = np.ascontiguousarray(kill[:n_primary].T) if n_primary else np.zeros((W, 1), dtype=np.uint64)
        self._live0, self._cnt0 = live0, cnt0
        self._depth, self._W, self._UW = depth, W, UW
        self._cells, self._bound, self._ptr, self._items = cells, bound, ptr, items
        dummy = np.zeros((1, 1), dtype=np.uint64)
        self._emp0 = np.zeros(1, dtype=np.uint64)
        self.args = kernel_bundle(
            BitsetArgs,
            shapes={"live": (depth, W), "acc": W, "cnt": (depth, n_primary + 1), "nunc": depth, "hk": (depth, UW),
                    "item_at": depth, "pos": depth, "chosen": depth, "lbase": depth,
                    "tkeys": (1, UW), "tvals": 1, "out": (1, depth), "out_len": 1,
                    "st": ST_FIELDS, "ctl": CTL_FIELDS, "emp": (depth, 1), "seed": 1, "comp": 1, "front": 1},
            n_primary=n_primary, kill=kill, killt=killt, kptr=ptr, kidx=unit, pit=pit, npr=npr,
            adj=dummy, ocell=dummy, onbr=dummy, region=0, bound=0,
        )
        self._memo_used = False
        self.reset()

    def _regions(self) -> None:
        """Make the isolated-region pruning tables (once; nothing without a cell graph)."""
        if self._cells is None:
            return
        region, adj, ocell, onbr, emp0 = _region_tables(self._cells, self.n_primary, self._ptr, self._items)
        self._cells = None
        if not region:
            return
        CW = adj.shape[1]
        self._emp0 = emp0
        z = np.zeros
        self.args = self.args._replace(
            adj=adj, ocell=ocell, onbr=onbr, region=np.int64(region),
            bound=np.int64(adj.shape[0] if self._bound is None else self._bound),
            emp=z((self._depth, CW), dtype=np.uint64), seed=z(CW, dtype=np.uint64),
            comp=z(CW, dtype=np.uint64), front=z(CW, dtype=np.uint64))
        self.args.emp[0] = emp0

    def reset(self) -> None:
        """Back to the root, for a new search (or count) on the same problem."""
        a = self.args
        a.live[0] = self._live0
        a.cnt[0] = self._cnt0
        a.nunc[0] = self.n_primary
        a.hk[0] = 0
        a.emp[0] = self._emp0
        a.st[:] = 0
        a.st[ST_FORWARD] = 1
        self._memo_used = False

    @staticmethod
    def nbytes(n_primary: int, n_units: int, n_options: int) -> int:
        """Bytes of the kill sets (and their transposed primary rows) and the per-depth live
        sets and counts."""
        W = (n_options + 63) // 64 + 1
        return 8 * W * (n_units + 2 * n_primary + 2) + 4 * (n_primary + 2) * (n_primary + 1)

    @property
    def finished(self) -> bool:
        return bool(self.args.st[ST_DONE])

    def run(self, limit: int = 0, record: bool = False, batch: int = 1, max_nodes: int = 0,
            prune: bool = True):
        """One kernel call; returns (found, nodes, solutions as lists of option indices).
        ``prune``: isolated-region pruning (with a cell graph; the same solutions either way).
        A search keeps the setting it started with: pass the same value until it finishes."""
        if prune and self._cells is not None:
            self._regions()
        rows = max(1, batch if record else 1)
        a = self.args
        if a.out.shape[0] < rows:
            a = self.args = a._replace(out=np.zeros((rows, self._depth), dtype=np.int32),
                                       out_len=np.zeros(rows, dtype=np.int32))
        a.ctl[CTL_LIMIT] = limit
        a.ctl[CTL_RECORD] = 1 if record else 0
        a.ctl[CTL_MAX_NODES] = max_nodes
        a.ctl[CTL_PRUNE] = 1 if prune else 0
        found, nodes = bitset_search(a)
        sols = [a.out[k, : a.out_len[k]].tolist() for k in range(found)] if record else []
        return int(found), int(nodes), sols

    def count_memo(self, max_nodes: int = 0, log_table: int = 18) -> tuple[int, int, int]:
        """Count with the memo cache (from a fresh state, resumable across node budgets);
        returns (total so far, nodes, cache hits). ``finished`` tells when it is exact."""
        if self._cells is not None:
            self._regions()
        a = self.args
        if a.tvals.shape[0] == 1:
            size = 1 << max(10, min(log_table, (4 * self.n_options).bit_length()))
            a = self.args = a._replace(tkeys=np.zeros((size, self._UW), dtype=np.uint64),
                                       tvals=np.full(size, -1, dtype=np.int64))
        elif not self._memo_used:
            a.tvals.fill(-1)  # the table of an earlier count (its entries hold, but a count counts)
        self._memo_used = True
        a.ctl[CTL_MAX_NODES] = max_nodes
        a.ctl[CTL_PRUNE] = 1
        found, nodes, hits = bitset_count_memo(a)
        return int(found), int(nodes), int(hits)


@njit(cache=True)
def _pack(n_primary, n_items, ptr, items, unit, pair_item, n_units, W):
    """The static tables from the options in CSR form (``unit[e]``: entry e's unit)."""
    n_opts = len(ptr) - 1
    kp = 1
    for o in range(n_opts):
        npo = 0
        for e in range(ptr[o], ptr[o + 1]):
            npo += items[e] < n_primary
        kp = max(kp, npo)
    kill = np.zeros((max(1, n_units), W), dtype=np.uint64)
    pit = np.full((max(1, n_opts), kp), n_primary, dtype=np.int32)
    npr = np.zeros(max(1, n_opts), dtype=np.int64)
    live0 = np.zeros(W, dtype=np.uint64)
    cnt0 = np.zeros(n_primary + 1, dtype=np.int32)
    for o in range(n_opts):
        bit = np.uint64(1) << np.uint64(o & 63)
        w = o >> 6
        live0[w] |= bit
        npo = 0
        for e in range(ptr[o], ptr[o + 1]):
            i = items[e]
            u = unit[e]
            kill[i, w] |= bit  # touch set of the item
            if u >= n_items:
                kill[u, w] |= bit  # for now: options giving the item this colour
            if i < n_primary:
                pit[o, npo] = i
                npo += 1
                cnt0[i] += 1
        npr[o] = npo
    # colour unit (s, c): options touching s, less those giving s colour c
    for j in range(len(pair_item)):
        u = n_items + j
        s = pair_item[j]
        for w in range(W):
            kill[u, w] = kill[s, w] & ~kill[u, w]
    return kill, pit, npr, live0, cnt0
