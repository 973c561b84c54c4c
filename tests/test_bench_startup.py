"""Bench output as data (--json/--csv rows read back from the Markdown), --record safety, and the
start-up path: a single small Tanglung solve does not import numba or numpy."""

import json
import subprocess
import sys

import pytest
from tanglekit.benchmarks._table import parse_markdown, to_csv
from tanglekit.cli import app
from typer.testing import CliRunner

MD = """Intro line.

### counts

| n | count | seconds | ratio |
|---:|---:|---:|---:|
| 5 | 1,234 | 0.5 | 2.5x |
| 6 | 9356 | - | |

| solver | result |
|---|---|
| cpsat | >= 10 (time-limited) |
"""


def test_parse_markdown_tables_and_numbers():
    doc = parse_markdown(MD)
    assert doc["notes"] == ["Intro line."]
    t1, t2 = doc["tables"]
    assert t1["title"] == "counts" and t1["columns"] == ["n", "count", "seconds", "ratio"]
    assert t1["rows"][0] == {"n": 5, "count": 1234, "seconds": 0.5, "ratio": 2.5}
    assert t1["rows"][1] == {"n": 6, "count": 9356, "seconds": None, "ratio": None}
    assert t2["title"] is None and t2["rows"] == [{"solver": "cpsat", "result": ">= 10 (time-limited)"}]
    csv_text = to_csv(doc, "demo").splitlines()
    assert csv_text[0] == "benchmark,table,n,count,seconds,ratio"
    assert csv_text[1] == "demo,counts,5,1234,0.5,2.5"


def test_bench_record_refuses_non_markdown_and_installed_package(tmp_path):
    r = CliRunner().invoke(app, ["bench", "zinga", "--record", str(tmp_path / "x.txt")])
    assert r.exit_code != 0
    site = tmp_path / "lib" / "site-packages" / "tanglekit" / "benchmarks" / "RESULTS.md"
    r = CliRunner().invoke(app, ["bench", "zinga", "--record", str(site)])
    assert r.exit_code != 0 and not site.exists()
    r = CliRunner().invoke(app, ["bench", "nosuch"])
    assert r.exit_code != 0


HEAVY = ("numba", "numpy", "pydantic", "rich", "ortools")


