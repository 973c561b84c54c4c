"""QANGO IDs round-trip: for every board, opening and k, both printed IDs regenerate exactly the
puzzle printed beside them; positions and boards too; every file a command writes is read back
by every command that takes that kind of thing."""

import json

import pytest
from hostile import run_cli
from tanglekit.games.qango import board_from_json, load_board
from tanglekit.games.qango.board import board_layout
from tanglekit.games.qango.boards import generate_board
from tanglekit.games.qango.generate import generate_puzzle
from tanglekit.games.qango.ids import board_ids, position_id
from tanglekit.games.qango.position import Position, parse_position
from tanglekit.games.qango.sources import read_position_source
from tanglekit.generators.ids import resolve, split_id

OPENINGS = {"6": ["standard", "castle", "tournament"],
            "7": ["standard", "castle", "professionals-1", "professionals-2"],
            "7plus": ["standard", "edges", "tournament"]}
CASES = [(b, o) for b, names in OPENINGS.items() for o in names]


def _same_puzzle(a, b):
    assert a.position.to_text() == b.position.to_text()
    assert (a.k, a.key_move) == (b.k, b.key_move)
    assert a.position.allowed_first == b.position.allowed_first
    assert [t.cells for t in a.board.triples] == [t.cells for t in b.board.triples]
    assert a.board.limit == b.board.limit


@pytest.mark.parametrize("board,opening", CASES)
def test_puzzle_ids_round_trip_every_board_and_opening(board, opening):
    puz = generate_puzzle(board, 2, seed=3, opening=opening)
    assert puz.position.allowed_first == load_board(board).opening_cells(opening)
    params = split_id(puz.seed_id).params
    assert (f"opening={opening}" in params) == (opening != "standard")
    for text in (puz.id, puz.seed_id):  # the seed ID runs the generator again
        inst = resolve(text)
        assert inst.kind == "qango-puzzle"
        _same_puzzle(inst.value, puz)
        assert inst.id == puz.id
    assert inst.seed_id == puz.seed_id


@pytest.mark.parametrize("k", [2, 3, 4])
def test_puzzle_ids_round_trip_every_k(k):
    puz = generate_puzzle("6", k, seed=1)
    assert f"k{k}" in split_id(puz.id).params
    _same_puzzle(resolve(puz.id).value, puz)
    _same_puzzle(resolve(puz.seed_id).value, puz)


@pytest.mark.slow
@pytest.mark.parametrize("k", [5, 6])
def test_puzzle_ids_round_trip_long_k(k):
    puz = generate_puzzle("6", k, seed=1)
    _same_puzzle(resolve(puz.id).value, puz)
    _same_puzzle(resolve(puz.seed_id).value, puz)


def test_issue_case_castle_seed_11():
    """`qango puzzle generate --opening castle --seed 11` printed qango:6:k3#11, a different puzzle."""
    puz = generate_puzzle("6", 3, seed=11, opening="castle")
    assert puz.seed_id == "qango:6,k3,opening=castle#11"
    _same_puzzle(resolve(puz.seed_id).value, puz)
    standard = resolve("qango:6:k3#11").value  # the old ID still reads, as the standard opening it meant
    assert standard.position.allowed_first == load_board("6").opening_cells("standard")


def test_old_ids_still_read():
    old = resolve("qango:6:k3#1").value
    assert old.position.to_text() == "..OO.X/....XO/...XO./XXO..O/O.XOXO/XX...."  # printed by the earlier docs
    again = resolve("qango:6:k2:.X.OOX/O....O/XO.X../..XO../X...../....X.").value
    assert again.k == 2 and again.id == "qango:6,k2:.X.OOX/O....O/XO.X../..XO../X...../....X."


def test_generated_board_puzzles_and_board_ids():
    b = generate_board(5, 5, 3)
    desc, sid = board_ids(b)
    assert sid == "qango:board,w=5,h=5#3"
    for text in (desc, sid, "qango-board:5x5#3"):
        from tanglekit.games.qango.boards import load_board_spec

        assert board_layout(load_board_spec(text)) == board_layout(b)
    puz = generate_puzzle(b, 2, seed=1)
    assert puz.seed_id == "qango:w=5,h=5,bseed=3,k2#1"
    _same_puzzle(resolve(puz.seed_id).value, puz)
    _same_puzzle(resolve(puz.id).value, puz)


def _custom_board():
    return board_from_json({
        "name": "mine", "width": 4, "height": 4, "off_board": [15],
        "triples": [{"cells": [0, 1, 4], "colour": "red"}, {"cells": [2, 3, 7], "colour": "blue"},
                    {"cells": [8, 12, 13], "colour": "green"}, {"cells": [10, 11, 14], "colour": "grey"},
                    {"cells": [5, 6, 9], "colour": "purple"}],
        "max_counters": 12, "openings": {"corner": {"forbidden": [0, 3, 12]}}})


