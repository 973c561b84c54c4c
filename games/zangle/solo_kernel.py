"""Numba kernels of the Zangle solo solver: move generation, memoised DFS, random playouts.

Imported lazily (this module imports numba). A deal's cards are numbered: first the draw
sequence (initial middle, then the draw pile, next card first), then the tableau piles. A state
is the pile arrays (slot order kept, so lines name real piles), the middle as a bitmask over the
draw sequence, the number of cards drawn so far and the phase (0 play, 1 fill).

**Memo key.** Two states are merged when one becomes the other by renaming live cards of the
same *kind* (congruent shapes; Z cards are one kind) and permuting piles: then they have the
same value and the same number of winning lines. The key (``_key``) is a canonical form of that
class: the kinds of the middle as a sorted multiset, the single-card piles as a sorted multiset
of kinds, the piles of two or more cards (always an original prefix: a fill only ever lands on
an empty pile) as a multiset of kind sequences, plus the cards drawn and the phase. The draw
pile's future is the same deal suffix for every state with the same number drawn.

**Move cache.** The Zangles of a position depend only on the kinds of the visible cards in
their order (middle by card number, then pile tops by pile), so ``_gen`` keeps them per such
sequence (``MoveCache``) as bitmasks over visible positions, already ordered and deduplicated;
a hit only maps positions back to cards. The moves and their order are exactly those of a fresh
search (``_zangle_moves``), so lines and counts do not change.

Kernels take ``typing.NamedTuple`` bundles (``SoloArgs``, ``SoloSearch``) made by
``tanglekit.kernelargs.kernel_bundle``; flag and counter indices are the ``F_*`` / ``ST_*``
constants below, used by the packer (``games/zangle/solo_search.py``) and the kernels alike.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, objmode

from ... import numba_cache  # noqa: F401  (its cache locator, before the kernels below are defined)
from ._kernel import ZOut, ZScratch, _lookup, _search_in

MIDDLE = 3
K_ZANGLE, K_FILL, K_SKIP, K_DISCARD = 0, 1, 2, 3
CAP_UNKNOWN = -1

# SoloArgs.flags
F_FILL_MAY, F_VOLUNTARY, F_ZMIN = 0, 1, 2
N_FLAGS = 3
# SoloSearch.stats
ST_STATES, ST_LINE, ST_REASON, ST_MEMO, ST_GEN_HITS, ST_GEN_MISSES = 0, 1, 2, 3, 4, 5
N_STATS = 6
# ST_REASON values
R_DONE, R_NODES, R_TIME, R_OVERFLOW = 0, 1, 2, 3
# MoveCache.used
MC_SLOTS, MC_POOL = 0, 1
# SoloMany.layout: cards face up in the middle, cards of the draw sequence, piles, then heights
L_M0, L_ND, L_PILES, L_HTS = 0, 1, 2, 3
MAX_PILES = 8
N_LAYOUT = L_HTS + MAX_PILES
# names of a line's moves (``_name_line``): per Zangle target, pieces and Z cards; per fill src, dst
NAME_BAD = -2  # no target found: the caller names the line itself (and reports the error)

KIND_BITS = 6  # a deal has at most 62 cards, so at most 62 kinds: kind + 1 fits 6 bits
KIND_MASK = (1 << KIND_BITS) - 1


class SoloArgs(NamedTuple):
    """A solo deal as kernel arrays (cards numbered draw sequence first, then the piles)."""

    piles: np.ndarray  # (piles, tallest): card numbers bottom to top, -1 padded
    hts: np.ndarray  # cards in each pile
    sid: np.ndarray  # tiling-table shape id of each card
    kind: np.ndarray  # each card's kind within the deal: 0, 1, ... (same kind = congruent shapes)
    carea: np.ndarray  # triangles of each card
    flags: np.ndarray  # F_FILL_MAY, F_VOLUNTARY, F_ZMIN (0/1)
    nd: int  # cards of the draw sequence (middle + draw pile)
    m0: int  # cards face up in the middle at the start


class SoloSearch(NamedTuple):
    """Limits and outputs of ``solve_kernel``."""

    line_k: np.ndarray  # the winning line: move kinds (K_*) ...
    line_v: np.ndarray  # ... and values
    stats: np.ndarray  # ST_* counters
    count_mode: int  # 1: count winning lines (up to cap); 0: stop at the first win
    cap: int
    max_nodes: int
    max_memo: int  # memo entries at most (a power of two)
    deadline: float  # perf_counter() time to give up at (0: none)


class SoloMany(NamedTuple):
    """Many deals of one deck for ``solve_many_kernel``, numbered as in ``SoloArgs``."""

    cards: np.ndarray  # (deals, cards): deck position of each card (draw sequence, then piles), -1 padded
    layout: np.ndarray  # (deals, N_LAYOUT): L_M0, L_ND, L_PILES, then the pile heights from L_HTS
    flags: np.ndarray  # (deals, N_FLAGS)
    dsid: np.ndarray  # tiling-table shape id of each deck position (the deck's kinds: at most 63 shapes)
    darea: np.ndarray  # triangles of each deck position


class SoloManyOut(NamedTuple):
    """What ``solve_many_kernel`` finds for each deal: ``solve_kernel``'s value, counters and line,
    and the line's moves named as the engine names them (``_name_line``)."""

    value: np.ndarray  # (deals,)
    stats: np.ndarray  # (deals, N_STATS)
    line_k: np.ndarray  # (deals, longest line + 1)
    line_v: np.ndarray
    names: np.ndarray  # (deals, room): entries used, then the moves' names (``_name_line``)


