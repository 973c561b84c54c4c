"""Numba kernels of the QANGO solver: bitboard threats and a bounded "mover wins within r plies" search.

A position is two int64 masks (mover, opponent). ``wins_within(me, opp, r)`` is monotone in r, so the
transposition table keeps two bounds per position: the smallest r proven winning and the largest r
proven not winning (keys merged under the board symmetries while few counters are down). Pruning that
keeps the answer exact: immediate wins, forced blocks (one enemy threat = one legal reply, two = lost),
double threats (won in 3), only double-threat moves when 3 or 4 plies remain, attacker moves limited
to patterns it can still complete in time, defender replies outside every pattern either side can
complete in time covered by one null-move search (an extra own counter never hurts), threat- and
pattern-ordered moves, killer replies. Imported lazily (numba); ``qango_reference.py`` is the
plain-Python oracle the tests compare against."""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit, objmode

from ... import numba_cache  # noqa: F401  (its cache locator, before the kernels below are defined)

NO_WIN = 127  # tt_w value meaning "no win proven yet"

# named indices of the arrays the solver and the kernels share
ST_NODES, ST_NODE_LIMIT, ST_ABORTED, ST_EXPANSIONS = 0, 1, 2, 3  # ``stats``
# ``prm`` of dfpn_run: oracle bound, epsilon (/16), expansion budget, move order, oracle in the
# kernel, continuous-threat node limit, pair tries of the holds test, dead-cell pruning
PRM_R, PRM_EPS, PRM_BUDGET, PRM_ORDER, PRM_INNER, PRM_VCF_NODES, PRM_HOLD, PRM_PRUNE = range(8)
N_PRM = 8
# ``io`` of dfpn_run: mode, level, root pn, root dn, oracle: attacker to move, attacker, defender, answer
IO_MODE, IO_LEVEL, IO_PN, IO_DN, IO_ATM, IO_ATT, IO_DFD, IO_ANSWER = range(8)


class QBoard(NamedTuple):
    """A board as the kernels see it: win patterns, their cells, symmetry tables and the rules."""

    DTYPES = {"cell_pats": np.int32, "perm": np.int8, "inv": np.int8}
    pats: np.ndarray  # int64 mask per pattern
    cell_pats: np.ndarray  # patterns through each cell (-1 padded)
    symtab: np.ndarray  # byte-wise images per symmetry (see symmetry_tables)
    perm: np.ndarray  # symmetry permutations
    inv: np.ndarray  # their inverses
    board: int  # mask of the cells on the board
    first: int  # cells allowed for the first counter
    limit: int  # counters after which the game is drawn
    ncells: int  # cells of the rectangle
    sym_n: int  # keys are merged under symmetry while at most this many counters are down


class IdTable(NamedTuple):
    """Transposition table of the bounded search: keys and the two bounds per position."""

    DTYPES = {"tt_w": np.int8, "tt_n": np.int8, "tt_m": np.int8}
    tt_a: np.ndarray
    tt_b: np.ndarray
    tt_w: np.ndarray  # smallest r proven winning (NO_WIN: none)
    tt_n: np.ndarray  # largest r proven not winning
    tt_m: np.ndarray  # best move (in the key's frame)


class IdWork(NamedTuple):
    """Move buffers and killer replies of the bounded search, one row per level."""

    DTYPES = {"mbuf": np.int32, "killer": np.int32}
    mbuf: np.ndarray
    sbuf: np.ndarray
    killer: np.ndarray


class DfpnTable(NamedTuple):
    """df-pn transposition table (two-way buckets): keys, proof and disproof numbers, work."""

    pk_a: np.ndarray
    pk_b: np.ndarray
    p_pn: np.ndarray
    p_dn: np.ndarray
    p_w: np.ndarray


class DfpnStack(NamedTuple):
    """df-pn explicit stack: per level the children (cell, pn, dn, order score), frames and io."""

    DTYPES = {"cb": np.int32}
    cb: np.ndarray
    cpn: np.ndarray
    cdn: np.ndarray
    osc: np.ndarray
    fr: np.ndarray
    io: np.ndarray


class VcfWork(NamedTuple):
    """Continuous-threat search: failure cache, node counter/limit, frames and the line found."""

    vt_a: np.ndarray
    vt_b: np.ndarray
    vs: np.ndarray
    fme: np.ndarray
    fop: np.ndarray
    fcand: np.ndarray
    line: np.ndarray


class HoldWork(NamedTuple):
    """Work space of ``defender_holds`` and the pairs it finds."""

    rem: np.ndarray
    stk: np.ndarray
    pairs: np.ndarray
MAX_LEVELS = 160  # move-buffer rows (two per attacker ply)
U1 = np.uint64(0x9E3779B97F4A7C15)
U2 = np.uint64(0xC2B2AE3D27D4EB4F)


@njit(cache=True, inline="always")
def popcount(x):
    """Set bits of x (bit 63 ignored; boards use at most 49). No step can overflow: numba marks int64
    arithmetic no-signed-wrap, so the usual multiply-by-0x0101... trick is undefined behaviour there
    and LLVM miscompiles it inside vectorised loops."""
    x = x & 0x7FFFFFFFFFFFFFFF
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True)
def threats(me, opp, pats):
    """Mask of empty cells that would complete a pattern for ``me``."""
    t = np.int64(0)
    for i in range(pats.shape[0]):
        p = pats[i]
        if p & opp == 0:
            rest = p & ~me
            if rest != 0 and (rest & (rest - 1)) == 0:
                t |= rest
    return t


@njit(cache=True)
def live_cells(me, opp, empty, moves, pats):
    """Empty cells of the patterns free of ``opp`` that ``me`` could fill with at most ``moves`` counters."""
    u = np.int64(0)
    for i in range(pats.shape[0]):
        p = pats[i]
        if p & opp == 0:
            e = p & ~me
            if popcount(e) <= moves:
                u |= e
    return u & empty


