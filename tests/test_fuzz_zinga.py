"""Hostile input against every Zinga command that reads input: the shared corpus, other games'
files, broken sheets and game files, bad numbers and hypothesis-made JSON and text. Each is
refused with one line on stderr, exit 2, no traceback and nothing written."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from hostile import HOSTILE_NAMES, assert_refused, hostile_files, hostile_text, json_values, run_cli

from tanglekit.games.qango import load_board
from tanglekit.games.zinga.sheet import load_sheets, sheets_to_json

FILE_COMMANDS = [
    ["zinga", "analyze", "{f}", "--runs", "10"],
    ["zinga", "simulate", "--sheets", "{f}", "--games", "10", "--quiet"],
    ["zinga", "game", "--sheets", "{f}", "--players", "2"],
    ["zinga", "sheets", "show", "{f}"],
    ["zinga", "replay", "{f}"],
]


def _fill(cmd, f):
    return [str(f) if a == "{f}" else a for a in cmd]


@pytest.mark.parametrize("cmd", FILE_COMMANDS, ids=lambda c: "-".join(c[1:3]))
def test_hostile_files_refused(cmd, tmp_path):
    files = hostile_files()
    for name in HOSTILE_NAMES + ["folder_path", "missing"]:
        assert_refused(_fill(cmd, files[name]), tmp_path)


def _set_doc():
    return sheets_to_json(load_sheets())


def _game_doc(tmp_path):
    f = tmp_path / "game.json"
    code, _, err = run_cli(["zinga", "game", "--players", "2", "--seed", "3", "--out", str(f)], tmp_path)
    assert code == 0, err
    doc = json.loads(f.read_text())
    f.unlink()
    return doc


def _write(tmp_path, name, doc):
    p = tmp_path / f"{name}.json"
    p.write_text(json.dumps(doc))
    return p


def test_other_kinds_refused(tmp_path):
    """Another game's file, or a Zinga file of the other kind, is refused and named."""
    game = _game_doc(tmp_path)
    others = {
        "qango_board": load_board("6").to_json(),
        "qango_position": {"format": "tanglekit/qango-position", "version": 1, "board": "6", "position": "empty"},
        "zangle_deal": {"middle": [[0, 1, 2]], "own": [[[0, 0]]], "piles": [[1]]},
    }
    sheet_cmds = [c for c in FILE_COMMANDS if c[1] != "replay"]
    for name, doc in others.items():
        for cmd in FILE_COMMANDS:
            assert_refused(_fill(cmd, _write(tmp_path, name, doc)), tmp_path)
    for cmd in sheet_cmds:
        msg = assert_refused(_fill(cmd, _write(tmp_path, "game", game)), tmp_path)
        assert "this is a Zinga game file" in msg
    msg = assert_refused(["zinga", "replay", str(_write(tmp_path, "set", _set_doc()))], tmp_path)
    assert "Zinga sheet set" in msg
    for text in ("qango:6,k3#1", "zangle:solo,piles=5,hard#2", "tanglung:solo#1"):
        assert "expected a Zinga sheet set" in assert_refused(["zinga", "sheets", "show", text], tmp_path)


def _sheet_variant(change):
    doc = _set_doc()
    change(doc["sheets"][0]["rows"])
    return doc


def _swap_centre(rows):
    rows[2][2], rows[0][0] = rows[0][0], rows[2][2]


BAD_SHEETS = [
    (lambda r: r.__setitem__(0, [r[1][0]] + r[0][1:]), "appears twice"),  # duplicate cell
    (_swap_centre, "centre must be blue 9"),
    (lambda r: r[0].__setitem__(0, "purple 3"), "unknown colour"),
    (lambda r: r[0].__setitem__(0, "red 13"), "out of range"),
    (lambda r: r[0].__setitem__(0, "red 0"), "out of range"),
    (lambda r: r[0].__setitem__(0, "red -4"), "out of range"),
    (lambda r: r[0].__setitem__(0, "red 99999999999999999999"), "not an integer"),
    (lambda r: r[0].__setitem__(0, "red"), "colour number"),
    (lambda r: r[0].__setitem__(0, ["red", 3, 4]), "rows[0][0]"),
    (lambda r: r[0].__setitem__(0, {"colour": "red"}), "cannot read cell"),
    (lambda r: r[0].__setitem__(0, None), "rows[0][0]"),
    (lambda r: r.pop(), "rows"),
    (lambda r: r[1].append("red 1"), "rows[1]"),
]


@pytest.mark.parametrize("change,msg", BAD_SHEETS)
def test_bad_sheets_refused(change, msg, tmp_path):
    f = _write(tmp_path, "bad", _sheet_variant(change))
    for cmd in (["zinga", "sheets", "show", str(f)], ["zinga", "analyze", str(f), "--runs", "10"]):
        out = assert_refused(cmd, tmp_path)
        assert msg in out, out