class Shape(NamedTuple):
    """Per-deal tables derived from ``SoloArgs`` at the start of a kernel (``_prepare``)."""

    pre: np.ndarray  # (piles, tallest + 1): bitmask of the first h cards of pile p
    cls_first: np.ndarray  # (piles, tallest + 1): lowest pile whose first h kinds equal pile p's
    cls_next: np.ndarray  # (piles, tallest + 1): next such pile after p, -1 at the end
    sfx_area: np.ndarray  # (nd + 1): triangles of draw-sequence cards i.. nd-1
    sfx_max: np.ndarray  # (nd + 1): largest card among them
    sfx_hist: np.ndarray  # (nd + 1, largest area + 1): cards of each area among them
    hist_play: np.ndarray  # scratch: cards in play by area
    hist_supply: np.ndarray  # scratch: supply cards by area
    tmp: np.ndarray  # scratch for sorting kinds


class GenWork(NamedTuple):
    """Scratch buffers of the move generator."""

    out: ZOut  # Zangles of the visible cards (target position, piece mask)
    vis_idx: np.ndarray  # card number of each visible position
    vis_sid: np.ndarray  # its shape id
    vis_pl: np.ndarray  # its place: 0 middle, 1 tableau
    sel: np.ndarray  # a fresh search's moves as position masks ...
    score: np.ndarray  # ... and their scores
    scratch: ZScratch  # of the finder's search


class MoveCache(NamedTuple):
    """Open-addressing table: visible kind sequence (two words) -> a run of ``pool``."""

    keys: np.ndarray  # (slots, 2), -1 = free
    off: np.ndarray  # start of the run in pool
    cnt: np.ndarray  # moves in the run
    pool: np.ndarray  # position masks, in move order
    used: np.ndarray  # MC_SLOTS, MC_POOL


@njit(cache=True, inline="always")
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _prepare(deal):
    """The derived tables of a deal (``Shape``)."""
    piles = deal.piles
    hts = deal.hts
    kind = deal.kind
    npiles, hmax = piles.shape
    nd = deal.nd
    pre = np.zeros((npiles, hmax + 1), np.int64)
    cls_first = np.full((npiles, hmax + 1), -1, np.int64)
    cls_next = np.full((npiles, hmax + 1), -1, np.int64)
    for p in range(npiles):
        m = 0
        for k in range(hts[p]):
            m |= np.int64(1) << piles[p, k]
            pre[p, k + 1] = m
    for h in range(1, hmax + 1):
        for p in range(npiles):
            if hts[p] < h:
                continue
            # lowest pile with the same first h kinds
            for q in range(p + 1):
                if hts[q] < h:
                    continue
                same = True
                for k in range(h):
                    if kind[piles[q, k]] != kind[piles[p, k]]:
                        same = False
                        break
                if same:
                    cls_first[p, h] = q
                    break
            for q in range(p + 1, npiles):
                if hts[q] < h:
                    continue
                same = True
                for k in range(h):
                    if kind[piles[q, k]] != kind[piles[p, k]]:
                        same = False
                        break
                if same:
                    cls_next[p, h] = q
                    break
    sfx_area = np.zeros(nd + 1, np.int64)
    sfx_max = np.zeros(nd + 1, np.int64)
    for i in range(nd - 1, -1, -1):
        a = deal.carea[i]
        sfx_area[i] = sfx_area[i + 1] + a
        sfx_max[i] = max(sfx_max[i + 1], a)
    amax = 0
    for c in range(deal.carea.shape[0]):
        amax = max(amax, deal.carea[c])
    sfx_hist = np.zeros((nd + 1, amax + 1), np.int64)
    for i in range(nd - 1, -1, -1):
        sfx_hist[i] = sfx_hist[i + 1]
        sfx_hist[i, deal.carea[i]] += 1
    tmp = np.zeros(npiles + MIDDLE + 1, np.int64)
    return Shape(pre, cls_first, cls_next, sfx_area, sfx_max, sfx_hist, np.zeros(amax + 1, np.int64),
                 np.zeros(amax + 1, np.int64), tmp)


@njit(cache=True)
def _new_work(npiles):
    nv_max = MIDDLE + npiles
    out = ZOut(np.empty(nv_max << nv_max, np.int64), np.empty(nv_max << nv_max, np.int64),
               np.empty(0, np.int64))
    mmax = (1 << nv_max) + 2
    return GenWork(out, np.empty(nv_max, np.int64), np.empty(nv_max, np.int64), np.empty(nv_max, np.int64),
                   np.empty(mmax, np.int64), np.empty(mmax, np.int64),
                   ZScratch(np.empty(nv_max, np.int64), np.empty(nv_max, np.int64), np.empty(nv_max, np.int64)))


