"""The command line: start-up time, error handling (exit 2, no traceback), JSON shapes.

Commands run in-process (``hostile.run``, the console script's code path) unless the test is
about the process itself: start-up time and imports, the ``python -m`` entries, stdout on a full
disk, a closed pipe, Ctrl-C.
"""

import json
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

import hostile

ROOT = Path(__file__).resolve().parents[1]


def run(*args, check_rc=None):
    """``tanglekit ARGS`` in this process (see ``hostile.run``)."""
    p = hostile.run(list(args))
    if check_rc is not None:
        assert p.returncode == check_rc, (p.returncode, p.stdout, p.stderr)
    return p


def run_process(*args, check_rc=None):
    """``python -m tanglekit.cli ARGS`` in a fresh process."""
    p = subprocess.run(
        [sys.executable, "-m", "tanglekit.cli", *args], capture_output=True, text=True, timeout=300
    )
    if check_rc is not None:
        assert p.returncode == check_rc, (p.returncode, p.stdout, p.stderr)
    return p


def test_help_is_fast_and_lists_areas():
    t = time.perf_counter()
    p = run_process("--help", check_rc=0)
    assert time.perf_counter() - t < 3.0  # generous: includes interpreter start on a busy machine
    assert "shapes" in p.stdout and "bench" in p.stdout


def test_every_python_m_entry_runs_its_app():
    """``python -m tanglekit.cli`` and ``python -m tanglekit.games.<game>.cli`` (one process, each
    module run as ``__main__``): the game's own app answers ``--help`` and refuses a bad word."""
    modules = ("cli", "games.zangle.cli", "games.tanglung.cli", "games.qango.cli", "games.zinga.cli",
               "games.tangle.cli")
    code = (
        "import runpy, sys\n"
        f"for m in {modules!r}:\n"
        "    for argv in (['--help'], ['no-such-command']):\n"
        "        sys.argv = [m] + argv\n"
        "        try:\n"
        "            runpy.run_module('tanglekit.' + m, run_name='__main__')\n"
        "        except SystemExit as e:\n"
        "            print(m, argv[0], e.code, file=sys.__stdout__)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith(("cli", "games."))]
    want = [f"{m} {a} {c}" for m in modules for a, c in (("--help", 0), ("no-such-command", 2))]
    assert lines == want, (p.stdout[-2000:], p.stderr[-2000:])
    assert "No such command" in p.stderr and "Traceback" not in p.stderr


def test_help_imports_no_heavy_module():
    code = "import sys, tanglekit.cli; print(sorted(m for m in ('numba', 'ortools', 'numpy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_version():
    assert run("--version", check_rc=0).stdout.startswith("tanglekit ")


@pytest.mark.parametrize(
    "args",
    [
        ["shapes", "enumerate", "0"],
        ["shapes", "canon", "^^"],  # parity error
        ["shapes", "show", "@/nonexistent/file.txt"],
        ["shapes", "enumerate", "4", "--lattice", "hex"],
        ["bench", "no-such-benchmark"],
    ],
)
def test_bad_input_exits_2_without_traceback(args):
    p = run(*args, check_rc=2)
    assert "Traceback" not in p.stderr
    assert p.stderr.strip()


def test_enumerate_count_json_exact_form():
    p = run("shapes", "enumerate", "6", "--count", "--json", check_rc=0)
    assert json.loads(p.stdout) == {"lattice": "triangle", "kind": "free", "size": 6, "count": 12}
    p = run("shapes", "enumerate", "5", "--lattice", "square", "--kind", "fixed", "--count", "--json")
    assert json.loads(p.stdout)["count"] == 63


def test_enumerate_lists_shapes_and_writes_svg(tmp_path):
    svg = tmp_path / "hexiamonds.svg"
    p = run("shapes", "enumerate", "6", "--json", "--svg", str(svg), check_rc=0)
    data = json.loads(p.stdout)
    assert data["count"] == 12 and len(data["shapes"]) == 12
    import xml.etree.ElementTree as ET

    ET.parse(svg)


def test_canon_json():
    p = run("shapes", "canon", "[[0,0],[1,0],[2,0],[0,1],[1,1],[2,1]]", "--json", check_rc=0)
    d = json.loads(p.stdout)
    assert d["symmetry_order"] == 12 and d["area"] == 6 and d["lattice"] == "triangle"


def test_every_package_dir_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"tanglekit"}
    for init in ROOT.rglob("__init__.py"):
        rel = init.parent.relative_to(ROOT)
        if rel.parts and rel.parts[0] in ("tests", "build") or any(p.startswith(".") for p in rel.parts):
            continue
        if rel.parts:
            found.add("tanglekit." + ".".join(rel.parts))
    assert found == listed


