"""`qango solve` answers from the shipped certificates (the book): the empty board of every solved
variant, positions further down a certificate's strategy, and ``--no-book`` searching instead."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from tanglekit.cli import app
from tanglekit.games.qango.board import load_board
from tanglekit.games.qango.book import book_solve
from tanglekit.games.qango.position import Position
from tanglekit.games.qango.table import ROWS

FOR_MOVER = {"win": "loss", "loss": "win", "draw": "draw"}


def _empty(row) -> Position:
    b = load_board(row["board"])
    return Position(b, 0, 0, b.opening_cells(row["opening"]))


def _cli(*args) -> dict:
    r = CliRunner().invoke(app, ["qango", "solve", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(next(line for line in r.output.splitlines() if line.startswith("{")))  # not "wrote ..."


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['board']}-{r['opening']}")
def test_book_answers_every_solved_empty_board_as_the_table(row):
    pos = _empty(row)
    res = book_solve(pos)
    assert res is not None
    assert (res.value, res.plies) == (row["value"], row["plies"])
    assert list(pos.board.rc(res.best_move)) == row["first_move"]
    for fm in row.get("first_moves") or []:  # after each first counter: the value for O to move
        nxt = pos.play(next(c for c in pos.board.cells if list(pos.board.rc(c)) == fm["cells"][0]))
        got = book_solve(nxt)
        assert got is not None and got.value == FOR_MOVER[fm["value"]]
        assert got.plies == (None if fm["plies"] is None else fm["plies"] - 1)
        assert got.best_move in nxt.legal_moves()


def _search(pos: Position):
    from tanglekit.games.qango.solve import QangoSolver  # numpy: only the searching tests

    return QangoSolver(pos.board, pos.allowed_first).solve(pos, time_limit=600)


QUICK = [r for r in ROWS if (r["board"], r["opening"]) in {("6", "standard"), ("6", "castle")}]
SLOW = [r for r in ROWS if r not in QUICK]


def _book_equals_search(row):
    pos = _empty(row)
    book, search = book_solve(pos), _search(pos)
    assert book.value == search.value
    assert book.best_move in pos.legal_moves()
    if book.plies is not None:
        assert book.plies == search.plies


@pytest.mark.parametrize("row", QUICK, ids=lambda r: f"{r['board']}-{r['opening']}")
def test_book_equals_the_search_on_the_quick_empty_boards(row):
    _book_equals_search(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", SLOW, ids=lambda r: f"{r['board']}-{r['opening']}")
def test_book_equals_the_search_on_every_empty_board(row):
    _book_equals_search(row)


def test_book_positions_down_the_strategy_equal_the_search():
    """Positions a few plies into the 6 standard certificate (the winner follows the book, the other
    side plays at random): the book's value and move agree with the search wherever the book answers."""
    row = next(r for r in ROWS if (r["board"], r["opening"]) == ("6", "standard"))
    rng = random.Random(7)
    answered = 0
    for _ in range(6):
        pos = _empty(row)
        for ply in range(rng.randrange(2, 7)):
            res = book_solve(pos)
            if ply >= 1 and res is not None:
                s = _search(pos)
                assert res.value == s.value, pos
                assert res.best_move in pos.legal_moves()
                if res.value == "win":  # the book's move keeps the win
                    assert _search(pos.play(res.best_move)).value == "loss"
                answered += 1
            if res is not None and pos.to_move == "X":
                pos = pos.play(res.best_move)
            else:
                pos = pos.play(rng.choice(pos.legal_moves()))
            if pos.is_over():
                break
    assert answered >= 6


def test_cli_uses_the_book_and_no_book_searches():
    book = _cli("empty", "--board", "6", "--opening", "castle")
    assert (book["source"], book["value"], book["plies"], book["best_move"], book["nodes"]) == \
        ("book", "win", 19, [1, 2], 0)
    searched = _cli("empty", "--board", "6", "--no-book")
    assert searched["source"] == "search" and searched["nodes"] > 0
    assert (searched["value"], searched["plies"]) == ("win", 11)
    # an explicit --method searches too; a position off the book is searched
    assert _cli("empty", "--board", "6", "--method", "id")["source"] == "search"
    off = _cli("OXO.XO/OX.XOX/O.XOX./XOX.O./.XOX../X.O.OX")
    assert off["source"] == "search" and off["value"] == "draw"


def test_proof_of_a_certificates_root_is_the_shipped_certificate_as_the_search_writes_it(tmp_path):
    """The demo's `qango solve empty --board 6 --proof F`: from the book the shipped certificate,
    the very document the search writes; the checker accepts it."""
    book = _cli("empty", "--board", "6", "--proof", str(tmp_path / "book.json"))
    searched = _cli("empty", "--board", "6", "--no-book", "--proof", str(tmp_path / "search.json"))
    assert (book["source"], searched["source"]) == ("book", "search")
    a, b = (json.loads((tmp_path / f).read_text()) for f in ("book.json", "search.json"))
    assert a == b and a["claim"] == "win" and a["plies"] == 11
    r = CliRunner().invoke(app, ["qango", "verify-proof", str(tmp_path / "book.json"), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["ok"] is True
    # a position inside a certificate (not its root) is searched for its proof
    pos = "....../....../..X.../....../....../......"
    inside = _cli(pos, "--board", "6", "--proof", str(tmp_path / "inside.json"))
    assert inside["source"] == "search"
