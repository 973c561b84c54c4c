"""Split counts (generators.executors, shapes.enumerate_split): equal to the plain counts and to
OEIS, checkpoints that resume, refuse other problems and edits, and the CLI options.
The real-cluster runs (Ray, Dask as separate processes) are in test_cluster.py."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tanglekit import jsonio
from tanglekit.errors import FormatError, ShapeError, SolverError
from tanglekit.generators import executors
from tanglekit.generators.executors import count_polyforms, count_tiling, map_unordered, run_parts
from tanglekit.shapes.enumerate import reference_count_polyforms, reference_fixed_polyforms
from tanglekit.shapes.enumerate_split import (
    count_polyforms_split,
    count_prefix,
    prefixes,
    reference_prefix_animals,
    split_prefixes,
)

from .test_enumerate import OEIS


# --- enumeration split -------------------------------------------------------------------------


@pytest.mark.parametrize("lat,kind", sorted(OEIS))
@pytest.mark.parametrize("n", [1, 2, 3, 7, 11])
def test_split_count_equals_oeis(lat, kind, n):
    for min_parts in (1, 5, 40):
        assert count_polyforms_split(n, lat, kind, min_parts) == OEIS[lat, kind][n - 1]


@pytest.mark.parametrize("lat,kind", [("triangle", "free"), ("square", "one-sided"), ("square", "fixed")])
def test_split_equals_plain_reference_on_small_sizes(lat, kind):
    for n in range(3, 8):
        want = reference_count_polyforms(n, lat, kind)  # once per size (it was per depth)
        for depth in range(0, n - 1):
            ps = prefixes(n, lat, kind, depth)
            total = sum(count_prefix(n, lat, kind, p)[-1] for p in ps)
            assert total == want


@pytest.mark.parametrize("lat", ["triangle", "square"])
def test_prefixes_are_the_fixed_animals_of_their_depth(lat):
    """Distinct prefixes of depth L are distinct fixed animals, all of them (plain growth)."""
    from tanglekit.shapes.enumerate import _ref_normalize
    from tanglekit.shapes.registry import get_lattice

    g = get_lattice(lat)
    for depth in (1, 3, 5):
        animals = reference_prefix_animals(8, lat, "free", depth)
        normal = {_ref_normalize(a, g) for a in animals}
        assert len(normal) == len(animals) == len(reference_fixed_polyforms(depth, lat)[-1])


def test_split_by_size_and_depth_choice():
    depth, ps = split_prefixes(12, "triangle", "fixed", 50)
    assert len(ps) >= 50 and len(prefixes(12, "triangle", "fixed", depth - 1)) < 50
    out = count_polyforms(12, "square", "free", by_size=True, min_parts=30)
    assert out["counts"] == OEIS["square", "free"][:12] and out["complete"] and out["depth"] >= 1
    assert count_polyforms(13, "triangle", "one-sided", min_parts=20)["count"] == OEIS["triangle", "one-sided"][12]
    assert split_prefixes(2, "square", "free", 100)[0] == 0  # the last levels stay in the kernel


def test_prefix_errors():
    with pytest.raises(ShapeError, match="depth"):
        prefixes(5, "square", "free", 4)
    with pytest.raises(ShapeError, match="origin"):
        count_prefix(5, "square", "free", (1, (0,)))
    with pytest.raises(ShapeError, match="outside"):
        count_prefix(5, "square", "free", (0, (0, 9)))


# --- tiling split ----------------------------------------------------------------------------


def test_tile_split_equals_one_process():
    from tanglekit.solver.tiling import solve_tiling

    for region, pieces, each in (("rect:5x4", "tetrominoes", "any"), ("rect:5x3", "pentominoes", "at-most"),
                                 ("hexagon:1", "triamonds", "any")):
        plain = solve_tiling(region, pieces, each=each, query="count").count
        for parts in (1, 7, 30):
            out = count_tiling(region, pieces, each=each, min_parts=parts)
            assert out["complete"] and out["count"] == plain, (region, parts)


def test_tile_split_up_to_symmetry():
    """The README's hexiamond parallelogram: 624 tilings, 156 up to symmetry (a fixed piece)."""
    out = count_tiling("parallelogram:6x6", "hexiamonds", up_to_symmetry=True, min_parts=10)
    assert (out["count"], out["count_up_to_symmetry"], out["symmetry_order"]) == (624, 156, 4)
    with pytest.raises(SolverError, match="fixed"):  # no piece to fix: canonical forms do not split
        count_tiling("rect:5x3", "pentominoes", each="at-most", up_to_symmetry=True)


