"""The solved-values table, its certificates and the certificate-backed perfect player."""

import json

import pytest

from tanglekit.games.qango import Position, load_board
from tanglekit.games.qango.proof import verify_proof
from tanglekit.solver.qango_book import book_move
from tanglekit.solver.qango_table import ROWS, proof_path, solved_table


def test_table_rows_name_existing_certificates():
    rows = solved_table()
    assert len(rows) == 10 and {(r["board"], r["opening"]) for r in rows} == {
        ("6", "standard"), ("6", "castle"), ("6", "tournament"), ("7plus", "standard"), ("7plus", "edges"),
        ("7plus", "tournament"), ("7", "standard"), ("7", "castle"), ("7", "professionals-1"),
        ("7", "professionals-2")}
    for r in rows:
        assert (r["proof"] is None) == (r["value"] == "open")
        if r["proof"]:
            assert r["proof_bytes"] > 1000
        for fm in r.get("first_moves") or []:
            assert fm["value"] in ("win", "loss", "draw", "open")
    # every allowed first counter appears in exactly one class of the tournament rows
    for r in rows:
        if r.get("first_moves"):
            b = load_board(r["board"])
            cells = sorted(rc[0] * b.width + rc[1]
                           for fm in r["first_moves"] for rc in fm["cells"])
            assert cells == sorted(b.opening_cells(r["opening"]))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["qango6-tournament-x00.json.gz", "qango6-tournament-x01.json.gz"])
def test_tournament_first_counter_certificates_verify(name):
    """A corner or next-to-corner first counter on QANGO 6 (tournament) loses: O wins in 13 plies."""
    with __import__("importlib").resources.as_file(proof_path(name)) as p:
        rep = verify_proof(p)
    assert rep["ok"], rep["error"]
    assert rep["claim"] == "win" and rep["plies"] == 13
    fm = [f for r in ROWS for f in r.get("first_moves") or [] if f.get("proof") == name][0]
    assert rep["nodes"] == fm["checker_nodes"]


def test_book_move_follows_the_certificate_in_every_symmetry():
    b = load_board("6")
    allowed = b.opening_cells("tournament")
    # X's corner counter at [5, 5] is the image of [0, 0]: the book knows O's winning reply
    pos = Position(b, 1 << 35, 0, allowed)
    cell, kind = book_move(pos)
    assert kind == "win"
    with __import__("importlib").resources.as_file(proof_path("qango6-tournament-x00.json.gz")) as p:
        from tanglekit.games.qango.proof import load_proof

        root_move = load_proof(p)["tree"][0]
    assert cell in {perm[root_move] for perm in b.symmetries if perm[0] == 35}
    assert book_move(Position(b, 1 << 2, 0, allowed)) is None  # the open class has no certificate


def test_cli_table_json():
    from hostile import run

    p = run(["qango", "table", "--json"])
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    six = [r for r in rows if r["board"] == "6" and r["opening"] == "castle"][0]
    assert six["value"] == "win" and six["plies"] == 19 and six["proof"] == "qango6-castle.json.gz"


def test_book_holds_with_the_no_win_certificate():
    """On QANGO 7 Plus (tournament) the book gives X a first move after which O cannot force a win."""
    b = load_board("7plus")
    pos = Position(b, 0, 0, b.opening_cells("tournament"))
    cell, kind = book_move(pos)
    assert kind == "hold" and cell in b.opening_cells("tournament")
