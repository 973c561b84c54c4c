"""Zinga sheet-set IDs round-trip: the seed ID carries every generator setting, so it regenerates
exactly the set printed beside it; the descriptive ID holds the set; every file a command writes
is read back by every command that takes that kind of file."""

import functools
import json

import pytest

from hostile import run_cli

from tanglekit.games.zinga.sheet import load_sheets, sheet_set_id
from tanglekit.generators.ids import resolve, split_id
from tanglekit.games.zinga.generate import SETTINGS, _seed_settings, generate_sheet_set, load_sheet_source

# CP-SAT effort 0.02: enough for the hinted model to find a set (0.02 to 0.1 give the same sets here)
FAST = {"attempts": 1, "tune_rounds": 0, "effort": 0.02}


@functools.lru_cache(maxsize=None)
def _generated(count: int, seed: int, effort: float = 0.02):
    """A sheet set made once per module (generation costs about a second)."""
    return generate_sheet_set(count, seed=seed, verify_games=0, **{**FAST, "effort": effort})


def _round_trip(ss):
    sid = ss.seed_id
    params = split_id(sid).values()
    assert set(params) == set(SETTINGS)
    back = resolve(sid)
    assert back.kind == "zinga-sheets" and back.id == ss.id and back.seed_id == sid
    assert [s.codes for s in back.value] == [s.codes for s in ss.sheets]
    assert [s.codes for s in resolve(ss.id).value] == [s.codes for s in ss.sheets]


@pytest.mark.parametrize("count", [1, 2, 3])
def test_seed_and_descriptive_ids_every_count(count):
    ss = _generated(count, 2)
    assert ss.seed_id == f"zinga:sheets{count},attempts=1,tune=0,effort=0.02#2"
    _round_trip(ss)


def test_settings_change_the_sheets():
    """Why the settings belong in the ID: the same seed with another effort may give another set."""
    a, b = _generated(2, 2, 0.02), _generated(2, 2, 0.3)  # a's round trip: test_seed_and_descriptive_ids...
    assert a.id != b.id and a.seed_id != b.seed_id
    assert b.seed_id == "zinga:sheets2,attempts=1,tune=0,effort=0.3#2" and resolve(b.seed_id).id == b.id


@pytest.mark.slow
@pytest.mark.parametrize("count,attempts,tune", [(4, 2, 0), (4, 1, 2), (5, 1, 0), (12, 1, 0)])
def test_seed_ids_with_screening_and_tuning(count, attempts, tune):
    ss = generate_sheet_set(count, seed=1, verify_games=0, attempts=attempts, tune_rounds=tune, effort=0.5)
    _round_trip(ss)


def test_old_seed_ids_mean_the_defaults():
    count, st = _seed_settings(split_id("zinga:sheets4#1"))
    assert count == 4 and st == SETTINGS == {"attempts": 2, "tune": 40, "effort": 3.0}
    shipped = json.loads((__import__("tanglekit.games.zinga.sheet", fromlist=["x"]).DEFAULT_SHEETS).read_text())
    assert shipped["meta"]["seed_id"] == "zinga:sheets4,attempts=2,tune=40,effort=3#1"
    assert shipped["meta"]["id"] == sheet_set_id(load_sheets())


def test_library_settings_have_no_seed_id():
    ss = generate_sheet_set(2, seed=2, verify_games=0, band_slack=10, **FAST)
    assert ss.seed_id is None


def _ok(args, tmp):
    code, out, err = run_cli(args, tmp)
    assert code == 0, (args, err[-2000:])
    return out


def test_written_files_are_read_back(tmp_path):
    f = tmp_path / "set.json"
    out = json.loads(_ok(["zinga", "sheets", "generate", "--count", "2", "--seed", "3", "--games", "0",
                          "--attempts", "1", "--tune", "0", "--effort", "0.02", "--out", str(f), "--json",
                          "--quiet"], tmp_path))
    doc = json.loads(f.read_text())
    assert doc["format"] == "tanglekit/zinga-sheets" and doc["version"] == 1
    sid, seed_id = out["meta"]["id"], out["meta"]["seed_id"]
    assert seed_id == "zinga:sheets2,attempts=1,tune=0,effort=0.02#3"
    for spec in (str(f), sid, seed_id):
        shown = json.loads(_ok(["zinga", "sheets", "show", spec, "--json"], tmp_path))
        assert shown["meta"]["id"] == sid
        assert [s.codes for s in load_sheet_source(spec)] == [s.codes for s in load_sheets(f)]
    a = json.loads(_ok(["zinga", "analyze", str(f), "--runs", "20", "--json"], tmp_path))
    assert len(a["sheets"]) == 2
    sim = json.loads(_ok(["zinga", "simulate", "--sheets", str(f), "--players", "2", "--games", "40",
                          "--quiet", "--json"], tmp_path))
    assert sum(r["wins"] for r in sim["sheets"]) + sim["draws"] == 40
    g = tmp_path / "game.json"
    _ok(["zinga", "game", "--sheets", sid, "--players", "2", "--seed", "1", "--out", str(g)], tmp_path)
    end = json.loads(_ok(["zinga", "replay", str(g), "--json"], tmp_path))
    g2 = tmp_path / "game2.json"
    _ok(["zinga", "replay", str(g), "--undo", "3", "--out", str(g2)], tmp_path)
    mid = json.loads(_ok(["zinga", "replay", str(g2), "--json"], tmp_path))
    assert mid["moves"] == end["moves"] - 3
    # the game file's sheets are a sheet set for the sheet commands? No: a game file is refused there
    code, _, err = run_cli(["zinga", "sheets", "show", str(g)], tmp_path)
    assert code == 2 and "Zinga game file" in err
