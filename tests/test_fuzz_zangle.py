"""Hostile input against every Zangle command that reads input (issue 13): the shared corpus,
other formats' valid files, bad numbers and hypothesis-made documents and arguments. Each is
refused with one line on stderr and exit code 2, nothing written; valid input is answered."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from hostile import HOSTILE_NAMES, assert_refused, hostile_files, hostile_text, json_values, run_cli

DEAL = {"middle": ["T4-bar", "T1", "T5-c", "Z"], "own": ["T2", "T2", "T3", "T1"]}
SOLO_ID = "zangle:solo,piles=5,easy:2h2a0r.061z18382t0v0q.0w.013b.0h0b34.1l2b1y21.19321a0p0g"

# each command given a FILE (the file under test) in its reading position
FILE_COMMANDS = {
    "find": lambda f, ok: ["zangle", "find", f],
    "find-deck": lambda f, ok: ["zangle", "find", ok["deal"], "--deck", f],
    "solo-solve": lambda f, ok: ["zangle", "solo", "solve", f, "--json"],
    "solo-solve-deck": lambda f, ok: ["zangle", "solo", "solve", ok["solo"], "--deck", f],
    "go-out": lambda f, ok: ["zangle", "turn", "go-out", f],
    "replay": lambda f, ok: ["zangle", "replay", f],
    "deck-show": lambda f, ok: ["zangle", "deck", "show", "--deck", f],
    "stats-deck": lambda f, ok: ["zangle", "stats", "--deck", f, "--deals", "1", "--solo-deals", "0",
                                 "--games", "0"],
    "play-deck": lambda f, ok: ["zangle", "play", "solo", "--deck", f],
}


@pytest.fixture(scope="module")
def valid(tmp_path_factory):
    """One valid file of each Zangle kind, written by the commands themselves."""
    d = tmp_path_factory.mktemp("valid")
    files = {"deal": d / "deal.json", "solo": d / "solo.json", "deck": d / "deck.json",
             "log": d / "game.jsonl", "turn": d / "turn.json"}
    files["deal"].write_text(json.dumps(DEAL))
    for key, args in (("solo", ["zangle", "solo", "solve", SOLO_ID, "--json"]),
                      ("deck", ["zangle", "deck", "show", "--json"]),
                      ("turn", ["zangle", "turn", "generate", "--seed", "1"])):
        code, out, err = run_cli(args)
        assert code == 0, err
        if key == "solo":  # a solo deal file: the deal of the ID
            from tanglekit.games.zangle.solo_search import deal_from_id

            out = json.dumps(deal_from_id(SOLO_ID).to_json())
        files[key].write_text(out)
    code, _, err = run_cli(["zangle", "play", "solo", "--seed", "1", "--log", str(files["log"])])
    assert code == 0, err
    return {k: str(v) for k, v in files.items()}


# which valid file each command accepts (every other kind must be refused as the wrong format)
ACCEPTS = {"find": {"deal", "turn"}, "find-deck": {"deck"}, "solo-solve": {"solo"}, "solo-solve-deck": {"deck"},
           "go-out": {"deal", "turn"}, "replay": {"log"}, "deck-show": {"deck"}, "stats-deck": {"deck"},
           "play-deck": {"deck"}}


# one command per reader in the default run; the commands sharing a reader (the deck) in the slow sweep
READERS = ["find", "find-deck", "solo-solve", "go-out", "replay", "deck-show"]
COMMAND_PARAMS = [c if c in READERS else pytest.param(c, marks=pytest.mark.slow) for c in sorted(FILE_COMMANDS)]


@pytest.mark.parametrize("name", HOSTILE_NAMES + ["folder_path", "missing"])
@pytest.mark.parametrize("command", COMMAND_PARAMS)
def test_hostile_corpus_refused(command, name, tmp_path, valid):
    path = hostile_files()[name]
    msg = assert_refused(FILE_COMMANDS[command](str(path), valid), tmp_path)
    assert msg.startswith("error: ")


@pytest.mark.parametrize("kind", ["deal", "solo", "deck", "log", "turn"])
@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_each_file_kind_goes_only_where_it_belongs(command, kind, tmp_path, valid):
    args = FILE_COMMANDS[command](valid[kind], valid)
    if kind in ACCEPTS[command]:
        code, out, err = run_cli(args, cwd=tmp_path)
        assert code == 0, err
    else:
        msg = assert_refused(args, tmp_path)
        assert "expected a Zangle" in msg or "move log" in msg, msg


OTHER_GAMES = {  # valid documents of other formats (tagged) that no Zangle command takes
    "qango": {"format": "tanglekit/qango-position", "version": 1, "board": "6", "rows": ["......"] * 6},
    "tanglung": {"format": "tanglekit/tanglung-challenge", "version": 1, "layout": "CRBF/HDFR/BHFB/RHDC"},
    "tangle": {"format": "tanglekit/tangle-state", "version": 1, "board": [], "pieces": []},
    "play-log": {"format": "tanglekit/play-log", "version": 1, "game": "zangle-solo", "start": {}, "moves": []},
    "untagged-tanglung": {"layout": "CRBF/HDFR/BHFB/RHDC", "difficulty": "hard"},
}


@pytest.mark.parametrize("other", sorted(OTHER_GAMES))
@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_other_games_files_refused(command, other, tmp_path, valid):
    f = tmp_path / f"{other}.json"
    f.write_text(json.dumps(OTHER_GAMES[other]))
    assert_refused(FILE_COMMANDS[command](str(f), valid), tmp_path)


@pytest.mark.parametrize("text", ["zangle:turn,players=2#1", "zangle:turn,players=99#1", "zangle:turn,nonsense#1",
                                  "zangle:turn,players=2:00.01", "zangle:solo,piles=5,easy#1", "qango:6,k3#11"])
def test_turn_ids_where_a_deal_is_read(text, tmp_path):
    """find and go-out read zangle:turn IDs; any other ID (or a malformed one) is refused."""
    args = ["zangle", "turn", "go-out", text]
    if text == "zangle:turn,players=2#1":
        code, out, err = run_cli(args)
        assert code == 0 and out.startswith("player 0 "), err
    else:
        msg = assert_refused(args, tmp_path)
        assert ("expected a Zangle turn-game deal" in msg) == text.startswith(("zangle:solo", "qango")), msg


def test_other_games_ids_refused(tmp_path):
    for text in ("tanglung:solo,hard#7", "qango:6,k3#11", "tangle:x#4", "zinga:sheets4#1",
                 "tanglung:solo,hard:CRBF/HDFR/BHFB/RHDC"):
        msg = assert_refused(["zangle", "solo", "solve", text], tmp_path)
        assert "expected a Zangle solo deal" in msg, msg


@pytest.mark.parametrize("text", [
    "zangle:solo,piles=5#-1", "zangle:solo,piles=5#99999999999999999999999", "zangle:solo,piles=9#1",
    "zangle:solo,piles=x#1", "zangle:solo,nonsense#1", "zangle:solo,hard,easy#1", "zangle:turn#1",
    "zangle:solo,piles=5:zz", "zangle:solo,piles=5:..", "zangle:solo,piles=5:zzzz.00.01.02.03.04.05",
    "zangle:solo,piles=5:0001.02.03..04", "zangle:solo,piles=5,deck=mine#1", "zangle:solo,fill=never#1",
    "zangle:solo,piles=5,piles=6#1", "zangle:", "zangle:solo", "x" * 200_000,
])
def test_bad_ids_refused(text, tmp_path):
    assert_refused(["zangle", "solo", "solve", text], tmp_path)


BAD_NUMBERS = [
    ["zangle", "solo", "generate", "--count", "0"],
    ["zangle", "solo", "generate", "--count", "-1"],
    ["zangle", "solo", "generate", "--count", "99999999999"],
    ["zangle", "solo", "generate", "--seed", "-1"],
    ["zangle", "solo", "generate", "--piles", "0"],
    ["zangle", "solo", "generate", "--piles", "99999999999999999999"],
    ["zangle", "solo", "generate", "--difficulty", "impossible"],
    ["zangle", "solo", "solve", SOLO_ID, "--max-states", "-1"],
    ["zangle", "solo", "solve", SOLO_ID, "--max-states", "99999999999999999999"],
    ["zangle", "solo", "solve", SOLO_ID, "--time-limit", "-1"],
    ["zangle", "solo", "solve", SOLO_ID, "--time-limit", "nan"],
    ["zangle", "solo", "solve", SOLO_ID, "--time-limit", "inf"],
    ["zangle", "solve-solo", "--max-nodes", "-5"],
    ["zangle", "solve-solo", "--seed", "-5"],
    ["zangle", "stats", "--deals", "-1"],
    ["zangle", "stats", "--deals", "99999999999"],
    ["zangle", "stats", "--solo-deals", "99999999999"],
    ["zangle", "stats", "--games", "-1"],
    ["zangle", "stats", "--max-states", "-1"],
    ["zangle", "play", "turn", "--players", "0"],
    ["zangle", "play", "turn", "--players", "-1"],
    ["zangle", "play", "turn", "--players", "99999999999"],
    ["zangle", "play", "speed", "--players", "9"],
    ["zangle", "play", "solo", "--players", "2"],
    ["zangle", "play", "nonsense"],
    ["zangle", "play", "turn", "--bots", "nobody"],
    ["zangle", "play", "solo", "--seed", "-3"],
    ["zangle", "play", "solo", "--option", "piles=99999999999999"],
    ["zangle", "play", "solo", "--option", "nonsense=1"],
    ["zangle", "play", "solo", "--option", "z_cards"],
    ["zangle", "turn", "generate", "--players", "0"],
    ["zangle", "turn", "generate", "--players", "99999"],
    ["zangle", "turn", "generate", "--property", "nonsense"],
]


@pytest.mark.parametrize("args", BAD_NUMBERS, ids=lambda a: "_".join(a[1:])[:60])
def test_bad_numbers_refused(args, tmp_path):
    assert_refused(args, tmp_path)


def test_go_out_numbers(tmp_path, valid):
    assert_refused(["zangle", "turn", "go-out", valid["turn"], "--player", "-1"], tmp_path)
    assert_refused(["zangle", "turn", "go-out", valid["turn"], "--player", "99999999999999"], tmp_path)
    assert_refused(["zangle", "turn", "go-out", valid["turn"], "--max-states", "-1"], tmp_path)
    code, out, _ = run_cli(["zangle", "turn", "go-out", valid["turn"], "--max-states", "0", "--json"])
    assert code == 0 and json.loads(out)["complete"] is False and json.loads(out)["can_go_out"] is None


def test_limits_zero_answer_unknown(valid):
    for extra in (["--max-states", "0"], ["--time-limit", "0"]):
        code, out, err = run_cli(["zangle", "solo", "solve", SOLO_ID, "--json", *extra])
        d = json.loads(out)
        assert code == 0 and d["solvable"] is None and d["complete"] is False and d["line"] == [], err


def test_unwritable_outputs(tmp_path, valid):
    """Pictures and logs that cannot be written are one-line errors (a folder where a file goes)."""
    folder = tmp_path / "taken"
    folder.mkdir()
    for args in (["zangle", "find", valid["deal"], "--svg", str(folder)],
                 ["zangle", "deck", "show", "--svg", str(folder)],
                 ["zangle", "play", "solo", "--log", str(folder)]):
        code, out, err = run_cli(args)
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert code == 2 and len(lines) == 1 and "cannot write" in lines[0], (args, err)


CONTENT = [  # schema-valid documents whose content breaks a rule
    ({"middle": [[[0, 0], [2, 0]]], "own": ["T1"]}, "find", "not edge-connected"),
    ({"middle": [[[0, 0], [0, 0]]], "own": ["T1"]}, "find", "duplicate"),
    ({"middle": [[[10**9, 0]]], "own": ["T1"]}, "find", "within"),
    ({"middle": ["T1-1"], "own": ["T1-1"]}, "find", "twice"),
    ({"middle": [[[x, y] for y in range(2) for x in range(11)]], "own": ["T1"]}, "find", "at most 20 triangles"),
    ({"middle": ["T5-a"] * 6, "own": []}, "find", "more 'T5-a'"),
    ({"middle": ["T1-1"], "draw": [], "piles": [["T2-1"], []]}, "solo-solve", "empty"),
    ({"middle": ["T1-1"], "draw": ["T1-1"], "piles": [["T2-1"]]}, "solo-solve", "twice"),
    ({"middle": ["T1-1", "T1-2", "T1-3", "T1-4"], "draw": [], "piles": [["T2-1"]]}, "solo-solve", "middle"),
    ({"middle": [], "draw": [], "piles": [["T1-1"]] * 9}, "solo-solve", "piles"),
    ({"cards": [{"id": "s", "colour": "red", "cells": [[0, 0], [2, 0]]}]}, "deck-show", "not edge-connected"),
    ({"cards": [{"id": "s", "colour": "blue", "cells": [[10**12, 0]]}]}, "deck-show", "cells"),
    ({"cards": [{"id": "s", "colour": "blue", "cells": [[0, 0]], "count": 10**9}]}, "deck-show", "count"),
    ({"cards": [{"id": "s", "colour": "green", "cells": [[0, 0]]}]}, "deck-show", "colour"),
    ({"cards": [{"id": "s", "cells": [[0, 0]], "count": 2}], "total": 3}, "deck-show", "add up"),
]


@pytest.mark.parametrize("doc, command, words", CONTENT, ids=[f"{c}-{w}" for _, c, w in CONTENT])
def test_content_rules(doc, command, words, tmp_path, valid):
    f = tmp_path / "doc.json"
    f.write_text(json.dumps(doc))
    msg = assert_refused(FILE_COMMANDS[command](str(f), valid), tmp_path)
    assert words in msg, msg


def test_disconnected_card_allowed_only_by_the_deck_flag(tmp_path):
    cells = [[0, 0], [2, 0]]
    deck = {"name": "split", "cards": [{"id": "s", "colour": "red", "cells": cells, "count": 2},
                                       {"id": "m", "colour": "blue", "cells": [[0, 0]], "count": 4},
                                       {"id": "Z", "cells": [], "count": 1}],
            "allow_disconnected": True}
    f = tmp_path / "deck.json"
    f.write_text(json.dumps(deck))
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps({"middle": ["s", "m"], "own": ["m", "Z"]}))
    code, out, err = run_cli(["zangle", "find", str(deal), "--deck", str(f), "--json"])
    assert code == 0, err
    # the two monoiamonds (rotated freely) cover the two separated up triangles (with the Z card),
    # then each monoiamond is covered by the other plus the Z card
    zs = json.loads(out)["zangles"]
    assert [z["cards"] for z in zs] == [4, 3, 3]
    assert zs[0]["target"] == {"place": "middle", "index": 0} and len(zs[0]["pieces"]) == 2
    deck.pop("allow_disconnected")
    f.write_text(json.dumps(deck))
    assert "allow_disconnected" in assert_refused(["zangle", "find", str(deal), "--deck", str(f)], tmp_path)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=json_values, command=st.sampled_from(["find", "solo-solve", "go-out", "deck-show", "replay"]))
def test_generated_documents(doc, command, tmp_path_factory):
    folder = tmp_path_factory.mktemp("gen")
    f = folder / "doc.json"
    f.write_text(json.dumps(doc))
    args = FILE_COMMANDS[command](str(f), {})
    code, out, err = run_cli(args, cwd=folder)
    if code != 0:
        assert_refused(args, folder)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=hostile_text)
def test_generated_solo_arguments(text, tmp_path_factory):
    folder = tmp_path_factory.mktemp("arg")
    if text.strip() in ("", "."):  # the folder itself
        text = "./"
    assert_refused(["zangle", "solo", "solve", "--", text], folder)  # "--": a text, never an option


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deal=st.fixed_dictionaries({
    "middle": st.lists(st.sampled_from(["T1", "T2", "T3", "Z", "T4-bar", "T5-a", [[0, 0]], [[0, 0], [1, 0]]]),
                       max_size=5),
    "own": st.lists(st.sampled_from(["T1", "T2", "T3", "Z", "T4-chevron", [[0, 0], [1, 0], [2, 0]]]), max_size=5)}))
def test_generated_valid_deals_answered(deal, tmp_path_factory):
    """Valid deals are answered: every Zangle the CLI lists covers its target's area exactly."""
    f = tmp_path_factory.mktemp("deal") / "deal.json"
    f.write_text(json.dumps(deal))
    code, out, err = run_cli(["zangle", "find", str(f), "--json"])
    assert code == 0, err
    from tanglekit.games.zangle.deal import load_deal
    from tanglekit.games.zangle.reference import reference_zangles

    d = load_deal(f)
    got = json.loads(out)
    ref = reference_zangles(d.middle, d.own)
    assert got["count"] == len(ref) == len(got["zangles"])


