"""Numba kernels of the exact-cover engine: dancing links (Knuth's Algorithm C), and the front
end choosing between them and the option-bitset and first-cell kernels.

``search`` is Algorithm C over packed int32 link arrays (any size, colours), kept for problems
too large for ``dlx_bitset`` (the same search - the same minimum-remaining-values choice and
option order, so the same tree and the same solutions in the same order - on option bitsets,
colours included, several times faster). ``dlx_firstcell`` counts plain problems of at most
128 items by the first uncovered item. Every kernel is resumable and non-recursive: it returns
to Python only to hand over a batch of solutions or after a node budget (so enumeration
streams, and time limits and Ctrl-C work); no Python runs inside. Every kernel takes one
NamedTuple of arrays (``kernelargs.kernel_bundle``); the ``ST_*`` and ``CTL_*`` indices into
its state and control arrays are shared with the packer. Numba is imported here only, so
import this module lazily.
"""

from __future__ import annotations

import time
from typing import Iterator, NamedTuple

import numpy as np
from numba import njit

from .. import numba_cache  # noqa: F401  (its cache locator, before the kernels below are defined)
from ..errors import SolverError
from ..kernelargs import kernel_bundle
from .dlx_bitset import (
    CTL_FIELDS,
    CTL_LIMIT,
    CTL_MAX_NODES,
    CTL_RECORD,
    MAX_BITSET_BYTES,
    ST_DEPTH,
    ST_DONE,
    ST_FIELDS,
    ST_FORWARD,
    BitsetMatrix,
    colour_units,
)

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


class LinksArgs(NamedTuple):
    """Everything ``search`` reads and writes, by name."""

    DTYPES = {"nd": np.int32, "ln": np.int32, "llink": np.int32, "rlink": np.int32,
              "opt_of": np.int32, "x": np.int32, "out": np.int32, "out_len": np.int32}
    nd: np.ndarray       # (nodes, 4) TOP, UP, DOWN, COL of every node
    ln: np.ndarray       # (items + 2) options left per item
    llink: np.ndarray    # item list links (primary list from 0, secondary from N + 1)
    rlink: np.ndarray
    opt_of: np.ndarray   # (nodes) option of each node
    x: np.ndarray        # (depth) node chosen per level
    out: np.ndarray      # (batch, depth) recorded solutions
    out_len: np.ndarray  # (batch)
    st: np.ndarray       # ST_FORWARD, ST_DEPTH, ST_DONE
    ctl: np.ndarray      # CTL_LIMIT, CTL_RECORD, CTL_MAX_NODES


