"""Set-up: kernels cache outside the package, and the README's two set-up commands work in either
order in one virtual environment (the slow test makes a real venv and runs them verbatim)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CACHE_SUFFIXES = (".nbi", ".nbc")


def _env(cache_home: Path, **extra: str) -> dict:
    """The environment of a user who never set NUMBA_CACHE_DIR, with a private cache home."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH", "TANGLEKIT_DEBUG")}
    env["XDG_CACHE_HOME"] = str(cache_home)
    env.update(extra)
    return env


def _cache_files(folder: Path) -> set[tuple[str, float]]:
    return {(str(p), p.stat().st_mtime) for p in folder.rglob("*") if p.suffix in CACHE_SUFFIXES}


def _version_key() -> str:
    import tanglekit

    return f"{tanglekit.__version__}-py{sys.version_info[0]}.{sys.version_info[1]}"


def test_kernels_cache_outside_the_package_and_first_compile_is_announced_once(tmp_path):
    """A kernel compiled from scratch is cached in the per-user folder (keyed by tanglekit and
    Python version), never in the package; the first run says it compiles, the second does not."""
    import tanglekit

    package = Path(tanglekit.__file__).resolve().parent
    before = _cache_files(package)
    # a command whose kernels compile fast (one small counting kernel, about 1 s from scratch);
    # TANGLEKIT_ENGINE=kernel, since a count this small is otherwise answered in plain Python
    cmd = [sys.executable, "-m", "tanglekit.cli", "tile", "--region", "rect:4x1", "--pieces", "monominoes",
           "--each", "any", "--count", "--json"]
    first = subprocess.run(cmd, capture_output=True, text=True, env=_env(tmp_path, TANGLEKIT_ENGINE="kernel"),
                           timeout=300)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count("compiling solver kernels, first run only") == 1, first.stderr
    cached = [p for p in (tmp_path / "tanglekit" / "numba" / _version_key()).rglob("*") if p.suffix == ".nbi"]
    assert cached and all(p.name.split(".")[0] in ("dlx", "dlx_bitset", "dlx_firstcell", "exact_cover", "tiling") for p in cached), cached
    assert _cache_files(package) == before, "a kernel cache file was written inside the package"
    second = subprocess.run(cmd, capture_output=True, text=True, env=_env(tmp_path, TANGLEKIT_ENGINE="kernel"),
                            timeout=300)
    assert second.returncode == 0, second.stderr
    answer = [{k: v for k, v in json.loads(p.stdout).items() if k != "seconds"} for p in (first, second)]
    assert answer[0] == answer[1] == {"count": 1, "count_up_to_symmetry": None, "backend": "dlx", "complete": True}
    assert "compiling" not in second.stderr, second.stderr


def test_user_numba_cache_dir_wins_even_when_numba_was_imported_first(tmp_path):
    code = ("import os, numba, tanglekit; from numba.core import config; "
            "print(os.environ['NUMBA_CACHE_DIR']); print(config.CACHE_DIR)")
    mine = tmp_path / "mine"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=_env(tmp_path, NUMBA_CACHE_DIR=str(mine)), timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [str(mine), str(mine)]
    # numba imported before tanglekit, no user choice: numba's config still gets the per-user folder
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(tmp_path), timeout=120)
    ours = str(tmp_path / "tanglekit" / "numba" / _version_key())
    assert p.returncode == 0 and p.stdout.split() == [ours, ours], p.stdout + p.stderr


def readme_setup_commands() -> tuple[str, str]:
    """The two commands of the README's Set-up section, in their order there."""
    section = README.read_text(encoding="utf-8").split("## Set-up", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)\n```", section, re.S)
    assert len(blocks) == 2, blocks
    return blocks[0].strip(), blocks[1].strip()


def test_readme_setup_commands_are_the_two_known_ones():
    assert readme_setup_commands() == ('pip install . && tanglekit demo', 'pip install -e ".[test,interop]" && python -m pytest')


# The inner test run of the second command: a few tests that import the package and run a kernel
# (the whole suite is what the coordinator's CI runs; TANGLEKIT_SETUP_FULL=1 runs it here too).
_INNER_TESTS = (
    "tests/test_cli.py::test_version tests/test_cli.py::test_enumerate_count_json_exact_form "
    "tests/test_setup.py::test_kernels_cache_outside_the_package_and_first_compile_is_announced_once"
)


def _copy_source(dest: Path) -> Path:
    """The working tree as a fresh checkout would have it (no caches, builds or demo output)."""
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", "*.egg-info", "build", "dist", ".pytest_cache", ".hypothesis",
        "*.nbi", "*.nbc", "tanglekit-demo"))
    return dest


def run_setup_in_fresh_venv(src: Path, work: Path, order: tuple[int, int]) -> dict:
    """Make a new venv and run the README's set-up commands verbatim in ``order`` inside ``src``;
    returns the seconds of each command. Fails with the command's output tail if one fails."""
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    commands = readme_setup_commands()
    env = _env(work / "cache", VIRTUAL_ENV=str(venv), PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")
    env.pop("PYTHONHOME", None)
    if not os.environ.get("TANGLEKIT_SETUP_FULL"):
        env["PYTEST_ADDOPTS"] = f"-q -p no:cacheprovider {_INNER_TESTS}"
    seconds = {}
    for i in order:
        t = time.perf_counter()
        p = subprocess.run(["bash", "-c", commands[i]], cwd=src, env=env, capture_output=True, text=True,
                           timeout=3600)
        seconds[commands[i]] = round(time.perf_counter() - t, 1)
        assert p.returncode == 0, f"`{commands[i]}` failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    stray = [str(p) for base in (Path(site), src) for p in base.rglob("*") if p.suffix in CACHE_SUFFIXES]
    assert not stray, f"kernel cache files beside the sources: {stray[:5]}"
    elsewhere = work / "elsewhere"  # not beside the source copy, which is a folder named tanglekit
    elsewhere.mkdir()
    p = subprocess.run(["bash", "-c", "tanglekit --version && python -c 'import tanglekit; print(tanglekit.__file__)'"],
                       cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and p.stdout.startswith("tanglekit "), p.stdout + p.stderr
    installed_last = "editable" if commands[order[-1]].startswith("pip install -e") else "regular"
    where = Path(p.stdout.splitlines()[-1]).resolve().parent
    assert (where == src.resolve()) == (installed_last == "editable"), (where, installed_last)
    return seconds


@pytest.mark.slow
@pytest.mark.parametrize("order", [(0, 1), (1, 0)], ids=["readme-order", "reversed"])
def test_readme_setup_commands_in_either_order_in_one_venv(tmp_path, order):
    src = _copy_source(tmp_path / "tanglekit")
    seconds = run_setup_in_fresh_venv(src, tmp_path, order)
    print(f"\n{order}: {seconds}")
