"""The "defender holds" test (pairs + Erdős–Selfridge potential), dead-cell pruning, and strategy-table
certificates (format version 3): each against an outside truth - the plain-Python reference minimax,
an exhaustive play-out of the holder's explicit strategy, and the rules-only checker."""

import copy
import functools
import random

import numpy as np
import pytest
from budget import sweep
from tanglekit.games.qango import Position, board_from_json, load_board
from tanglekit.games.qango.position import has_win
from tanglekit.games.qango.proof import forced_move, holds, verify_proof
from tanglekit.games.qango.reference import reference_solve
from tanglekit.games.qango.solve import QangoSolver

SMALL = {"name": "s54", "width": 5, "height": 4,
         "triples": [[0, 1, 5], [3, 4, 9], [10, 15, 16], [13, 18, 19], [7, 12, 17]], "max_counters": 14}


def _defended_positions(board, seed, n, max_empty):
    """Positions from play-outs where each side blocks the other's threats and picks cells of many
    patterns (so the defender often holds), stopped with at most ``max_empty`` empty cells."""
    rng = random.Random(seed)
    pats = board.pattern_masks
    out = []
    while len(out) < n:
        p = Position(board)
        while not p.is_over() and bin(p.empty_mask()).count("1") > max_empty:
            me, opp = (p.x, p.o) if p.to_move == "X" else (p.o, p.x)
            moves = p.legal_moves()
            blocks = [m for m in moves if has_win(board, opp | 1 << m)]
            if blocks:
                m = blocks[0]
            else:
                m = max(moves, key=lambda c: sum(1 for q in pats if q >> c & 1 and not q & opp)
                        + sum(1 for q in pats if q >> c & 1 and not q & me) + 3 * rng.random())
            if has_win(board, me | 1 << m):
                break
            p = p.play(m)
        if not p.is_over() and p.winner() is None and bin(p.empty_mask()).count("1") <= max_empty:
            out.append(p)
    return out


def _kernel_pairs(s, att, dfd, atm, budget=64):
    K = s.K
    H = s._hold_work()
    k = int(K.defender_holds(np.int64(att), np.int64(dfd), atm, s.pats, s.mask, budget, H.rem, H.stk, H.pairs))
    if k < 0:
        return None
    out = []
    for m in H.pairs[:k]:
        m = int(m)
        lo = (m & -m).bit_length() - 1
        out.append([lo, (m ^ 1 << lo).bit_length() - 1])
    return out


def _fired(board, seed, n, max_empty):
    """(position, attacker, pairs) wherever the kernel finds pairs, both attacker roles tried."""
    s = QangoSolver(board, None, tt_bits=12)
    for p in _defended_positions(board, seed, n, max_empty):
        for side in ("X", "O"):
            att, dfd = (p.x, p.o) if side == "X" else (p.o, p.x)
            pairs = _kernel_pairs(s, att, dfd, p.to_move == side)
            if pairs is not None:
                yield p, side, pairs


def _attacker_can_win(pos, side):
    """Plain AND/OR search on the rules code (memoised, no pruning beyond an immediate win): can
    ``side`` force a win from ``pos``? For positions with few empty cells."""
    memo = {}

    def rec(p):
        key = (p.x, p.o)
        if key not in memo:
            w = p.winner()
            if w is not None or p.is_over():
                memo[key] = w == side
            elif p.to_move == side:
                memo[key] = any(rec(p.play(m)) for m in p.legal_moves())
            else:
                memo[key] = all(rec(p.play(m)) for m in p.legal_moves())
        return memo[key]

    return rec(pos)


@pytest.mark.parametrize("n", sweep(10, 24))
@pytest.mark.parametrize("name,seed", [("6", 1), ("7plus", 2), ("small", 3)])
def test_holds_kernel_pairs_pass_the_checker_and_the_reference(name, seed, n):
    """Whenever the kernel finds pairs, the rules-only checker accepts them and the reference minimax
    confirms that the attacker cannot force a win; both attacker roles are tried."""
    board = board_from_json(SMALL) if name == "small" else load_board(name)
    fired = 0
    for p, side, pairs in _fired(board, seed, n, 10):
        fired += 1
        assert holds(p, side, pairs), (p.to_text(), side, pairs)
        assert not _attacker_can_win(p, side), (p.to_text(), side, pairs)
    assert fired >= n // 2