def test_custom_board_has_a_descriptive_id_and_no_seed_id():
    b = _custom_board()
    puz = generate_puzzle(b, 2, seed=2, opening="corner")
    assert puz.seed_id is None
    assert split_id(puz.id).params[0] == "custom" and "max=12" in split_id(puz.id).params
    back = resolve(puz.id).value
    _same_puzzle(back, puz)
    assert back.board.off_board == b.off_board
    # a seed ID on a custom board is refused, not regenerated on another board
    from tanglekit.errors import FormatError

    with pytest.raises(FormatError, match="no seed form"):
        resolve(puz.id.split(":")[0] + ":" + split_id(puz.id).params[0] + ",k2#2")


@pytest.mark.parametrize("board,opening", CASES + [("custom", "corner")])
def test_position_ids_round_trip(board, opening):
    b = _custom_board() if board == "custom" else load_board(board)
    pos = Position(b, 0, 0, b.opening_cells(opening))
    for c in b.cells[3:7]:
        if c in pos.legal_moves():
            pos = pos.play(c)
    pid = position_id(pos, opening)
    back = resolve(pid).value
    assert back.to_text() == pos.to_text() and back.allowed_first == pos.allowed_first
    assert back.board.limit == b.limit


def test_7plus_position_text_with_hash_cells():
    pos = parse_position("##X..##/#O....#/......./......./......./#.....#/##...##")
    pid = position_id(pos)
    assert pid.count("#") == 12 and split_id(pid).description == pos.to_text()
    assert read_position_source(pid)[0].to_text() == pos.to_text()


def _ok(args, tmp):
    code, out, err = run_cli(args, tmp)
    assert code == 0, (args, err[-2000:])
    return out


def test_written_files_are_read_back(tmp_path):
    """generate -> file -> solve/show/explore/puzzle solve; board generate -> file -> every --board."""
    _ok(["qango", "puzzle", "generate", "--k", "2", "--seed", "4", "--opening", "castle", "--out",
         str(tmp_path / "p.json")], tmp_path)
    printed = json.loads(_ok(["qango", "puzzle", "generate", "--k", "2", "--seed", "4", "--opening", "castle",
                              "--json"], tmp_path))
    (tmp_path / "printed.json").write_text(json.dumps(printed))
    for f in ("p.json", "printed.json"):
        got = json.loads(_ok(["qango", "puzzle", "solve", str(tmp_path / f), "--json"], tmp_path))
        assert got["id"] == printed["id"] and got["key_move"] == printed["key_move"]
        solved = json.loads(_ok(["qango", "solve", str(tmp_path / f), "--json"], tmp_path))
        assert solved["value"] == "win" and solved["plies"] == 3 and solved["best_move"] == printed["key_move"]
        shown = json.loads(_ok(["qango", "show", str(tmp_path / f), "--json"], tmp_path))
        assert shown["position"] == printed["position"]
        _ok(["qango", "explore", str(tmp_path / f), "--time-limit", "0"], tmp_path)
    for text in (printed["id"], printed["seed_id"]):
        got = json.loads(_ok(["qango", "puzzle", "solve", text, "--json"], tmp_path))
        assert got["id"] == printed["id"]
    # show --json writes a position file that solve reads
    (tmp_path / "pos.json").write_text(_ok(["qango", "show", printed["position"], "--json"], tmp_path))
    assert json.loads(_ok(["qango", "solve", str(tmp_path / "pos.json"), "--json"], tmp_path))["value"] == "win"
    # a generated board file goes to every --board
    b = json.loads(_ok(["qango", "board", "generate", "--width", "5", "--height", "5", "--seed", "3",
                        "--score-time", "0", "--out", str(tmp_path / "b.json"), "--json"], tmp_path))
    doc = json.loads((tmp_path / "b.json").read_text())
    assert doc["format"] == "tanglekit/qango-board" and doc["version"] == 1
    for spec in (str(tmp_path / "b.json"), b["id"], b["seed_id"]):
        shown = json.loads(_ok(["qango", "board", "show", spec, "--json"], tmp_path))
        assert shown["triples"] == b["board"]["triples"]
        _ok(["qango", "solve", "empty", "--board", spec, "--time-limit", "0"], tmp_path)
    puz = json.loads(_ok(["qango", "puzzle", "generate", "--board", str(tmp_path / "b.json"), "--k", "2",
                          "--json"], tmp_path))
    assert puz["seed_id"] is None and puz["id"].startswith("qango:custom,k2:")
    assert json.loads(_ok(["qango", "puzzle", "solve", puz["id"], "--json"], tmp_path))["key_move"] == puz["key_move"]


def test_a_position_id_keeps_its_opening_rule_when_played():
    """The opening in a position ID holds in the game it starts (7 Plus edges: the 16 edge cells
    of the empty board are the legal first counters, the standard opening allows all 37)."""
    from tanglekit.play.start import start_from_id

    rows = "/".join(["......."] * 7)
    edges = start_from_id(f"qango:7plus,opening=edges:{rows}").state
    standard = start_from_id(f"qango:7plus:{rows}").state
    assert len(edges.legal_actions()) == 16 and len(standard.legal_actions()) == 37
    assert set(edges.legal_actions()) < set(standard.legal_actions())