def test_local_process_pool_equals_serial():
    """Two spawned worker processes give the same counts (about 3 s: interpreter start-up)."""
    serial = count_tiling("rect:5x4", "tetrominoes", each="any", workers=1, min_parts=12)
    pooled = count_tiling("rect:5x4", "tetrominoes", each="any", workers=2, min_parts=12)
    assert pooled["count"] == serial["count"] == 454
    assert sorted(map_unordered(abs, [-3, 1, -2], "local", 2)) == [1, 2, 3]


# --- checkpoints -------------------------------------------------------------------------------

CALLS: list = []


def _square(item):
    key, x = item
    CALLS.append(key)
    return key, x * x


PARTS = [(f"k{i}", i) for i in range(6)]
PROBLEM = {"command": "test", "n": 6}


def test_checkpoint_resume_after_interrupt(tmp_path):
    cp = tmp_path / "cp.json"
    CALLS.clear()

    def stop_after_two(done, total):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_parts(_square, PARTS, PROBLEM, checkpoint=cp, on_progress=stop_after_two)
    doc = json.loads(cp.read_text())
    assert doc["format"] == executors.CHECKPOINT_FORMAT.tag and doc["problem"] == PROBLEM
    assert sorted(doc["done"]) == ["k0", "k1"]
    CALLS.clear()
    done, complete = run_parts(_square, PARTS, PROBLEM, checkpoint=cp)
    assert complete and done == {f"k{i}": i * i for i in range(6)}
    assert sorted(CALLS) == ["k2", "k3", "k4", "k5"]  # finished parts are not run again
    CALLS.clear()
    assert run_parts(_square, PARTS, PROBLEM, checkpoint=cp) == (done, True) and CALLS == []


def test_checkpoint_refuses_another_problem_and_edits(tmp_path):
    cp = tmp_path / "cp.json"
    run_parts(_square, PARTS, PROBLEM, checkpoint=cp)
    with pytest.raises(FormatError, match="another problem"):
        run_parts(_square, PARTS, {"command": "test", "n": 7}, checkpoint=cp)
    doc = json.loads(cp.read_text())
    doc["done"]["k3"] = 10
    cp.write_text(json.dumps(doc))
    with pytest.raises(FormatError, match="checksum"):
        run_parts(_square, PARTS, PROBLEM, checkpoint=cp)
    other = jsonio.with_checksum({"format": "tanglekit/zangle-deal", "version": 1})
    cp.write_text(json.dumps(other))
    with pytest.raises(FormatError):
        run_parts(_square, PARTS, PROBLEM, checkpoint=cp)


def test_time_limit_keeps_the_checkpoint(tmp_path):
    cp = tmp_path / "cp.json"
    done, complete = run_parts(_square, PARTS, PROBLEM, checkpoint=cp, time_limit=0)
    assert (done, complete) == ({}, False) and cp.exists()
    out = count_tiling("rect:5x4", "tetrominoes", each="any", checkpoint=cp.with_name("t.json"),
                       time_limit=0, min_parts=8)
    assert out["complete"] is False and out["parts_done"] == 0
    out = count_tiling("rect:5x4", "tetrominoes", each="any", checkpoint=cp.with_name("t.json"), min_parts=8)
    assert out["complete"] and out["count"] == 454


def test_tile_checkpoint_names_its_problem(tmp_path):
    cp = tmp_path / "t.json"
    count_tiling("rect:5x4", "tetrominoes", each="any", checkpoint=cp, min_parts=8)
    with pytest.raises(FormatError, match="another problem"):
        count_tiling("rect:4x5", "tetrominoes", each="any", checkpoint=cp, min_parts=8)
    with pytest.raises(FormatError, match="another problem"):
        count_polyforms(8, "square", checkpoint=cp)


def test_executor_errors():
    with pytest.raises(SolverError, match="unknown executor"):
        list(map_unordered(abs, [1], "spark"))
    with pytest.raises(SolverError, match="--address"):
        list(map_unordered(abs, [1], "local", address="127.0.0.1:1"))
    with pytest.raises(SolverError, match="distinct"):
        run_parts(_square, [("a", 1), ("a", 2)], PROBLEM)


