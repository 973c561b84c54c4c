"""The Zangle solo search of ``_zangle_solo_kernel.solve_kernel`` in plain Python (start-up).

A single ``tanglekit zangle solo solve`` of a five-pile deal searches tens to a few thousand
states; numba and numpy alone cost about 0.5 s of CPU to load. This module runs the kernel's
depth-first search step for step in plain Python: the same moves in the same order (the
finder's search, Z cards, best-first order, the equivalent-move skip), the same memo key (cards
of a kind renamed, piles permuted), the same triangle cut, and the same memo that stops storing
when it would be three quarters full at ``max_memo`` entries. So it gives the same answer, the
same winning line and the same number of states (``tests/test_zangle_solo_plain.py`` compares
them on random deals and rule options). It gives up past a state budget
so that a hard deal goes to the kernel having lost only that budget. It also counts winning
lines as the kernel's count mode does, and ``playouts_plain`` draws the kernel's random playouts
(numpy's legacy generator gives numba's stream): a process whose kernels are not compiled yet
grades a small deal without compiling them (``engines.plain_first``).
"""

from __future__ import annotations

import time

from ...errors import SolverError
from .moves import card_sids, plain_zangles
from .solo_deal import SoloDeal
from .table import deck_table

MIDDLE = 3
K_ZANGLE, K_FILL, K_SKIP, K_DISCARD = 0, 1, 2, 3
KIND_BITS = 6
R_DONE, R_NODES, R_TIME = 0, 1, 2


class _Budget(Exception):
    pass


class PlainDeal:
    """A deal as the search sees it (the kernel's ``SoloArgs`` as lists): cards numbered draw
    sequence first (middle, then draw pile), then the piles bottom to top."""

    def __init__(self, deal: SoloDeal):
        self.deal = deal
        table = self.table = deck_table(deal.deck)
        seq = list(deal.sequence)
        self.ids = seq + [c for p in deal.piles for c in p]
        if len(self.ids) > 62:
            raise SolverError("a solo deal has at most 62 cards")
        self.nd = len(seq)
        sids = card_sids(deal.deck)
        self.sid = [sids[c] for c in self.ids]
        if len(table.shapes) <= 63:
            self.kind = list(self.sid)
        else:  # numbered within the deal (np.unique's inverse)
            rank = {s: i for i, s in enumerate(sorted(set(self.sid)))}
            self.kind = [rank[s] for s in self.sid]
        self.carea = [table.areas[s] for s in self.sid]
        piles = []
        k = self.nd
        for p in deal.piles:
            piles.append(tuple(range(k, k + len(p))))
            k += len(p)
        self.piles = tuple(piles)
        o = deal.options
        self.fill_may = o.fill_empty_pile == "may"
        self.voluntary = bool(o.voluntary_discard)
        self.zmin = o.z_cards == "minimal"
        self.m0 = len(deal.middle)
        self.moves_cache: dict[tuple, list[int]] = {}
        self._prepare()

    def _prepare(self) -> None:
        """The kernel's ``_prepare``: pile prefix masks and classes, supply histograms."""
        piles, kind, nd = self.piles, self.kind, self.nd
        npiles = len(piles)
        hmax = max([1] + [len(p) for p in piles])
        self.pre = [[0] * (hmax + 1) for _ in range(npiles)]
        self.cls_first = [[-1] * (hmax + 1) for _ in range(npiles)]
        self.cls_next = [[-1] * (hmax + 1) for _ in range(npiles)]
        for p in range(npiles):
            m = 0
            for k in range(len(piles[p])):
                m |= 1 << piles[p][k]
                self.pre[p][k + 1] = m
        for h in range(1, hmax + 1):
            for p in range(npiles):
                if len(piles[p]) < h:
                    continue
                sig = [kind[c] for c in piles[p][:h]]
                for q in range(p + 1):
                    if len(piles[q]) >= h and [kind[c] for c in piles[q][:h]] == sig:
                        self.cls_first[p][h] = q
                        break
                for q in range(p + 1, npiles):
                    if len(piles[q]) >= h and [kind[c] for c in piles[q][:h]] == sig:
                        self.cls_next[p][h] = q
                        break
        amax = max(self.carea) if self.carea else 0
        hist = [[0] * (amax + 1) for _ in range(nd + 1)]
        for i in range(nd - 1, -1, -1):
            hist[i] = list(hist[i + 1])
            hist[i][self.carea[i]] += 1
        self.sfx_hist = hist
        self.amax = amax