def test_tiling_table_budget(monkeypatch):
    """A universe of shapes whose table needs too many piece sets is refused, not built forever."""
    from tanglekit.errors import SolverError
    from tanglekit.games.zangle import table
    from tanglekit.games.zangle.cards import default_deck

    shipped = table.TilingTable(default_deck().shapes, engine="backtrack")  # read from the shipped file
    monkeypatch.setattr(table, "SHIPPED", None)  # built here: the shipped table is what it builds
    built = table.TilingTable(default_deck().shapes, engine="backtrack")
    assert built._sets_tried == 75 and shipped._sets_tried == 0 and built.entries == shipped.entries
    monkeypatch.setattr(table, "MAX_TABLE_SETS", 74)
    with pytest.raises(SolverError, match="too large a tiling table"):
        table.TilingTable(default_deck().shapes)


@pytest.mark.parametrize("args", [
    ["zangle", "stats", "--deals", "5", "--solo-deals", "0", "--games", "0"],
    ["zangle", "stats", "--deals", "0", "--solo-deals", "1", "--games", "0"],
    ["zangle", "play", "turn"], ["zangle", "play", "solo"], ["zangle", "solo", "generate"],
    ["zangle", "turn", "generate"],
], ids=lambda a: "_".join(a[1:3]))
def test_too_small_a_deck(args, tmp_path):
    """A valid deck with too few cards for the set-up is refused before any table is dealt."""
    deck = tmp_path / "small.json"
    deck.write_text(json.dumps({"cards": [{"id": "T1", "cells": [[0, 0]], "count": 3}]}))
    msg = assert_refused([*args, "--deck", str(deck)], tmp_path)
    assert "need" in msg and "has 3" in msg, msg


@pytest.mark.parametrize("state", [
    {"game": "zangle-solo", "start": [1, 2]},
    {"game": "zangle-solo", "start": {"middle": [[1]], "draw": [], "piles": []}},
    {"game": "zangle-solo", "start": {"middle": ["nope"], "draw": [], "piles": [["T1-1"]]}},
    {"game": "zangle-turn", "start": {"middle": [], "own": [], "others": 5}},
    {"game": "zangle-turn", "start": "x"},
    {"game": "zangle-solo", "actions": [999999]},
], ids=range(6))
def test_hostile_game_states_refused(state, tmp_path):
    """A state file for `tanglekit play` whose Zangle start is not a position of the game."""
    f = tmp_path / "state.json"
    f.write_text(json.dumps(state))
    assert_refused(["play", str(f), "--bots", "random"], tmp_path)