def _holder_reply(pos, side, pairs, rest):
    """The holder's explicit strategy behind ``holds``: the partner of a pair cell the attacker just
    took, else the cell of R with the largest potential weight over the uncovered patterns."""
    board = pos.board
    att = pos.x if side == "X" else pos.o
    hold = pos.o if side == "X" else pos.x
    empty = pos.empty_mask()
    for a, b in pairs:
        if att >> a & 1 and empty >> b & 1:
            return b
        if att >> b & 1 and empty >> a & 1:
            return a
    cand = [c for c in board.cells if empty >> c & 1 and rest >> c & 1] or [c for c in board.cells if empty >> c & 1]
    pm = [1 << a | 1 << b for a, b in pairs]

    def weight(c):
        w = 0.0
        for q in board.pattern_masks:
            if q >> c & 1 and not q & hold and not any(m & q == m for m in pm):
                w += 2.0 ** -bin(q & rest & ~att).count("1")
        return w

    return max(cand, key=weight)


def _strategy_never_loses(pos, side, pairs):
    """Every line of ``side`` against the explicit holder strategy: ``side`` never completes."""
    rest = pos.empty_mask() & ~sum(1 << a | 1 << b for a, b in pairs)
    seen = set()
    stack = [pos]
    while stack:
        p = stack.pop()
        if (p.x, p.o) in seen:
            continue
        seen.add((p.x, p.o))
        if p.winner() is not None:
            if p.winner() == side:
                return False
            continue
        if p.is_over():
            continue
        if p.to_move == side:
            stack.extend(p.play(m) for m in p.legal_moves())
        else:
            stack.append(p.play(_holder_reply(p, side, pairs, rest)))
    return True


@pytest.mark.parametrize("n", sweep(10, 30))
@pytest.mark.parametrize("name,seed", [("6", 4), ("7plus", 5)])
def test_holds_strategy_played_out_exhaustively(name, seed, n):
    """The theorem behind the test, checked by brute force: the holder's explicit pairing and
    potential strategy stops every line of the attacker."""
    played = 0
    for p, side, pairs in _fired(load_board(name), seed, n, 11):
        assert _strategy_never_loses(p, side, pairs), (p.to_text(), side, pairs)
        played += 1
    assert played >= n // 3


def test_holds_rejects_what_does_not_hold():
    """An attacker threat with the attacker to move, overlapping pairs and occupied cells fail."""
    board = load_board("6")
    p = Position(board, x=(1 << 0) | (1 << 1), o=(1 << 14) | (1 << 20))  # X threatens triple {0, 1, 6}
    assert not holds(p, "X", [])
    q = Position(board, x=1 << 0, o=1 << 14)
    with pytest.raises(Exception):
        holds(q, "X", [[1, 6], [6, 7]])
    with pytest.raises(Exception):
        holds(q, "X", [[0, 6]])


@pytest.mark.parametrize("hold,prune,seven_empty", [
    (0, False, 9), (64, True, 9),
    *(pytest.param(h, p, 10, marks=pytest.mark.slow) for h, p in ((0, False), (64, False), (0, True), (64, True)))])
def test_pns_features_match_reference(hold, prune, seven_empty):
    """df-pn with the holds test and dead-cell pruning on or off: values equal the reference (the
    QANGO 7 Plus positions with 9 empty cells by default, 10 in the slow run: 4 s of reference)."""
    small, seven = _reference_cases(seven_empty)
    s = QangoSolver(small[0][0].board, None, tt_bits=14)
    s.hold_budget, s.prune = hold, prune
    for p, ref in small:
        assert s.solve_pns(p, pns_bits=14).value == ref, p.to_text()
    for p, ref in seven:
        s7 = QangoSolver(p.board, None, tt_bits=14)
        s7.hold_budget, s7.prune = hold, prune
        assert s7.solve_pns(p, pns_bits=14).value == ref, p.to_text()
    assert {"win", "loss"} <= {ref for _, ref in small}


@functools.cache
def _reference_cases(seven_empty: int):
    """(position, reference value) on the small board and on QANGO 7 Plus (positions with
    ``seven_empty`` empty cells at most), solved once per run."""
    from tanglekit.games.qango.generate import random_position

    board = board_from_json(SMALL)
    rng = random.Random(21)
    small = []
    for _ in range(9):
        p = random_position(board, rng, max_empty=11, tries=2000)
        small.append((p, reference_solve(p, max_empty=11)[0]))
    seven = [(p, reference_solve(p, max_empty=seven_empty)[0])
             for p in _defended_positions(load_board("7plus"), 6, 4, seven_empty)]
    return small, seven


