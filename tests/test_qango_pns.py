"""df-pn QANGO solver: values against the plain-Python reference minimax and the iterative-deepening
solver, the continuous-threat kernel against a plain search, and df-pn proofs checked by the
independent proof checker."""

import random
from dataclasses import replace

import numpy as np
import pytest
from tanglekit.games.qango import Position, board_from_json, load_board
from tanglekit.games.qango.cert import make_proof
from tanglekit.games.qango.position import has_win, parse_position
from tanglekit.games.qango.proof import verify_proof
from tanglekit.games.qango.reference import reference_solve
from tanglekit.games.qango.solve import QangoSolver

SMALL = {"name": "s54", "width": 5, "height": 4,
         "triples": [[0, 1, 5], [3, 4, 9], [10, 15, 16], [13, 18, 19], [7, 12, 17]], "max_counters": 14}


def _positions(board, seed, n, max_empty, max_left=None):
    from tanglekit.games.qango.generate import random_position

    rng = random.Random(seed)
    return [random_position(board, rng, max_empty=max_empty, max_left=max_left or max_empty, tries=2000)
            for _ in range(n)]


_SMALL_REFERENCE: dict = {}


def _small_reference(p) -> str:
    """The reference value of a small-board position, solved once for the three oracle settings."""
    key = (p.x, p.o)
    if key not in _SMALL_REFERENCE:
        _SMALL_REFERENCE[key] = reference_solve(p, max_empty=11)[0]
    return _SMALL_REFERENCE[key]


@pytest.mark.parametrize("oracle", [0, 3, 7])
def test_pns_value_matches_reference_small_board(oracle):
    """Whole games on a small board (draw limit included), with and without the tactical oracle."""
    board = board_from_json(SMALL)
    s = QangoSolver(board, None, tt_bits=14)
    seen = set()
    for p in _positions(board, 11, 30, 11):
        ref = _small_reference(p)
        res = s.solve_pns(p, oracle_plies=oracle, pns_bits=14, vcf_nodes=2000 if oracle else 0)
        assert res.value == ref, p.to_text()
        seen.add(ref)
        if ref == "win" and res.best_move is not None:
            child = p.play(res.best_move)
            assert child.winner() is not None or _small_reference(child) == "loss"
    assert {"win", "loss"} <= seen


@pytest.mark.parametrize("name", ["6", "7plus"])
def test_pns_value_matches_reference_near_end(name):
    board = load_board(name)
    s = QangoSolver(board, None, tt_bits=14)
    for p in _positions(board, 5, 10, 10, max_left=6):
        assert s.solve_pns(p, pns_bits=14).value == reference_solve(p, max_empty=10)[0], p.to_text()


def test_pns_value_matches_iterative_deepening_mid_game():
    """Quiet QANGO 6 positions with 8+ counters: both engines agree wherever both decide."""
    from tanglekit.games.qango.generate import random_position

    board = load_board("6")
    rng = random.Random(2)
    s1 = QangoSolver(board, None, tt_bits=18)
    s2 = QangoSolver(board, None, tt_bits=18)
    decided = 0
    for _ in range(12):
        p = random_position(board, rng, max_empty=26, min_counters=10, quiet=True)
        a = s1.solve(p, time_limit=3.0)
        b = s2.solve_pns(p, time_limit=3.0, pns_bits=18)
        if "unknown" not in (a.value, b.value):
            assert a.value == b.value, p.to_text()
            decided += 1
    assert decided >= 6


def _vcf_plain(board, me, opp, limit):
    """Continuous threats by plain rules code (no memo): mirror of the kernel's definition."""
    pats = board.pattern_masks

    def threats(a, b):
        out = 0
        for p in pats:
            if p & b == 0:
                rest = p & ~a
                if rest and rest & (rest - 1) == 0:
                    out |= rest
        return out

    def rec(me, opp):
        occ = me | opp
        n = bin(occ).count("1")
        empty = board.mask & ~occ
        if n >= limit or not empty:
            return False
        if threats(me, opp):
            return True
        ot = threats(opp, me)
        if ot & (ot - 1) or n + 3 > limit:
            return False
        cand = ot or empty
        for c in range(board.n_cells):
            if cand >> c & 1:
                t = threats(me | 1 << c, opp)
                if t and (t & (t - 1) or rec(me | 1 << c, opp | t)):
                    return True
        return False

    return rec(me, opp)


def test_vcf_kernel_matches_plain_search():
    board = load_board("6")
    s = QangoSolver(board, None, tt_bits=12)
    rng = random.Random(4)
    hits = 0
    for _ in range(150):
        cells = rng.sample(board.cells, rng.randrange(6, 16))
        k = len(cells) // 2
        me = sum(1 << c for c in cells[:k])
        opp = sum(1 << c for c in cells[k:])
        if has_win(board, me) or has_win(board, opp):
            continue
        want = _vcf_plain(board, me, opp, board.limit)
        assert s.vcf(me, opp, 10_000_000) == want
        hits += want
    assert hits >= 5