def test_bad_set_shapes_refused(tmp_path):
    base = _set_doc()
    variants = {
        "no sheets": {**base, "sheets": []},
        "too many": {**base, "sheets": base["sheets"] * 16},
        "extra key": {**base, "colour": "red"},
        "newer version": {**base, "version": 9},
        "sheets not a list": {**base, "sheets": {"a": 1}},
        "meta not an object": {**base, "meta": [1]},
    }
    for name, doc in variants.items():
        assert_refused(["zinga", "sheets", "show", str(_write(tmp_path, "v", doc))], tmp_path)


def _game_variants(game):
    def with_(**kw):
        d = copy.deepcopy(game)
        d.update(kw)
        return d

    illegal = list(game["moves"])
    illegal.insert(1, "roll 1 2 3 4 5 6")  # two rolls in a row
    return {
        "illegal move": with_(moves=illegal),
        "bad move text": with_(moves=["jump 3"]),
        "bad roll": with_(moves=["roll 9 9 9 9 9 9"]),
        "huge player": with_(moves=["roll 1 2 3 4 5 6", "claim 99999999999999999999999 red 1"]),
        "first out of range": with_(first=5),
        "first negative": with_(first=-1),
        "first text": with_(first="0"),
        "one sheet": with_(sheets=game["sheets"][:1]),
        "bad sheet": with_(sheets=[game["sheets"][0], {"rows": []}]),
        "unknown option": with_(options={"bogus": True}),
        "bad option value": with_(options={"max_turns": 0}),
        "option type": with_(options={"table_by_role": "maybe"}),
        "moves not a list": with_(moves="roll 1 2 3 4 5 6"),
        "move not text": with_(moves=[7]),
        "long move": with_(moves=["roll " + "1 " * 500]),
        "no moves": {k: v for k, v in game.items() if k != "moves"},
        "other format": with_(format="tanglekit/zinga-sheets"),
        "newer version": with_(version=99),
    }


def test_hostile_game_files_refused(tmp_path):
    game = _game_doc(tmp_path)
    assert len(game["moves"]) > 5
    for name, doc in _game_variants(game).items():
        out = assert_refused(["zinga", "replay", str(_write(tmp_path, "g", doc))], tmp_path)
        assert len(out) < 400, name


def test_replay_limits(tmp_path):
    game = _game_doc(tmp_path)
    f = _write(tmp_path, "g", game)
    n = len(game["moves"])
    assert "only" in assert_refused(["zinga", "replay", str(f), "--undo", str(n + 1)], tmp_path)
    assert_refused(["zinga", "replay", str(f), "--undo", "-1"], tmp_path)
    assert_refused(["zinga", "replay", str(f), "--undo", "99999999999999999999999"], tmp_path)
    assert_refused(["zinga", "replay", str(f), "--move", "roll 1 2 3"], tmp_path)
    assert_refused(["zinga", "replay", str(f), "--undo", str(n), "--move", "none"], tmp_path)  # not in phase
    assert_refused(["zinga", "replay", str(f), "--move", "x" * 5000], tmp_path)
    # the whole log may be taken back: the start of the game, nothing ticked
    code, out, err = run_cli(["zinga", "replay", str(f), "--undo", str(n), "--json"], tmp_path)
    assert code == 0, err
    s = json.loads(out)
    assert s["moves"] == 0 and s["turns"] == 0 and all(p["ticks"] == 0 for p in s["players"])
    # an old untagged-prefix game file ("zinga-game") still replays to the same end
    old = {**game, "format": "zinga-game"}
    old.pop("version")
    code, out2, err = run_cli(["zinga", "replay", str(_write(tmp_path, "old", old)), "--json"], tmp_path)
    assert code == 0, err
    code, out3, err = run_cli(["zinga", "replay", str(f), "--json"], tmp_path)
    assert json.loads(out2) == json.loads(out3)