@njit(cache=True)
def _new_cache(slots, pool):
    return MoveCache(np.full((slots, 2), -1, np.int64), np.zeros(slots, np.int64), np.zeros(slots, np.int64),
                     np.empty(pool, np.int64), np.zeros(2, np.int64))


@njit(cache=True)
def _cache_slot(w1, w2, size):
    x = (w1 * np.int64(-7046029254386353131)) ^ (w2 * np.int64(-4658895280553007687))
    x ^= x >> 31
    return x & (size - 1)


@njit(cache=True)
def _cache_find(cache, w1, w2):
    """Slot of (w1, w2), or of the free slot where it would go."""
    size = cache.off.shape[0]
    s = _cache_slot(w1, w2, size)
    while True:
        if cache.keys[s, 0] == -1 or (cache.keys[s, 0] == w1 and cache.keys[s, 1] == w2):
            return s
        s = (s + 1) & (size - 1)


@njit(cache=True)
def _cache_grow(cache, need):
    """The cache with room for ``need`` more pool entries and one more slot (entries kept)."""
    slots = cache.off.shape[0]
    if (cache.used[MC_SLOTS] + 1) * 4 >= slots * 3:
        slots *= 2
    pool = cache.pool.shape[0]
    while cache.used[MC_POOL] + need > pool:
        pool *= 2
    if slots == cache.off.shape[0] and pool == cache.pool.shape[0]:
        return cache
    new = _new_cache(slots, pool)
    new.pool[: cache.used[MC_POOL]] = cache.pool[: cache.used[MC_POOL]]
    new.used[MC_POOL] = cache.used[MC_POOL]
    new.used[MC_SLOTS] = cache.used[MC_SLOTS]
    for s in range(cache.off.shape[0]):
        if cache.keys[s, 0] != -1:
            t = _cache_find(new, cache.keys[s, 0], cache.keys[s, 1])
            new.keys[t, 0] = cache.keys[s, 0]
            new.keys[t, 1] = cache.keys[s, 1]
            new.off[t] = cache.off[s]
            new.cnt[t] = cache.cnt[s]
    return new


@njit(cache=True)
def _zangle_moves(nv, zmin, table, work):
    """The distinct Zangles of the visible cards in ``work`` (``vis_sid``, ``vis_pl``) into
    ``work.sel`` as position masks, best first (most tableau cards, then fewest middle cards;
    stable in the search's order); returns their number, or -1 when a buffer is too small."""
    vis_sid = work.vis_sid
    vis_pl = work.vis_pl
    sel_out = work.sel
    score_out = work.score
    area = table.area
    cnt, _b = _search_in(vis_sid[:nv], vis_pl[:nv], table, work.out, 0, -1, 0, work.scratch)
    if cnt > work.out.t.shape[0]:
        return -1
    zall = 0
    for j in range(nv):
        if area[vis_sid[j]] == 0:
            zall |= 1 << j
    n = 0
    for r in range(cnt):
        t = work.out.t[r]
        sel = (1 << t) | work.out.m[r]
        if zall != 0:
            if not zmin:
                sel |= zall
            else:
                has_mid = False
                has_own = False
                npc = 0
                for j in range(nv):
                    if (sel >> j) & 1:
                        if vis_pl[j] == 0:
                            has_mid = True
                        else:
                            has_own = True
                        if j != t:
                            npc += 1
                zsel = -1
                if not has_mid or not has_own:
                    want = 0 if not has_mid else 1
                    for j in range(nv):
                        if (zall >> j) & 1 and vis_pl[j] == want:
                            zsel = j
                            break
                elif npc == 1:
                    for j in range(nv):
                        if (zall >> j) & 1:
                            zsel = j
                            break
                if zsel >= 0:
                    sel |= 1 << zsel
        score = 0
        for j in range(nv):
            if (sel >> j) & 1:
                score += 64 if vis_pl[j] == 1 else -1
        dup = False
        for q in range(n):
            if sel_out[q] == sel:
                dup = True
                break
        if dup:
            continue
        if n >= sel_out.shape[0] - 2:
            return -1
        # insertion by score (most tableau cards, then fewest middle cards), stable
        q = n
        while q > 0 and score_out[q - 1] < score:
            sel_out[q] = sel_out[q - 1]
            score_out[q] = score_out[q - 1]
            q -= 1
        sel_out[q] = sel
        score_out[q] = score
        n += 1
    return n


