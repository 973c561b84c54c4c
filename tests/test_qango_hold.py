"""No-win and draw certificates: built from df-pn disproofs, checked by the rules-only verifier."""

import copy

from tanglekit.games.qango import load_board
from tanglekit.games.qango.cert import certificate, make_hold_proof
from tanglekit.games.qango.position import parse_position
from tanglekit.games.qango.proof import verify_proof
from tanglekit.games.qango.solve import QangoSolver

DRAWN = "..XX../.O.XOO/.XO..X/..XXOX/X.OO../XO..O."  # 14 empty cells, a draw (iterative deepening)


def test_draw_certificate_verifies_and_tampering_fails():
    b = load_board("6")
    pos = parse_position(DRAWN, b)
    assert QangoSolver(b, None, tt_bits=16).solve(pos).value == "draw"
    doc = certificate(pos, "draw", solver=QangoSolver(b, None, tt_bits=14))
    rep = verify_proof(doc)
    assert rep["ok"], rep["error"]
    assert rep["claim"] == "draw" and rep["nodes"] > 10
    tampered = 0
    for side in ("X", "O"):
        moves = [k for k, v in doc["strategies"][side].items() if isinstance(v, int)]
        if not moves:
            continue  # every move of this holder is inferred by the checker
        bad = copy.deepcopy(doc)
        del bad["strategies"][side][moves[0]]  # one position of the holder left without a move
        assert not verify_proof(bad)["ok"]
        tampered += 1
    assert tampered
    one = {**doc, "claim": "no-win", "side": "X", "strategy": doc["strategies"]["X"]}
    del one["strategies"]
    assert verify_proof(one)["ok"]
    assert not verify_proof({**one, "side": "O"})["ok"]  # O's table is not X's strategy


def test_no_win_is_not_built_for_a_winning_side():
    b = load_board("6")
    pos = parse_position("XX..../O...../....../....../....../......", b)  # O (to move) wins in 11
    assert make_hold_proof(pos, "O", QangoSolver(b, None, tt_bits=14)) is None
    doc = make_hold_proof(pos, "X", QangoSolver(b, None, tt_bits=14))
    assert doc is not None and verify_proof(doc)["ok"]


def _docs_example(version):
    """The JSON example of a certificate of that version in docs/qango.md."""
    import json
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "qango.md").read_text()
    pattern = r'```json\n(\{"format": "tanglekit-qango-proof", "version": %d.*?)```' % version
    return json.loads(re.search(pattern, text, re.S).group(1))


def test_docs_no_win_example_verifies():
    doc = _docs_example(2)
    rep = verify_proof(doc)
    assert rep["ok"], rep["error"]
    assert rep["nodes"] == 1 and rep["side"] == "O"
    bad = copy.deepcopy(doc)
    bad["tree"].pop()  # O's move 3 left unanswered
    assert not verify_proof(bad)["ok"]


def test_docs_v3_example_verifies():
    doc = _docs_example(3)
    rep = verify_proof(doc)
    assert rep["ok"], rep["error"]
    assert rep["claim"] == "win" and rep["side"] == "X" and rep["longest"] == 5
    assert not verify_proof({**doc, "plies": 3})["ok"]  # the longest line takes 5 plies
    assert not verify_proof({**doc, "strategy": {"51:8c": 5}})["ok"]  # the second move is missing
    assert not verify_proof({**doc, "strategy": {"51:8c": 4, "71:8e": 9}})["ok"]  # 4 is taken