def _pack(vals: list[int]) -> int:
    out = 0
    for a, v in enumerate(sorted(vals)):
        out |= v << (KIND_BITS * a)
    return out


def _key(dl: PlainDeal, piles, mid: int, drawn: int, phase: int) -> tuple[int, int, int]:
    """The kernel's memo key (``_key``)."""
    kind = dl.kind
    k2 = _pack([kind[p[0]] + 1 for p in piles if len(p) == 1])
    hmax = max(len(p) for p in piles)
    k1 = 0
    taken = 0
    for h in range(hmax, 1, -1):
        for p in range(len(piles)):
            if len(piles[p]) == h:
                q = dl.cls_first[p][h]
                while (taken >> q) & 1:
                    q = dl.cls_next[q][h]
                taken |= 1 << q
                k1 |= dl.pre[q][h]
    mids = []
    x, i = mid, 0
    while x:
        if x & 1:
            mids.append(kind[i] + 1)
        x >>= 1
        i += 1
    k3 = _pack(mids) | (drawn << (KIND_BITS * MIDDLE)) | (phase << (KIND_BITS * MIDDLE + 7))
    return k1, k2, k3


def _area_bound_fails(dl: PlainDeal, piles, mid: int, drawn: int) -> bool:
    """The kernel's sound triangle cut (``_area_bound_fails``)."""
    carea = dl.carea
    inplay = list(dl.sfx_hist[drawn])
    supply = list(inplay)
    tab = 0
    for p in piles:
        for c in p:
            a = carea[c]
            tab += a
            inplay[a] += 1
    x, i = mid, 0
    while x:
        if x & 1:
            a = carea[i]
            inplay[a] += 1
            supply[a] += 1
        x >>= 1
        i += 1
    amax = dl.amax
    best = total = 0
    hi, lo = amax, 0
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


def _zangle_moves(dl: PlainDeal, vis_sid: list[int], vis_pl: list[int]) -> list[int]:
    """The kernel's ``_zangle_moves``: distinct Zangles as position masks, best first (kept per
    visible sequence: they depend on nothing else)."""
    ck = (tuple(vis_sid), vis_pl.count(0))
    hit = dl.moves_cache.get(ck)
    if hit is None:
        hit = dl.moves_cache[ck] = _zangle_moves_of(dl, vis_sid, vis_pl)
    return hit


def _zangle_moves_of(dl: PlainDeal, vis_sid: list[int], vis_pl: list[int]) -> list[int]:
    nv = len(vis_sid)
    area = dl.table.areas
    ts, ms = plain_zangles(vis_sid, vis_pl, dl.table)
    zall = 0
    for j in range(nv):
        if area[vis_sid[j]] == 0:
            zall |= 1 << j
    seen = set()
    out = []
    for t, m in zip(ts, ms):
        sel = (1 << t) | m
        if zall:
            if not dl.zmin:
                sel |= zall
            else:
                has_mid = has_own = False
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
        if sel in seen:
            continue
        seen.add(sel)
        score = 0
        for j in range(nv):
            if (sel >> j) & 1:
                score += 64 if vis_pl[j] == 1 else -1
        out.append((score, sel))
    out.sort(key=lambda r: -r[0])  # stable: the kernel's insertion by score
    return [sel for _, sel in out]