@njit(cache=True)
def _gen(piles, hts, mid, drawn, phase, deal, table, work, cache, cached, first_only, mk, mv):
    """Distinct moves of a state into ``mk``/``mv`` (kind, value), best first. Returns (number
    of moves or -1 on a buffer overflow, the cache: it may have grown, whether it was a hit).
    With ``cached`` false the cache is neither read nor written (a search rarely sees a visible
    sequence twice; random playouts from one deal often do). With ``first_only`` (a search for
    one winning line, not a count) a Zangle is left out when an earlier one uses the same pile
    tops and middle cards of the same kinds: it leads to an equivalent position (the memo key's
    renaming), which is lost if the earlier one's is, and never reached if that one wins.

    A Zangle's value is the bitmask of the deal cards it uses (two Zangles with the same cards
    lead to the same state); a fill's value is ``src * 64 + dst`` with ``dst`` the first empty pile.
    """
    npiles = hts.shape[0]
    nd = deal.nd
    n = 0
    if phase == 1:
        dst = -1
        for p in range(npiles):
            if hts[p] == 0:
                dst = p
                break
        for s in range(npiles):
            if hts[s] >= 2:
                mk[n] = K_FILL
                mv[n] = s * 64 + dst
                n += 1
        if deal.flags[F_FILL_MAY]:
            mk[n] = K_SKIP
            mv[n] = 0
            n += 1
        return n, cache, False
    kind = deal.kind
    vis_idx = work.vis_idx
    nv = 0
    nmid = 0
    w1 = 0
    w2 = 0
    x = mid
    i = 0
    while x:
        if x & 1:
            vis_idx[nv] = i
            w1 |= (kind[i] + 1) << (KIND_BITS * nv)
            nv += 1
            nmid += 1
        x >>= 1
        i += 1
    for p in range(npiles):
        if hts[p] > 0:
            c = piles[p, hts[p] - 1]
            vis_idx[nv] = c
            w2 |= (kind[c] + 1) << (KIND_BITS * (nv - nmid))
            nv += 1
    hit = False
    if nmid > 0 and nv > nmid:
        s = _cache_find(cache, w1, w2) if cached else 0
        if cached and cache.keys[s, 0] != -1:
            hit = True
            off = cache.off[s]
            cnt = cache.cnt[s]
            pool = cache.pool
        else:
            sid = deal.sid
            for j in range(nv):
                work.vis_sid[j] = sid[vis_idx[j]]
                work.vis_pl[j] = 0 if j < nmid else 1
            cnt = _zangle_moves(nv, deal.flags[F_ZMIN], table, work)
            if cnt < 0:
                return -1, cache, False
            if not cached:
                off = 0
                pool = work.sel
            elif (cache.used[MC_SLOTS] + 1) * 4 >= cache.off.shape[0] * 3 or \
                    cache.used[MC_POOL] + cnt > cache.pool.shape[0]:
                cache = _cache_grow(cache, cnt)
                s = _cache_find(cache, w1, w2)
            if cached:
                off = cache.used[MC_POOL]
                cache.keys[s, 0] = w1
                cache.keys[s, 1] = w2
                cache.off[s] = off
                cache.cnt[s] = cnt
                cache.pool[off: off + cnt] = work.sel[:cnt]
                cache.used[MC_POOL] = off + cnt
                cache.used[MC_SLOTS] += 1
                pool = cache.pool
        if cnt >= mk.shape[0] - 1:
            return -1, cache, hit
        sig = work.score  # free now: each move's tops and middle kinds
        for r in range(cnt):
            sel = pool[off + r]
            if first_only:
                # a move using the same pile tops and middle cards of the same kinds as an earlier
                # one leads to an equivalent position (the memo key's renaming): skip it
                mk_ = 0
                m1 = 0
                m2 = 0
                m3 = 0
                for j in range(nmid):
                    if (sel >> j) & 1:
                        kj = kind[vis_idx[j]] + 1
                        if mk_ == 0:
                            m1 = kj
                        elif mk_ == 1:
                            m2 = kj
                        else:
                            m3 = kj
                        mk_ += 1
                # sort the (at most three) middle kinds
                if m1 > m2:
                    m1, m2 = m2, m1
                if m2 > m3:
                    m2, m3 = m3, m2
                if m1 > m2:
                    m1, m2 = m2, m1
                sg = ((sel >> nmid) << (3 * KIND_BITS)) | m1 | (m2 << KIND_BITS) | (m3 << (2 * KIND_BITS))
                dup = False
                for q in range(r):
                    if sig[q] == sg:
                        dup = True
                        break
                sig[r] = sg
                if dup:
                    continue
            used = 0
            j = 0
            while sel:
                if sel & 1:
                    used |= np.int64(1) << vis_idx[j]
                sel >>= 1
                j += 1
            mk[n] = K_ZANGLE
            mv[n] = used
            n += 1
    if drawn < nd and (n == 0 or deal.flags[F_VOLUNTARY]):
        mk[n] = K_DISCARD
        mv[n] = 0
        n += 1
    return n, cache, hit


@njit(cache=True, inline="always")
def _apply(piles, hts, mid, drawn, nd, kind_, val):
    """Play one move on (piles, hts) in place; returns (mid, drawn, phase)."""
    npiles = hts.shape[0]
    phase = 0
    if kind_ == K_ZANGLE:
        mid &= ~val
        for p in range(npiles):
            if hts[p] > 0 and (val >> piles[p, hts[p] - 1]) & 1:
                hts[p] -= 1
        while _popcount(mid) < MIDDLE and drawn < nd:
            mid |= np.int64(1) << drawn
            drawn += 1
        if _fill_possible(hts):
            phase = 1
    elif kind_ == K_FILL:
        s = val // 64
        d = val % 64
        piles[d, 0] = piles[s, hts[s] - 1]
        hts[d] = 1
        hts[s] -= 1
        if _fill_possible(hts):
            phase = 1
    elif kind_ == K_DISCARD:
        mid = 0
        while _popcount(mid) < MIDDLE and drawn < nd:
            mid |= np.int64(1) << drawn
            drawn += 1
    return mid, drawn, phase


