"""Bench output as data (--json/--csv rows read back from the Markdown), --record safety, and the
start-up path: a single small Tanglung solve does not import numba or numpy."""

import json
import subprocess
import sys

from typer.testing import CliRunner

from tanglekit.benchmarks._table import parse_markdown, to_csv
from tanglekit.cli import app

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


def test_single_tanglung_solve_does_not_load_numba():
    code = (
        "import sys\n"
        "from tanglekit.cli import app\n"
        "sys.argv = ['tanglekit', 'tanglung', 'solo', 'solve', 'CRBF/HDFR/BHFB/RHDC', '--json']\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        "print('LOADED', 'numba' in sys.modules, 'numpy' in sys.modules, file=sys.stderr)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={"PATH": "/usr/bin:/bin"})
    assert json.loads(p.stdout)["optimal_tours"] == 1823
    assert "LOADED False False" in p.stderr