@pytest.mark.parametrize("args", [
    ["zinga", "simulate", "--games", "0", "--quiet"],
    ["zinga", "simulate", "--games", "-1", "--quiet"],
    ["zinga", "simulate", "--games", "99999999999", "--quiet"],
    ["zinga", "simulate", "--players", "0", "--quiet"],
    ["zinga", "simulate", "--players", "1", "--quiet"],
    ["zinga", "simulate", "--players", "99", "--quiet"],
    ["zinga", "simulate", "--players", "5", "--games", "10", "--quiet"],  # the default set has 4 sheets
    ["zinga", "simulate", "--seed", "-1", "--quiet"],
    ["zinga", "simulate", "--engine", "gpu", "--games", "10", "--quiet"],
    ["zinga", "simulate", "--bot", "x" * 3000, "--games", "10", "--quiet"],
    ["zinga", "simulate", "--option", "max_turns=0", "--games", "10", "--quiet"],
    ["zinga", "simulate", "--option", "max_turns=abc", "--games", "10", "--quiet"],
    ["zinga", "simulate", "--option", "max_turns=99999999999999999999999", "--games", "10", "--quiet"],
    ["zinga", "game", "--option", "max_turns=-1"],
    ["zinga", "sheets", "show", "default", "--svg", "/dev/full/pads"],
    ["zinga", "simulate", "--option", "noequals", "--games", "10", "--quiet"],
    ["zinga", "analyze", "default", "--runs", "99999999999"],
    ["zinga", "analyze", "default", "--runs", "0"],
    ["zinga", "analyze", "default", "--runs", "1"],
    ["zinga", "analyze", "default", "--players", "0"],
    ["zinga", "analyze", "default", "--players", "99"],
    ["zinga", "analyze", "default", "--seed", "-3"],
    ["zinga", "game", "--players", "0"],
    ["zinga", "game", "--players", "99"],
    ["zinga", "game", "--players", "5"],
    ["zinga", "game", "--bot", "godlike"],
    ["zinga", "game", "--seed", "-1"],
    ["zinga", "sheets", "generate", "--count", "0", "--quiet"],
    ["zinga", "sheets", "generate", "--count", "99", "--quiet"],
    ["zinga", "sheets", "generate", "--games", "-1", "--quiet"],
    ["zinga", "sheets", "generate", "--games", "99999999999", "--quiet"],
    ["zinga", "sheets", "generate", "--attempts", "0", "--quiet"],
    ["zinga", "sheets", "generate", "--attempts", "99999999999", "--quiet"],
    ["zinga", "sheets", "generate", "--tune", "-1", "--quiet"],
    ["zinga", "sheets", "generate", "--tune", "99999999", "--quiet"],
    ["zinga", "sheets", "generate", "--effort", "nan", "--quiet"],
    ["zinga", "sheets", "generate", "--effort", "0", "--quiet"],
    ["zinga", "sheets", "generate", "--effort", "-1", "--quiet"],
    ["zinga", "sheets", "generate", "--effort", "1e300", "--quiet"],
    ["zinga", "sheets", "generate", "--seed", "-1", "--quiet"],
    ["zinga", "sheets", "show", "zinga:sheets4#99999999999999999999999"],
    ["zinga", "sheets", "show", "zinga:sheets99#1"],
    ["zinga", "sheets", "show", "zinga:sheets4,attempts=0#1"],
    ["zinga", "sheets", "show", "zinga:sheets4,tune=99999999#1"],
    ["zinga", "sheets", "show", "zinga:sheets4,effort=nan#1"],
    ["zinga", "sheets", "show", "zinga:sheets4,effort=inf#1"],
    ["zinga", "sheets", "show", "zinga:sheets4,colour=red#1"],
    ["zinga", "sheets", "show", "zinga:sheets4,tune=1,tune=2#1"],
    ["zinga", "sheets", "show", "zinga:sheets2:abc.def"],
    ["zinga", "sheets", "show", "zinga:sheets1:" + "0" * 25],  # every cell the same
    ["zinga", "sheets", "show", "zinga:sheets1:" + "!" * 25],
    ["zinga", "sheets", "show", "zinga::"],
    ["zinga", "sheets", "show", "zinga:"],
])
def test_bad_numbers_and_ids_refused(args, tmp_path):
    assert_refused(args, tmp_path)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=json_values)
def test_hypothesis_json_files(doc, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("zjson")
    f = tmp / "doc.json"
    f.write_text(json.dumps(doc))
    for cmd in (["zinga", "sheets", "show", str(f)], ["zinga", "replay", str(f)]):
        assert_refused(cmd, tmp)


_CELL = st.one_of(st.text(max_size=12), st.integers(-3, 15), st.lists(st.one_of(st.text(max_size=6),
                  st.integers(-3, 15)), max_size=3), st.just("blue 9"), st.just("red 3"))


@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
@given(rows=st.lists(st.lists(_CELL, min_size=4, max_size=6), min_size=4, max_size=6))
def test_hypothesis_sheet_rows(rows, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("zrows")
    f = tmp / "sheet.json"
    f.write_text(json.dumps({"rows": rows}))
    assert_refused(["zinga", "sheets", "show", str(f)], tmp)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
@given(moves=st.lists(hostile_text, max_size=4))
def test_hypothesis_moves(moves, tmp_path_factory):
    """Made-up --move texts on a finished game: refused (never a traceback)."""
    tmp = tmp_path_factory.mktemp("zmoves")
    game = json.loads((_GAME_CACHE.get("g") or _cache_game(tmp)))
    f = tmp / "g.json"
    f.write_text(json.dumps(game))
    args = ["zinga", "replay", str(f)]
    for m in moves or ["bogus"]:
        args += ["--move", m]
    assert_refused(args, tmp)


_GAME_CACHE: dict = {}


def _cache_game(tmp):
    _GAME_CACHE["g"] = json.dumps(_game_doc(tmp))
    return _GAME_CACHE["g"]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
@given(text=hostile_text)
def test_hypothesis_sheet_arguments(text, tmp_path_factory):
    """Made-up SHEETS arguments (paths, IDs, text): refused, never a traceback or a regeneration."""
    tmp = tmp_path_factory.mktemp("zarg")
    if text.strip() == "default":
        return
    assert_refused(["zinga", "sheets", "show", text], tmp)