@njit(cache=True, inline="always")
def _fill_possible(hts):
    empty = False
    src = False
    for p in range(hts.shape[0]):
        if hts[p] == 0:
            empty = True
        elif hts[p] >= 2:
            src = True
    return empty and src


@njit(cache=True, inline="always")
def _area_bound_fails(piles, hts, mid, drawn, deal, shp):
    """Sound cut: the tableau holds more triangles than the Zangles left can clear.

    Say k Zangles are left, Zangle i with target area A_i, pieces of A_i triangles in all, and
    middle cards M_i. Its non-Z cards hold 2 A_i triangles, so it clears 2 A_i - area(M_i)
    tableau triangles. Every Zangle spends at least one middle card: charge it to one, c_i; these
    are distinct cards of the supply (the face-up middle and the draw pile), so k <= K, the
    supply's size, and sum area(M_i) >= sum area(c_i) >= the k smallest supply areas. The
    targets are distinct cards still in play (tableau or supply), so sum A_i <= the k largest
    areas in play. Hence the tableau's triangles are at most max over k <= K of
    2 * (k largest in play) - (k smallest in the supply).
    """
    carea = deal.carea
    inplay = shp.hist_play
    supply = shp.hist_supply
    amax = inplay.shape[0] - 1
    for a in range(amax + 1):
        inplay[a] = shp.sfx_hist[drawn, a]
        supply[a] = shp.sfx_hist[drawn, a]
    tab = 0
    for p in range(hts.shape[0]):
        for k in range(hts[p]):
            a = carea[piles[p, k]]
            tab += a
            inplay[a] += 1
    x = mid
    i = 0
    while x:
        if x & 1:
            a = carea[i]
            inplay[a] += 1
            supply[a] += 1
        x >>= 1
        i += 1
    # walk k = 1, 2, ... K: the k-th largest in play (hi downwards), the k-th smallest supply card
    best = 0
    total = 0
    hi = amax
    lo = 0
    while True:
        while hi >= 0 and inplay[hi] == 0:
            hi -= 1
        while lo <= amax and supply[lo] == 0:
            lo += 1
        if lo > amax or hi < 0:
            break
        total += 2 * hi - lo
        if total > best:
            best = total
            if tab <= best:
                return False
        inplay[hi] -= 1
        supply[lo] -= 1
    return tab > best


@njit(cache=True, inline="always")
def _sorted_pack(tmp, n):
    """The first n values of tmp sorted, packed KIND_BITS each (a multiset of kinds + 1)."""
    for a in range(1, n):
        v = tmp[a]
        b = a - 1
        while b >= 0 and tmp[b] > v:
            tmp[b + 1] = tmp[b]
            b -= 1
        tmp[b + 1] = v
    out = 0
    for a in range(n):
        out |= tmp[a] << (KIND_BITS * a)
    return out


@njit(cache=True, inline="always")
def _key(piles, hts, mid, drawn, phase, deal, shp):
    """Memo key (k1, k2, k3): a canonical form of the state up to renaming same-kind cards and
    permuting piles.

    k1: the piles of two or more cards, each an original prefix (pile q, height h). Their multiset
    of kind sequences is encoded by assigning each to a pile with that kind prefix, tallest first,
    the lowest free one (``cls_first``/``cls_next``), and setting that pile's first h card bits.
    The classes "piles whose first h kinds are this sequence" nest or are disjoint (a class at a
    smaller h that meets one at a larger h contains it), so tallest-first lowest-free always finds
    a free pile and the result depends only on the multiset. k2: the single-card piles as a sorted
    multiset of kinds. k3: the middle as a sorted multiset of kinds, the cards drawn, the phase.
    """
    npiles = hts.shape[0]
    kind = deal.kind
    tmp = shp.tmp
    hmax = 0
    ns = 0
    for p in range(npiles):
        hp = hts[p]
        if hp > hmax:
            hmax = hp
        if hp == 1:
            tmp[ns] = kind[piles[p, 0]] + 1
            ns += 1
    k2 = _sorted_pack(tmp, ns)
    k1 = 0
    taken = 0
    for h in range(hmax, 1, -1):
        for p in range(npiles):
            if hts[p] == h:
                q = shp.cls_first[p, h]
                while (taken >> q) & 1:
                    q = shp.cls_next[q, h]
                taken |= 1 << q
                k1 |= shp.pre[q, h]
    nm = 0
    x = mid
    i = 0
    while x:
        if x & 1:
            tmp[nm] = kind[i] + 1
            nm += 1
        x >>= 1
        i += 1
    k3 = _sorted_pack(tmp, nm) | (drawn << (KIND_BITS * MIDDLE)) | (phase << (KIND_BITS * MIDDLE + 7))
    return k1, k2, k3


