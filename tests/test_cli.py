"""The command line: start-up time, error handling (exit 2, no traceback), JSON shapes."""

import json
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args, check_rc=None):
    p = subprocess.run(
        [sys.executable, "-m", "tanglekit.cli", *args], capture_output=True, text=True, timeout=300
    )
    if check_rc is not None:
        assert p.returncode == check_rc, (p.returncode, p.stdout, p.stderr)
    return p


def test_help_is_fast_and_lists_areas():
    t = time.perf_counter()
    p = run("--help", check_rc=0)
    assert time.perf_counter() - t < 3.0  # generous: includes interpreter start on a busy machine
    assert "shapes" in p.stdout and "bench" in p.stdout


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


def test_demo_runs_every_step(tmp_path):
    p = run("demo", "--out", str(tmp_path), "--json", check_rc=0)
    records = json.loads(p.stdout.strip().splitlines()[-1])
    assert [r["area"] for r in records][::2][:2] == ["shapes", "tile"]
    assert {r["area"] for r in records} >= {"shapes", "tile", "zangle", "tanglung", "zinga", "tangle"}
    assert "up to symmetry: 156" in p.stdout and "up to symmetry: 2339" in p.stdout
    assert len(list(tmp_path.glob("*.svg"))) >= 8
    for svg in tmp_path.glob("*.svg"):
        import xml.etree.ElementTree as ET

        ET.parse(svg)
