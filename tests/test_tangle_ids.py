"""Tangle puzzle IDs round-trip for every parameter, and every file a command writes is read back.

For each parameter value: ``puzzle generate`` writes a puzzle file and prints both IDs; the seed
ID regenerates exactly the same puzzle, the descriptive ID the same position, and the file is
accepted by ``best-turn``, ``puzzle check`` and ``play --from`` (as are ``play --save`` files).
"""

from __future__ import annotations

import json

import pytest

from hostile import run_cli

from tanglekit.games.tangle import default_board, default_pieces
from tanglekit.generators.ids import resolve, split_id
from tanglekit.games.tangle.generate import generate_puzzle, load_state_or_id, puzzle_from_id


def _custom_files(folder):
    board = default_board().to_json()
    board.update(name="my-board", star_kind="circle")
    pieces = default_pieces().to_json()
    pieces.update(name="my-pieces")
    pieces["pieces"][0]["value"] = 2
    (folder / "board.json").write_text(json.dumps(board))
    (folder / "pieces.json").write_text(json.dumps(pieces))
    return ["--board", str(folder / "board.json"), "--pieces", str(folder / "pieces.json")]


FAST = [[], ["custom"], ["--players", "3", "--option", "connection=tile"]]
SLOW = [
    ["--players", "4"], ["--players", "4", "--option", "partners=on"],
    ["--option", "first_piece=game"], ["--option", "extra_turns=per-placement"],
    ["--option", "target_score=30"], ["--option", "end_timing=round"], ["--option", "mirror=off"],
    ["--hard"], ["--min-points", "14", "--min-chain", "3"],
]
CASES = [pytest.param(a, id=" ".join(a) or "default") for a in FAST] + [
    pytest.param(a, id=" ".join(a), marks=pytest.mark.slow) for a in SLOW]


@pytest.mark.parametrize("args", CASES)
def test_generate_ids_and_files_round_trip(args, tmp_path):
    if args == ["custom"]:
        args = _custom_files(tmp_path)
    out = tmp_path / "p.json"
    code, stdout, err = run_cli(["tangle", "puzzle", "generate", "--seed", "3", "--out", str(out), "--json", *args])
    assert code == 0, err
    printed = json.loads(stdout)
    written = json.loads(out.read_text())
    assert printed == written and written["format"] == "tanglekit/tangle-puzzle"
    # the seed ID regenerates exactly what was printed; the descriptive ID the same position
    again = resolve(written["seed_id"], expect="tangle-puzzle")
    assert again.value == written and again.id == written["id"] and again.seed_id == written["seed_id"]
    state = load_state_or_id(written["id"])
    from_file = load_state_or_id(str(out))
    assert state.moves == from_file.moves and state.game.spec() == from_file.game.spec()
    same = [k for k in state.to_json() if k in written and k not in ("format", "version")]
    assert {k: state.to_json()[k] for k in same} == {k: written[k] for k in same} and len(same) >= 6
    # every parameter given is in the ID (PARAMS of both forms agree)
    assert split_id(written["id"]).params == split_id(written["seed_id"]).params
    # the file and both IDs are read back by every command that takes a position or puzzle
    for src in (str(out), written["id"], written["seed_id"]):
        code, stdout, err = run_cli(["tangle", "best-turn", src, "--json"])
        assert code == 0, err
        r = json.loads(stdout)
        assert r["points"] == written["points"] and r["complete"] is True
    for src in (str(out), written["seed_id"]):
        code, stdout, err = run_cli(["tangle", "puzzle", "check", src, "--json"])
        assert code == 0 and json.loads(stdout)["valid"] is True, err
    saved = tmp_path / "after.json"
    code, _, err = run_cli(["tangle", "play", "--from", str(out), "--bots", "greedy", "--moves", "1",
                            "--save", str(saved), "--json"])
    assert code == 0, err
    after = load_state_or_id(str(saved))
    assert after.moves[:-1] == state.moves and after.game.spec() == state.game.spec()


def test_play_save_is_read_by_best_turn_and_play_from(tmp_path):
    saved = tmp_path / "g.json"
    code, _, err = run_cli(["tangle", "play", "--bots", "builder,greedy", "--seed", "3", "--moves", "12",
                            "--save", str(saved)])
    assert code == 0, err
    code, out, err = run_cli(["tangle", "best-turn", str(saved), "--json"])
    assert code == 0 and json.loads(out)["complete"] is True, err
    done = tmp_path / "done.json"  # saving onto the file played from is refused (tests/test_outputs.py)
    code, _, err = run_cli(["tangle", "play", "--from", str(saved), "--bots", "random", "--save", str(done)])
    assert code == 0 and load_state_or_id(str(done)).over, err


def test_ids_printed_before_are_still_read():
    """IDs as 0.x printed them (the same PARAMS text) give the same puzzle and position."""
    old_seed = "tangle:players=2,board=tangle-default,pieces=tangle-default,min_points=10,min_chain=2#4"
    p = puzzle_from_id(old_seed)
    assert p["seed_id"] == old_seed and p["points"] == generate_puzzle(seed=4)["points"]
    assert puzzle_from_id(p["id"]).moves == load_state_or_id(json.dumps(p)).moves
    # untagged state files of earlier versions (tag "tangle-state") are read too
    s = load_state_or_id(p["id"])
    old = dict(s.to_json(), format="tangle-state")
    assert load_state_or_id(json.dumps(old)).moves == s.moves
    del old["format"], old["version"]
    assert load_state_or_id(json.dumps(old)).moves == s.moves