def test_pns_proof_of_a_df_pn_win_verifies():
    """A df-pn win (no exact length) written as a certificate and checked by the rules-only
    verifier; the empty board's proofs are the shipped ones (tests/test_qango_table.py)."""
    board = load_board("6")
    pos = parse_position("....../XX..XO/OXO.../....X./O...OX/......", board)
    s = QangoSolver(board, None, tt_bits=20)
    res = s.solve(pos, method="pns")
    assert res.value == "win" and res.plies is None and res.best_move is not None
    doc = make_proof(pos, res, s)
    rep = verify_proof(doc)
    assert rep["ok"], rep["error"]
    assert doc["plies"] >= 7  # the shortest win is 7 plies (iterative deepening)


def test_auto_method_falls_back_to_pns():
    board = replace(load_board("6"))
    pos = Position(board)
    s = QangoSolver(board, None, tt_bits=18)
    import tanglekit.games.qango.solve as qs

    old = qs.AUTO_ID_NODES
    qs.AUTO_ID_NODES = 1000  # too few for iterative deepening: df-pn must take over
    try:
        res = s.solve(pos, method="auto")
    finally:
        qs.AUTO_ID_NODES = old
    assert res.value == "win" and res.plies is None
    assert s.solve(pos, method="id").plies == 11
    with pytest.raises(ValueError):
        s.solve(pos, method="nope")


def test_popcount_has_no_overflow_miscompile():
    """popcount inside a vectorisable reduction loop (numba int64 overflow is undefined behaviour;
    a multiply-based popcount gave wrong bits here)."""
    from numba import njit
    from tanglekit.games.qango import kernels as K

    @njit
    def small_pattern_union(mask, pats):
        z = np.int64(0)
        for i in range(pats.shape[0]):
            if K.popcount(pats[i] & ~mask) <= 2:
                z |= pats[i]
        return z

    board = load_board("7")
    pats = np.array(board.pattern_masks, dtype=np.int64)
    rng = random.Random(3)
    for _ in range(50):
        mask = sum(1 << c for c in rng.sample(board.cells, 12))
        want = 0
        for p in board.pattern_masks:
            if bin(p & ~mask).count("1") <= 2:
                want |= p
        assert int(small_pattern_union(np.int64(mask), pats)) == want


def test_null_move_zone_is_sound():
    """Every defender reply outside the zone still loses to the attacker (fresh df-pn check)."""
    import time

    board = load_board("7")
    s = QangoSolver(board, None, tt_bits=18)
    rng = random.Random(5)
    checked = 0
    for _ in range(120):
        k = rng.randrange(2, 6)
        cells = rng.sample(board.cells, 2 * k + 1)
        att = sum(1 << c for c in cells[: k + 1])
        dfd = sum(1 << c for c in cells[k + 1:])
        if has_win(board, att) or has_win(board, dfd) or s.K.threats(att, dfd, s.pats) or s.K.threats(dfd, att, s.pats):
            continue
        empty = board.mask & ~(att | dfd)
        zone = s._null_move_zone(att, dfd, 3, 20_000)
        outside = [y for y in board.cells if empty >> y & 1 and not zone >> y & 1]
        for y in outside[:2]:
            f = QangoSolver(board, None, tt_bits=16)
            f.deadline = time.perf_counter() + 30
            assert f.prove(att, dfd | 1 << y, True, 3, 16), (att, dfd, y)
            checked += 1
        if checked >= 30:
            break
    assert checked >= 10


def test_prove_split_matches_prove():
    """The root split over two forked processes gives the one-process answer (several root classes,
    and a single class split one level deeper)."""
    from tanglekit.games.qango.generate import random_position

    board = load_board("6")
    rng = random.Random(31)
    answers = set()
    for _ in range(2):
        p = random_position(board, rng, max_empty=22, min_counters=12, quiet=True)
        me, opp = p.sides()
        for atm in (True, False):
            a, d = (me, opp) if atm else (opp, me)
            one = QangoSolver(board, None, tt_bits=16).prove(a, d, atm)
            assert QangoSolver(board, None, tt_bits=16).prove_split(a, d, atm, 2) == one, p.to_text()
            answers.add(one)
    b7 = load_board("7plus")  # one class of first counters: the split goes to O's replies
    pos = Position(b7, 0, 0, b7.opening_cells("tournament"))
    assert QangoSolver(b7, pos.allowed_first).prove_split(0, 0, False, 2) is False  # O cannot force a win
    assert answers == {True, False}


@pytest.mark.slow
def test_benchmark_quick_table(capsys):
    """`python -m tanglekit.benchmarks.qango --quick`: the shared table layout, every decided empty
    board a first-player win, the kernel agreeing with the reference minimax on every near-end position."""
    from tanglekit.benchmarks._table import COLUMNS, parse_markdown
    from tanglekit.benchmarks.qango import main

    main(["--quick", "--time-limit", "5"])
    t = parse_markdown(capsys.readouterr().out)["tables"][0]
    assert t["columns"] == list(COLUMNS)
    empty = [r for r in t["rows"] if r["task"].startswith("empty") and "time-limited" not in r["notes"]]
    assert empty and all(r["notes"].startswith("win") for r in empty)
    ref = next(r for r in t["rows"] if r["method"] == "plain-Python reference minimax")
    assert ref["notes"] == "agrees on 10/10"