def test_tile_count_json_exact_form():
    p = run("tile", "--region", "parallelogram:9x4", "--pieces", "hexiamonds", "--count", "--json", check_rc=0)
    d = json.loads(p.stdout)
    assert set(d) == {"count", "count_up_to_symmetry", "backend", "seconds", "complete"} and d["complete"] is True
    assert d["count"] == 148 and d["count_up_to_symmetry"] is None and d["backend"] == "dlx"
    p = run("tile", "--region", "rect:20x3", "--pieces", "pentominoes", "--count", "--up-to-symmetry", "--json")
    d = json.loads(p.stdout)
    assert (d["count"], d["count_up_to_symmetry"]) == (8, 2)


def test_tile_rejects_two_queries():
    p = run("tile", "--region", "rect:5x4", "--pieces", "tetrominoes", "--all", "--count", check_rc=2)
    assert "Traceback" not in p.stderr


@pytest.mark.slow  # the documented `tanglekit demo --out pictures` makes the same checks in-process
def test_demo_runs_every_step(tmp_path):
    p = run_process("demo", "--out", str(tmp_path), "--json", check_rc=0)
    records = json.loads(p.stdout.strip().splitlines()[-1])
    assert [r["area"] for r in records][::2][:2] == ["shapes", "tile"]
    assert {r["area"] for r in records} >= {"shapes", "tile", "zangle", "tanglung", "zinga", "tangle"}
    assert "up to symmetry: 156" in p.stdout and "up to symmetry: 2339" in p.stdout
    assert len(list(tmp_path.glob("*.svg"))) >= 8
    for svg in tmp_path.glob("*.svg"):
        import xml.etree.ElementTree as ET

        ET.parse(svg)


def test_demo_steps_are_valid_commands(tmp_path):
    """The default run's check of the demo (which runs in full, about 8 s of CPU, in the slow run:
    the README's `tanglekit demo` in tests/test_docs_commands.py and the test above): every step
    parses as a tanglekit command (subcommands, options, argument types, input files), covers
    every game, and writes its pictures into the demo's folder."""
    from tanglekit.cli import app
    from tanglekit.cli_common import click_command
    from tanglekit.cli_demo import demo_steps

    steps = demo_steps(tmp_path, 1)
    assert [area for area, _ in steps] == ["shapes", "tile", "zangle", "tanglung", "qango", "zinga", "tangle"]
    for _, argvs in steps:
        for argv in argvs:
            cmd, args, names = click_command(app), list(argv), []
            ctx = cmd.make_context("tanglekit", args)
            while hasattr(cmd, "resolve_command"):  # a group: down to the leaf command, each level's options parsed
                name, cmd, rest = cmd.resolve_command(ctx, [*ctx._protected_args, *ctx.args])
                names.append(name)
                ctx = cmd.make_context(name, rest, parent=ctx)
            assert not ctx.args, (argv, ctx.args)
            assert names == argv[: len(names)]
            for flag in ("--svg", "--proof"):
                if flag in argv:
                    assert Path(argv[argv.index(flag) + 1]).is_relative_to(tmp_path), argv


def test_demo_json_lists_each_command_run(tmp_path, monkeypatch):
    """`demo --json` ends with one record per command run, in order (two cheap steps stand in
    for the demo's; the real steps run in tests/test_docs_commands.py)."""
    from tanglekit import cli_demo

    steps = [("shapes", [["shapes", "canon", "^v", "--json"]]),
             ("tanglung", [["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC"], ["zinga", "odds"]])]
    monkeypatch.setattr(cli_demo, "demo_steps", lambda out, seed: steps)
    p = run("demo", "--out", str(tmp_path / "d"), "--json", check_rc=0)
    records = json.loads(p.stdout.strip().splitlines()[-1])
    assert [(r["area"], r["command"]) for r in records] == [
        ("shapes", "tanglekit shapes canon ^v --json"),
        ("tanglung", "tanglekit tanglung solo solve CRBF/HDFR/BHFB/RHDC"),
        ("tanglung", "tanglekit zinga odds")]
    assert all(isinstance(r["seconds"], float) and r["seconds"] >= 0 for r in records)
    assert "$ tanglekit tanglung solo solve CRBF/HDFR/BHFB/RHDC" in p.stdout and "optimal" in p.stdout.lower()
    assert "3 commands in " in p.stdout and (tmp_path / "d").is_dir()


# --- one-line errors: usage, output, internal ---------------------------------------------------


def _one_error_line(p, code=2):
    lines = p.stderr.strip().splitlines()
    assert p.returncode == code, (p.returncode, p.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), p.stderr
    assert "Traceback" not in p.stderr and "╭" not in p.stderr
    return lines[0]


