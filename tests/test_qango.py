"""QANGO boards, rules, positions, proofs and CLI: RULES.md data, validation errors, round trips."""

import json
from pathlib import Path

import pytest
from tanglekit.errors import FormatError, RuleError, TanglekitError
from tanglekit.games.qango import Game, QangoOptions, board_from_json, load_board, parse_position
from tanglekit.games.qango.proof import verify_proof

RULES_TRIPLES = {
    "6": [{0, 1, 6}, {4, 5, 11}, {24, 30, 31}, {29, 34, 35}, {2, 7, 12}, {23, 28, 33}, {3, 10, 17},
          {18, 25, 32}, {8, 13, 14}, {21, 22, 27}, {9, 15, 16}, {19, 20, 26}],
    "7": [{0, 1, 7}, {5, 6, 13}, {35, 42, 43}, {41, 47, 48}, {2, 8, 14}, {25, 31, 32}, {4, 12, 20},
          {28, 36, 44}, {16, 17, 23}, {34, 40, 46}, {3, 9, 10}, {26, 27, 33}, {29, 30, 37}, {11, 18, 19},
          {15, 21, 22}, {38, 39, 45}],
}
PLUS_OFF = {0, 1, 5, 6, 7, 13, 35, 41, 42, 43, 47, 48}


def _brute_patterns(board):
    """Win patterns counted independently: triples, 2x2 squares, 5-lines in 4 directions on the board."""
    on = set(board.cells)
    w, h = board.width, board.height
    out = {frozenset(t.cells) for t in board.triples}
    for r in range(h):
        for c in range(w):
            sq = {(r + a) * w + c + b for a in (0, 1) for b in (0, 1)}
            if r + 1 < h and c + 1 < w and sq <= on:
                out.add(frozenset(sq))
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(5)]
                if all(0 <= rr < h and 0 <= cc < w and rr * w + cc in on for rr, cc in cells):
                    out.add(frozenset(rr * w + cc for rr, cc in cells))
    return out


def test_builtin_boards_match_rules():
    b6, b7, bp = load_board("6"), load_board("7"), load_board("7plus")
    assert [set(t.cells) for t in b6.triples] == RULES_TRIPLES["6"]
    assert [set(t.cells) for t in b7.triples] == RULES_TRIPLES["7"]
    assert [set(t.cells) for t in bp.triples] == [t for t in RULES_TRIPLES["7"] if not t & PLUS_OFF]
    assert len(bp.cells) == 37 and set(bp.off_board) == PLUS_OFF
    assert all(24 not in t.cells for t in b7.triples)
    # colours follow the RULES.md pictures
    assert "".join(b6.colours) == "PPOYPPPOBGYPOBBGGYYGGBBOPYGBOPPPYOPP"
    assert b6.limit == 36 and b7.limit == 40 and bp.limit == 37


@pytest.mark.parametrize("name,counts", [("6", (12, 25, 32)), ("7", (16, 36, 60)), ("7plus", (12, 24, 28))])
def test_patterns_derived_from_board(name, counts):
    b = load_board(name)
    kinds = b.pattern_kinds()
    assert (kinds.count("triple"), kinds.count("square"), kinds.count("line")) == counts
    assert {frozenset(p) for p in b.patterns} == _brute_patterns(b)


def test_openings_as_named_sets():
    b6, b7, bp = load_board("6"), load_board("7"), load_board("7plus")
    assert set(b6.cells) - b6.opening_cells("castle") == {7, 10, 14, 15, 20, 21, 25, 28}
    assert len(b6.opening_cells("tournament")) == 20
    inner = {r * 6 + c for r in range(1, 5) for c in range(1, 5)}
    assert b6.opening_cells("tournament") == frozenset(set(b6.cells) - inner)
    castle7 = {8, 12, 16, 17, 18, 23, 25, 30, 31, 32, 36, 40}
    p1 = castle7 | {9, 10, 11, 15, 19, 22, 26, 29, 33, 37, 38, 39}
    assert set(b7.cells) - b7.opening_cells("castle") == castle7
    assert set(b7.cells) - b7.opening_cells("professionals-1") == p1
    assert set(b7.cells) - b7.opening_cells("professionals-2") == p1 | {3, 21, 27, 45}
    edges = {c for c in bp.cells if any(not bp.on_board(r + dr, q + dq)
                                        for r, q in [bp.rc(c)] for dr, dq in ((0, 1), (1, 0), (0, -1), (-1, 0)))}
    assert bp.opening_cells("edges") == frozenset(edges) and len(edges) == 16
    assert bp.opening_cells("tournament") == {1 * 7 + 4, 2 * 7 + 5, 4 * 7 + 1, 5 * 7 + 2}
    assert b6.opening_cells("standard") == frozenset(b6.cells)
    with pytest.raises(FormatError, match="no opening rule"):
        b6.opening_cells("edges")