def _loaded_after(args):
    """(stdout, the heavy libraries imported) of one in-process CLI run in a fresh interpreter."""
    code = (
        "import sys\n"
        "from tanglekit.cli import app\n"
        f"sys.argv = ['tanglekit'] + {list(args)!r}\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        f"print('LOADED', sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={"PATH": "/usr/bin:/bin", "COLUMNS": "100"})
    line = next(ln for ln in p.stderr.splitlines() if ln.startswith("LOADED"))
    return p.stdout, line[len("LOADED "):]


def test_single_tanglung_solve_does_not_load_numba():
    """A single small Tanglung solve (the README's layout and a typical one, 23 k states) runs in
    plain Python: no numba, numpy, pydantic (command-line values), rich or OR-Tools."""
    out, loaded = _loaded_after(["tanglung", "solo", "solve", "CRBF/HDFR/BHFB/RHDC", "--json"])
    assert json.loads(out)["optimal_tours"] == 1823
    assert loaded == "[]"
    out, loaded = _loaded_after(["tanglung", "solo", "solve", "CDBR/HRFH/HBRD/BFFC", "--start", "0,0", "--json"])
    assert json.loads(out)["nodes"] == 31379 and loaded == "[]"


SOLO_DEAL = "zangle:solo,piles=5:1l2v2r.03331n210m0u0p.1b.1x0n.1v230g.2d0t0224.082z172c2q"


def test_single_small_solves_do_not_load_numba_or_numpy():
    """The small instances of ``bench startup`` run in plain Python (solver/xc_small.py, the Zangle
    finder and solo search in Python, games/qango/small.py): no numba, numpy, pydantic (the
    deal and board files pass the plain checks), rich or OR-Tools. The answers are the kernels'
    (tests/test_xc_small.py, test_zangle_plain.py and test_qango_small.py compare the engines)."""
    from pathlib import Path

    deal = str(Path(__file__).resolve().parents[1] / "examples" / "deal.json")
    out, loaded = _loaded_after(["zangle", "find", deal, "--json"])
    assert json.loads(out)["count"] == 7 and loaded == "[]"
    out, loaded = _loaded_after(["zangle", "solo", "solve", SOLO_DEAL, "--json"])
    d = json.loads(out)
    assert (d["solvable"], d["states"], len(d["line"])) == (True, 48, 16) and loaded == "[]"
    out, loaded = _loaded_after(["qango", "solve", "OXO.XO/OX.XOX/O.XOX./XOX.O./.XOX../X.O.OX", "--json"])
    d = json.loads(out)
    assert (d["value"], d["best_move"], d["plies"], d["nodes"]) == ("draw", [0, 3], 11, 187) and loaded == "[]"
    out, loaded = _loaded_after(["tile", "--region", "rect:5x4", "--pieces", "pentominoes", "--each", "at-most",
                                 "--count", "--json"])
    d = json.loads(out)
    assert (d["count"], d["backend"], d["complete"]) == (200, "dlx", True) and loaded == "[]"


def test_large_instances_still_go_to_the_kernels():
    """Past the plain searches' budgets the kernels answer (the 3x20 pentomino count: 2 solutions,
    8 with their mirror images and turns)."""
    out, loaded = _loaded_after(["tile", "--region", "rect:20x3", "--pieces", "pentominoes", "--count", "--json",
                                 "--workers", "1"])
    assert json.loads(out)["count"] == 8 and "numba" in loaded


def test_help_loads_no_solver_library():
    out, loaded = _loaded_after(["--help"])
    assert "tanglung" in out and "zangle" in out
    assert loaded in ("[]", "['rich']")  # typer draws its help with rich when rich is installed
    out, loaded = _loaded_after(["tanglung", "solo", "solve", "--help"])
    assert "--batch" in out and loaded in ("[]", "['rich']")


def test_bench_rows_one_layout_units_and_limited_rows(tmp_path):
    from tanglekit.benchmarks._table import COLUMNS, UNITS, measure, row, table

    m = measure(sum, range(1000), reps=3)
    assert m.value == 499500 and m.reps >= 3 and m.cpu_s >= 0 and m.peak_mib > 0
    text = table([row("t", "fast", 3000, m, ratio=2.0, notes="vs slow"),
                  row("t", "slow", 3000, m, ratio=5.0, limited=True)], "demo")
    doc = parse_markdown(text)
    t = doc["tables"][0]
    assert t["title"] == "demo" and t["columns"] == list(COLUMNS)
    assert t["rows"][0]["ratio"] == 2.0 and t["rows"][0]["items"] == 3000
    assert t["rows"][1]["ratio"] is None and t["rows"][1]["notes"].startswith("time-limited")
    assert "CPU s" in UNITS and "peak MiB" in UNITS and "ru_maxrss" in UNITS


def test_bench_record_keeps_hand_written_tables_below_a_section(tmp_path):
    from tanglekit.cli import _record_result

    f = tmp_path / "R.md"
    f.write_text("# Benchmark results\n\n## batch\n\nold table\n\nRun: 1 s.\n\n### by hand\n\nkept\n\n"
                 "## other\n\nx\n")
    _record_result(f, "batch", "tanglekit bench batch", "new table\n\nRun: 2 s.")
    text = f.read_text()
    assert "new table" in text and "old table" not in text
    assert text.index("### by hand") > text.index("new table") and "kept" in text and "## other" in text


# --- the exact-cover benchmark's comparison tools (the `bench` extra) -------------------------


def _installed_tools() -> list[str]:
    import importlib.util

    from tanglekit.benchmarks.exact_cover import OTHERS

    modules = {"xcover": "xcover", "exact-cover-py": "exact_cover_py", "exact-cover": "exact_cover"}
    return [t for t in OTHERS if importlib.util.find_spec(modules[t]) is not None]


def test_exact_cover_comparison_tools_count_like_ours():
    """Each installed comparison tool, through the benchmark's adapter, gives the hand-counted
    answers: a 4-item matrix with 3 exact covers, one with none, and (xcover, the one tool with
    colours) a seeded 3x3 edge-matching XCC problem against our count. The documented
    `bench exact_cover --quick` runs without them in the default run (tests/test_docs_commands.py)."""
    from tanglekit.benchmarks.exact_cover import _tool, edge_matching
    from tanglekit.solver.exact_cover import ExactCover

    tools = _installed_tools()
    if not tools:
        pytest.skip("no comparison tool installed (pip install '.[bench]')")
    # covers of {0,1,2,3}: {01,23}, {02,13}, {0123}; {12} and {3} alone lead nowhere else
    plain = ExactCover(4, 0, [[0, 1], [2, 3], [0, 2], [1, 3], [0, 1, 2, 3], [1, 2]])
    empty = ExactCover(3, 0, [[0, 1], [1, 2]])
    colour, n_colour = edge_matching(3, 3, 3, seed=1)
    assert n_colour == 16  # our count of this seeded puzzle (the tools must agree)
    for name in tools:
        assert _tool(name, plain, 30)("count") == (3, True), name
        assert _tool(name, plain, 30)("first") == (1, True) and _tool(name, empty, 30)("first") == (0, True), name
        assert _tool(name, empty, 30)("count") == (0, True), name
        if name == "xcover":
            f = _tool(name, colour, 30)
            assert f("count") == (16, True) and f("first") == (1, True), name


@pytest.mark.slow
def test_bench_exact_cover_quick_with_the_comparison_tools():
    """The documented `tanglekit bench exact_cover --quick --json` with xcover installed (the one
    comparison tool --quick runs): xcover has its rows and no answer differs from the published
    count (a wrong one would be marked WRONG)."""
    from hostile import run_cli

    if "xcover" not in _installed_tools():
        pytest.skip("xcover not installed (pip install '.[bench]')")
    code, out, err = run_cli(["bench", "exact_cover", "--quick", "--json"])
    assert code == 0, err[-2000:]
    doc = json.loads(out)
    doc = doc[0] if isinstance(doc, list) else doc
    every = next(t for t in doc["tables"] if t["title"] == "every tool")
    tools = {r["tool"].split()[0] for r in every["rows"]}
    assert {"tanglekit", "xcover"} <= tools, tools
    assert not [r for r in every["rows"] if "WRONG" in str(r["result"])]
    counts = [r for r in every["rows"] if r["query"] == "count" and r["tool"].startswith("xcover")]
    assert counts and all(str(r["result"]).split()[0].replace(",", "").isdigit() for r in counts), counts
