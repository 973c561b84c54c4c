"""QANGO solver against the plain-Python reference minimax, empty-board results, puzzles and boards."""

import random
from dataclasses import replace

import numpy as np
import pytest
from budget import sweep
from tanglekit.games.qango import Position, board_from_json, load_board, parse_position
from tanglekit.games.qango.cert import make_proof
from tanglekit.games.qango.position import has_win
from tanglekit.games.qango.reference import reference_solve
from tanglekit.games.qango.solve import QangoSolver, solve_position

# small custom boards so the reference can play whole games (values up to long wins and losses)
SMALL = {
    "4x4": {"name": "s44", "width": 4, "height": 4,
            "triples": [[0, 1, 4], [2, 3, 7], [5, 9, 10], [8, 12, 13], [11, 14, 15]]},
    "5x4": {"name": "s54", "width": 5, "height": 4,
            "triples": [[0, 1, 5], [3, 4, 9], [10, 15, 16], [13, 18, 19], [7, 12, 17]], "max_counters": 14},
    "5x5": {"name": "s55", "width": 5, "height": 5, "off_board": [0, 4, 20, 24],
            "triples": [[1, 2, 6], [3, 8, 9], [15, 16, 21], [18, 22, 23], [10, 11, 5], [13, 14, 19]]},
}


def _random_position(board, rng, max_empty, max_left=None, tries=2000):
    """A position from a random playout (no winning move skipped over), not over, few plies left."""
    from tanglekit.games.qango.generate import random_position

    return random_position(board, rng, max_empty=max_empty, max_left=max_left or max_empty, tries=tries)


@pytest.mark.parametrize("n", sweep(8, 25))
@pytest.mark.parametrize("name", sorted(SMALL))
def test_solver_matches_reference_on_small_boards(name, n):
    board = board_from_json(SMALL[name])
    rng = random.Random(7)
    solver = QangoSolver(board, None, tt_bits=14)
    seen = set()
    for _ in range(n):
        p = _random_position(board, rng, max_empty=11)
        ref = reference_solve(p, max_empty=11)
        res = solver.solve(p)
        assert (res.value, res.plies) == ref, p.to_text()
        seen.add(ref[0])
        if res.value == "win":  # the reported best move must itself win in the same number of plies
            child = p.play(res.best_move)
            if child.winner() is None:
                assert reference_solve(child, 11) == ("loss", res.plies - 1)
    assert len(seen) >= 2


@pytest.mark.parametrize("name,max_counters", [("6", None), ("7plus", None), ("7", 36)])
def test_solver_matches_reference_near_end(name, max_counters):
    board = load_board(name)
    if max_counters:
        board = replace(board, max_counters=max_counters)
    rng = random.Random(3)
    solver = QangoSolver(board, None, tt_bits=14)
    for _ in range(8):
        p = _random_position(board, rng, max_empty=9 if name != "7" else 40, max_left=5)
        assert (solver.solve(p).value, solver.solve(p).plies) == reference_solve(p, max_empty=40), p.to_text()


def test_kernel_threats_match_plain_rules():
    from tanglekit.games.qango import kernels as K

    b = load_board("7")
    pats = np.array(b.pattern_masks, dtype=np.int64)
    rng = random.Random(1)
    for _ in range(200):
        cells = rng.sample(b.cells, 20)
        me = sum(1 << c for c in cells[:10])
        opp = sum(1 << c for c in cells[10:])
        if has_win(b, me):
            continue
        plain = 0
        for c in b.cells:
            if not (me | opp) >> c & 1 and has_win(b, me | 1 << c):
                plain |= 1 << c
        assert int(K.threats(np.int64(me), np.int64(opp), pats)) == plain


def test_empty_qango6_is_first_player_win_in_11():
    res = solve_position(Position(load_board("6")))
    assert (res.value, res.plies) == ("win", 11)
    assert res.best_move in (14, 15, 20, 21)  # the four centre cells are equivalent by symmetry


def test_time_limit_gives_unknown():
    res = solve_position(Position(load_board("7")), time_limit=0.05)
    assert res.value == "unknown" and res.plies is None and res.best_move is None