def test_symmetries_keep_patterns():
    for name, n in (("6", 8), ("7", 4), ("7plus", 4)):
        b = load_board(name)
        assert len(b.symmetries) == n
        pats = {frozenset(p) for p in b.patterns}
        for perm in b.symmetries:
            assert {frozenset(perm[c] for c in p) for p in pats} == pats


def _custom(**over):
    data = {"name": "t", "width": 4, "height": 3, "off_board": [],
            "triples": [{"cells": [0, 1, 4], "colour": "red"}, {"cells": [2, 3, 7], "colour": "blue"}]}
    data.update(over)
    return data


def test_custom_board_validation():
    b = board_from_json(_custom())
    assert len(b.triples) == 2 and len(b.patterns) == 2 + 6
    with pytest.raises(FormatError, match="share cell"):
        board_from_json(_custom(triples=[[0, 1, 4], [4, 5, 8]]))
    with pytest.raises(FormatError, match="not connected"):
        board_from_json(_custom(triples=[[0, 2, 4]]))
    with pytest.raises(FormatError, match="not on the board"):
        board_from_json(_custom(off_board=[0]))
    with pytest.raises(FormatError, match="exactly 3"):
        board_from_json(_custom(triples=[[0, 1]]))
    with pytest.raises(FormatError, match="outside"):
        board_from_json(_custom(off_board=[12]))
    with pytest.raises(FormatError, match="unknown board"):
        load_board("8")


def test_position_text_round_trip_and_turn():
    text = "X...../.O..../....../....../....../......"
    p = parse_position(text)
    assert p.board.name == "qango6" and p.to_move == "X" and p.to_text() == text
    assert parse_position(text.replace("/", "\n")).x == p.x
    q = parse_position("##...##/#.....#/...X.../......./......./#.....#/##...##")
    assert q.board.name == "qango7plus" and q.to_move == "O"
    assert parse_position("empty", "7").board.name == "qango7"
    j = parse_position(json.dumps({"board": "6", "x": [0], "o": [7]}))
    assert j == p
    assert parse_position(json.dumps(p.to_json())) == p


@pytest.mark.parametrize("text,err", [
    ("XX..../....../....../....../....../......", "counts"),
    ("O...../....../....../....../....../......", "counts"),
    ("XX.OO./X..OO./....../..X.../....../......", "both"),
    ("X.XOO./...OO./X...../..X.../....../X.....", "did not move last"),
    ("XX.O.O/X...../....OX/.O..XX/..O.XX/....OO", "no common counter"),
    ("#...../....../....../....../....../......", "on the"),
    ("XZ..../....../....../....../....../......", "unknown symbol"),
    ("X..../....../....../....../....../......", "cells"),
])
def test_position_validation_errors(text, err):
    with pytest.raises(TanglekitError, match=err):
        parse_position(text)


def test_game_log_undo_replay_and_limits():
    g = Game(QangoOptions(board="6", opening="castle"))
    with pytest.raises(RuleError):
        g.play(7)  # castle cell forbidden for the first counter
    for m in (0, 7, 1, 8):
        g.play(m)
    assert g.position.outcome() is None
    g.play(6)  # completes the red triple {0, 1, 6}
    assert g.position.outcome() == "X"
    with pytest.raises(RuleError):
        g.play(20)
    assert g.undo() == 6 and g.position.outcome() is None
    assert Game.from_log(g.log()).position == g.position
    # QANGO 7 draws after 40 counters; the option can change it
    b7, _ = QangoOptions(board="7").resolve()
    assert b7.limit == 40
    b, _ = QangoOptions.from_dict({"board": "7", "max_counters": "30"}).resolve()
    assert b.limit == 30
    with pytest.raises(RuleError, match="unknown"):
        QangoOptions.from_dict({"colour": "x"})


V1 = Path(__file__).resolve().parent / "data" / "qango6-standard-v1.json"  # a proof tree written by version 1


def test_version1_proof_tree_still_verifies():
    """Proof trees written by earlier versions (format version 1) are still read and checked."""
    doc = json.loads(V1.read_text())
    assert doc["version"] == 1 and doc["position"].count("X") == doc["position"].count("O") == 0
    rep = verify_proof(doc)
    assert rep["ok"] and rep["claim"] == "win" and rep["plies"] == 11


