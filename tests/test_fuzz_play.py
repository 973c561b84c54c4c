"""Hostile input against the common play surface (`play`, `match`, `replay`, `bots`): the shared
corpus, other games' and kinds' files, tampered and foreign logs, bad IDs, bad numbers and
hypothesis-made logs. Each is refused with one line and exit 2 (nothing written), or played."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from hostile import HOSTILE_NAMES, assert_refused, hostile_files, hostile_text, json_values, run_cli

FAST = settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
TANGLUNG_ID = "tanglung:solo,easy:RHHC/FRBF/FBBD/CHRD"


@pytest.fixture(scope="module")
def corpus():
    return hostile_files()


@pytest.fixture(scope="module")
def good_log(tmp_path_factory):
    """A real log: a perfect bot solving a Tanglung challenge."""
    folder = tmp_path_factory.mktemp("log")
    p = folder / "game.json"
    code, _, err = run_cli(["play", TANGLUNG_ID, "--bots", "perfect", "--log", str(p)])
    assert code == 0, err
    return json.loads(p.read_text())


@pytest.mark.parametrize("name", HOSTILE_NAMES + ["folder_path", "missing"])
def test_replay_and_play_refuse_hostile_files(corpus, name):
    folder = corpus["folder_path"]
    assert_refused(["replay", str(corpus[name])], folder)
    if name != "folder_path":
        assert_refused(["play", str(corpus[name]), "--bots", "random"], folder)


def test_logs_are_tagged_and_replayed(good_log, tmp_path):
    assert good_log["format"] == "tanglekit/play-log" and good_log["version"] == 1
    p = tmp_path / "g.json"
    p.write_text(json.dumps(good_log))
    code, out, _ = run_cli(["replay", str(p), "--json"])
    assert code == 0 and json.loads(out) == {"game": "tanglung-solo", "moves": 14, "over": True, "returns": [1.0]}
    old = {**good_log, "format": "tanglekit-play-log/1"}  # the tag written before the registry
    del old["version"]
    p.write_text(json.dumps(old))
    assert run_cli(["replay", str(p), "--json"])[0] == 0
    code, out, _ = run_cli(["play", str(p), "--json"])  # a finished log: its challenge and result
    assert code == 0 and json.loads(out)["result"].startswith("solved in 14")


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_tampered_logs_are_refused(good_log, tmp_path, big):
    def bad(**changes):
        return {**json.loads(json.dumps(good_log)), **changes}

    moves = good_log["moves"]
    cases = {
        "unknown game": bad(game="chess"),
        "game as a number": bad(game=7),
        "params not an object": bad(params=[1]),
        "bad params": bad(params={"players": 99}),
        "start not an object": bad(start=[]),
        "start of another game": bad(game="qango"),
        "hostile start": bad(start={"game": "tanglung-solo", "seed": "x", "actions": [1, 2]}),
        "action as text": bad(moves=[{**moves[0], "action": "3"}]),
        "action negative": bad(moves=[{**moves[0], "action": -1}]),
        "action huge": bad(moves=[{**moves[0], "action": 10**18}]),
        "action bool": bad(moves=[{**moves[0], "action": True}]),
        "move text disagrees": bad(moves=[{**moves[0], "move": "3,3"}]),
        "move after the end": bad(moves=moves + [moves[-1]]),
        "moves not a list": bad(moves={"a": 1}),
        "extra field": bad(surprise=1),
        "another format": bad(format="tanglekit/tanglung-census"),
        "future version": bad(version=99),
        "long source": bad(source="x" * 20_000),
    }
    if big:
        cases = {"too many moves": bad(moves=[moves[0]] * 200_001)}
    for why, doc in cases.items():
        p = tmp_path / "t.json"
        p.write_text(json.dumps(doc))
        assert_refused(["replay", str(p)], tmp_path), why
        assert_refused(["play", str(p), "--bots", "random"], tmp_path), why


def test_other_kinds_of_file(tmp_path):
    """State files of every game are played; other kinds of file are refused in one line."""
    from tanglekit.games import game_names, load_game

    for name in game_names():
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(load_game(name).new_initial_state(seed=2).to_json()))
        code, _, err = run_cli(["play", str(p), "--bots", "random", "--json"])
        assert code == 0, (name, err[-800:])
    census = tmp_path / "census.json"
    assert run_cli(["tanglung", "census", "--sample", "3", "--checkpoint", str(census)])[0] == 0
    assert "census checkpoint" in assert_refused(["replay", str(census)], tmp_path)
    assert_refused(["play", str(census)], tmp_path)
    tagged = tmp_path / "cards.json"
    tagged.write_text(json.dumps({"format": "tanglekit/tanglung-cards", "version": 1, "cards": {"C": 16}}))
    assert_refused(["play", str(tagged)], tmp_path)
    assert_refused(["replay", str(tagged)], tmp_path)


BAD_SPECS = ["", " ", "chess", "tanglung", "tanglung:", "tanglung:solo#x", "tanglung:solo,hard#-1",
             "tanglung:solo:CRBX/HDFR/BHFB/RHDC", "zinga:sheets4#1", "qango:6,k3#99999999999999999999999",
             "nosuch:thing", "x" * 200_000, "{", "[1, 2]", '{"game": "chess"}', '{"game": "qango", "params": 5}',
             '{"game": "tanglung-solo", "seed": 1, "actions": [99]}', "../../etc/passwd"]


@pytest.mark.parametrize("spec", BAD_SPECS, ids=lambda s: s[:30] or "empty")
def test_play_refuses_bad_specs(tmp_path, spec):
    assert_refused(["play", spec, "--bots", "random"], tmp_path)


BAD_NUMBERS = [
    ["match", "tanglung-duel", "greedy", "random", "--games", "0"],
    ["match", "tanglung-duel", "greedy", "random", "--games", "-1"],
    ["match", "tanglung-duel", "greedy", "random", "--games", "99999999999"],
    ["match", "tanglung-duel", "greedy", "random", "--seed", "-1"],
    ["match", "tanglung-duel", "greedy", "random", "--seed", "99999999999999999999"],
    ["match", "chess", "random"],
    ["match", "tanglung-duel", "genius"],
    ["match", "tanglung-duel", "random", "random", "random"],
    ["match", "tanglung-duel", "random", "--option", "first_starter=7"],
    ["match", "tanglung-duel", "random", "--option", "max_turns=-1"],
    ["match", "tanglung-duel", "random", "--option", "nonsense=1"],
    ["match", "tanglung-solo", "random", "--option", "cards=C99"],
    ["play", "tanglung-duel", "--seed", "-4"],
    ["play", "tanglung-duel", "--list", "0"],
    ["play", "tanglung-duel", "--list", "-1"],
    ["play", "tanglung-duel", "--bots", "genius"],
    ["play", "tanglung-duel", "--bots", "random,random,random"],
    ["play", "tanglung-duel", "--option", "first_starter=x"],
    ["bots", "chess"],
    ["match", "tanglung-duel", "x" * 3000],
    ["match", "tanglung-duel", ",".join(["random"] * 100)],
    ["play", "tanglung-duel", "--option", "x" * 3000 + "=1"],
    ["play", "tanglung-duel", "--option", "players=" + "x" * 3000],
]


@pytest.mark.parametrize("args", BAD_NUMBERS, ids=lambda a: " ".join(a)[:60])
def test_bad_numbers_and_names_are_refused(tmp_path, args):
    assert_refused(args, tmp_path)


def test_typer_refuses_non_numbers(tmp_path):
    for args in (["match", "tanglung-duel", "random", "--games", "nan"], ["play", "tanglung-duel", "--seed", "1.5"]):
        code, out, err = run_cli(args, cwd=tmp_path)
        assert code == 2 and "Traceback" not in err and not out.strip(), (args, err)


def test_one_game_match_counts_and_means():
    code, out, _ = run_cli(["match", "tanglung-duel", "greedy", "random", "--games", "1", "--json"])
    res = json.loads(out)
    assert code == 0 and res["games"] == 1 and sum(res["wins"]) + res["draws"] == 1
    assert res["mean_returns"][0] == (1.0 if res["wins"][0] else -1.0 if res["wins"][1] else 0.0)


@FAST
@given(hostile_text)
def test_hypothesis_play_specs(spec):
    if spec.strip().startswith("-"):
        return  # an option to typer
    code, out, err = run_cli(["play", spec, "--bots", "random", "--json"])
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code in (0, 2) and "Traceback" not in err, (spec, err[-800:])
    if code == 2:
        assert len(lines) == 1 and not out.strip(), (spec, err[-800:])


@FAST
@given(json_values)
def test_hypothesis_json_as_log(tmp_path_factory, doc):
    folder = tmp_path_factory.mktemp("hl")
    p = folder / "log.json"
    p.write_text(json.dumps(doc))
    assert_refused(["replay", str(p)], folder)


@FAST
@given(st.lists(st.fixed_dictionaries({"player": st.integers(-5, 2), "action": st.integers(-2, 40)},
                                      optional={"move": st.text(max_size=6)}), max_size=20))
def test_hypothesis_log_moves(good_log, tmp_path_factory, moves):
    """Random move lists on a real log's start: replayed when legal, else refused in one line."""
    folder = tmp_path_factory.mktemp("hm")
    p = folder / "log.json"
    p.write_text(json.dumps({**good_log, "moves": moves}))
    code, out, err = run_cli(["replay", str(p), "--json"])
    if code == 0:
        assert json.loads(out)["moves"] == len(moves)
    else:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert code == 2 and len(lines) == 1 and "Traceback" not in err, (moves, err[-800:])
