"""Numba kernels of the Zangle finder (imported lazily: this module imports numba).

Shape ids index ``area``/``h``/``g``; id 0 (area 0) is a Z card. ``keys`` is the sorted array of
``g[target] + sum(h[piece])`` (wrapping int64) over the tiling table's entries; ``ent_t`` and
``ent_p`` (sorted piece ids, -1 padded) let a hash hit be verified exactly. A tiling table
reaches the kernels as one ``ZTable`` bundle and their outputs as one ``ZOut`` bundle (both made
by ``tanglekit.kernelargs.kernel_bundle``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ... import numba_cache  # noqa: F401  (its cache locator, before the kernels below are defined)


class ZTable(NamedTuple):
    """A tiling table as kernel arrays (``TilingTable.kernel``)."""

    area: np.ndarray  # triangles of each shape id (0: Z card)
    h: np.ndarray  # random 64-bit hash of a shape as a piece
    g: np.ndarray  # random 64-bit hash of a shape as a target
    keys: np.ndarray  # sorted g[target] + sum(h[piece]) of every table entry
    ent_t: np.ndarray  # target shape of each entry
    ent_p: np.ndarray  # (entries, most pieces): sorted piece shapes of each entry, -1 padded


class ZScratch(NamedTuple):
    """Scratch arrays of one search: candidate pieces, the pieces chosen, their shapes."""

    cand: np.ndarray
    chosen: np.ndarray
    tmp: np.ndarray


class ZOut(NamedTuple):
    """Where a search writes the Zangles it finds: target position, piece bitmask and (batch
    searches) the deal index; its length is the buffer's capacity."""

    t: np.ndarray
    m: np.ndarray
    d: np.ndarray


@njit(cache=True)
def _lookup(key, target, chosen_sids, k, keys, ent_t, ent_p):
    """Whether the multiset ``chosen_sids[:k]`` tiles ``target`` (hash lookup + exact check)."""
    lo, hi = 0, keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    # sort the chosen ids (tiny insertion sort) for the exact comparison
    for a in range(1, k):
        v = chosen_sids[a]
        b = a - 1
        while b >= 0 and chosen_sids[b] > v:
            chosen_sids[b + 1] = chosen_sids[b]
            b -= 1
        chosen_sids[b + 1] = v
    e = lo
    while e < keys.shape[0] and keys[e] == key:
        if ent_t[e] == target:
            ok = True
            maxp = ent_p.shape[1]
            if k > maxp:
                ok = False
            else:
                for a in range(maxp):
                    want = ent_p[e, a]
                    have = chosen_sids[a] if a < k else -1
                    if want != have:
                        ok = False
                        break
            if ok:
                return True
        e += 1
    return False


@njit(cache=True)
def _search(sids, places, table, out, start, deal, best):
    """Append every valid (target, piece mask) of one table (``ZTable``) to ``out`` (``ZOut``)
    from ``start``; ``deal >= 0`` is also written to ``out.d``.

    Returns the new count (which may exceed the buffers: the caller then retries larger) and the
    most cards in one Zangle (at least ``best``).
    """
    return _search_in(sids, places, table, out, start, deal, best, new_scratch(sids.shape[0]))


@njit(cache=True)
def new_scratch(n):
    """``ZScratch`` for tables of up to ``n`` cards."""
    return ZScratch(np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64))


@njit(cache=True)
def _search_in(sids, places, table, out, start, deal, best, scratch):
    """``_search`` with its scratch arrays given (``ZScratch`` for at least ``len(sids)`` cards)."""
    cand = scratch.cand
    chosen = scratch.chosen
    tmp = scratch.tmp
    area = table.area
    h = table.h
    g = table.g
    out_t = out.t
    out_m = out.m
    out_d = out.d
    n = sids.shape[0]
    nz = 0
    zmid = False
    zown = False
    midmask = 0
    ownmask = 0
    for i in range(n):
        if places[i] == 0:
            midmask |= 1 << i
        else:
            ownmask |= 1 << i
        if area[sids[i]] == 0:
            nz += 1
            if places[i] == 0:
                zmid = True
            else:
                zown = True
    cap = out_t.shape[0]
    cnt = start
    for t in range(n):
        st = sids[t]
        A = area[st]
        if A == 0:
            continue
        nc = 0
        for a in range(1, A + 1):
            for j in range(n):
                if j != t and area[sids[j]] == a:
                    cand[nc] = j
                    nc += 1
        tmid = places[t] == 0 or zmid
        town = places[t] == 1 or zown
        k = 0
        i = 0
        s = 0
        hs = g[st]
        mask = 0
        while True:
            if i < nc:
                c = cand[i]
                a = area[sids[c]]
                if s + a <= A:
                    chosen[k] = i
                    k += 1
                    s += a
                    hs += h[sids[c]]
                    mask |= 1 << c
                    if s == A:
                        if (k >= 2 or nz >= 1) and (tmid or (mask & midmask) != 0) and (
                            town or (mask & ownmask) != 0
                        ):
                            for q in range(k):
                                tmp[q] = sids[cand[chosen[q]]]
                            if _lookup(hs, st, tmp, k, table.keys, table.ent_t, table.ent_p):
                                if cnt < cap:
                                    out_t[cnt] = t
                                    out_m[cnt] = mask
                                    if deal >= 0:
                                        out_d[cnt] = deal
                                cnt += 1
                                if 1 + k + nz > best:
                                    best = 1 + k + nz
                        # nothing more fits: undo this card and try the next one
                        k -= 1
                        s -= a
                        hs -= h[sids[c]]
                        mask ^= 1 << c
                    i += 1
                    continue
                i = nc  # candidates are sorted by area: none of the rest fits either
                continue
            if k == 0:
                break
            k -= 1
            i = chosen[k]
            c = cand[i]
            s -= area[sids[c]]
            hs -= h[sids[c]]
            mask ^= 1 << c
            i += 1
    return cnt, best


@njit(cache=True)
def table_zangles(sids, places, table, out):
    """Every valid Zangle of one table as (target position, piece bitmask) into ``out``; returns
    the count."""
    cnt, _ = _search(sids, places, table, out, 0, -1, 0)
    return cnt


@njit(cache=True)
def batch_zangles(deals, places, table, counts, best, out):
    """``table_zangles`` over many deals of one layout (rows of ``deals``); fills counts/best,
    writes (deal, target, mask) into ``out`` and returns the total."""
    total = 0
    for d in range(deals.shape[0]):
        before = total
        total, b = _search(deals[d], places, table, out, total, d, 0)
        counts[d] = total - before
        best[d] = b
    return total