# --- CLI -----------------------------------------------------------------------------------------


def _cli(*args):
    from tanglekit.cli import app

    return CliRunner().invoke(app, list(args))


def test_cli_tile_count_checkpoint(tmp_path):
    cp = str(tmp_path / "tile.json")
    args = ["tile", "--region", "rect:5x4", "--pieces", "tetrominoes", "--each", "any", "--count",
            "--executor", "local", "--workers", "1", "--checkpoint", cp]
    res = _cli(*args)
    assert res.exit_code == 0, res.output
    assert "count: 454" in res.stdout and "subproblems:" in res.stdout
    res = _cli(*args, "--json")
    out = json.loads(res.stdout)
    assert out["count"] == 454 and out["complete"] and out["parts_done"] == out["parts"]


def test_cli_enumerate_count_executor(tmp_path, monkeypatch):
    monkeypatch.setattr("tanglekit.solver.parallel.default_workers", lambda: 1)  # no pool start-up
    res = _cli("shapes", "enumerate", "10", "--lattice", "square", "--count", "--executor", "local",
               "--checkpoint", str(tmp_path / "e.json"), "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["count"] == OEIS["square", "free"][9]
    res = _cli("shapes", "enumerate", "7", "--count", "--by-size", "--checkpoint", str(tmp_path / "b.json"))
    assert res.stdout.split() == [w for s, c in enumerate(OEIS["triangle", "free"][:7], 1) for w in (str(s), str(c))]


def test_cli_option_errors():
    from hostile import run

    from tanglekit.errors import TanglekitError

    p = run(["shapes", "enumerate", "5", "--executor", "ray"])  # in-process, as the console script runs it
    assert p.returncode == 2 and p.stderr.startswith("error: ") and "Traceback" not in p.stderr
    for args in (["shapes", "enumerate", "5", "--executor", "ray"],
                 ["tile", "--region", "rect:5x4", "--pieces", "tetrominoes", "--checkpoint", "x.json"],
                 ["tile", "--region", "rect:5x4", "--pieces", "tetrominoes", "--count", "--limit", "3",
                  "--executor", "local"],
                 ["tile", "--region", "rect:5x4", "--pieces", "tetrominoes", "--count", "--address",
                  "127.0.0.1:1"]):
        res = _cli(*args)
        assert isinstance(res.exception, TanglekitError), (args, res.output)


# --- documented commands -------------------------------------------------------------------------


def test_docs_cluster_commands_run(tmp_path, monkeypatch):
    """Every `$ tanglekit ...` line of docs/cluster.md's console blocks runs and prints what the
    page shows (seconds, and the subproblem figures that depend on the CPU count, aside)."""
    import re
    import shlex
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "cluster.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", text, re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("tanglekit.solver.parallel.default_workers", lambda: 1)  # no pool start-up
    ran = 0
    for block in blocks:
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            cmd, *expected = chunk.strip().split("\n")
            args = shlex.split(cmd)
            assert args[0] == "tanglekit" and "ray" not in args and "dask" not in args
            res = _cli(*args[1:])
            assert res.exit_code == 0, (cmd, res.output)
            got = res.stdout.strip().split("\n")
            assert len(got) == len(expected), (cmd, got)
            for want, line in zip(expected, got):
                if want.startswith("{"):
                    skip = {"seconds", "parts", "parts_done", "depth"}
                    a, b = json.loads(want), json.loads(line)
                    assert {k: v for k, v in a.items() if k not in skip} == {k: v for k, v in b.items() if k not in skip}
                elif "seconds" in want:
                    assert line.split(" ")[0] == want.split(" ")[0]
                else:
                    assert line == want, cmd
            ran += 1
    assert ran >= 3


# --- no waiting for ever: the local pool, the connect timeout, the progress line -----------------


def _die_on(item):
    """A part that kills its own worker process (as the OOM killer would) when its task says so."""
    import os
    import signal
    import time

    key, task = item
    if task == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.02)
    return key, 1


def _sleepy(item):
    import time

    time.sleep(30)
    return item