@njit(cache=True, inline="always")
def _slot(k1, k2, k3, size):
    x = (k1 * np.int64(-7046029254386353131)) ^ (k2 * np.int64(-4658895280553007687)) ^ (k3 * 1442695040888963407)
    x ^= x >> 29
    return x & (size - 1)


@njit(cache=True, inline="always")
def _memo_get(memo, k1, k2, k3):
    """Value stored for the key, or -1. ``memo`` rows are (k1, k2, k3, value); k3 = -1 is free."""
    size = memo.shape[0]
    s = _slot(k1, k2, k3, size)
    while True:
        if memo[s, 2] == -1:
            return -1
        if memo[s, 0] == k1 and memo[s, 1] == k2 and memo[s, 2] == k3:
            return memo[s, 3]
        s = (s + 1) & (size - 1)


@njit(cache=True)
def _grow(memo):
    """The memo at twice the size (entries re-inserted)."""
    new = np.full((memo.shape[0] * 2, 4), -1, np.int64)
    for i in range(memo.shape[0]):
        if memo[i, 2] != -1:
            _memo_put(new, memo[i, 0], memo[i, 1], memo[i, 2], memo[i, 3], 0)
    return new


@njit(cache=True)
def _memo_put(memo, k1, k2, k3, v, filled):
    size = memo.shape[0]
    if filled * 4 >= size * 3:
        return filled  # full enough: stop storing (sound, only slower)
    s = _slot(k1, k2, k3, size)
    while True:
        if memo[s, 2] == -1:
            memo[s, 0] = k1
            memo[s, 1] = k2
            memo[s, 2] = k3
            memo[s, 3] = v
            return filled + 1
        if memo[s, 0] == k1 and memo[s, 1] == k2 and memo[s, 2] == k3:
            memo[s, 3] = v
            return filled
        s = (s + 1) & (size - 1)


@njit(cache=True, inline="always")
def _tableau_left(hts):
    left = 0
    for p in range(hts.shape[0]):
        left += hts[p]
    return left