def test_lost_position_proof_and_finished_games():
    from tanglekit.games.qango.proof import verify_proof

    # O to move, X threatens two cells (cell 6: triple 0-1-6, cell 2: square 1-2-7-8): O loses in 2
    p = parse_position("XX..../.XX.../....../..O.O./....../.....O")
    assert p.to_move == "O"
    s = QangoSolver(p.board, None)
    res = s.solve(p)
    assert (res.value, res.plies) == ("loss", 2)
    doc = make_proof(p, res, s)
    assert verify_proof(doc)["ok"]
    over = parse_position("XX..../X.OO../....../....../....../......")  # X took 0-1-6, O to move
    assert s.solve(over).to_json() == {"value": "loss", "best_move": None, "plies": 0, "nodes": 0}


def test_puzzle_generator_unique_key_move_and_ids():
    from tanglekit.games.qango.generate import generate_puzzle, verify_puzzle
    from tanglekit.games.qango.sources import puzzle_from_id

    puz = generate_puzzle("6", k=3, seed=5)
    assert verify_puzzle(puz)
    again = generate_puzzle("6", k=3, seed=5)
    assert again.position == puz.position and again.key_move == puz.key_move
    back = puzzle_from_id(puz.id)
    assert back.position == puz.position and back.key_move == puz.key_move and back.k == 3
    assert puzzle_from_id(puz.seed_id).position == puz.position
    svg = puz.svg()
    assert svg.startswith("<svg") and svg.count("data-cell=") == puz.position.n_counters


def test_board_generator_partitions_into_coloured_triples():
    from tanglekit.games.qango.board import triple_connected
    from tanglekit.games.qango.boards import generate_board

    for seed, (w, h) in enumerate([(6, 6), (7, 7), (5, 6)]):
        b = generate_board(w, h, seed)
        covered = [c for t in b.triples for c in t.cells]
        assert len(covered) == len(set(covered)) and len(covered) == len(b.cells) // 3 * 3
        assert all(triple_connected(t.cells, w) for t in b.triples)
        owner = {c: t for t in b.triples for c in t.cells}
        for c, t in owner.items():
            for nb in (c + 1, c + w):
                if nb in owner and owner[nb] is not t and (nb == c + w or nb % w):
                    assert owner[nb].colour != t.colour
    assert generate_board(6, 6, 3).to_json() == generate_board(6, 6, 3).to_json()


def test_midgame_wins_have_valid_proofs():
    """Wins found by the pruned search on random QANGO 6 / 7 Plus positions check out independently."""
    from tanglekit.games.qango.generate import random_position
    from tanglekit.games.qango.proof import verify_proof

    checked = 0
    for name in ("6", "7plus"):
        b = load_board(name)
        s = QangoSolver(b, None, tt_bits=16)
        rng = random.Random(21)
        while checked < (4 if name == "6" else 8):
            p = random_position(b, rng, max_empty=30, min_counters=6, quiet=True)
            res = s.solve(p, time_limit=2)
            if res.value == "win" and res.plies >= 5:
                doc = make_proof(p, res, s, max_nodes=50_000)
                rep = verify_proof(doc)
                assert rep["ok"], (p.to_text(), rep)
                checked += 1


def test_move_values_match_reference():
    from tanglekit.games.qango.reference import reference_move_values
    from tanglekit.games.qango.solve import move_values

    board = board_from_json(SMALL["5x5"])
    rng = random.Random(4)
    s = QangoSolver(board, None, tt_bits=14)
    for _ in range(5):
        p = _random_position(board, rng, max_empty=10)
        ref = reference_move_values(p, 10)
        got = {d["cell"]: (d["value"], d["plies"]) for d in move_values(p, solver=s)}
        assert got == ref


def test_explore_time_limit_covers_the_whole_command():
    """``qango explore --time-limit T`` (``move_values``) takes T for all the moves together, not T
    per move (it took 12.6 s on QANGO 6 and 24 s on QANGO 7 at T = 1); moves past it are unknown."""
    import time

    from tanglekit.games.qango import load_board
    from tanglekit.games.qango.solve import move_values
    from tanglekit.games.qango.sources import read_position_source

    pos, _, _ = read_position_source("empty", load_board("7"))
    move_values(pos, 0.01)  # kernels loaded and compiled before the clock starts
    t = time.monotonic()
    rows = move_values(pos, 0.5)
    assert time.monotonic() - t < 1.5
    assert len(rows) == 49 and any(r["value"] == "unknown" for r in rows)