def test_stored_proof_tampering_fails():
    doc = json.loads(V1.read_text())
    # drop one defender reply at the root: the checker must notice
    bad = json.loads(json.dumps(doc))
    bad["tree"][1].pop()
    assert not verify_proof(bad)["ok"]
    short = dict(doc, plies=9)
    assert not verify_proof(short)["ok"]


def _cli(*args):
    """``tanglekit qango ARGS`` in-process (the console script's code path, ``hostile.run``)."""
    from hostile import run

    return run(["qango", *args])


def test_cli_solve_json_and_errors(tmp_path):
    # a mid-game position, O to move: a win in 7 plies (the written proof shows no shorter one)
    p = _cli("solve", "....../XX..XO/OXO.../....X./O...OX/......", "--json", "--proof", str(tmp_path / "p.json"))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert set(out) >= {"value", "best_move", "plies", "nodes", "complete", "line", "seconds", "id"}
    assert out["complete"] is True and out["line"] == ["{},{}".format(*out["best_move"])]
    assert out["value"] == "win" and out["plies"] == 7 and out["best_move"] == [0, 4]
    v = _cli("verify-proof", str(tmp_path / "p.json"), "--json")
    assert v.returncode == 0 and json.loads(v.stdout)["ok"] and json.loads(v.stdout)["shortest"] == 7
    bad = _cli("solve", "XXX.../....../....../....../....../......")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and bad.stderr.startswith("error:")
    t = _cli("solve", "empty", "--board", "7", "--time-limit", "0", "--json")
    assert t.returncode == 0, t.stderr
    t = json.loads(t.stdout)
    assert {k: t[k] for k in ("value", "best_move", "plies", "complete")} == {
        "value": "unknown", "best_move": None, "plies": None, "complete": False}
    assert t["nodes"] == 0 and t["reason"] == "time limit"


def test_cli_puzzle_board_show(tmp_path):
    p = _cli("puzzle", "generate", "--k", "2", "--seed", "3", "--json", "--svg", str(tmp_path / "p.svg"))
    assert p.returncode == 0, p.stderr
    puz = json.loads(p.stdout)
    assert puz["k"] == 2 and puz["plies"] == 3 and puz["id"].startswith("qango:6,k2:")
    assert (tmp_path / "p.svg").read_text().startswith("<svg")
    s = _cli("solve", puz["id"], "--json")
    assert json.loads(s.stdout)["value"] == "win" and json.loads(s.stdout)["plies"] == 3
    assert json.loads(s.stdout)["best_move"] == puz["key_move"]
    b = _cli("board", "generate", "--seed", "2", "--score-time", "0", "--out", str(tmp_path / "b.json"), "--json")
    assert b.returncode == 0, b.stderr
    board = load_board(str(tmp_path / "b.json"))
    assert len(board.triples) == 12
    assert json.loads(b.stdout)["seed_id"] == "qango:board,w=6,h=6#2"
    from tanglekit.games.qango.boards import load_board_spec

    for spec in ("qango-board:6x6#2", "qango:board,w=6,h=6#2", json.loads(b.stdout)["id"]):
        assert load_board_spec(spec).to_json()["triples"] == board.to_json()["triples"]
    sh = _cli("board", "show", "7plus", "--json")
    assert json.loads(sh.stdout)["patterns"] == {"triple": 12, "square": 24, "line": 28}
    pl = _cli("play", "--bot", "random", "--bot2", "search", "--seed", "1", "--think", "0.2", "--no-colour", "--json")
    assert pl.returncode == 0, pl.stderr
    log = json.loads(pl.stdout)
    # the rules replayed on the logged moves: each legal, the game over exactly at the last one,
    # with the returns the log states
    from tanglekit.games.qango import Game, QangoOptions

    pos = Game(QangoOptions(board="6")).position
    assert log["seats"] == ["random", "search"] and log["over"]
    for m in log["moves"]:
        assert pos.outcome() is None
        pos = pos.play(m["action"])
    winner = pos.outcome()
    assert log["moves"] and log["returns"] == ([1.0, -1.0] if winner == "X" else [-1.0, 1.0] if winner == "O"
                                               else [0.0, 0.0])


def test_gzip_proof_file_round_trip(tmp_path):
    import gzip

    doc = json.loads(V1.read_text())
    gz = tmp_path / "p.json.gz"
    with gzip.open(gz, "wt", encoding="utf-8") as fh:
        json.dump(doc, fh)
    assert verify_proof(gz)["ok"]
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(FormatError):
        verify_proof(bad)