@njit(cache=True)
def solve_kernel(deal, table, search):
    """Depth-first search with a memo of finished states (``deal``: SoloArgs, ``table``: ZTable,
    ``search``: SoloSearch).

    Returns the number of winning lines from the start (capped at ``search.cap``; in
    first-solution mode 0 or 1), or -1 when a limit was hit. ``search.stats`` gets the states
    searched (ST_STATES), the line length (ST_LINE), the reason (ST_REASON: R_*), the memo
    entries (ST_MEMO) and the move-cache hits and misses (ST_GEN_HITS, ST_GEN_MISSES).
    """
    piles0 = deal.piles
    hts0 = deal.hts
    nd = deal.nd
    m0 = deal.m0
    count_mode = search.count_mode
    cap = search.cap
    max_nodes = search.max_nodes
    deadline = search.deadline
    max_memo = search.max_memo
    line_k = search.line_k
    line_v = search.line_v
    stats = search.stats
    shp = _prepare(deal)
    npiles, hmax = piles0.shape
    depth_max = nd * (npiles + 3) + 8
    nv_max = MIDDLE + npiles
    mmax = (1 << nv_max) + 2
    memo = np.full((1 << 10, 4), -1, np.int64)
    P = np.zeros((depth_max + 1, npiles, hmax), np.int64)
    H = np.zeros((depth_max + 1, npiles), np.int64)
    MID = np.zeros(depth_max + 1, np.int64)
    DR = np.zeros(depth_max + 1, np.int64)
    PH = np.zeros(depth_max + 1, np.int64)
    # the moves of every depth on the current path, one after another: depth c's start at BASE[c]
    MK = np.empty(max(1 << 12, 4 * mmax), np.int64)
    MV = np.empty(MK.shape[0], np.int64)
    BASE = np.zeros(depth_max + 2, np.int64)
    NM = np.zeros(depth_max + 1, np.int64)
    IX = np.zeros(depth_max + 1, np.int64)
    ACC = np.zeros(depth_max + 1, np.int64)
    KEY = np.zeros((depth_max + 1, 3), np.int64)
    work = _new_work(npiles)
    cache = _new_cache(4, 4)  # unused: searches do not cache moves
    for q in range(N_STATS):
        stats[q] = 0
    for a in range(npiles):  # element copies: `P[0] = piles0` compiles numba's shape-error text
        H[0, a] = hts0[a]
        for b in range(hmax):
            P[0, a, b] = piles0[a, b]
    mid0 = 0
    for i in range(m0):
        mid0 |= np.int64(1) << i
    MID[0] = mid0
    DR[0] = m0
    PH[0] = 0
    nodes = 0
    filled = 0
    # evaluate the root
    if _tableau_left(H[0]) == 0:
        stats[ST_STATES] = 1
        return 1
    n, cache, hit = _gen(P[0], H[0], MID[0], DR[0], PH[0], deal, table, work, cache, False, count_mode == 0, MK, MV)
    nodes = 1
    if n < 0:
        stats[ST_STATES] = nodes
        stats[ST_REASON] = R_OVERFLOW
        return -1
    if n == 0:
        stats[ST_STATES] = nodes
        return 0
    NM[0] = n
    IX[0] = 0
    ACC[0] = 0
    k1, k2, k3 = _key(P[0], H[0], MID[0], DR[0], PH[0], deal, shp)
    KEY[0, 0] = k1
    KEY[0, 1] = k2
    KEY[0, 2] = k3
    hits = 0
    misses = 0
    d = 0
    v = 0
    while True:
        i = IX[d]
        done = i >= NM[d] or ACC[d] >= cap or (count_mode == 0 and ACC[d] > 0)
        if not done:
            IX[d] = i + 1
            c = d + 1
            for p in range(npiles):
                hp = H[d, p]
                H[c, p] = hp
                for k in range(hp):
                    P[c, p, k] = P[d, p, k]
            mid, dr, ph = _apply(P[c], H[c], MID[d], DR[d], nd, MK[BASE[d] + i], MV[BASE[d] + i])
            MID[c] = mid
            DR[c] = dr
            PH[c] = ph
            v = -1
            if _tableau_left(H[c]) == 0:
                v = 1
            else:
                k1, k2, k3 = _key(P[c], H[c], mid, dr, ph, deal, shp)
                v = _memo_get(memo, k1, k2, k3)
                if v < 0 and _area_bound_fails(P[c], H[c], mid, dr, deal, shp):
                    v = 0
                if v < 0:
                    nodes += 1
                    if nodes > max_nodes:
                        stats[ST_STATES] = nodes
                        stats[ST_REASON] = R_NODES
                        break
                    if (nodes & 4095) == 0 and deadline > 0:
                        with objmode(now="float64"):
                            now = _now()
                        if now > deadline:
                            stats[ST_STATES] = nodes
                            stats[ST_REASON] = R_TIME
                            break
                    b = BASE[d] + NM[d]
                    if b + mmax > MK.shape[0]:
                        MK2 = np.empty(2 * MK.shape[0], np.int64)
                        MV2 = np.empty(2 * MK.shape[0], np.int64)
                        MK2[:b] = MK[:b]
                        MV2[:b] = MV[:b]
                        MK = MK2
                        MV = MV2
                    BASE[c] = b
                    n, cache, hit = _gen(P[c], H[c], mid, dr, ph, deal, table, work, cache, False, count_mode == 0,
                                         MK[b:], MV[b:])
                    if hit:
                        hits += 1
                    elif ph == 0:
                        misses += 1
                    if n < 0:
                        stats[ST_STATES] = nodes
                        stats[ST_REASON] = R_OVERFLOW
                        break
                    if n == 0:
                        v = 0
                        filled = _memo_put(memo, k1, k2, k3, 0, filled)
                        if filled * 4 >= memo.shape[0] * 3 and memo.shape[0] < max_memo:
                            memo = _grow(memo)
                    else:
                        NM[c] = n
                        IX[c] = 0
                        ACC[c] = 0
                        KEY[c, 0] = k1
                        KEY[c, 1] = k2
                        KEY[c, 2] = k3
            if v >= 0:
                if v > 0 and stats[ST_LINE] == 0:
                    for q in range(c):
                        line_k[q] = MK[BASE[q] + IX[q] - 1]
                        line_v[q] = MV[BASE[q] + IX[q] - 1]
                    stats[ST_LINE] = c
                ACC[d] = min(cap, ACC[d] + v)
            else:
                d = c
        else:
            v = ACC[d]
            if count_mode == 1 or v == 0:
                filled = _memo_put(memo, KEY[d, 0], KEY[d, 1], KEY[d, 2], v, filled)
                if filled * 4 >= memo.shape[0] * 3 and memo.shape[0] < max_memo:
                    memo = _grow(memo)
            if d == 0:
                stats[ST_STATES] = nodes
                break
            d -= 1
            ACC[d] = min(cap, ACC[d] + v)
    stats[ST_MEMO] = filled
    stats[ST_GEN_HITS] = hits
    stats[ST_GEN_MISSES] = misses
    if stats[ST_REASON] != R_DONE:
        return -1
    return v


