"""Numba kernels of the exact-cover engine: minimum-remaining-values search on option bitsets.

The live options of a search node are one bitset over the options (one bit per option).
Choosing option ``k`` clears, in one pass over the words, every option that conflicts with
``k`` - the union of ``k``'s *kill sets*, precomputed per item - and subtracts each cleared
option from the per-item live counts that drive the minimum-remaining-values (MRV) choice.
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
Algorithm Z), for colour problems too. Both kernels are resumable and non-recursive: they return
to Python only to hand over a batch of solutions or after a node budget. Numba is imported here
only, so import this module lazily.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..kernelargs import kernel_bundle

# st[]: the resumable search state shared by the packer (BitsetMatrix) and the kernels
ST_FORWARD, ST_DEPTH, ST_DONE, ST_FOUND, ST_NODES, ST_HITS = range(6)
ST_FIELDS = 6
# ctl[]: what one kernel call is asked to do
CTL_LIMIT, CTL_RECORD, CTL_MAX_NODES = range(3)
CTL_FIELDS = 3

_BIG = 1 << 30  # live count of a covered item: never the minimum
MAX_BITSET_BYTES = 96 << 20  # kill sets + per-depth live sets; larger problems use links


class BitsetArgs(NamedTuple):
    """Everything ``bitset_search`` / ``bitset_count_memo`` read and write, by name."""

    DTYPES = {"kill": np.uint64, "kidx": np.int32, "pit": np.int32, "hkey": np.uint64,
              "live": np.uint64, "cnt": np.int32, "hk": np.uint64, "chosen": np.int32,
              "out": np.int32, "out_len": np.int32, "tkeys": np.uint64}
    kill: np.ndarray     # (units, W) options killed by each unit (items, then colour units)
    kptr: np.ndarray     # (options + 1) option o's units are kidx[kptr[o]:kptr[o + 1]]
    kidx: np.ndarray
    pit: np.ndarray      # (options, kp) primary items of each option, padded with n_primary
    npr: np.ndarray      # (options) number of primary items of each option
    hkey: np.ndarray     # (options, UW) the claims of each option (memo key bits)
    live: np.ndarray     # (depth, W) live options per depth
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
    n_primary: int


@njit(cache=True)
def _next_option(a, d):
    """Index of the next live option at depth d containing the item branched on, or -1."""
    W = a.live.shape[1]
    bi = a.item_at[d]
    p = a.pos[d]
    w = p >> 6
    if w >= W:
        return -1
    m = a.kill[bi, w] & a.live[d, w] & (np.uint64(0xFFFFFFFFFFFFFFFF) << np.uint64(p & 63))
    while m == 0:
        w += 1
        if w >= W:
            return -1
        m = a.kill[bi, w] & a.live[d, w]
    return (w << 6) + trailing_zeros(m)


@njit(cache=True)
def _take(a, d, oc):
    """Fill depth d + 1 from depth d after taking option oc."""
    W = a.live.shape[1]
    kp = a.pit.shape[1]
    n1 = a.cnt.shape[1]
    k0 = a.kptr[oc]
    k1 = a.kptr[oc + 1]
    for i in range(n1):
        a.cnt[d + 1, i] = a.cnt[d, i]
    for w in range(W):
        lv = a.live[d, w]
        if lv == 0:
            a.live[d + 1, w] = lv
            continue
        acc = np.uint64(0)
        for e in range(k0, k1):
            acc |= a.kill[a.kidx[e], w]
        a.live[d + 1, w] = lv & ~acc
        r = lv & acc
        while r != 0:
            o2 = (w << 6) + trailing_zeros(r)
            r &= r - np.uint64(1)
            for j in range(kp):
                a.cnt[d + 1, a.pit[o2, j]] -= 1
    for j in range(kp):
        a.cnt[d + 1, a.pit[oc, j]] = _BIG
    a.nunc[d + 1] = a.nunc[d] - a.npr[oc]


@njit(cache=True)
def _mrv(a, d):
    """(item, live count) of the first primary item with the fewest live options."""
    best = _BIG + 1
    bi = -1
    for i in range(a.n_primary):
        c = a.cnt[d, i]
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
    to ``out[k]`` (length ``out_len[k]``). Returns (solutions found in this call, nodes).
    """
    st = a.st
    limit = a.ctl[CTL_LIMIT]
    record = a.ctl[CTL_RECORD] != 0
    max_nodes = a.ctl[CTL_MAX_NODES]
    forward = st[ST_FORWARD] == 1
    d = st[ST_DEPTH]
    found = 0
    nodes = 0
    while True:
        if forward:
            if a.nunc[d] == 0:
                if record:
                    for k in range(d):
                        a.out[found, k] = a.chosen[k]
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
            bi, best = _mrv(a, d)
            if best == 0:
                forward = False
                continue
            a.item_at[d] = bi
            a.pos[d] = 0
        else:
            if d == 0:
                st[ST_FORWARD] = 0
                st[ST_DEPTH] = 0
                st[ST_DONE] = 1
                return found, nodes
            d -= 1
        oc = _next_option(a, d)
        if oc < 0:
            forward = False
            continue
        a.pos[d] = oc + 1
        a.chosen[d] = oc
        _take(a, d, oc)
        d += 1
        forward = True


