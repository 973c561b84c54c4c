"""QANGO longest defence: the exact distance-to-loss reply against plain minimax, the stored books,
and the perfect bot's game against itself on every won row (it lasts the row's shortest win)."""

import json
import random

import pytest
from tanglekit.games.qango import Position, board_from_json, load_board
from tanglekit.games.qango.bots import make_bot
from tanglekit.games.qango.defence import _path, book_defence, distance, load_defence_book, longest_defence, wins_within
from tanglekit.games.qango.position import parse_position
from tanglekit.games.qango.proof import canonical
from tanglekit.games.qango.reference import reference_move_values
from tanglekit.games.qango.solve import QangoSolver
from tanglekit.games.qango.table import ROWS

SMALL = {"name": "s44", "width": 4, "height": 4,
         "triples": [[0, 1, 4], [2, 3, 7], [5, 9, 10], [8, 12, 13], [11, 14, 15]]}
#: every row X wins, with its shortest win: each has a stored book
WON = [(r["board"], r["opening"], r["plies"]) for r in ROWS if r["value"] == "win"]
BOOKS = [(b, o) for b, o, _ in WON]


def _lost_positions(board, rng, count, min_empty=8, max_empty=11):
    """Positions from random playouts whose mover is lost (every reply loses, by plain minimax),
    with replies of different lengths, and their reference values."""
    solver = QangoSolver(board, None, tt_bits=14)
    out = []
    for _ in range(4000):
        if len(out) >= count:
            break
        p = Position(board)
        target = board.n_cells - rng.randint(min_empty, max_empty)
        while p.n_counters < target and not p.is_over():
            p = p.play(rng.choice(p.legal_moves()))
        if p.is_over():
            continue
        res = solver.solve(p)  # a quick filter: only lost positions go to the slow reference
        if res.value != "loss" or res.plies < 4:
            continue
        vals = reference_move_values(p, max_empty=max_empty)
        if all(v == "loss" for v, _ in vals.values()) and len({k for _, k in vals.values()}) > 1:
            out.append((p, vals))
    return out


def test_longest_defence_matches_brute_force_on_a_small_board():
    board = board_from_json(SMALL)
    cases = _lost_positions(board, random.Random(5), 6)
    assert len(cases) == 6 and any(max(k for _, k in v.values()) >= 6 for _, v in cases)
    for p, vals in cases:
        d = max(k for _, k in vals.values())  # the mover's longest defence, its reply included
        winner = "O" if p.to_move == "X" else "X"
        assert distance(p, winner) == d, p.to_text()
        m = longest_defence(p, d)
        assert m is not None and vals[m] == ("loss", d), (p.to_text(), m, vals)
        # the exact test itself: a shorter reply does not pass it
        short = [c for c, (_, k) in vals.items() if k < d]
        assert short and all(wins_within(p.play(c), winner, d - 3) for c in short)


def test_perfect_bot_resists_longest_on_a_small_board():
    board = board_from_json(SMALL)
    bot = make_bot("perfect")
    for p, vals in _lost_positions(board, random.Random(11), 5):
        d = max(k for _, k in vals.values())
        assert vals[bot(p)][1] == d, p.to_text()


@pytest.mark.parametrize("board_name,opening", BOOKS)
def test_stored_books_are_consistent(board_name, opening):
    """Each stored entry: a loser's position under the row's opening, a legal reply, distances that
    fall by two along the book's own line, and the first entry at the row's shortest win less one."""
    doc = json.loads(_path(board_name, opening).read_text())
    row = next(r for r in ROWS if r["board"] == board_name and r["opening"] == opening)
    assert doc["format"] == "tanglekit-qango-defence" and doc["plies"] == row["plies"] and doc["lines"] >= 1
    board = load_board(board_name)
    allowed = frozenset(board.opening_cells(opening))
    assert load_defence_book(board, allowed) is not None
    plies = set()
    for key, e in doc["positions"].items():
        p = parse_position(e["position"], board, allowed_first=allowed)
        ck = canonical(p.x, p.o, board.symmetries)[0]
        assert f"{ck[0]:x}:{ck[1]:x}" == key
        assert p.to_move == "O" and p.n_counters == row["plies"] - e["plies"]
        hit = book_defence(p)
        assert hit is not None and hit[1] == e["plies"] and p._legal(hit[0])
        plies.add(e["plies"])
    assert max(plies) == row["plies"] - 1 and min(plies) == 2
    # a position the book does not hold: nothing
    assert book_defence(Position(board, allowed_first=allowed)) is None


def test_a_stored_reply_is_exact_late_in_the_line():
    """Re-check the short entries of one book with the exact test (cheap near the end)."""
    board = load_board("7")
    allowed = frozenset(board.opening_cells("professionals-1"))
    doc = json.loads(_path("7", "professionals-1").read_text())
    for e in doc["positions"].values():
        if e["plies"] > 6:
            continue
        p = parse_position(e["position"], board, allowed_first=allowed)
        reply, d = book_defence(p)
        child = p.play(reply)
        assert not wins_within(child, "X", d - 3) and wins_within(child, "X", d - 1)


def _self_play(board_name, opening):
    board = load_board(board_name)
    p = Position(board, allowed_first=frozenset(board.opening_cells(opening)))
    x, o = make_bot("perfect", seed=1), make_bot("perfect", seed=2)
    while not p.is_over():
        p = p.play((x if p.to_move == "X" else o)(p))
    return p.winner(), p.n_counters


@pytest.mark.parametrize("board_name,opening,plies", WON)
def test_perfect_against_perfect_lasts_the_shortest_win(board_name, opening, plies):
    """X wins no later than its shortest forced win (the certificate), O resists exactly that long
    (the stored book): every won row, a few seconds each."""
    assert _self_play(board_name, opening) == ("X", plies)


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("board_name,opening", BOOKS)
def test_every_stored_reply_is_exact(board_name, opening):
    """Every entry of every book, both ways: after the stored reply the winner has no win within
    d - 3 plies and has one within d - 1 (the reply's distance is exactly d - 1). About a minute in
    all, most of it the first replies of QANGO 7 professionals-2 and 7 Plus edges."""
    board = load_board(board_name)
    allowed = frozenset(board.opening_cells(opening))
    doc = json.loads(_path(board_name, opening).read_text())
    for e in doc["positions"].values():
        p = parse_position(e["position"], board, allowed_first=allowed)
        reply, d = book_defence(p)
        child = p.play(reply)
        assert wins_within(child, "X", d - 3) is False and wins_within(child, "X", d - 1) is True, e["position"]


def test_a_perfect_bot_loads_its_kernels_in_the_background(monkeypatch):
    """Making a perfect bot does not wait for its kernels (10-20 s to compile on an empty kernel
    cache: a fresh server's first QANGO page); its first move does, before its time starts."""
    import threading
    import time

    from tanglekit.games.qango import bots

    started, release = threading.Event(), threading.Event()
    monkeypatch.setattr(bots, "_warming", [])
    monkeypatch.setattr(bots, "_warm_kernels", lambda: (started.set(), release.wait(60)))
    bot = make_bot("perfect")  # returns with the warm-up still running
    assert started.wait(10) and bots._warming[0].is_alive()
    assert make_bot("perfect") and len(bots._warming) == 1  # one warm-up per process
    pos = Position(load_board("6"))
    out: list[int] = []
    mover = threading.Thread(target=lambda: out.append(bot(pos)), daemon=True)
    mover.start()
    time.sleep(0.3)
    assert not out and mover.is_alive()  # the first move waits for the kernels
    release.set()
    mover.join(60)
    assert out and out[0] in pos.legal_moves()