@njit(cache=True)
def has_pattern(me, pats):
    for i in range(pats.shape[0]):
        if pats[i] & me == pats[i]:
            return True
    return False


@njit(cache=True, inline="always")
def _slot(me, opp, tmask):
    """Even slot index for a key (unsigned arithmetic: int64 overflow is undefined under numba)."""
    h = (np.uint64(me) * U1) ^ (np.uint64(opp) * U2)
    h ^= h >> np.uint64(31)
    h *= U1
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(tmask)) & ~np.int64(1)


@njit(cache=True, inline="always")
def _transform(x, t, symtab):
    """Image of mask x under symmetry t (byte-wise lookup tables)."""
    y = np.int64(0)
    b = 0
    while x != 0:
        y |= symtab[t, b, x & 255]
        x >>= 8
        b += 1
    return y


def symmetry_tables(perms, ncells):
    """Byte lookup tables, permutations and inverses for ``_transform`` (identity first)."""
    S = len(perms)
    tab = np.zeros((S, 8, 256), dtype=np.int64)
    for t, p in enumerate(perms):
        for b in range(8):
            for v in range(256):
                m = 0
                for k in range(8):
                    c = 8 * b + k
                    if v >> k & 1 and c < ncells:
                        m |= 1 << p[c]
                tab[t, b, v] = m
    perm = np.array([list(p) for p in perms], dtype=np.int8)
    inv = np.zeros_like(perm)
    for t, p in enumerate(perms):
        for c, d in enumerate(p):
            inv[t, d] = c
    return tab, perm, inv


@njit(cache=True)
def _cell_score(c, me, opp, pats, cell_pats):
    """Heuristic value of cell c for ``me``: own pattern progress plus blocking value."""
    s = 0
    for j in range(cell_pats.shape[1]):
        k = cell_pats[c, j]
        if k < 0:
            break
        p = pats[k]
        if p & opp == 0:
            s += 1 << (3 * popcount(p & me))
        if p & me == 0:
            s += (1 << (3 * popcount(p & opp))) >> 1
    return s


@njit(cache=True)
def _order(level, cand, me, opp, pats, cell_pats, ncells, hint, mbuf, sbuf):
    """Fill mbuf[level] with the cells of ``cand``, best first; returns how many."""
    k = 0
    for c in range(ncells):
        if (cand >> c) & 1:
            s = _cell_score(c, me, opp, pats, cell_pats)
            t = threats(me | (np.int64(1) << c), opp, pats)
            nt = popcount(t)
            s += 4096 * (nt if nt < 3 else 3)
            if c == hint:
                s += 1 << 30
            # insertion sort, descending score
            j = k
            while j > 0 and sbuf[level, j - 1] < s:
                mbuf[level, j] = mbuf[level, j - 1]
                sbuf[level, j] = sbuf[level, j - 1]
                j -= 1
            mbuf[level, j] = c
            sbuf[level, j] = s
            k += 1
    return k


@njit(cache=True)
def _tt_store(me, opp, r, won, move, T):
    """Record a bound of position (me, opp) in the bounded-search table T (IdTable)."""
    tt_a, tt_b, tt_w, tt_n, tt_m = T.tt_a, T.tt_b, T.tt_w, T.tt_n, T.tt_m
    tmask = tt_a.shape[0] - 1
    i = _slot(me, opp, tmask)
    for s in (i, i + 1):
        if tt_a[s] == me and tt_b[s] == opp:
            if won:
                if r < tt_w[s]:
                    tt_w[s] = r
                    tt_m[s] = move
            elif r > tt_n[s]:
                tt_n[s] = r
                if tt_m[s] < 0:
                    tt_m[s] = move
            return
    # replace the slot holding less work (its largest proven depth)
    d0 = tt_n[i] if tt_w[i] == NO_WIN else max(tt_n[i], tt_w[i])
    d1 = tt_n[i + 1] if tt_w[i + 1] == NO_WIN else max(tt_n[i + 1], tt_w[i + 1])
    s = i if d0 <= d1 else i + 1
    tt_a[s] = me
    tt_b[s] = opp
    tt_w[s] = r if won else NO_WIN
    tt_n[s] = 0 if won else r
    tt_m[s] = move


