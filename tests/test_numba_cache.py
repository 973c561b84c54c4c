"""The kernel cache (tanglekit/numba_cache.py): one per-user cache per tanglekit version, shared by
every install of that version (editable or regular, wherever it lives), fresh by content, never
written inside the package.

Two "installs" are two folders each holding a copy of the package's ``__init__.py`` and
``numba_cache.py`` (and ``kernel_files.py``) with a tiny kernel module; each run is a fresh process."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TINY = '''\
import numpy as np
from numba import njit

from . import numba_cache  # noqa: F401
from .tinyconst import STEP


@njit(cache=True)
def weigh(a):
    s = 0
    for x in a:
        s += x * STEP
    return s
'''

RUN = '''\
import json, os, numpy as np
from tanglekit import tiny
r = tiny.weigh(np.arange(10, dtype=np.int64))
st = tiny.weigh.stats
print(json.dumps({"r": int(r), "hits": sum(st.cache_hits.values()), "misses": sum(st.cache_misses.values()),
                  "file": tiny.__file__, "cache": tiny.weigh._cache.cache_path,
                  "locator": type(tiny.weigh._cache._impl.locator).__name__}))
'''


def _install(where: Path, step: int = 3) -> Path:
    """A minimal copy of the package in ``where``/tanglekit with the tiny kernel; returns it."""
    pkg = where / "tanglekit"
    pkg.mkdir(parents=True)
    shutil.copy(ROOT / "__init__.py", pkg / "__init__.py")
    shutil.copy(ROOT / "numba_cache.py", pkg / "numba_cache.py")
    shutil.copy(ROOT / "kernel_files.py", pkg / "kernel_files.py")  # its numba-free half
    (pkg / "tiny.py").write_text(TINY)
    (pkg / "tinyconst.py").write_text(f"STEP = {step}\n")
    return pkg


def _files(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


def _run(install: Path, home: Path, **env_extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH", "NUMBA_DISABLE_JIT")}
    env.update(PYTHONPATH=str(install.parent), PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(home), **env_extra)
    before = _files(install)
    p = subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True, env=env, cwd=str(home),
                       timeout=300)
    assert p.returncode == 0, p.stderr
    assert _files(install) == before, "the run wrote inside the package"
    out = json.loads(p.stdout.splitlines()[-1])
    assert Path(out["file"]).resolve().parent == install.resolve(), out  # the install meant, not another
    return out


def _version_dir(home: Path) -> Path:
    import tanglekit

    return home / "tanglekit" / "numba" / f"{tanglekit.__version__}-py{sys.version_info[0]}.{sys.version_info[1]}"


def test_two_installs_of_one_version_share_the_cache(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    a = _install(tmp_path / "editable")
    b = _install(tmp_path / "site-packages")
    later = time.time() + 3600  # another mtime, as a fresh install has
    for f in b.iterdir():
        os.utime(f, (later, later))
    first = _run(a, home)
    assert first["locator"] == "PackageCacheLocator"
    assert (first["r"], first["misses"], first["hits"]) == (135, 1, 0), first
    assert Path(first["cache"]) == _version_dir(home), first  # tiny.py sits at the package root
    assert list(_version_dir(home).glob("tiny.weigh-*.nbi")), list(home.rglob("*"))
    second = _run(b, home)
    assert (second["r"], second["misses"], second["hits"]) == (135, 0, 1), second
    assert second["cache"] == first["cache"]
    again = _run(a, home)
    assert (again["misses"], again["hits"]) == (0, 1), again


def test_a_changed_source_or_imported_constant_compiles_again(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    a = _install(tmp_path / "a")
    assert _run(a, home)["misses"] == 1
    assert _run(a, home)["hits"] == 1
    # the kernel's own file
    (a / "tiny.py").write_text(TINY.replace("s += x * STEP", "s += x * STEP + 1"))
    out = _run(a, home)
    assert (out["r"], out["misses"], out["hits"]) == (145, 1, 0), out
    # a module-level constant it imports from another package module (frozen into the machine code)
    (a / "tinyconst.py").write_text("STEP = 5\n")
    out = _run(a, home)
    assert (out["r"], out["misses"], out["hits"]) == (235, 1, 0), out
    out = _run(a, home)
    assert (out["r"], out["misses"], out["hits"]) == (235, 0, 1), out


def test_the_users_numba_cache_dir_is_the_root(tmp_path):
    import tanglekit

    home = tmp_path / "home"
    home.mkdir()
    mine = tmp_path / "mine"
    a = _install(tmp_path / "a")
    out = _run(a, home, NUMBA_CACHE_DIR=str(mine))
    key = f"{tanglekit.__version__}-py{sys.version_info[0]}.{sys.version_info[1]}"
    assert Path(out["cache"]) == mine / "tanglekit" / key, out
    assert list((mine / "tanglekit" / key).glob("tiny.weigh-*.nbi"))
    assert not (home / "tanglekit").exists()


def test_source_stamp_follows_package_imports(tmp_path):
    from tanglekit import numba_cache

    deps = {Path(p).relative_to(numba_cache.PACKAGE_DIR).as_posix()
            for p in numba_cache.package_imports(str(ROOT / "games/zangle/solo_kernel.py"),
                                                 (ROOT / "games/zangle/solo_kernel.py").read_text())}
    assert {"numba_cache.py", "games/zangle/_kernel.py"} <= deps, deps
    assert numba_cache.source_stamp(str(ROOT / "games/zangle/solo_kernel.py")) != \
        numba_cache.source_stamp(str(ROOT / "games/zangle/_kernel.py"))


def test_every_cached_kernel_module_installs_the_locator_first():
    """A module defining ``cache=True`` kernels imports numba_cache (so the locator is in place
    before its kernels are made), and the real kernels get it."""
    missing = []
    for p in ROOT.rglob("*.py"):
        rel = p.relative_to(ROOT)
        if rel.parts[0] in ("tests", "build", "docs", "examples") or rel.name in ("numba_cache.py", "kernel_files.py"):
            continue
        text = p.read_text(encoding="utf-8")
        if "cache=True" in text and not re.search(r"from \.+ import numba_cache", text):
            missing.append(str(rel))
    assert not missing, missing
    code = ("import tanglekit.games.tangle.movegen as m, tanglekit.solver.dlx as d, tanglekit.games.qango.kernels as q; "
            "from numba.core import caching, registry; "
            "ds = [v for mod in (m, d, q) for v in vars(mod).values() if isinstance(v, registry.CPUDispatcher)]; "
            "import json; print(json.dumps([len(ds), sorted({type(v._cache._impl.locator).__name__ for v in ds}), "
            "caching.CacheImpl._locator_classes[0].__name__]))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert p.returncode == 0, p.stderr
    n, names, first = json.loads(p.stdout)
    assert n > 30 and names == ["PackageCacheLocator"] and first == "PackageCacheLocator", p.stdout


CALLS = '''\
from numba import njit

from . import numba_cache  # noqa: F401


@njit(cache=True)
def _scale(x, k):
    return x * k


@njit(cache=True)
def scaled(x):
    return _scale(x, 2) + _scale(x, 3) + _scale(x, x)


@njit(cache=True)
def _pick(t, k):
    return t[k]


@njit(cache=True)
def second():
    return _pick((1, 2.5), 1)
'''


def test_constant_arguments_of_our_callees_compile_once(tmp_path):
    """A kernel calling another with constants (2, 3) and a variable compiles the callee once, for
    int64; a callee that needs the literal (an index into a mixed tuple) still gets it."""
    pkg = _install(tmp_path / "a")
    (pkg / "calls.py").write_text(CALLS)
    code = ("import json; from tanglekit import calls; "
            "print(json.dumps([calls.scaled(5), calls.second(), [str(s) for s in calls._scale.signatures], "
            "[str(s) for s in calls._pick.signatures]]))")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env.update(PYTHONPATH=str(pkg.parent), PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(tmp_path / "home"))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    value, picked, scale_sigs, pick_sigs = json.loads(p.stdout)
    assert (value, picked) == (50, 2.5)
    assert scale_sigs == ["(int64, int64)"], scale_sigs
    assert len(pick_sigs) == 1 and "Literal[int](1)" in pick_sigs[0], pick_sigs