def test_relevance_dead_cells_are_dead():
    """A cell outside the live mask lies in no pattern either side can still complete in time."""
    board = load_board("6")
    s = QangoSolver(board, None, tt_bits=12)
    for p in _defended_positions(board, 7, 20, 16):
        me, opp = (p.x, p.o) if p.to_move == "X" else (p.o, p.x)
        st, live = s.K.relevance(np.int64(me), np.int64(opp), True, s.pats, s.mask, np.int64(board.limit))
        left = min(board.limit - p.n_counters, bin(p.empty_mask()).count("1"))
        for c in board.cells:
            if p.empty_mask() >> c & 1 and not int(live) >> c & 1:
                for q in board.pattern_masks:
                    if q >> c & 1:
                        need_me = bin(q & ~me).count("1") if not q & opp else 99
                        need_opp = bin(q & ~opp).count("1") if not q & me else 99
                        assert need_me > (left + 1) // 2 and need_opp > left // 2
        if st == 2:
            assert not _attacker_can_win(p, p.to_move) if bin(p.empty_mask()).count("1") <= 12 else True


# --- version-3 certificates ----------------------------------------------------------------------


def _cert(pos, claim, side=None):
    from tanglekit.games.qango.cert import certificate

    return certificate(pos, claim, side, QangoSolver(pos.board, pos.allowed_first, tt_bits=16))


@pytest.mark.parametrize("n", sweep(8, 30))
def test_v3_certificates_verify_and_tampering_is_caught(n):
    """Certificates of every kind (win, loss, draw: values from the plain AND/OR search) verify; a
    move taken out, pairs emptied or a claim one ply too short is refused."""
    board = load_board("6")
    rng = random.Random(8)
    kinds = set()
    for p in _defended_positions(board, 9, n, 10):
        other = "O" if p.to_move == "X" else "X"
        value = "win" if _attacker_can_win(p, p.to_move) else "loss" if _attacker_can_win(p, other) else "draw"
        doc = _cert(p, "draw" if value == "draw" else "win", p.to_move if value == "win" else other)
        rep = verify_proof(doc)
        assert rep["ok"], rep["error"]
        kinds.add(value)
        names = ["strategy"] if value != "draw" else [("strategies", "X"), ("strategies", "O")]
        for name in names:  # a move taken out, pairs emptied: the checker must refuse
            table = doc[name] if isinstance(name, str) else doc[name[0]][name[1]]
            for want in (int, dict):
                keys = sorted(k for k, v in table.items() if isinstance(v, want))
                if not keys:
                    continue
                k = rng.choice(keys)
                bad = copy.deepcopy(doc)
                btab = bad[name] if isinstance(name, str) else bad[name[0]][name[1]]
                if want is int:
                    del btab[k]
                else:
                    btab[k] = {"pairs": []}
                assert not verify_proof(bad)["ok"], (p.to_text(), k)
        if value == "win" and doc["plies"] > 1:  # a claim shorter than the longest line is refused
            bad = copy.deepcopy(doc)
            bad["plies"] = doc["plies"] - 1
            assert not verify_proof(bad)["ok"]
    assert kinds == {"win", "loss", "draw"}


@pytest.mark.slow
def test_v3_win_certificate_of_qango6_castle():
    """A whole empty-board row: QANGO 6 castle (an X win) as a strategy table."""
    board = load_board("6")
    pos = Position(board, 0, 0, board.opening_cells("castle"))
    doc = _cert(pos, "win")
    rep = verify_proof(doc)
    assert rep["ok"], rep["error"]
    assert rep["longest"] >= 19  # the shortest forced win is 19 plies
    assert doc["plies"] is None or rep["longest"] <= doc["plies"]


def test_v3_symmetry_must_be_a_board_symmetry():
    board = load_board("6")
    pos = Position(board, x=(1 << 14) | (1 << 15), o=(1 << 0) | (1 << 35))
    doc = _cert(pos, "win")
    assert verify_proof(doc)["ok"]
    bad = copy.deepcopy(doc)
    perm = list(range(36))
    perm[0], perm[1] = perm[1], perm[0]  # swaps two cells of a triple's neighbourhood: not a symmetry
    bad["symmetries"] = [perm]
    rep = verify_proof(bad)
    assert not rep["ok"] and "symmetry" in rep["error"]


def test_forced_move():
    board = load_board("6")
    # X to move, O threatens triple {4, 5, 11} at 11: the forced block
    p = Position(board, x=(1 << 20) | (1 << 21), o=(1 << 4) | (1 << 5))
    assert forced_move(p) == 11
    # X can complete {0, 1, 6}: the win comes first
    q = Position(board, x=(1 << 0) | (1 << 1), o=(1 << 4) | (1 << 5))
    assert forced_move(q) == 6
    assert forced_move(Position(board)) is None
