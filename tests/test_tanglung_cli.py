"""`tanglekit tanglung` commands (run as python -m tanglekit.games.tanglung.cli): JSON forms, errors."""

import json
import subprocess
import sys

import pytest

EXAMPLE = "CRBF/HDFR/BHFB/RHDC"


def run_process(*args, rc=0, stdin=None):
    """The real command in a subprocess (exit codes, stderr)."""
    p = subprocess.run([sys.executable, "-m", "tanglekit.games.tanglung.cli", *args], capture_output=True,
                       text=True, timeout=300, input=stdin)
    assert p.returncode == rc, (p.returncode, p.stdout, p.stderr)
    return p


def run(*args, rc=0, stdin=None):
    """In-process run (fast); library errors surface as exceptions, exit 2 is run_app's job."""
    from tanglekit.errors import TanglekitError
    from tanglekit.games.tanglung.cli import app
    from typer.testing import CliRunner

    r = CliRunner().invoke(app, list(args), input=stdin)
    if rc == 2:
        assert isinstance(r.exception, TanglekitError), r.output
        return r
    assert r.exit_code == rc, (r.exit_code, r.output, r.exception)
    return r


def test_module_imports_no_heavy_module():
    code = ("import sys, tanglekit.games.tanglung.cli; "
            "print(sorted(m for m in ('numba', 'ortools', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_solo_solve_json_and_svg(tmp_path):
    out = json.loads(run("solo", "solve", EXAMPLE, "--start", "3,3", "--json").stdout)
    assert out == {**out, "solvable": True, "moves": 14, "start": [3, 3], "optimal_tours": 2160}
    assert list(out)[:5] == ["solvable", "moves", "start", "path", "optimal_tours"]  # the kept exact form
    assert out["complete"] is True and out["line"] == [f"{r},{c}" for r, c in out["path"][1:]]
    assert out["nodes"] > 0 and out["id"] == "tanglung:solo:" + EXAMPLE
    assert out["path"][0] == [3, 3] and len(out["path"]) == 15
    svg = tmp_path / "t.svg"
    text = run("solo", "solve", EXAMPLE, "--svg", str(svg)).stdout
    assert "fewest moves: 14" in text and svg.read_text().startswith("<svg")
    lit = json.loads(run("solo", "solve", EXAMPLE, "--option", "literal_blocking=true", "--json").stdout)
    assert lit["solvable"] is True and lit["moves"] >= 14


def test_solo_solve_errors_exit_2():
    p = run_process("solo", "solve", "CRBF/HDFR/BHFB/RHDX", rc=2)
    assert p.stderr.startswith("error:") and "Traceback" not in p.stderr and p.stderr.count("\n") == 1
    run("solo", "solve", EXAMPLE, "--start", "1,1", rc=2)
    run("solo", "solve", EXAMPLE, "--option", "nonsense=1", rc=2)
    run("solo", "solve", "RCBF/HDFR/BHFB/CHDR", rc=2)  # Roosters not on opposite corners
    out = json.loads(run("solo", "solve", "RCBF/HDFR/BHFB/CHDR", "--option", "not_so_zen=1", "--json").stdout)
    assert out["start"] in ([0, 1], [3, 0])


def test_unsolvable_json():
    out = json.loads(run("solo", "solve", "CFRF/HHRD/BBFB/HRDC", "--json").stdout)
    assert out == {**out, "solvable": False, "moves": None, "start": [0, 0], "path": [], "optimal_tours": 0,
                   "line": [], "complete": True}


def test_generate_then_solve_by_id_and_file(tmp_path):
    out = json.loads(run("solo", "generate", "--count", "2", "--difficulty", "hard", "--seed", "4",
                         "--json", "--svg", str(tmp_path)).stdout)
    assert len(out) == 2 and all(c["difficulty"] == "hard" for c in out)
    assert len(list(tmp_path.glob("*.svg"))) == 4
    c = out[0]
    for spec in (c["id"], c["seed_id"]):
        s = json.loads(run("solo", "solve", spec, "--json").stdout)
        assert s["moves"] == c["moves"] and s["optimal_tours"] == c["optimal_tours"]
    f = tmp_path / "c.json"
    f.write_text(json.dumps(c))
    assert json.loads(run("solo", "solve", str(f), "--json").stdout)["moves"] == c["moves"]


def test_tour_methods_agree():
    a = json.loads(run("solo", "tour", EXAMPLE, "--json").stdout)
    b = json.loads(run("solo", "tour", EXAMPLE, "--method", "cpsat", "--json").stdout)
    assert a["exists"] and b["exists"] and len(a["path"]) == len(b["path"]) == 15


def test_census_sample_json(tmp_path):
    out = json.loads(run("census", "--sample", "6", "--checkpoint", str(tmp_path / "cp.json"), "--json").stdout)
    assert out["layouts"] >= 1 and sum(out["moves"].values()) == out["layouts"]


def test_play_bots_and_analyze(tmp_path):
    res = json.loads(run("play", "--bot", "greedy", "--bot", "random", "--games", "2", "--json").stdout)
    assert sum(res["wins"]) + res["draws"] == 2
    state = {"layout": "RB../..../..../...F", "lit": "1000/0000/0000/0001", "boxes": [[0, 0], [3, 3]],
             "rooster_used": [True, True]}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(state))
    out = json.loads(run("analyze", str(f), "--json").stdout)
    assert out["outcome"] == 1 and out["best"] == "lantern 0,1"
    assert out["value"] == "win" and out["complete"] is True and out["best_move"] == "lantern 0,1"
    for limit in (["--depth", "0"], ["--time-limit", "0"], ["--node-limit", "0"]):
        out = json.loads(run("analyze", str(f), *limit, "--json").stdout)
        assert out["value"] == "unknown" and out["complete"] is False and out["best"] is None, limit