@pytest.mark.parametrize(
    "args, needle",
    [
        (["shapes", "enumerate"], "Missing argument"),
        (["shapes", "enumerate", "3", "--no-such-flag"], "No such option"),
        (["shapes", "enumerate", "three"], "'n'"),
        (["tile", "--region"], "requires an argument"),
        (["no-such-command"], "No such command"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args, needle):
    line = _one_error_line(run(*args))
    assert needle in line and "--help" in line


def test_output_failures_are_one_line(tmp_path):
    assert "No space left" in _one_error_line(run("shapes", "show", "##/##", "--svg", "/dev/full"))
    long_name = str(tmp_path / ("a" * 300 + ".svg"))
    line = _one_error_line(run("shapes", "show", "##/##", "--svg", long_name))
    assert "File name too long" in line and len(line) <= 300
    with open("/dev/full", "w") as full:  # stdout itself on a full disk (a solve that needs no numba)
        p = subprocess.run([sys.executable, "-m", "tanglekit.cli", "tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC",
                            "--json"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert "No space left" in _one_error_line(p)


def test_broken_pipe_is_quiet():
    p = subprocess.Popen([sys.executable, "-m", "tanglekit.cli", "shapes", "enumerate", "12"],  # 70 kB
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip()  # like `| head -1`: read one line, then go away
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) == 141 and "Traceback" not in err and "Exception ignored" not in err, err


def test_error_messages_never_echo_a_huge_input():
    line = _one_error_line(run("shapes", "canon", "^v" * 50_000 + "x"))
    assert len(line) <= 300


def test_one_line_caps_words_and_length():
    from tanglekit.cli_common import MAX_MESSAGE, one_line

    assert one_line("a\n  b\tc") == "a b c"
    cut = one_line("x" * 10_000 + ": not a shape")
    assert "(10,001 chars)" in cut and cut.endswith("x: not a shape") and len(cut) < 120
    path = one_line("/tmp/" + "d" * 200 + "/deal.json: missing 'middle'")
    assert path.endswith("/deal.json: missing 'middle'")  # a cut path keeps its file name
    assert len(one_line("word " * 1000)) == MAX_MESSAGE


def test_internal_error_is_one_line_exit_1_and_debug_shows_the_traceback(monkeypatch, capsys):
    import typer

    from tanglekit.cli_common import execute

    app = typer.Typer()

    @app.command()
    def boom() -> None:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.delenv("TANGLEKIT_DEBUG", raising=False)
    assert execute(app, []) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["internal error: RuntimeError: a bug over two lines (set TANGLEKIT_DEBUG=1 to see the traceback)"]
    monkeypatch.setenv("TANGLEKIT_DEBUG", "1")
    with pytest.raises(RuntimeError, match="a bug"):
        execute(app, [])


def test_interrupt_prints_one_line_and_exits_130(monkeypatch, capsys):
    import typer

    from tanglekit.cli_common import execute

    app = typer.Typer()

    @app.command()
    def wait() -> None:
        raise KeyboardInterrupt

    assert execute(app, []) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_ctrl_c_stops_a_census_and_keeps_its_checkpoint(tmp_path):
    """SIGINT to the whole process group (as a terminal's Ctrl-C): one line 'interrupted', exit
    130, no worker tracebacks; the checkpoint holds the finished chunks and a rerun resumes to the
    same summary as an uninterrupted run."""
    import os
    import signal

    from tanglekit.games.tanglung.generate import census

    cp = tmp_path / "census.json"
    base = ["tanglung", "census", "--sample", "1500", "--checkpoint", str(cp), "--json"]
    args = [*base, "--workers", "2"]
    p = subprocess.Popen([sys.executable, "-m", "tanglekit.cli", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    t0 = time.monotonic()
    while not cp.exists() and p.poll() is None and time.monotonic() - t0 < 240:
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=120)
    if p.returncode == 0:
        pytest.skip("the census finished before the signal arrived")
    assert p.returncode == 130, (p.returncode, err)
    assert err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err, err
    held = json.loads(cp.read_text())
    assert 1 <= len(held["done"]) < 3 and out == ""
    # the rerun (in-process, one worker: the checkpoint does not depend on the pool) finishes
    # the census; it equals an uninterrupted one
    resumed = run(*base, "--workers", "1", check_rc=0)
    got, want = json.loads(resumed.stdout), json.loads(json.dumps(census(sample=1500, workers=1)))
    for timing in ("seconds",):
        got.pop(timing, None), want.pop(timing, None)
    assert got == want


def test_bench_help_lists_every_benchmark():
    from tanglekit.cli import _bench_names

    out = run("bench", "--help", check_rc=0).stdout
    names = _bench_names()
    assert {"enumerate", "exact_cover", "qango", "startup"} <= set(names) and not any(n.startswith("_") for n in names)
    flat = " ".join(out.replace("│", " ").split())
    assert all(n in flat for n in names), flat
