"""`tanglekit zinga` commands: JSON shapes, errors (exit 2, one line), light imports."""

import json
import subprocess
import sys

import pytest

import hostile

from tanglekit.games.zinga.sheet import load_sheets


def run(*args, rc=0):
    """``tanglekit zinga ARGS`` in-process (the console script's code path, ``hostile.run``)."""
    p = hostile.run(["zinga", *args])
    assert p.returncode == rc, (p.returncode, p.stdout, p.stderr)
    return p


def test_module_imports_no_heavy_module():
    code = ("import sys, tanglekit.games.zinga.cli; "
            "print(sorted(m for m in ('numba', 'ortools', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_odds_json_exact_form():
    data = json.loads(run("odds", "--json").stdout)
    assert list(data) == ["active", "passive"]
    for role in data:
        assert list(data[role]) == ["red", "orange", "yellow", "green", "blue"]
        assert all(len(v) == 12 for v in data[role].values())
    assert data["active"]["red"][0] == pytest.approx(1 / 6)
    assert data["passive"]["blue"][6] == pytest.approx(1 / 6)
    assert data["passive"]["green"][0] == 0


def test_odds_text():
    out = run("odds").stdout
    assert "active" in out and "passive" in out and "0.2500" in out


def test_analyze_json(tmp_path):
    data = json.loads(run("analyze", "default", "--runs", "50", "--json").stdout)
    assert len(data["sheets"]) == 4
    r = data["sheets"][0]
    assert set(r["greedy_first_line_rolls"]) == {"mean", "ci95", "runs"}


def test_simulate_json_and_table():
    data = json.loads(run("simulate", "--players", "2", "--games", "400", "--seed", "3", "--json", "--quiet").stdout)
    assert data["players"] == 2 and data["games"] == 400
    assert sum(r["wins"] for r in data["sheets"]) + data["draws"] == 400
    out = run("simulate", "--players", "3", "--games", "300", "--quiet",
              "--option", "stop_any_call=false").stdout
    assert "win rate" in out and "95% CI" in out


def test_game_and_replay(tmp_path):
    f = tmp_path / "g.json"
    run("game", "--players", "3", "--seed", "4", "--out", str(f))
    g = json.loads(f.read_text())
    assert g["format"] == "tanglekit/zinga-game" and g["version"] == 1 and len(g["sheets"]) == 3
    s = json.loads(run("replay", str(f), "--json").stdout)
    assert s["winner"] is not None or s["draw"]
    s2 = json.loads(run("replay", str(f), "--undo", "1", "--json").stdout)
    assert s2["moves"] == s["moves"] - 1 and s2["winner"] is None


def test_sheets_show_and_svg(tmp_path):
    ids = load_sheets()
    out = run("sheets", "show", "default", "--svg", str(tmp_path)).stdout
    assert "id: zinga:sheets4:" in out
    assert len(list(tmp_path.glob("*.svg"))) == 4
    data = json.loads(run("sheets", "show", "default", "--json").stdout)
    assert len(data["sheets"]) == len(ids)


@pytest.mark.parametrize("args,msg", [
    (["analyze", "nope.json"], "error:"),
    (["simulate", "--players", "1", "--quiet"], "at least 2 players"),
    (["simulate", "--option", "bogus=1", "--games", "10", "--quiet"], "unknown Zinga rule option"),
    (["simulate", "--bot", "godlike", "--games", "10", "--quiet"], "unknown bot strength"),
    (["sheets", "show", "zinga:sheets1:abc"], "25 characters"),
])
def test_errors_exit_2_with_one_line(args, msg, tmp_path):
    p = run(*args, rc=2)
    assert msg in p.stderr and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_bad_sheet_file_names_the_cell(tmp_path):
    f = tmp_path / "s.json"
    rows = [[f"red {n}" for n in range(1, 6)]] * 5
    f.write_text(json.dumps({"rows": rows}))
    p = run("analyze", str(f), rc=2)
    assert "red 1 appears twice" in p.stderr
