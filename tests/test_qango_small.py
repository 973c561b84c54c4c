"""The plain-Python QANGO solver for positions near the end (``games/qango/small.py``) against
the numba solver (value, best move, plies and node count) and the plain minimax reference, on
random near-end positions of every built-in board and opening."""

from __future__ import annotations

import random

import pytest
from tanglekit.games.qango.board import load_board
from tanglekit.games.qango.position import Position, has_win
from tanglekit.games.qango.reference import reference_solve
from tanglekit.games.qango.small import SMALL_NODES, solve_small
from tanglekit.games.qango.solve import QangoSolver


def _positions(board, rng, n, sizes, opening="standard"):
    """n positions from random playouts (no winning move skipped, an enemy threat blocked when
    one can be) stopped with k empty cells past the draw limit's, k drawn from ``sizes``."""
    out = []
    while len(out) < n:
        k = rng.choice(sizes) + len(board.cells) - board.limit
        p = Position(board, allowed_first=board.opening_cells(opening))
        while not p.is_over() and bin(p.empty_mask()).count("1") > k:
            me, opp = (p.x, p.o) if p.to_move == "X" else (p.o, p.x)
            ms = [m for m in p.legal_moves() if not has_win(board, me | 1 << m)]
            if not ms:
                break
            blocks = [m for m in ms if has_win(board, opp | 1 << m)]
            p = p.play(rng.choice(blocks or ms))
        if not p.is_over() and bin(p.empty_mask()).count("1") == k:
            out.append(p)
    return out


@pytest.mark.parametrize("name", ["6", "7", "7plus"])
def test_small_solver_equals_the_kernel_and_the_reference(name):
    board = load_board(name)
    rng = random.Random(15)
    values = set()
    nodes = 0
    for pos in _positions(board, rng, 12, [6, 9, 11, 12]):
        small = solve_small(pos, None, "auto", budget=None)
        kern = QangoSolver(pos.board, pos.allowed_first).solve(pos, method="auto")
        assert (small.value, small.best_move, small.plies, small.nodes) == \
            (kern.value, kern.best_move, kern.plies, kern.nodes), pos.to_text()
        assert small.to_json() == kern.to_json()
        if bin(pos.empty_mask()).count("1") <= 10:  # the unpruned minimax: seconds at 11
            assert reference_solve(pos) == (small.value, small.plies)
        values.add(small.value)
        nodes = max(nodes, small.nodes)
    assert len(values) >= 2 and nodes >= 30


def test_small_solver_with_an_opening_and_method_id():
    board = load_board("6")
    rng = random.Random(5)
    for pos in _positions(board, rng, 8, [8, 10], opening="castle"):
        for method in ("id", "auto"):
            small = solve_small(pos, None, method, budget=None)
            kern = QangoSolver(pos.board, pos.allowed_first).solve(pos, method=method)
            assert small.to_json() == kern.to_json()
    assert solve_small(pos, None, "pns") is None  # df-pn is the kernels'


def test_small_solver_gives_up_past_its_budget_and_on_large_positions():
    from tanglekit.games.qango.position import Position

    empty = Position(load_board("6"))
    assert solve_small(empty, None, "auto") is None  # 36 empty cells: the kernels
    board = load_board("7")
    rng = random.Random(9)
    pos = max(_positions(board, rng, 6, [14]), key=lambda p: solve_small(p, None, "auto", budget=None).nodes)
    full = solve_small(pos, None, "auto", budget=None)
    if full.nodes > 50:
        assert solve_small(pos, None, "auto", budget=50) is None
    assert SMALL_NODES >= 1000


def test_cli_solve_is_the_same_through_either_engine(monkeypatch):
    import json

    from tanglekit.cli import app
    from typer.testing import CliRunner

    out = {}
    for engine in ("python", "kernel"):
        monkeypatch.setenv("TANGLEKIT_ENGINE", engine)
        r = CliRunner().invoke(app, ["qango", "solve", "OXO.XO/OX.XOX/O.XOX./XOX.O./.XOX../X.O.OX", "--json"])
        assert r.exit_code == 0, r.output
        d = json.loads(r.output)
        d.pop("seconds")
        out[engine] = d
    assert out["python"] == out["kernel"] and out["python"]["nodes"] == 187


@pytest.mark.slow
@pytest.mark.parametrize("name", ["6", "7", "7plus"])
def test_small_solver_equals_the_kernel_on_longer_positions(name):
    board = load_board(name)
    rng = random.Random(99)
    for pos in _positions(board, rng, 40, [10, 12, 14, 16]):
        small = solve_small(pos, None, "auto", budget=None)
        kern = QangoSolver(pos.board, pos.allowed_first).solve(pos, method="auto")
        assert small.to_json() == kern.to_json(), pos.to_text()