@njit(cache=True)
def wins_within(me, opp, r, level, B, T, W, stats, deadline):
    """True when the side to move (``me``) can force a win within ``r`` plies (its own move first).

    B: QBoard, T: IdTable, W: IdWork; stats: ST_* counters; on abort returns False and the caller
    must discard results.
    """
    pats, cell_pats, board, first, limit, ncells = B.pats, B.cell_pats, B.board, B.first, B.limit, B.ncells
    symtab, perm, inv, sym_n = B.symtab, B.perm, B.inv, B.sym_n
    tt_a, tt_b, tt_w, tt_n, tt_m = T.tt_a, T.tt_b, T.tt_w, T.tt_n, T.tt_m
    mbuf, sbuf, killer = W.mbuf, W.sbuf, W.killer
    stats[ST_NODES] += 1
    if (stats[ST_NODES] & 8191) == 0:
        with objmode(t="float64"):
            t = time.perf_counter()
        if t > deadline or (stats[ST_NODE_LIMIT] > 0 and stats[ST_NODES] > stats[ST_NODE_LIMIT]):
            stats[ST_ABORTED] = 1
    if stats[ST_ABORTED] != 0:
        return False
    if r <= 0:
        return False
    occ = me | opp
    empty = board & ~occ
    n = popcount(occ)
    if n >= limit or empty == 0:
        return False
    mt = threats(me, opp, pats)
    if mt != 0:
        return True
    if r < 3:
        return False
    ot = threats(opp, me, pats)
    if ot & (ot - 1):
        return False  # two enemy threats: one block cannot stop both
    if n + 3 > limit or popcount(empty) < 3:
        return False  # no room for move, reply and a winning move
    # transposition table, keyed by the least symmetric image while few counters are down
    ka, kb, sx = me, opp, 0
    if 0 < n <= sym_n:
        for t in range(1, symtab.shape[0]):
            ta = _transform(me, t, symtab)
            tb = _transform(opp, t, symtab)
            if ta < ka or (ta == ka and tb < kb):
                ka, kb, sx = ta, tb, t
    tmask = tt_a.shape[0] - 1
    i0 = _slot(ka, kb, tmask)
    hint = -1
    for s in (i0, i0 + 1):
        if tt_a[s] == ka and tt_b[s] == kb:
            if r >= tt_w[s]:
                return True
            if r <= tt_n[s]:
                return False
            if tt_m[s] >= 0:
                hint = inv[sx, tt_m[s]]
    if ot != 0:
        cand = ot
    elif n == 0:
        cand = empty & first
    else:
        # only cells of patterns the mover can still complete in time matter (a move elsewhere is a
        # pass, and an extra own counter never hurts, so some move inside does at least as well)
        cand = live_cells(me, opp, empty, (r + 1) // 2, pats)
        if cand == 0:
            _tt_store(ka, kb, r, False, -1, T)
            return False
    k = _order(level, cand, me, opp, pats, cell_pats, ncells, hint, mbuf, sbuf)
    for i in range(k):
        c = mbuf[level, i]
        bit = np.int64(1) << c
        me2 = me | bit
        empty2 = empty & ~bit
        at = threats(me2, opp, pats)
        if at & (at - 1):
            # the defender has no immediate win (any enemy threat was just blocked) and n + 3 <= limit
            _tt_store(ka, kb, 3, True, np.int64(perm[sx, c]), T)  # int64 like the other calls: one compile
            return True
        if r < 5:
            continue  # with 3 or 4 plies left only a double threat wins
        if at != 0:
            ok = wins_within(me2, opp | at, r - 2, level + 2, B, T, W, stats, deadline)
        else:
            replies = empty2
            ok = True
            if n + r + 1 <= limit:
                # a reply outside every pattern either side can still complete in time acts as a pass
                # (the draw limit is out of reach): one null-move search covers all of them
                rel = (live_cells(me2, opp, empty2, (r - 1) // 2, pats)
                       | live_cells(opp, me2, empty2, r // 2, pats))
                if empty2 & ~rel:
                    replies = rel
                    ok = wins_within(me2, opp, r - 2, level + 2, B, T, W, stats, deadline)
            kk = 0
            if ok:
                kk = _order(level + 1, replies, opp, me2, pats, cell_pats, ncells, np.int64(killer[level + 1]), mbuf,
                            sbuf)
            for j in range(kk):
                y = mbuf[level + 1, j]
                if not wins_within(me2, opp | (np.int64(1) << y), r - 2, level + 2, B, T, W, stats, deadline):
                    ok = False
                    killer[level + 1] = y
                    break
        if stats[ST_ABORTED] != 0:
            return False
        if ok:
            _tt_store(ka, kb, r, True, np.int64(perm[sx, c]), T)
            return True
    _tt_store(ka, kb, r, False, perm[sx, mbuf[level, 0]] if k > 0 else -1, T)
    return False


@njit(cache=True)
def move_wins_within(me, opp, c, r, level, B, T, W, stats, deadline):
    """True when the mover's move ``c`` (legal, assumed) forces a win within ``r`` plies."""
    pats, board, limit, ncells = B.pats, B.board, B.limit, B.ncells
    bit = np.int64(1) << c
    me2 = me | bit
    if has_pattern(me2, pats):
        return r >= 1
    occ2 = me2 | opp
    empty2 = board & ~occ2
    if popcount(occ2) >= limit or empty2 == 0 or r < 3:
        return False
    if threats(opp, me2, pats) != 0:
        return False  # the defender completes a pattern at once
    at = threats(me2, opp, pats)
    cand = at if at != 0 else empty2
    if at & (at - 1):
        return popcount(occ2) + 2 <= limit
    for y in range(ncells):
        if (cand >> y) & 1:
            if not wins_within(me2, opp | (np.int64(1) << y), r - 2, level, B, T, W, stats, deadline):
                return False
    return True


# --- df-pn ----------------------------------------------------------------------------------------
# Depth-first proof-number search for "can the attacker force a win?" with no depth bound, so it
# finds the long forced wins iterative deepening cannot reach. Each expanded node first runs the
# exact bounded search ``wins_within`` as a tactical oracle: an attacker node proven there is a leaf,
# and at a defender node a null move (the defender passes) proven there limits the defender's replies
# to the cells of patterns either side can still complete within that bound (any other reply acts as
# a pass; the argument used inside ``wins_within``). Forced blocks, immediate wins and double threats
# are exact; keys are merged under the board symmetries while few counters are down; child thresholds
# use the 1+epsilon trick; a two-way table keeps solved entries and entries holding more work.
# (Kept in this module: numba's cache cannot link a recursive kernel called from another module.)

INF = np.int64(1) << np.int64(40)
MAXD = 64  # df-pn stack levels (plies from the root; a board has at most 49 cells)


@njit(cache=True, inline="always")
def _canon(a, b, n, sym_n, symtab):
    ka, kb = a, b
    if 0 < n <= sym_n:
        for t in range(1, symtab.shape[0]):
            ta = _transform(a, t, symtab)
            tb = _transform(b, t, symtab)
            if ta < ka or (ta == ka and tb < kb):
                ka, kb = ta, tb
    return ka, kb


@njit(cache=True)
def _lookup(ka, kb, T):
    """(pn, dn) stored for key (ka, kb) in the table T, or (-1, -1)."""
    pk_a, pk_b, p_pn, p_dn = T.pk_a, T.pk_b, T.p_pn, T.p_dn
    i = _slot(ka, kb, pk_a.shape[0] - 1)
    for s in (i, i + 1):
        if pk_a[s] == ka and pk_b[s] == kb:
            return p_pn[s], p_dn[s]
    return np.int64(-1), np.int64(-1)


@njit(cache=True)
def _store(ka, kb, pn, dn, work, T):
    pk_a, pk_b, p_pn, p_dn, p_w = T.pk_a, T.pk_b, T.p_pn, T.p_dn, T.p_w
    i = _slot(ka, kb, pk_a.shape[0] - 1)
    for s in (i, i + 1):
        if pk_a[s] == ka and pk_b[s] == kb:
            p_pn[s] = pn
            p_dn[s] = dn
            if work > p_w[s]:
                p_w[s] = work
            return
    # keep solved entries and entries holding more work
    w0 = p_w[i] + (INF if (p_pn[i] == 0 or p_dn[i] == 0) and pk_a[i] != -1 else 0)
    w1 = p_w[i + 1] + (INF if (p_pn[i + 1] == 0 or p_dn[i + 1] == 0) and pk_a[i + 1] != -1 else 0)
    s = i if w0 <= w1 else i + 1
    pk_a[s] = ka
    pk_b[s] = kb
    p_pn[s] = pn
    p_dn[s] = dn
    p_w[s] = work


@njit(cache=True)
def dfpn_rehash(old, new):
    """Copy every entry of a df-pn table (DfpnTable) into a larger one."""
    for s in range(old.pk_a.shape[0]):
        if old.pk_a[s] != -1:
            _store(old.pk_a[s], old.pk_b[s], old.p_pn[s], old.p_dn[s], old.p_w[s], new)


@njit(cache=True)
def quick_status(att, dfd, atm, pats, board, limit):
    """Exact status decided without search: 1 attacker wins, 2 attacker cannot win (defender wins
    or draw), 0 open. ``atm``: the attacker is to move."""
    occ = att | dfd
    empty = board & ~occ
    n = popcount(occ)
    if n >= limit or empty == 0:
        return 2
    if atm:
        if threats(att, dfd, pats) != 0:
            return 1
        ot = threats(dfd, att, pats)
        if ot & (ot - 1):
            return 2
    else:
        if threats(dfd, att, pats) != 0:
            return 2
        at = threats(att, dfd, pats)
        if (at & (at - 1)) and n + 2 <= limit:
            return 1
    return 0


@njit(cache=True)
def relevance(att, dfd, atm, pats, board, limit):
    """(status, live): status 2 when the attacker can no longer complete a pattern before the game
    ends (every pattern holds a defender counter or more empty cells than the attacker has moves
    left), else 0; ``live`` = the empty cells of the patterns either side can still complete. Any
    other cell is dead: a move there acts as a pass, which is never better than another move (an
    extra own counter never hurts), so the search leaves dead cells out."""
    occ = att | dfd
    empty = board & ~occ
    left = limit - popcount(occ)
    ne = popcount(empty)
    if ne < left:
        left = ne
    amoves = (left + 1) // 2 if atm else left // 2
    dmoves = left // 2 if atm else (left + 1) // 2
    mine = live_cells(att, dfd, empty, amoves, pats)
    live = mine | live_cells(dfd, att, empty, dmoves, pats)
    return (2 if mine == 0 else 0), live


@njit(cache=True)
def _candidates(att, dfd, atm, R, oracle, pats, board, first, limit):
    """Moves to search at an open node: (status, mask, ask). ask = 1 when the answer needs the
    oracle (``oracle`` = -1 while not known yet): at an attacker node 1/0 for "the attacker wins
    at once by threats", at a defender node the mask of replies that can matter (see
    ``QangoSolver.prove``); status 1 when the oracle's answer already proves an attacker win."""
    occ = att | dfd
    empty = board & ~occ
    n = popcount(occ)
    if atm:
        ot = threats(dfd, att, pats)
        if ot != 0:
            return 0, ot, 0
        if n == 0:
            return 0, empty & first, 0
        if R >= 3:
            if oracle < 0:
                return 0, np.int64(0), 1
            if oracle == 1:
                return 1, np.int64(0), 0
        return 0, empty, 0
    at = threats(att, dfd, pats)
    if at != 0:
        return 0, at, 0
    cand = empty
    if n == 0:
        cand = empty & first
    if R >= 3 and n >= 1:
        # null move: the oracle answers with the zone of replies that can matter (a win for the
        # attacker after a pass refutes every reply outside it; the whole board when none is found)
        if oracle < 0:
            return 0, np.int64(0), 1
        cand &= oracle
        if cand == 0:
            return 1, np.int64(0), 0
    return 0, cand, 0


@njit(cache=True)
def _child_init(att, dfd, atm, pats, board, limit):
    """Initial (pn, dn) of an unseen node: exact when decided at once, else mobility-based."""
    st = quick_status(att, dfd, atm, pats, board, limit)
    if st == 1:
        return np.int64(0), INF
    if st == 2:
        return INF, np.int64(0)
    # a node where the mover has a threat is forcing: cheaper for that side
    if atm:
        t = threats(att, dfd, pats)
        return np.int64(1), np.int64(1 + (popcount(board & ~(att | dfd)) >> 3)) if t == 0 else np.int64(1)
    t = threats(att, dfd, pats)
    if t != 0:
        return np.int64(1), np.int64(1)
    return np.int64(1 + (popcount(board & ~(att | dfd)) >> 3)), np.int64(1)


@njit(cache=True)
def dfpn_start(att, dfd, atm, fr, io):
    """Set up a df-pn run from one root with infinite thresholds (state for ``dfpn_run``)."""
    fr[0, 0] = att
    fr[0, 1] = dfd
    fr[0, 2] = 1 if atm else 0
    fr[0, 3] = INF
    fr[0, 4] = INF
    io[:] = 0  # mode 0 (enter), level 0


@njit(cache=True)
def dfpn_run(prm, B, T, S, V, H, stats):
    """Run df-pn (explicit stack: frames in ``fr``, children in cb/cpn/cdn per level) until the root
    is solved (returns 0; io[IO_PN], io[IO_DN] = root pn, dn: pn == 0 proven, dn == 0 disproven), the
    oracle is needed (returns 1: the caller sets io[IO_ANSWER] = wins_within(io[IO_ATT], io[IO_DFD], R) and calls
    again) or ``budget`` expansions are spent (returns 2: call again). With ``inner`` = 1 (R = 3) the
    oracle is answered here by the non-recursive ``_oracle`` (numba cannot cache a kernel linked to
    the recursive ``wins_within``, so other bounds go through Python).
    prm: PRM_* parameters; B: QBoard; T: DfpnTable; S: DfpnStack; V: VcfWork; H: HoldWork;
    io (in S) = IO_* fields; stats[ST_EXPANSIONS] counts expansions."""
    R, eps_num, budget, order, inner = prm[PRM_R], prm[PRM_EPS], prm[PRM_BUDGET], prm[PRM_ORDER], prm[PRM_INNER]
    vcf_nodes, hold_budget, prune = prm[PRM_VCF_NODES], prm[PRM_HOLD], prm[PRM_PRUNE]
    pats, cell_pats, board, first, limit, ncells = B.pats, B.cell_pats, B.board, B.first, B.limit, B.ncells
    sym_n, symtab = B.sym_n, B.symtab
    cb, cpn, cdn, osc, fr, io = S.cb, S.cpn, S.cdn, S.osc, S.fr, S.io
    rem, hstk, pairs = H.rem, H.stk, H.pairs
    # frame columns: 0 att, 1 dfd, 2 atm, 3 th_pn, 4 th_dn, 5 n children, 6 best, 7 work0, 8 ka, 9 kb
    mode = io[IO_MODE]  # 0 enter a node, 1 return (rp, rd) to the parent, 2 work on the children, 3 oracle answered
    l = io[IO_LEVEL]
    rp = io[IO_PN]
    rd = io[IO_DN]
    while True:
        if mode == 0 or mode == 3:
            if mode == 0:
                if stats[ST_EXPANSIONS] >= budget:
                    io[IO_MODE] = 0
                    io[IO_LEVEL] = l
                    return 2
                stats[ST_EXPANSIONS] += 1
            oracle = io[IO_ANSWER] if mode == 3 else -1
            a = fr[l, 0]
            d = fr[l, 1]
            am = fr[l, 2] == 1
            occ = a | d
            n = popcount(occ)
            ka, kb = _canon(a, d, n, sym_n, symtab)
            fr[l, 7] = stats[ST_EXPANSIONS]
            fr[l, 8] = ka
            fr[l, 9] = kb
            st = quick_status(a, d, am, pats, board, limit)
            cand = np.int64(0)
            live = np.int64(-1)
            if st == 0 and prune and n > 0:
                st, live = relevance(a, d, am, pats, board, limit)
            if st == 0 and hold_budget > 0 and defender_holds(a, d, am, pats, board, hold_budget, rem, hstk, pairs) >= 0:
                st = 2
            if st == 0:
                st2, cand, ask = _candidates(a, d, am, R, oracle, pats, board, first, limit)
                if ask and inner:
                    oracle = _oracle(a, d, am, B, V, stats, vcf_nodes)
                    st2, cand, ask = _candidates(a, d, am, R, oracle, pats, board, first, limit)
                if ask:
                    io[IO_MODE] = 3
                    io[IO_LEVEL] = l
                    io[IO_ATM] = 1 if am else 0
                    io[IO_ATT] = a
                    io[IO_DFD] = d
                    return 1
                if st2 == 1:
                    st = 1
                elif live != -1 and cand & live == 0:
                    st = 1  # every reply in the null-move zone is dead, so acts as the losing pass
                else:
                    cand &= live
            if st != 0:
                rp = np.int64(0) if st == 1 else INF
                rd = INF if st == 1 else np.int64(0)
                _store(ka, kb, rp, rd, 1, T)
                mode = 1
                continue
            k = 0
            for c in range(ncells):
                if (cand >> c) & 1:
                    bit = np.int64(1) << c
                    if am:
                        a2, d2 = a | bit, d
                    else:
                        a2, d2 = a, d | bit
                    ca, cbk = _canon(a2, d2, n + 1, sym_n, symtab)
                    p, q = _lookup(ca, cbk, T)
                    if p < 0:
                        p, q = _child_init(a2, d2, not am, pats, board, limit)
                    # insertion by heuristic (ties in pn/dn go to the better move)
                    sc = 0
                    if (order == 1) or (order == 2 and am) or (order == 3 and not am):
                        mv = a if am else d
                        ot2 = d if am else a
                        sc = _cell_score(c, mv, ot2, pats, cell_pats)
                        nt = popcount(threats(mv | bit, ot2, pats))
                        sc += 4096 * (nt if nt < 3 else 3)
                    j = k
                    while j > 0 and osc[l, j - 1] < sc:
                        cb[l, j] = cb[l, j - 1]
                        cpn[l, j] = cpn[l, j - 1]
                        cdn[l, j] = cdn[l, j - 1]
                        osc[l, j] = osc[l, j - 1]
                        j -= 1
                    cb[l, j] = c
                    cpn[l, j] = p
                    cdn[l, j] = q
                    osc[l, j] = sc
                    k += 1
            fr[l, 5] = k
            mode = 2
            continue
        if mode == 1:
            if l == 0:
                io[IO_MODE] = 1
                io[IO_LEVEL] = 0
                io[IO_PN] = rp
                io[IO_DN] = rd
                return 0
            l -= 1
            cpn[l, fr[l, 6]] = rp
            cdn[l, fr[l, 6]] = rd
            mode = 2
            continue
        # mode 2: node values from the children, then stop or descend into the best child
        am = fr[l, 2] == 1
        k = fr[l, 5]
        if am:
            pn = INF
            dn = np.int64(0)
            for i in range(k):
                if cpn[l, i] < pn:
                    pn = cpn[l, i]
                dn += cdn[l, i]
            if dn > INF:
                dn = INF
        else:
            pn = np.int64(0)
            dn = INF
            for i in range(k):
                if cdn[l, i] < dn:
                    dn = cdn[l, i]
                pn += cpn[l, i]
            if pn > INF:
                pn = INF
        if pn >= fr[l, 3] or dn >= fr[l, 4]:
            _store(fr[l, 8], fr[l, 9], pn, dn, stats[ST_EXPANSIONS] - fr[l, 7] + 1, T)
            rp = pn
            rd = dn
            mode = 1
            continue
        best = 0
        v1 = INF + 1
        v2 = INF + 1
        for i in range(k):
            v = cpn[l, i] if am else cdn[l, i]
            if v < v1:
                v2 = v1
                v1 = v
                best = i
            elif v < v2:
                v2 = v
        if v2 > INF:
            v2 = INF
        t2 = v2 + ((v2 * eps_num) >> 4) + 1
        if t2 > INF:
            t2 = INF
        bit = np.int64(1) << cb[l, best]
        if am:
            tp = fr[l, 3] if fr[l, 3] < t2 else t2
            td = fr[l, 4] - dn + cdn[l, best]
            a2, d2 = fr[l, 0] | bit, fr[l, 1]
        else:
            td = fr[l, 4] if fr[l, 4] < t2 else t2
            tp = fr[l, 3] - pn + cpn[l, best]
            a2, d2 = fr[l, 0], fr[l, 1] | bit
        if td > INF:
            td = INF
        if tp > INF:
            tp = INF
        fr[l, 6] = best
        l += 1
        fr[l, 0] = a2
        fr[l, 1] = d2
        fr[l, 2] = 0 if am else 1
        fr[l, 3] = tp
        fr[l, 4] = td
        mode = 0


@njit(cache=True)
def node_value(att, dfd, T, B):
    """(pn, dn) stored for a position in the df-pn table T (DfpnTable), or (-1, -1)."""
    n = popcount(att | dfd)
    ka, kb = _canon(att, dfd, n, B.sym_n, B.symtab)
    return _lookup(ka, kb, T)


@njit(cache=True)
def vcf(me, opp, pats, board, limit, ncells, vt_a, vt_b, stats):
    """True when the mover wins by continuous threats: every own move makes a threat the opponent
    must block at once (the opponent has no threat of its own to complete first), ending in a
    completed pattern or a double threat. Any depth; failures are cached in (vt_a, vt_b);
    stats[0] counts nodes, and a node limit in stats[1] makes it give up (answer False)."""
    stats[0] += 1
    if stats[1] > 0 and stats[0] > stats[1]:
        return False
    occ = me | opp
    n = popcount(occ)
    empty = board & ~occ
    if n >= limit or empty == 0:
        return False
    if threats(me, opp, pats) != 0:
        return True
    ot = threats(opp, me, pats)
    if ot & (ot - 1):
        return False
    if n + 3 > limit:
        return False
    i = _slot(me, opp, vt_a.shape[0] - 1)
    if (vt_a[i] == me and vt_b[i] == opp) or (vt_a[i + 1] == me and vt_b[i + 1] == opp):
        return False
    cand = ot if ot != 0 else empty
    for c in range(ncells):
        if (cand >> c) & 1:
            bit = np.int64(1) << c
            me2 = me | bit
            t = threats(me2, opp, pats) & ~bit
            if t == 0:
                continue
            if t & (t - 1):
                return True  # double threat: the opponent has no threat to complete (checked above)
            # single threat at y: the opponent must block it (its own threats were blocked)
            if vcf(me2, opp | t, pats, board, limit, ncells, vt_a, vt_b, stats):
                return True
    if stats[1] > 0 and stats[0] > stats[1]:
        return False  # out of nodes: not a proven failure, so not cached
    s = i if vt_a[i] == -1 or (vt_a[i + 1] != -1 and (me & 1)) else i + 1
    vt_a[s] = me
    vt_b[s] = opp
    return False


@njit(cache=True)
def vcf_line(me, opp, pats, board, limit, ncells, line, d, stats):
    """Like ``vcf`` (no failure cache) but records the winning line: line[2i] = own move,
    line[2i + 1] = the forced block (-1 after the final double threat or completion); returns the
    number of own moves (0: no continuous-threat win within the node limit in stats)."""
    stats[0] += 1
    if stats[1] > 0 and stats[0] > stats[1]:
        return 0
    occ = me | opp
    n = popcount(occ)
    empty = board & ~occ
    if n >= limit or empty == 0 or 2 * d + 1 >= line.shape[0]:
        return 0
    t0 = threats(me, opp, pats)
    if t0 != 0:
        line[2 * d] = _bit_index(t0 & -t0)
        line[2 * d + 1] = -1
        return d + 1
    ot = threats(opp, me, pats)
    if ot & (ot - 1) or n + 3 > limit:
        return 0
    cand = ot if ot != 0 else empty
    for c in range(ncells):
        if (cand >> c) & 1:
            bit = np.int64(1) << c
            me2 = me | bit
            t = threats(me2, opp, pats)
            if t == 0:
                continue
            line[2 * d] = c
            if t & (t - 1):
                line[2 * d + 1] = -1
                return d + 1
            line[2 * d + 1] = _bit_index(t)
            k = vcf_line(me2, opp | t, pats, board, limit, ncells, line, d + 1, stats)
            if k > 0:
                return k
    return 0


@njit(cache=True, inline="always")
def _bit_index(x):
    """Index of the single set bit of x (x a power of two)."""
    i = 0
    while (x >> i) != 1:
        i += 1
    return i


@njit(cache=True)
def vcf_zone(att, dfd, line, k, pats):
    """Cells where an extra defender counter could break the continuous-threat line ``line`` (k own
    moves) of the attacker: every pattern free of defender counters through an attacker move of
    the line (its threats and wins), and every pattern free of attacker counters that the defender
    could complete or threaten with one more counter besides its line blocks. A defender move
    outside this zone leaves the whole line forced and winning."""
    a_moves = np.int64(0)
    blocks = np.int64(0)
    for i in range(k):
        a_moves |= np.int64(1) << line[2 * i]
        if line[2 * i + 1] >= 0:
            blocks |= np.int64(1) << line[2 * i + 1]
    d_all = dfd | blocks
    z = a_moves | blocks
    for i in range(pats.shape[0]):
        p = pats[i]
        if p & dfd == 0 and p & a_moves != 0:
            z |= p
        if p & att == 0 and popcount(p & ~d_all) <= 2:
            z |= p
    return z


# --- in-kernel oracles ----------------------------------------------------------------------------
# The df-pn kernel asks the same tactical questions as the Python oracles above, answered here by
# non-recursive code so that numba can cache the kernel that calls them (no Python round trip).


@njit(cache=True)
def wins3(me, opp, pats, board, first, limit):
    """``wins_within(me, opp, 3)`` without a table: a win at once, or a move (the forced block if
    the opponent threatens) that makes two threats."""
    occ = me | opp
    empty = board & ~occ
    n = popcount(occ)
    if n >= limit or empty == 0:
        return False
    if threats(me, opp, pats) != 0:
        return True
    ot = threats(opp, me, pats)
    if ot & (ot - 1):
        return False
    if n + 3 > limit or popcount(empty) < 3:
        return False
    if ot != 0:
        cand = ot
    elif n == 0:
        cand = empty & first
    else:
        cand = live_cells(me, opp, empty, 2, pats)
    while cand != 0:
        bit = cand & -cand
        cand ^= bit
        at = threats(me | bit, opp, pats)
        if at & (at - 1):
            return True
    return False


@njit(cache=True)
def vcf_it(me, opp, B, V):
    """Continuous-threat search of ``vcf`` written with an explicit stack (frames fme/fop/fcand):
    returns the number of own moves of a winning line recorded in ``line`` as ``vcf_line`` does
    (0: none, or the node limit vs[1] was reached; vs[0] counts nodes). Proven failures go to the
    cache (vt_a, vt_b) while the node limit has not been hit. B: QBoard, V: VcfWork."""
    pats, board, limit = B.pats, B.board, B.limit
    vt_a, vt_b, vs, fme, fop, fcand, line = V.vt_a, V.vt_b, V.vs, V.fme, V.fop, V.fcand, V.line
    d = 0
    lim = vs[1]
    tmask = vt_a.shape[0] - 1
    a, b = me, opp
    while True:
        # enter node (a, b) at depth d
        vs[0] += 1
        if lim > 0 and vs[0] > lim:
            return 0
        occ = a | b
        n = popcount(occ)
        empty = board & ~occ
        ok = True
        if n >= limit or empty == 0 or 2 * d + 1 >= line.shape[0]:
            ok = False
        else:
            t0 = threats(a, b, pats)
            if t0 != 0:
                line[2 * d] = _bit_index(t0 & -t0)
                line[2 * d + 1] = -1
                return d + 1
            ot = threats(b, a, pats)
            if ot & (ot - 1) or n + 3 > limit:
                ok = False
            else:
                i = _slot(a, b, tmask)
                if (vt_a[i] == a and vt_b[i] == b) or (vt_a[i + 1] == a and vt_b[i + 1] == b):
                    ok = False
                else:
                    fme[d] = a
                    fop[d] = b
                    fcand[d] = ot if ot != 0 else empty
        if not ok:
            d -= 1  # this node fails: continue with the parent's next candidate
            if d < 0:
                return 0
        # next candidate at depth d (descending when one makes a single threat)
        while True:
            c = fcand[d]
            descended = False
            while c != 0:
                bit = c & -c
                c ^= bit
                a2 = fme[d] | bit
                t = threats(a2, fop[d], pats)
                if t == 0:
                    continue
                line[2 * d] = _bit_index(bit)
                if t & (t - 1):
                    line[2 * d + 1] = -1
                    return d + 1
                line[2 * d + 1] = _bit_index(t)
                fcand[d] = c
                a, b = a2, fop[d] | t
                d += 1
                descended = True
                break
            if descended:
                break
            # every candidate failed: a proven failure
            a0 = fme[d]
            b0 = fop[d]
            i = _slot(a0, b0, tmask)
            s = i if vt_a[i] == -1 or (vt_a[i + 1] != -1 and (a0 & 1)) else i + 1
            vt_a[s] = a0
            vt_b[s] = b0
            d -= 1
            if d < 0:
                return 0


@njit(cache=True)
def _oracle(a, d, am, B, V, stats, vcf_nodes):
    """The df-pn oracle answer (see ``QangoSolver.prove``): at an attacker node 1/0 for a win by
    continuous threats or within 3 plies; at a defender node the null-move zone."""
    pats, board, first, limit = B.pats, B.board, B.first, B.limit
    vs, line = V.vs, V.line
    stats[ST_NODES] += 1
    if am:
        if vcf_nodes > 0:
            vs[0] = 0
            vs[1] = vcf_nodes
            k = vcf_it(a, d, B, V)
            stats[ST_NODES] += vs[0]
            if k > 0:
                return np.int64(1)
        return np.int64(1) if wins3(a, d, pats, board, first, limit) else np.int64(0)
    occ = a | d
    empty = board & ~occ
    n = popcount(occ)
    if n + 4 <= limit and wins3(a, d, pats, board, first, limit):
        return live_cells(a, d, empty, 2, pats) | live_cells(d, a, empty, 2, pats)
    if vcf_nodes > 0:
        vs[0] = 0
        vs[1] = vcf_nodes
        k = vcf_it(a, d, B, V)
        stats[ST_NODES] += vs[0]
        if k > 0 and n + 2 * k + 3 <= limit:
            return vcf_zone(a, d, line, k, pats) & empty
    return empty


# --- the defender holds: pairing plus Erdős–Selfridge potential -------------------------------------
# A cheap, exact-when-it-says-yes test that the attacker can no longer complete any pattern. The
# defender keeps disjoint pairs of empty cells, each inside some live attacker patterns (answering an
# attacker move in a pair with its partner stops every pattern that holds the pair), and plays the
# Erdős–Selfridge potential strategy on the remaining empty cells R against the patterns no pair
# covers: if the sum over those of 2^-|pattern ∩ R| is below 1/2 with the attacker to move (below 1
# with the defender to move), the attacker never fills one. games/qango/proof.py checks the same
# inequality for certificates.

HOLD_K = 40  # weights are 2**(HOLD_K - cells left): a pattern holds at most 5 cells
HOLD_MAXP = 24  # pairs at most (a 49-cell board has 24 disjoint pairs)


@njit(cache=True, inline="always")
def _hold_eval(rem, L, R, u0, u1):
    """(potential, index of the heaviest uncovered pattern, failed) of the uncovered patterns
    (bit i of u0/u1) restricted to R."""
    s = np.int64(0)
    best = -1
    bp = 99
    for i in range(L):
        on = (u0 >> i) & 1 if i < 63 else (u1 >> (i - 63)) & 1
        if on == 0:
            continue
        k = popcount(rem[i] & R)
        if k == 0:
            return s, i, True
        s += np.int64(1) << (HOLD_K - k)
        if k < bp:
            bp = k
            best = i
    return s, best, False


@njit(cache=True, inline="always")
def _hold_frame(stk, k, R, u0, u1, cells):
    """Set up frame k: uncovered patterns (u0, u1), free cells R, and the cells of the pattern to
    cover next (at most 5, kept in columns 5..9; the pair being tried is (col 3, col 4))."""
    stk[k, 0] = R
    stk[k, 1] = u0
    stk[k, 2] = u1
    m = 0
    while cells != 0:
        b = cells & -cells
        cells ^= b
        stk[k, 5 + m] = b
        m += 1
    stk[k, 10] = m
    stk[k, 3] = 0
    stk[k, 4] = 0


@njit(cache=True)
def defender_holds(att, dfd, atm, pats, board, budget, rem, stk, pairs):
    """Pairs proving that the attacker cannot complete a pattern (``atm``: attacker to move):
    their number (0..HOLD_MAXP, written to ``pairs`` as two-bit masks), or -1 when none was found
    within ``budget`` tries (not a proof of anything). ``rem`` (int64[len(pats)]) and ``stk``
    (int64[HOLD_MAXP + 1, 11]) are work space."""
    empty = board & ~(att | dfd)
    L = 0
    for i in range(pats.shape[0]):
        p = pats[i]
        if p & dfd == 0:
            rem[L] = p & empty
            L += 1
    if L > 126:
        return -1
    T = np.int64(1) << (HOLD_K - 1) if atm else np.int64(1) << HOLD_K
    u0 = np.int64(0x7FFFFFFFFFFFFFFF) if L >= 63 else (np.int64(1) << L) - 1
    u1 = np.int64(0) if L <= 63 else (np.int64(1) << (L - 63)) - 1
    s, j, bad = _hold_eval(rem, L, empty, u0, u1)
    if bad:
        return -1
    if s < T:
        return 0
    k = 0
    _hold_frame(stk, 0, empty, u0, u1, rem[j] & empty)
    tries = 0
    while True:
        # next pair (ia < ib) of the chosen pattern's cells at depth k
        m = stk[k, 10]
        ia = stk[k, 3]
        ib = stk[k, 4] + 1
        if ib >= m:
            ia += 1
            ib = ia + 1
        if ib >= m:
            k -= 1
            if k < 0:
                return -1
            continue
        stk[k, 3] = ia
        stk[k, 4] = ib
        tries += 1
        if tries > budget:
            return -1
        pm = stk[k, 5 + ia] | stk[k, 5 + ib]
        R = stk[k, 0] & ~pm
        nu0 = stk[k, 1]
        nu1 = stk[k, 2]
        for i in range(L):
            if rem[i] & pm == pm:
                if i < 63:
                    nu0 &= ~(np.int64(1) << i)
                else:
                    nu1 &= ~(np.int64(1) << (i - 63))
        pairs[k] = pm
        s, j, bad = _hold_eval(rem, L, R, nu0, nu1)
        if bad:
            continue
        if s < T:
            return k + 1
        if k + 1 >= HOLD_MAXP:
            continue
        k += 1
        _hold_frame(stk, k, R, nu0, nu1, rem[j] & R)