def test_local_pool_dead_worker_is_one_line_and_keeps_the_checkpoint(tmp_path):
    """A worker killed mid-run ends the run at once with one line that says what the checkpoint
    keeps (the spawn pool used to wait for ever); the same command then goes on from there."""
    import time

    cp = tmp_path / "cp.json"
    problem = {"command": "test", "n": 8}
    parts = [(f"k{i}", i) for i in range(7)] + [("k7", "die")]
    t0 = time.monotonic()
    with pytest.raises(executors.ClusterLost) as err:
        run_parts(_die_on, parts, problem, workers=2, checkpoint=cp)
    assert time.monotonic() - t0 < 15
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("a worker process died (killed or out of memory); ")
    assert f"of 8 parts done, checkpoint kept in {cp}" in msg
    kept = executors._load_checkpoint(cp, problem)
    assert "k7" not in kept and f"{len(kept)} of 8 parts done" in msg
    seen = []
    parts[-1] = ("k7", 7)  # the part no longer kills its worker
    done, complete = run_parts(_die_on, parts, problem, workers=2, checkpoint=cp,
                               on_progress=lambda d, t: seen.append(d))
    assert complete and sorted(done) == [f"k{i}" for i in range(8)] and seen[0] == len(kept)


def test_local_pool_time_limit_stops_running_parts(tmp_path):
    """The time limit is a deadline on the wait itself: parts still running are stopped."""
    import time

    t0 = time.monotonic()
    done, complete = run_parts(_sleepy, [("a", 1), ("b", 2)], PROBLEM, workers=2, time_limit=0.5,
                               checkpoint=tmp_path / "cp.json")
    assert (done, complete) == ({}, False) and time.monotonic() - t0 < 10


def test_connect_timeout_setting(monkeypatch):
    from tanglekit.errors import TanglekitError
    from tanglekit.limits import UsageError

    monkeypatch.delenv(executors.CONNECT_TIMEOUT_ENV, raising=False)
    assert executors.resolve_connect_timeout() == executors.CONNECT_TIMEOUT == 30
    monkeypatch.setenv(executors.CONNECT_TIMEOUT_ENV, "4.5")
    assert executors.resolve_connect_timeout() == 4.5
    with executors.cluster_settings(connect_timeout=2):
        assert executors.resolve_connect_timeout() == 2 and executors.resolve_connect_timeout(7) == 7
    monkeypatch.setenv(executors.CONNECT_TIMEOUT_ENV, "soon")
    with pytest.raises(SolverError, match="TANGLEKIT_CONNECT_TIMEOUT"):
        executors.resolve_connect_timeout()
    with pytest.raises(UsageError, match="--connect-timeout"):
        executors.resolve_connect_timeout(0)
    for bad in (["--connect-timeout", "-1"], ["--connect-timeout", "nan"]):
        res = _cli("tile", "--region", "rect:5x4", "--pieces", "tetrominoes", "--count", "--executor", "dask", *bad)
        assert res.exit_code != 0 and "Traceback" not in res.output
    res = _cli("shapes", "enumerate", "5", "--connect-timeout", "3")
    assert isinstance(res.exception, TanglekitError) and "go with --count" in str(res.exception)


def test_progress_text():
    from tanglekit.generators.executors import progress_text

    assert progress_text(0, 63, 0.4) == "0 of 63 parts done, 0:00 elapsed, estimating the time left"
    assert progress_text(12, 63, 5.0) == "12 of 63 parts done, 0:05 elapsed, about 0:21 left"
    # parts from the checkpoint do not count towards the speed
    assert progress_text(40, 50, 10.0, done_before=30, unit="chunks") == \
        "40 of 50 chunks done, 0:10 elapsed, about 0:10 left"
    assert progress_text(5, 5, 3725.0) == "5 of 5 parts done, 1:02:05 elapsed"


def test_progress_bar_on_a_terminal_only():
    """The bar shows the progress line on a terminal; elsewhere (a log file, a pipe) nothing."""
    import io

    from rich.console import Console

    from tanglekit.generators.executors import progress

    for terminal in (True, False):
        out = io.StringIO()
        console = Console(file=out, force_terminal=terminal, width=120)
        with progress("subproblems", console=console) as update:
            update(2, 8)
            update(3, 8)
        text = out.getvalue()
        if terminal:
            assert "subproblems" in text and "3 of 8 parts done" in text and "elapsed" in text
        else:
            assert text == ""
    out = io.StringIO()
    with progress("subproblems", enabled=False, console=Console(file=out, force_terminal=True)) as update:
        update(1, 2)
    assert out.getvalue() == ""
