"""The solved-values table, its certificates and the certificate-backed perfect player."""

import json
from importlib import resources

import pytest
from tanglekit.games.qango import Position, load_board
from tanglekit.games.qango.book import book_move
from tanglekit.games.qango.proof import verify_proof
from tanglekit.games.qango.table import ROWS, proof_path, solved_table

FAST = {"qango6-standard.json.gz"}  # the rest in the slow run (the v3 kinds: tests/test_qango_holds.py)
ALL = sorted({r["proof"] for r in ROWS} | {fm["proof"] for r in ROWS for fm in r.get("first_moves") or []})


def test_table_rows_name_existing_certificates():
    rows = solved_table()
    assert len(rows) == 10 and {(r["board"], r["opening"]) for r in rows} == {
        ("6", "standard"), ("6", "castle"), ("6", "tournament"), ("7plus", "standard"), ("7plus", "edges"),
        ("7plus", "tournament"), ("7", "standard"), ("7", "castle"), ("7", "professionals-1"),
        ("7", "professionals-2")}
    for r in rows:
        assert r["value"] in ("win", "draw") and r["proof_bytes"] > 1000
        assert (r["plies"] is None) == (r["value"] == "draw")
        for fm in r.get("first_moves") or []:
            assert fm["value"] in ("win", "loss", "draw") and fm["proof_bytes"] > 1000
    # every allowed first counter appears in exactly one class of the tournament rows
    for r in rows:
        if r.get("first_moves"):
            b = load_board(r["board"])
            cells = sorted(rc[0] * b.width + rc[1] for fm in r["first_moves"] for rc in fm["cells"])
            assert cells == sorted(b.opening_cells(r["opening"]))


def _check(name):
    with resources.as_file(proof_path(name)) as p:
        rep = verify_proof(p)
    assert rep["ok"], rep["error"]
    rows = [r for r in ROWS if r["proof"] == name] + [fm for r in ROWS for fm in r.get("first_moves") or []
                                                       if fm["proof"] == name]
    for r in rows:
        assert rep["nodes"] == r["checker_nodes"] and rep["longest"] == r["proof_plies"]
        if r["value"] in ("win", "loss") and r["plies"] is not None:
            # the exact shortest win, measured from the position after the first counter for a loss
            assert rep["claim"] == "win" and rep["shortest"] == r["plies"] - (1 if r["value"] == "loss" else 0)
        else:
            assert rep["claim"] == "draw"
    return rep


@pytest.mark.parametrize("name", sorted(FAST))
def test_shipped_certificates_verify(name):
    _check(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in ALL if n not in FAST])
def test_shipped_large_certificates_verify(name):
    """The other rows: 7 Plus standard, the QANGO 6 tournament first counters (seconds), QANGO 6
    castle, both tournament draws, 7 Plus edges, QANGO 7 (1-2 min each)."""
    _check(name)


def test_book_move_follows_the_certificate_in_every_symmetry():
    b = load_board("6")
    allowed = b.opening_cells("tournament")
    # X's corner counter at [5, 5] is the image of [0, 0]: the book knows O's winning reply, the image of [2, 3]
    cell, kind = book_move(Position(b, 1 << 35, 0, allowed))
    assert kind == "win"
    assert cell in {perm[15] for perm in b.symmetries if perm[0] == 35}
    # after a middle-edge counter O holds the draw
    cell, kind = book_move(Position(b, 1 << 2, 0, allowed))
    assert kind == "hold" and Position(b, 1 << 2, 1 << cell, allowed).winner() is None


def test_cli_table_json():
    from hostile import run

    p = run(["qango", "table", "--json"])
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    six = [r for r in rows if r["board"] == "6" and r["opening"] == "castle"][0]
    assert six["value"] == "win" and six["plies"] == 19 and six["proof"] == "qango6-castle.json.gz"
    t = [r for r in rows if r["board"] == "6" and r["opening"] == "tournament"][0]
    assert t["value"] == "draw" and [fm["value"] for fm in t["first_moves"]] == ["loss", "loss", "draw"]


def test_book_holds_with_the_draw_certificate():
    """On QANGO 7 Plus (tournament) the book gives X a first move after which O cannot force a win."""
    b = load_board("7plus")
    pos = Position(b, 0, 0, b.opening_cells("tournament"))
    cell, kind = book_move(pos)
    assert kind == "hold" and cell in b.opening_cells("tournament")


def test_perfect_bot_keeps_each_opening_apart():
    """One perfect bot on two openings of the same board: its first counter obeys each opening
    (it once reused the solver of the first opening for the second)."""
    from tanglekit.games.qango import Position, load_board
    from tanglekit.games.qango.bots import make_bot

    b = load_board("6")
    bot = make_bot("perfect")
    assert bot(Position(b)) in b.cells
    for opening in ("castle", "tournament"):
        allowed = b.opening_cells(opening)
        assert bot(Position(b, 0, 0, allowed)) in allowed, opening