@njit(cache=True)
def search(a):
    """Run Algorithm C from the saved state ``a.st``.

    Stops after ``ctl[CTL_LIMIT]`` solutions (<= 0: no limit) or ``ctl[CTL_MAX_NODES]`` search
    nodes (<= 0: no budget). With ``ctl[CTL_RECORD]`` the options of each solution go to
    ``out[k]`` (length in ``out_len[k]``). Returns (solutions found in this call, nodes visited).
    """
    nd, ln, llink, rlink, x = a.nd, a.ln, a.llink, a.rlink, a.x
    state = a.st
    limit = a.ctl[CTL_LIMIT]
    record = a.ctl[CTL_RECORD] != 0
    max_nodes = a.ctl[CTL_MAX_NODES]
    forward = state[ST_FORWARD] == 1
    lev = state[ST_DEPTH]
    found = 0
    nodes = 0
    while True:
        if forward:
            if rlink[0] == 0:
                if record:
                    for k in range(lev):
                        a.out[found, k] = a.opt_of[x[k]]
                    a.out_len[found] = lev
                found += 1
                forward = False
                if limit > 0 and found >= limit:
                    state[ST_FORWARD] = 0
                    state[ST_DEPTH] = lev
                    return found, nodes
                continue
            if max_nodes > 0 and nodes >= max_nodes:
                state[ST_FORWARD] = 1
                state[ST_DEPTH] = lev
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
                state[ST_FORWARD] = 0
                state[ST_DEPTH] = 0
                state[ST_DONE] = 1
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

    has_memo = False  # no memo count: ``run`` counts

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
        self.max_depth = n_primary + 1
        self.args = kernel_bundle(
            LinksArgs, shapes={"x": self.max_depth + 1, "out": (1, self.max_depth + 1), "out_len": 1,
                               "st": ST_FIELDS, "ctl": CTL_FIELDS},
            nd=nd, ln=ln, llink=llink, rlink=rlink, opt_of=opt_of,
        )
        self._pristine: tuple | None = None  # the links at the root, kept once a search stops early
        self.reset()

    def reset(self) -> None:
        """Back to the root. A search that ran to its end has restored the links itself; one
        stopped early (a solution limit, a node budget) left them dancing, so they are copied
        back from the root's links (kept since the first such search)."""
        a = self.args
        if a.st[ST_DEPTH] != 0:  # stopped below the root (at the root nothing is covered)
            assert self._pristine is not None
            for dst, src in zip((a.nd, a.ln, a.llink, a.rlink), self._pristine):
                np.copyto(dst, src)
        a.x[:] = 0
        a.st[:] = 0
        a.st[ST_FORWARD] = 1

    @property
    def finished(self) -> bool:
        return bool(self.args.st[ST_DONE])

    def run(self, limit: int = 0, record: bool = False, batch: int = 1, max_nodes: int = 0,
            prune: bool = True):
        """One kernel call; returns (found, nodes, solutions as lists of option indices).
        (``prune`` is for the bitset kernel's interface: dancing links have no region pruning.)"""
        rows = max(1, batch if record else 1)
        a = self.args
        if self._pristine is None and a.st[ST_DEPTH] == 0 and a.st[ST_FORWARD] == 1 and not a.st[ST_DONE]:
            self._pristine = (a.nd.copy(), a.ln.copy(), a.llink.copy(), a.rlink.copy())
        if a.out.shape[0] < rows:
            a = self.args = a._replace(out=np.zeros((rows, self.max_depth + 1), dtype=np.int32),
                                       out_len=np.zeros(rows, dtype=np.int32))
        a.ctl[CTL_LIMIT] = limit
        a.ctl[CTL_RECORD] = 1 if record else 0
        a.ctl[CTL_MAX_NODES] = max_nodes
        found, nodes = search(a)
        sols = [a.out[k, : a.out_len[k]].tolist() for k in range(found)] if record else []
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



MAX_BITSET_ITEMS = 256  # auto: more items than this go to dancing links


def make_matrix(n_primary: int, n_secondary: int, opt_ptr, opt_items, opt_colour=None,
                kind: str = "auto", cells=None):
    """The kernel state for a problem: option bitsets (``bitset``, colours included) for at
    most ``MAX_BITSET_ITEMS`` items whose tables stay within ``dlx_bitset.MAX_BITSET_BYTES``,
    else dancing links (``links``; a bitset node costs time in the number of items and options,
    a dancing-links node in the options it removes, so large easy problems go faster there).
    ``cells`` (bitset only): the cell graph of a tiling, for isolated-region pruning."""
    if kind not in ("auto", "links", "bitset"):
        raise SolverError(f"unknown kernel {kind!r}: expected auto, links or bitset")
    if kind == "auto":
        items = np.asarray(opt_items, dtype=np.int64)
        colours = None if opt_colour is None else np.asarray(opt_colour, dtype=np.int64)
        n_units = n_primary + n_secondary
        if colours is not None and len(colours) and colours.max() > 0:
            n_units = colour_units(n_primary + n_secondary, items, colours)[2]
        need = BitsetMatrix.nbytes(n_primary, n_units, len(opt_ptr) - 1)
        small = n_primary + n_secondary <= MAX_BITSET_ITEMS
        kind = "bitset" if small and need <= MAX_BITSET_BYTES else "links"
    if kind == "bitset":
        return BitsetMatrix(n_primary, n_secondary, opt_ptr, opt_items, opt_colour, cells=cells)
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
