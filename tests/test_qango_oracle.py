"""The df-pn oracle answered inside the kernel agrees with the Python oracles it replaces."""

import random

import numpy as np
from tanglekit.games.qango.board import load_board
from tanglekit.games.qango.position import has_win
from tanglekit.games.qango.solve import QangoSolver


def _positions(board, rng, n, lo=4, hi=18):
    out = []
    while len(out) < n:
        cells = rng.sample(board.cells, rng.randrange(lo, hi))
        k = (len(cells) + 1) // 2
        x = sum(1 << c for c in cells[:k])
        o = sum(1 << c for c in cells[k:])
        if not has_win(board, x) and not has_win(board, o):
            out.append((x, o))
    return out


def test_inner_oracle_matches_python_oracle():
    rng = random.Random(11)
    for name in ("6", "7plus", "7"):
        board = load_board(name)
        s = QangoSolver(board, None, tt_bits=16)
        K = s.K
        V = s._vcf_tables()
        hits = [0, 0]
        for a, d in _positions(board, rng, 150):
            for am in (True, False):
                if am:
                    want = 1 if s.vcf(a, d, 20_000) or s.wins(a, d, 3) else 0
                else:
                    if K.threats(np.int64(a), np.int64(d), s.pats):
                        continue  # the oracle is asked only when the attacker has no threat
                    want = s._null_move_zone(a, d, 3, 20_000)
                got = int(K._oracle(np.int64(a), np.int64(d), am, s.B, V, s.stats, 20_000))
                if am:
                    assert got == want, (name, a, d)
                    hits[0] += want
                else:
                    empty = board.mask & ~(a | d)
                    # the same kind of zone (whole board or a proper subset); a different winning
                    # line may give a different (still sound) zone
                    assert (got == empty) == (want == empty), (name, a, d)
                    assert got & ~empty == 0
                    hits[1] += got != empty
        assert hits[0] >= 10 and hits[1] >= 10, hits


def test_iterative_vcf_matches_recursive():
    rng = random.Random(3)
    board = load_board("7")
    s = QangoSolver(board, None, tt_bits=12)
    K = s.K
    fresh = lambda: (np.full(1 << 12, -1, dtype=np.int64), np.full(1 << 12, -1, dtype=np.int64))
    va, vb = fresh()
    wa, wb = fresh()
    V = s._vcf_tables()
    found = 0
    for me, opp in _positions(board, rng, 300, 6, 24):
        vs = np.array([0, 0], dtype=np.int64)
        ws = np.array([0, 0], dtype=np.int64)
        want = bool(K.vcf(np.int64(me), np.int64(opp), s.pats, s.mask, s.limit, s.ncells, va, vb, vs))
        k = int(K.vcf_it(np.int64(me), np.int64(opp), s.B, V._replace(vt_a=wa, vt_b=wb, vs=ws)))
        assert (k > 0) == want
        if k:
            found += 1
            line = V.line
            # replay the line: each own move threatens once (the block is forced), the last wins
            a, o = me, opp
            for i in range(k):
                c, y = int(line[2 * i]), int(line[2 * i + 1])
                assert not (a | o) >> c & 1
                a |= 1 << c
                t = int(K.threats(np.int64(a), np.int64(o), s.pats))
                if y >= 0:
                    assert t == 1 << y
                    o |= 1 << y
                else:
                    assert has_win(board, a) or t & (t - 1)
    assert found >= 10