def _gen(dl: PlainDeal, piles, mid: int, drawn: int, phase: int, first_only: bool) -> list[tuple[int, int]]:
    """The kernel's ``_gen`` (without its move cache): distinct moves (kind, value), best first."""
    npiles = len(piles)
    if phase == 1:
        dst = next((p for p in range(npiles) if not piles[p]), -1)
        out = [(K_FILL, s * 64 + dst) for s in range(npiles) if len(piles[s]) >= 2]
        if dl.fill_may:
            out.append((K_SKIP, 0))
        return out
    kind = dl.kind
    vis_idx = []
    x, i = mid, 0
    while x:
        if x & 1:
            vis_idx.append(i)
        x >>= 1
        i += 1
    nmid = len(vis_idx)
    vis_idx += [p[-1] for p in piles if p]
    nv = len(vis_idx)
    out = []
    if nmid > 0 and nv > nmid:
        sid = dl.sid
        sels = _zangle_moves(dl, [sid[c] for c in vis_idx], [0] * nmid + [1] * (nv - nmid))
        sigs = set()
        for sel in sels:
            if first_only:
                # same pile tops and middle cards of the same kinds as an earlier move: skip it
                mk = [kind[vis_idx[j]] + 1 for j in range(nmid) if (sel >> j) & 1]
                m1, m2, m3 = sorted(mk + [0] * (3 - len(mk)))  # absent ones are 0, sorted with the rest
                sg = ((sel >> nmid) << (3 * KIND_BITS)) | m1 | (m2 << KIND_BITS) | (m3 << (2 * KIND_BITS))
                if sg in sigs:
                    continue
                sigs.add(sg)
            used = 0
            j = 0
            while sel:
                if sel & 1:
                    used |= 1 << vis_idx[j]
                sel >>= 1
                j += 1
            out.append((K_ZANGLE, used))
    if drawn < dl.nd and (not out or dl.voluntary):
        out.append((K_DISCARD, 0))
    return out


def _fill_possible(piles) -> bool:
    return any(not p for p in piles) and any(len(p) >= 2 for p in piles)


def _apply(dl: PlainDeal, piles, mid: int, drawn: int, kind_: int, val: int):
    """The kernel's ``_apply``: (piles, mid, drawn, phase) after one move."""
    phase = 0
    nd = dl.nd
    if kind_ == K_ZANGLE:
        mid &= ~val
        piles = tuple(p[:-1] if p and (val >> p[-1]) & 1 else p for p in piles)
        while bin(mid).count("1") < MIDDLE and drawn < nd:
            mid |= 1 << drawn
            drawn += 1
        if _fill_possible(piles):
            phase = 1
    elif kind_ == K_FILL:
        s, d = val // 64, val % 64
        ps = list(piles)
        ps[d] = (piles[s][-1],)
        ps[s] = piles[s][:-1]
        piles = tuple(ps)
        if _fill_possible(piles):
            phase = 1
    elif kind_ == K_DISCARD:
        mid = 0
        while bin(mid).count("1") < MIDDLE and drawn < nd:
            mid |= 1 << drawn
            drawn += 1
    return piles, mid, drawn, phase


