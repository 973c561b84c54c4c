"""Hostile input for every Tangle command that reads something: files, IDs, inline text, numbers.

Every case must be refused with one line on stderr and exit code 2 (tests/hostile.py), never a
traceback, never an answer about an empty or default game; valid inputs give correct answers.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from hostile import HOSTILE_NAMES, assert_refused, hostile_files, hostile_text, json_values, run_cli

from tanglekit.games.tangle import TangleGame, default_board, default_pieces

FUZZ = settings(max_examples=examples(20), deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def valid(tmp_path_factory):
    """A real position (a few moves in, player to move), a finished game and a puzzle file."""
    from tanglekit.games.tangle.generate import generate_puzzle

    root = tmp_path_factory.mktemp("tangle-valid")
    g = TangleGame(players=2)
    s = g.new_state()
    for _ in range(6):
        s.push(s.legal_moves()[0])
    (root / "state.json").write_text(json.dumps(s.to_json()))
    done = g.new_state()
    while not done.over:
        done.push(done.legal_moves()[-1])
    (root / "over.json").write_text(json.dumps(done.to_json()))
    puzzle = generate_puzzle(seed=4)
    (root / "puzzle.json").write_text(json.dumps(puzzle))
    return {"root": root, "state": s, "puzzle": puzzle}


OTHER_GAMES = {
    "zangle_deal": {"middle": [[[0, 0], [1, 0]]], "own": [[[[0, 0]]]], "piles": []},
    "zangle_tagged": {"format": "tanglekit/zangle-solo", "version": 1, "middle": [], "draw": [], "piles": []},
    "qango_tagged": {"format": "tanglekit/qango-position", "version": 1, "rows": ["......"] * 6},
    "tanglung_tagged": {"format": "tanglekit/tanglung-challenge", "version": 1, "layout": "CRBF/HDFR/BHFB/RHDC"},
    "zinga_tagged": {"format": "tanglekit/zinga-sheets", "version": 1, "sheets": []},
    "play_log": {"format": "tanglekit/play-log", "version": 1, "game": "tangle", "moves": []},
    "tangle_board": default_board().to_json(),
    "tangle_pieces": default_pieces().to_json(),
}


def _bad_states(valid_state) -> dict[str, dict]:
    """Tangle-shaped files whose content is wrong: each one must be refused, naming the problem."""
    good = valid_state.to_json()
    far = {"piece": "I1", "sides": [[9000, 9000]]}
    return {
        "foo": {"foo": 1},
        "empty_object": {},
        "off_board_move": {**good, "moves": good["moves"] + [far]},
        "unknown_piece": {**good, "moves": [{"piece": "X9", "sides": [[1, 0]]}]},
        "illegal_order": {**good, "moves": good["moves"][1:]},
        "wrong_scores": {**good, "scores": [7, 0]},
        "wrong_to_move": {**good, "to_move": 1 - good["to_move"]},
        "wrong_over": {**good, "over": True},
        "players_9": {**good, "players": 9},
        "players_text": {**good, "players": "2"},
        "players_bool": {**good, "players": True},
        "huge_coords": {**good, "moves": [{"piece": "I1", "sides": [[10**18, 10**18]]}]},
        "moves_not_list": {**good, "moves": "abc"},
        "bad_option": {**good, "options": {"colour": "red"}},
        "bad_option_value": {**good, "options": {"connection": "glue"}},
        "unknown_board": {**good, "board": "no-such-board"},
        "path_board": {**good, "board": "../../etc/passwd"},
        "inline_bad_board": {**good, "board": {"rows": ["..."]}},
        "too_many_pieces": {**good, "pieces": {"pieces": [{"name": "I1", "value": 1, "count": 10**6, "turns": ""}]}},
        "duplicate_piece": {**good, "pieces": {"pieces": [{"name": "A", "value": 1, "count": 1, "turns": "R"},
                                                          {"name": "B", "value": 1, "count": 1, "turns": "L"}]}},
        "disconnected_piece": {**good, "pieces": {"pieces": [{"name": "A", "value": 1, "count": 1,
                                                             "sides": [[1, 0], [41, 0]]}]}},
        "future_version": {**good, "version": 99},
        "other_tag": {**good, "format": "tanglekit/qango-position"},
        "puzzle_tag_no_solution": {**good, "format": "tanglekit/tangle-puzzle"},
    }


@pytest.mark.parametrize("name", HOSTILE_NAMES + ["folder_path", "missing"])
def test_best_turn_refuses_the_corpus(name, tmp_path):
    path = hostile_files()[name]
    assert_refused(["tangle", "best-turn", str(path), "--json"], tmp_path)


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_puzzle_check_and_play_from_refuse_the_corpus(name, tmp_path):
    path = hostile_files()[name]
    assert_refused(["tangle", "puzzle", "check", str(path)], tmp_path)
    assert_refused(["tangle", "play", "--from", str(path), "--bots", "random", "--json"], tmp_path)


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_board_and_piece_files_refuse_the_corpus(name, tmp_path):
    path = hostile_files()[name]
    assert_refused(["tangle", "board", "show", "--board", str(path)], tmp_path)
    assert_refused(["tangle", "board", "show", "--pieces", str(path)], tmp_path)


@pytest.mark.parametrize("name", sorted(OTHER_GAMES))
def test_other_games_files_are_refused(name, tmp_path):
    f = tmp_path / "other.json"
    f.write_text(json.dumps(OTHER_GAMES[name]))
    msg = assert_refused(["tangle", "best-turn", str(f)], tmp_path)
    if "format" in OTHER_GAMES[name]:
        assert "this is a" in msg and "expected a Tangle" in msg, msg
    assert_refused(["tangle", "puzzle", "check", str(f)], tmp_path)


def test_bad_state_contents_are_refused(valid, tmp_path):
    for name, data in _bad_states(valid["state"]).items():
        f = tmp_path / f"{name}.json"
        f.write_text(json.dumps(data))
        msg = assert_refused(["tangle", "best-turn", str(f)], tmp_path)
        assert str(f.name) in msg or "inline" in msg or "<" in msg, (name, msg)
        f.unlink()


def test_more_pieces_than_the_set_is_refused(tmp_path):
    pieces = {"pieces": [{"name": "I1", "value": 1, "count": 1, "turns": ""},
                         {"name": "V2", "value": 2, "count": 3, "turns": "R"}]}
    f = tmp_path / "over.json"
    f.write_text(json.dumps({"pieces": pieces, "players": 2, "moves": ["I1 4,5:0", "I1 4,5:1", "I1 4,5:2"]}))
    msg = assert_refused(["tangle", "best-turn", str(f)], tmp_path)
    assert "move 3" in msg and "one I1 too many: player 0 has used all 1" in msg, msg
    f.write_text(json.dumps({"pieces": pieces, "players": 2, "moves": ["I1 4,5:0", "I1 4,5:1", "V2 4,5:2 4,5:3"]}))
    code, out, err = run_cli(["tangle", "best-turn", str(f), "--json"])
    assert code == 0 and json.loads(out)["to_move"] == 1, err


def test_other_games_ids_are_refused_before_generating(tmp_path):
    for text in ("qango:6,k3#1", "zangle:solo#1", "tanglung:solo,hard#7"):
        msg = assert_refused(["tangle", "best-turn", text], tmp_path)
        assert "expected a Tangle puzzle ID" in msg
        assert_refused(["tangle", "puzzle", "check", text], tmp_path)


def test_a_finished_game_has_no_best_turn(valid):
    msg = assert_refused(["tangle", "best-turn", str(valid["root"] / "over.json")], valid["root"])
    assert "game is over" in msg


def test_a_state_is_not_a_puzzle_and_a_tampered_puzzle_is_invalid(valid, tmp_path):
    msg = assert_refused(["tangle", "puzzle", "check", str(valid["root"] / "state.json")], tmp_path)
    assert "this is a Tangle position file, expected a Tangle puzzle" in msg
    bad = dict(valid["puzzle"], points=valid["puzzle"]["points"] + 1)
    f = tmp_path / "tampered.json"
    f.write_text(json.dumps(bad))
    code, out, _ = run_cli(["tangle", "puzzle", "check", str(f), "--json"])
    assert code == 1 and json.loads(out)["valid"] is False
    bad = dict(valid["puzzle"], solution=[{"piece": "I1", "sides": [[9000, 9000]]}])
    f.write_text(json.dumps(bad))
    code, out, _ = run_cli(["tangle", "puzzle", "check", str(f), "--json"])
    assert code == 1 and json.loads(out)["valid"] is False


@pytest.mark.parametrize("args", [
    ["tangle", "match", "greedy", "random", "--games", "0"],
    ["tangle", "match", "greedy", "random", "--games", "-1"],
    ["tangle", "match", "greedy", "random", "--games", "99999999999999"],
    ["tangle", "match", "greedy", "random", "--opening", "-1"],
    ["tangle", "match", "greedy", "random", "--seed", "-1"],
    ["tangle", "match", "greedy", "nobody"],
    ["tangle", "play", "--players", "0"],
    ["tangle", "play", "--players", "99999999999999999999"],
    ["tangle", "play", "--seed", "-5"],
    ["tangle", "play", "--moves", "-1"],
    ["tangle", "play", "--bots", ","],
    ["tangle", "play", "--bots", "x" * 5000],
    ["tangle", "play", "--option", "connection"],
    ["tangle", "play", "--option", "target_score=-3"],
    ["tangle", "play", "--option", "partners=on"],
    ["tangle", "puzzle", "generate", "--count", "0"],
    ["tangle", "puzzle", "generate", "--count", "100000"],
    ["tangle", "puzzle", "generate", "--min-chain", "0"],
    ["tangle", "puzzle", "generate", "--min-points", "-1"],
    ["tangle", "puzzle", "generate", "--seed", "99999999999999999999"],
    ["tangle", "puzzle", "generate", "--board", "no-such-board"],
    ["tangle", "board", "show", "--board", "x" * 5000],
])
def test_bad_numbers_and_names_are_refused(args, tmp_path):
    assert_refused(args, tmp_path)


@pytest.mark.parametrize("flag,value", [
    ("--node-limit", "-1"), ("--node-limit", "99999999999999999999"),
    ("--time-limit", "-1"), ("--time-limit", "nan"), ("--time-limit", "inf"), ("--mode", "fast"),
])
def test_best_turn_limits_are_checked(valid, flag, value, tmp_path):
    assert_refused(["tangle", "best-turn", str(valid["root"] / "state.json"), flag, value], tmp_path)


def test_stopped_search_says_so(valid):
    path = str(valid["root"] / "puzzle.json")
    code, out, err = run_cli(["tangle", "best-turn", path, "--json", "--time-limit", "0"])
    r = json.loads(out)
    assert code == 0 and r["complete"] is False and r["exact"] is False and r["reason"] == "time limit"
    code, out, _ = run_cli(["tangle", "best-turn", path, "--json", "--node-limit", "0", "--mode", "safe"])
    r = json.loads(out)
    assert r["complete"] is False and r["points"] is None and r["reason"] == "node limit"
    code, out, _ = run_cli(["tangle", "best-turn", path, "--json"])
    r = json.loads(out)
    assert r["complete"] is True and r["points"] == valid["puzzle"]["points"] and r["line"] == r["moves"]


@pytest.mark.parametrize("text", [
    "tangle:", "tangle:#", "tangle:players=2#", "tangle:players=2#-1", "tangle:players=9#1",
    "tangle:players=2:zz.zz", "tangle:players=2:0.0", "tangle:board=../x:1", "tangle:board=z.AAAA:1",
    "tangle:pieces=nope#1", "tangle:min_chain=0#1", "tangle:colour=red#1", "tangle:hard#1",
    "tangle:players=2,players=3#1", "tangle:players=2:" + "1." * 5000, "qango:6,k3#1",
])
def test_bad_ids_are_refused(text, tmp_path):
    assert_refused(["tangle", "best-turn", text], tmp_path)


@FUZZ
@given(doc=json_values)
def test_any_json_document_is_refused_or_read(doc, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fz")
    f = folder / "doc.json"
    f.write_text(json.dumps(doc))
    code, out, err = run_cli(["tangle", "best-turn", str(f), "--json"], cwd=folder)
    assert "Traceback" not in err
    if code != 0:  # hypothesis almost never writes a valid position; when it does, it is answered
        assert_refused(["tangle", "best-turn", str(f), "--json"], folder)
    code, out, err = run_cli(["tangle", "board", "show", "--board", str(f)], cwd=folder)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1


@FUZZ
@given(text=hostile_text)
def test_any_argument_text_is_refused(text, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fa")
    if not text.strip() or text.strip() in (".", ".."):
        text = "tangle:" + text
    assert_refused(["tangle", "best-turn", text], folder)
    assert_refused(["tangle", "puzzle", "check", text], folder)


@FUZZ
@given(moves=st.lists(st.integers(-3, 5000), max_size=12))
def test_any_descriptive_id_is_refused_or_a_legal_position(moves, tmp_path_factory):
    from tanglekit.games.tangle.ids import b36

    desc = ".".join("-" if m < 0 else b36(m) for m in moves) or "."
    text = f"tangle:players=2:{desc}"
    code, out, err = run_cli(["tangle", "best-turn", text, "--json"])
    assert "Traceback" not in err
    assert code == 2 or (code == 0 and json.loads(out)["complete"] is True)