@njit(cache=True)
def _slot(a, d):
    tmask = np.uint64(a.tvals.shape[0] - 1)
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(a.hk.shape[1]):
        h = (h ^ a.hk[d, w]) * np.uint64(0xFF51AFD7ED558CCD)
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
    UW = a.hk.shape[1]
    forward = st[ST_FORWARD] == 1
    d = st[ST_DEPTH]
    found = st[ST_FOUND]
    nodes = 0
    hits = 0
    while True:
        if forward:
            if a.nunc[d] == 0:
                found += 1
                forward = False
                continue
            slot = _slot(a, d)
            if a.tvals[slot] >= 0:
                same = True
                for w in range(UW):
                    if a.tkeys[slot, w] != a.hk[d, w]:
                        same = False
                        break
                if same:
                    found += a.tvals[slot]
                    hits += 1
                    forward = False
                    continue
            if max_nodes > 0 and nodes >= max_nodes:
                st[ST_FORWARD] = 1
                st[ST_DEPTH] = d
                st[ST_FOUND] = found
                return found, nodes, hits
            nodes += 1
            a.lbase[d] = found
            bi, best = _mrv(a, d)
            a.item_at[d] = bi
            a.pos[d] = 0
            if best == 0:
                a.pos[d] = a.live.shape[1] << 6  # nothing to try: finish (and remember) at once
        else:
            if d == 0:
                st[ST_FORWARD] = 0
                st[ST_DEPTH] = 0
                st[ST_DONE] = 1
                st[ST_FOUND] = found
                return found, nodes, hits
            d -= 1
        oc = _next_option(a, d)
        if oc < 0:
            slot = _slot(a, d)
            for w in range(UW):
                a.tkeys[slot, w] = a.hk[d, w]
            a.tvals[slot] = found - a.lbase[d]
            forward = False
            continue
        a.pos[d] = oc + 1
        _take(a, d, oc)
        for w in range(UW):
            a.hk[d + 1, w] = a.hk[d, w] | a.hkey[oc, w]
        d += 1
        forward = True