@njit(cache=True)
def _name_line(deal, table, line_k, line_v, n_line, names):
    """Name a line's moves as the engine does (``games.zangle.solo_search._zangle_action``), replaying
    it from the deal's start, into ``names``: per Zangle the target, the number of pieces, the
    pieces, the number of Z cards and the Z cards (card numbers; each group in table order: the
    middle by card number, then the pile tops by pile); per fill its source and destination
    pile; nothing for a skip or a discard. The target is the first card in table order, among
    those of half the Zangle's triangles, that the other cards tile (the engine lists targets
    largest first, then in table order). Returns the entries written, or NAME_BAD."""
    nd = deal.nd
    carea = deal.carea
    sid = deal.sid
    piles = deal.piles.copy()
    hts = deal.hts.copy()
    npiles = hts.shape[0]
    mid = 0
    for i in range(deal.m0):
        mid |= np.int64(1) << i
    dr = deal.m0
    vis = np.empty(MIDDLE + npiles, np.int64)
    tmp = np.empty(MIDDLE + npiles, np.int64)
    w = 0
    for q in range(n_line):
        kq = line_k[q]
        v = line_v[q]
        if kq == K_ZANGLE:
            nv = 0
            x = mid
            i = 0
            while x:
                if x & 1:
                    vis[nv] = i
                    nv += 1
                x >>= 1
                i += 1
            for p in range(npiles):
                if hts[p] > 0:
                    vis[nv] = piles[p, hts[p] - 1]
                    nv += 1
            total = 0
            for j in range(nv):
                if (v >> vis[j]) & 1:
                    total += carea[vis[j]]
            t = -1
            for j in range(nv):
                c = vis[j]
                if not (v >> c) & 1 or carea[c] == 0 or 2 * carea[c] != total:
                    continue
                hs = table.g[sid[c]]
                k = 0
                for jj in range(nv):
                    d = vis[jj]
                    if jj != j and (v >> d) & 1 and carea[d] > 0:
                        tmp[k] = sid[d]
                        hs += table.h[sid[d]]
                        k += 1
                if _lookup(hs, sid[c], tmp, k, table.keys, table.ent_t, table.ent_p):
                    t = j
                    break
            if t < 0:
                return NAME_BAD
            names[w] = vis[t]
            w += 1
            at = w
            w += 1
            for j in range(nv):
                c = vis[j]
                if j != t and (v >> c) & 1 and carea[c] > 0:
                    names[w] = c
                    w += 1
            names[at] = w - at - 1
            at = w
            w += 1
            for j in range(nv):
                c = vis[j]
                if (v >> c) & 1 and carea[c] == 0:
                    names[w] = c
                    w += 1
            names[at] = w - at - 1
        elif kq == K_FILL:
            names[w] = v // 64
            names[w + 1] = v % 64
            w += 2
        mid, dr, _ph = _apply(piles, hts, mid, dr, nd, kq, v)
    return w


@njit(cache=True)
def solve_many_kernel(many, table, out, count_mode, cap, max_nodes, max_memo):
    """``solve_kernel`` on every deal of ``many`` (``SoloMany``), then ``_name_line`` on its
    winning line, into ``out`` (``SoloManyOut``): ``out.names[i, 0]`` is the number of name
    entries that follow (NAME_BAD when the line could not be named). No time limit."""
    cards = many.cards
    for i in range(cards.shape[0]):
        m0 = many.layout[i, L_M0]
        nd = many.layout[i, L_ND]
        npl = many.layout[i, L_PILES]
        hts = many.layout[i, L_HTS: L_HTS + npl].copy()
        hmax = 1
        n = nd
        for p in range(npl):
            hmax = max(hmax, hts[p])
            n += hts[p]
        piles = np.full((npl, hmax), -1, np.int64)
        k = nd
        for p in range(npl):
            for h in range(hts[p]):
                piles[p, h] = k
                k += 1
        sid = np.empty(n, np.int64)
        carea = np.empty(n, np.int64)
        for c in range(n):
            sid[c] = many.dsid[cards[i, c]]
            carea[c] = many.darea[cards[i, c]]
        deal = SoloArgs(piles, hts, sid, sid.copy(), carea, many.flags[i].copy(), nd, m0)
        search = SoloSearch(out.line_k[i], out.line_v[i], out.stats[i], count_mode, cap, max_nodes, max_memo, 0.0)
        v = solve_kernel(deal, table, search)
        out.value[i] = v
        n_line = out.stats[i, ST_LINE]
        out.names[i, 0] = 0
        if n_line > 0:
            out.names[i, 0] = _name_line(deal, table, out.line_k[i], out.line_v[i], n_line, out.names[i, 1:])


def _now() -> float:
    import time

    return time.perf_counter()


@njit(cache=True)
def playout_kernel(deal, table, n_games, seed):
    """Wins out of ``n_games`` playouts that pick uniformly among the distinct moves."""
    np.random.seed(seed)
    piles0 = deal.piles
    hts0 = deal.hts
    nd = deal.nd
    npiles = piles0.shape[0]
    nv_max = MIDDLE + npiles
    mmax = (1 << nv_max) + 2
    mk = np.zeros(mmax, np.int64)
    mv = np.zeros(mmax, np.int64)
    work = _new_work(npiles)
    cache = _new_cache(1 << 10, 1 << 12)
    wins = 0
    mid0 = 0
    for i in range(deal.m0):
        mid0 |= np.int64(1) << i
    piles = np.empty_like(piles0)
    hts = np.empty_like(hts0)
    for _ in range(n_games):
        for a in range(npiles):  # element copies: `piles[:] = piles0` compiles numba's shape-error text
            hts[a] = hts0[a]
            for b in range(piles0.shape[1]):
                piles[a, b] = piles0[a, b]
        mid = mid0
        dr = deal.m0
        ph = 0
        while True:
            if _tableau_left(hts) == 0:
                wins += 1
                break
            n, cache, _hit = _gen(piles, hts, mid, dr, ph, deal, table, work, cache, True, False, mk, mv)
            if n <= 0:
                break
            j = np.random.randint(0, n)
            mid, dr, ph = _apply(piles, hts, mid, dr, nd, mk[j], mv[j])
    return wins