def test_play_human_quits():
    p = run("play", "--bot", "random", stdin="list\nquit\n")
    assert "place 0," in p.stdout


def test_coop_json():
    out = json.loads(run("solo", "coop", EXAMPLE, "--first", "3,3", "--option", "literal_blocking=1", "--json").stdout)
    assert out["moves"] == 14 and out["optimal_sequences"] == 75 and out["starts"] == [[3, 3], [0, 0]]
    assert len(out["sequence"]) == 14


@pytest.mark.slow
def test_docs_tanglung_examples_run(tmp_path, monkeypatch):
    """Every command in docs/tanglung.md's examples runs as written (in order, in one folder);
    the Dask one only where the optional extra is installed."""
    import importlib.util
    import re
    import shlex
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "tanglung.md").read_text()
    blocks = re.findall(r"```(\w*)\n(.*?)```", text, re.S)
    cmds = [re.split(r"\s{2,}#", ln)[0].strip() for _, block in blocks for ln in block.splitlines()
            if ln.startswith("tanglekit ")]
    assert len(cmds) >= 12
    import shutil

    shutil.copytree(Path(__file__).resolve().parent.parent / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    state = next(b for lang, b in blocks if lang == "json")  # the state JSON `analyze state.json` reads
    (tmp_path / "state.json").write_text(state)
    from hostile import run_cli

    for c in cmds:
        if "--executor dask" in c and importlib.util.find_spec("dask") is None:
            continue
        code, out, err = run_cli(shlex.split(c)[1:])
        assert code == 0, (c, err[-800:])
    assert json.loads((tmp_path / "challenge.json").read_text())["format"] == "tanglekit/tanglung-challenge"


def test_play_reads_a_challenge_file_in_a_fresh_process(tmp_path):
    """The challenge format must be known to `play` without anything imported beforehand."""
    f = tmp_path / "c.json"
    run("solo", "generate", "--seed", "1", "--out", str(f))
    p = subprocess.run([sys.executable, "-m", "tanglekit.cli", "play", str(f), "--bots", "perfect"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "solved in" in p.stdout, p.stderr