def colour_units(n_items: int, items: np.ndarray, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Per entry its unit (the item; a colour unit ``n_items + j`` for a coloured entry), the
    item of each colour unit, and the number of units."""
    unit = items.astype(np.int64).copy()
    coloured = np.nonzero(colours > 0)[0]
    if len(coloured) == 0:
        return unit, np.zeros(0, dtype=np.int64), n_items
    key = items[coloured].astype(np.int64) * (int(colours.max()) + 1) + colours[coloured]
    uniq, inv = np.unique(key, return_inverse=True)
    unit[coloured] = n_items + inv
    pair_item = uniq // (int(colours.max()) + 1)
    return unit, pair_item, n_items + len(uniq)


class BitsetMatrix:
    """State of the option-bitset kernels for one problem (same interface as DlxMatrix)."""

    def __init__(self, n_primary: int, n_secondary: int, opt_ptr, opt_items, opt_colour=None):
        n_items = n_primary + n_secondary
        ptr = np.asarray(opt_ptr, dtype=np.int64)
        items = np.asarray(opt_items, dtype=np.int64)
        colours = np.zeros(len(items), dtype=np.int64) if opt_colour is None else np.asarray(opt_colour, dtype=np.int64)
        n_opts = len(ptr) - 1
        self.n_primary, self.n_secondary, self.n_options = n_primary, n_secondary, n_opts
        unit, pair_item, n_units = colour_units(n_items, items, colours)
        W = max(1, (n_opts + 63) // 64)
        UW = max(1, (n_units + 63) // 64)
        prim = items < n_primary
        kp = max(1, int(np.add.reduceat(prim.astype(np.int64), ptr[:-1]).max()) if n_opts and len(items) else 1)
        depth = n_primary + 2
        self.max_depth = n_primary + 1
        kill = np.zeros((max(1, n_units), W), dtype=np.uint64)
        kptr = np.zeros(n_opts + 1, dtype=np.int64)
        kidx = np.zeros(max(1, len(items)), dtype=np.int32)
        pit = np.zeros((max(1, n_opts), kp), dtype=np.int32)
        npr = np.zeros(max(1, n_opts), dtype=np.int64)
        hkey = np.zeros((max(1, n_opts), UW), dtype=np.uint64)
        live0 = np.zeros(W, dtype=np.uint64)
        cnt0 = np.zeros(n_primary + 1, dtype=np.int32)
        _pack_all(n_primary, n_items, ptr, items, unit, pair_item, kill, kptr, kidx, pit, npr, hkey,
                  live0, cnt0)
        self._static = dict(kill=kill, kptr=kptr, kidx=kidx, pit=pit, npr=npr, hkey=hkey)
        self._live0, self._cnt0 = live0, cnt0
        self._depth, self._W, self._UW = depth, W, UW
        self.args = kernel_bundle(
            BitsetArgs,
            shapes={"live": (depth, W), "cnt": (depth, n_primary + 1), "nunc": depth, "hk": (depth, UW),
                    "item_at": depth, "pos": depth, "chosen": depth, "lbase": depth,
                    "tkeys": (1, UW), "tvals": 1, "out": (1, depth), "out_len": 1,
                    "st": ST_FIELDS, "ctl": CTL_FIELDS},
            n_primary=n_primary, **self._static,
        )
        self.reset()

    def reset(self) -> None:
        a = self.args
        a.live[0] = self._live0
        a.cnt[0] = self._cnt0
        a.nunc[0] = self.n_primary
        a.hk[0] = 0
        a.st[:] = 0
        a.st[ST_FORWARD] = 1

    @staticmethod
    def nbytes(n_primary: int, n_units: int, n_options: int) -> int:
        """Bytes of the kill sets and the per-depth live sets and counts."""
        W = (n_options + 63) // 64 + 1
        return 8 * W * (n_units + n_primary + 2) + 4 * (n_primary + 2) * (n_primary + 1)

    @property
    def finished(self) -> bool:
        return bool(self.args.st[ST_DONE])

    def run(self, limit: int = 0, record: bool = False, batch: int = 1, max_nodes: int = 0):
        """One kernel call; returns (found, nodes, solutions as lists of option indices)."""
        rows = max(1, batch if record else 1)
        a = self.args
        if a.out.shape[0] < rows:
            a = self.args = a._replace(out=np.zeros((rows, self._depth), dtype=np.int32),
                                       out_len=np.zeros(rows, dtype=np.int32))
        a.ctl[CTL_LIMIT] = limit
        a.ctl[CTL_RECORD] = 1 if record else 0
        a.ctl[CTL_MAX_NODES] = max_nodes
        found, nodes = bitset_search(a)
        sols = [a.out[k, : a.out_len[k]].tolist() for k in range(found)] if record else []
        return int(found), int(nodes), sols

    def count_memo(self, max_nodes: int = 0, log_table: int = 18) -> tuple[int, int, int]:
        """Count with the memo cache (from a fresh state, resumable across node budgets);
        returns (total so far, nodes, cache hits). ``finished`` tells when it is exact."""
        a = self.args
        if a.tvals.shape[0] == 1:
            size = 1 << max(10, min(log_table, (4 * self.n_options).bit_length()))
            a = self.args = a._replace(tkeys=np.zeros((size, self._UW), dtype=np.uint64),
                                       tvals=np.full(size, -1, dtype=np.int64))
        a.ctl[CTL_MAX_NODES] = max_nodes
        found, nodes, hits = bitset_count_memo(a)
        return int(found), int(nodes), int(hits)


@njit(cache=True)
def _pack_all(n_primary, n_items, ptr, items, unit, pair_item, kill, kptr, kidx, pit, npr, hkey,
              live0, cnt0):
    n_opts = len(ptr) - 1
    kp = pit.shape[1]
    for o in range(n_opts):
        bit = np.uint64(1) << np.uint64(o & 63)
        w = o >> 6
        live0[w] |= bit
        kptr[o + 1] = ptr[o + 1]
        npo = 0
        for e in range(ptr[o], ptr[o + 1]):
            i = items[e]
            u = unit[e]
            kill[i, w] |= bit  # touch set of the item
            if u >= n_items:
                kill[u, w] |= bit  # for now: options giving the item this colour
            kidx[e] = u
            hkey[o, u >> 6] |= np.uint64(1) << np.uint64(u & 63)
            if i < n_primary:
                pit[o, npo] = i
                npo += 1
                cnt0[i] += 1
        for j in range(npo, kp):
            pit[o, j] = n_primary
        npr[o] = npo
    # colour unit (s, c): options touching s, less those giving s colour c
    for j in range(len(pair_item)):
        u = n_items + j
        s = pair_item[j]
        for w in range(kill.shape[1]):
            kill[u, w] = kill[s, w] & ~kill[u, w]