def solve_plain(dl: PlainDeal, max_nodes: int, max_memo: int, deadline: float = 0.0,
                budget: int | None = None, count: bool = False,
                cap: int = 1) -> tuple[int, list[tuple[int, int]], int, int, int]:
    """``solve_kernel``: (value, or -1 at a limit; the first winning line as (kind, value) moves;
    states searched; reason R_*; memo entries). First-solution mode (``count`` False): value 1/0.
    Count mode: the number of winning lines capped at ``cap`` (every distinct move, counts kept in
    the memo), as the kernel's ``count_mode`` 1. Raises ``_Budget`` past ``budget`` states (a
    count the kernel would go on with)."""
    piles = dl.piles
    mid = 0
    for i in range(dl.m0):
        mid |= 1 << i
    drawn = dl.m0
    if not any(piles):
        return 1, [], 1, R_DONE, 0
    first = not count
    cap = max(1, cap) if count else 1
    moves = _gen(dl, piles, mid, drawn, 0, first)
    nodes = 1
    if not moves:
        return 0, [], nodes, R_DONE, 0
    memo: dict[tuple, int] = {}
    room = max_memo * 3  # the memo stops storing at three quarters of max_memo entries
    # frames: [state, moves, next move index, winning lines so far (at most cap), key]
    stack = [[(piles, mid, drawn), moves, 0, 0, _key(dl, piles, mid, drawn, 0)]]
    line: list[tuple[int, int]] = []
    reason = R_DONE
    v = 0
    while True:
        fr = stack[-1]
        i = fr[2]
        if i < len(fr[1]) and fr[3] < cap and (count or fr[3] == 0):
            fr[2] = i + 1
            (ps, md, dr) = fr[0]
            mk, mv = fr[1][i]
            cp, cm, cd, ph = _apply(dl, ps, md, dr, mk, mv)
            v = -1
            if not any(cp):
                v = 1
            else:
                key = _key(dl, cp, cm, cd, ph)
                v = memo.get(key, -1)
                if v < 0 and _area_bound_fails(dl, cp, cm, cd):
                    v = 0
                if v < 0:
                    nodes += 1
                    if nodes > max_nodes:
                        reason = R_NODES
                        break
                    if budget is not None and nodes > budget:
                        raise _Budget
                    if (nodes & 4095) == 0 and deadline > 0 and time.perf_counter() > deadline:
                        reason = R_TIME
                        break
                    child = _gen(dl, cp, cm, cd, ph, first)
                    if not child:
                        v = 0
                        if len(memo) * 4 < room:
                            memo[key] = 0
                    else:
                        stack.append([(cp, cm, cd), child, 0, 0, key])
            if v >= 0:
                if v > 0 and not line:
                    line = [f[1][f[2] - 1] for f in stack]
                fr[3] = min(cap, fr[3] + v)
        else:
            v = fr[3]
            if (count or v == 0) and len(memo) * 4 < room:
                memo[fr[4]] = v
            stack.pop()
            if not stack:
                break
            stack[-1][3] = min(cap, stack[-1][3] + v)
    if reason != R_DONE:
        return -1, line, nodes, reason, len(memo)
    return v, line, nodes, reason, len(memo)


__all__ = ["PlainDeal", "playouts_plain", "solve_plain"]


def playouts_plain(dl: PlainDeal, n_games: int, seed: int, budget: int | None = None) -> int:
    """``playout_kernel`` in plain Python: wins out of ``n_games`` playouts, each move drawn
    uniformly among the distinct moves (``_gen`` without the first-only skip). The draws are the
    kernel's: numba's ``np.random.seed``/``np.random.randint`` are numpy's legacy MT19937 stream
    and bounded draws (masked rejection), which ``numpy.random.RandomState`` gives here. Raises
    ``_Budget`` past ``budget`` moves in all."""
    import numpy as np  # the random stream of the kernel (numpy's legacy generator), not numba

    rs = np.random.RandomState(seed)
    randint = rs.randint
    mid0 = 0
    for i in range(dl.m0):
        mid0 |= 1 << i
    wins = moves_made = 0
    for _ in range(n_games):
        piles, mid, drawn, phase = dl.piles, mid0, dl.m0, 0
        while True:
            if not any(piles):
                wins += 1
                break
            moves = _gen(dl, piles, mid, drawn, phase, False)
            if not moves:
                break
            moves_made += 1
            if budget is not None and moves_made > budget:
                raise _Budget
            k, v = moves[randint(0, len(moves))]
            piles, mid, drawn, phase = _apply(dl, piles, mid, drawn, k, v)
    return wins
