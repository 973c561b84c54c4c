"""Small problems without compiling (issue 26): a kernel whose cache entry does not exist yet is
not compiled for a small instance; the plain-Python search answers instead, with the same
results (line counts, random playouts, whole generated challenges)."""

from __future__ import annotations

import os
import random

import pytest

from tanglekit import engines, kernel_files
from tanglekit.games.zangle import solo_search as Z
from tanglekit.games.zangle.generate import generate_challenge
from tanglekit.games.zangle.rules import ZangleOptions
from tanglekit.games.zangle.solo_deal import SoloDeal
from tanglekit.games.zangle.solo_plain import PlainDeal, playouts_plain


def _fake_index(folder: str, py_file: str, name: str, stamp: str) -> None:
    """A numba cache index as numba writes it: pickled version, then pickled (stamp, overloads)."""
    import pickle

    os.makedirs(folder, exist_ok=True)
    base = os.path.splitext(os.path.basename(py_file))[0]
    with open(os.path.join(folder, f"{base}.{name}-12.py311.nbi"), "wb") as f:
        f.write(pickle.dumps("0.0.0") + pickle.dumps((stamp, {})))


def test_kernel_cached_needs_an_index_of_the_current_source(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    py = Z.__file__.replace("solo_search.py", "solo_kernel.py")
    assert not kernel_files.kernel_cached(py, "solve_kernel")  # empty cache
    folder = kernel_files.kernel_dir(py)
    assert folder.startswith(str(tmp_path)) and folder.endswith(os.path.join("games", "zangle"))
    _fake_index(folder, py, "solve_kernel", "0" * 64)  # an older source's entry
    assert not kernel_files.kernel_cached(py, "solve_kernel")
    _fake_index(folder, py, "solve_kernel", kernel_files.source_stamp(py))
    assert kernel_files.kernel_cached(py, "solve_kernel")
    assert not kernel_files.kernel_cached(py, "playout_kernel")


def test_plain_first_when_the_kernel_would_compile(monkeypatch):
    import numba  # noqa: F401  (loaded: plain_first alone would say kernel)

    monkeypatch.delenv("TANGLEKIT_ENGINE", raising=False)
    assert not engines.plain_first()
    monkeypatch.setattr(engines, "kernel_ready", lambda k: False)
    assert engines.plain_first(Z.SOLVE_KERNEL)
    assert engines.plain_budget(10, cold=99, kernel=Z.SOLVE_KERNEL) == 99
    monkeypatch.setattr(engines, "kernel_ready", lambda k: True)
    assert not engines.plain_first(Z.SOLVE_KERNEL)
    assert engines.plain_budget(10, cold=99, kernel=Z.SOLVE_KERNEL) == 10
    monkeypatch.setenv("TANGLEKIT_ENGINE", "kernel")
    monkeypatch.setattr(engines, "kernel_ready", lambda k: False)
    assert not engines.plain_first(Z.SOLVE_KERNEL)


def _deals(n):
    rng = random.Random(26)
    out = []
    for seed in range(n):
        opts = ZangleOptions(piles=rng.choice([4, 5, 5, 6]), fill_empty_pile=rng.choice(["must", "may"]),
                             voluntary_discard=rng.random() < 0.3, z_cards=rng.choice(["all", "minimal"]))
        out.append(SoloDeal.from_seed(seed, opts))
    return out


def _counted(engine, monkeypatch, deal, cap):
    monkeypatch.setenv("TANGLEKIT_ENGINE", engine)
    r = Z.solve_deal(deal, max_states=3000, count=True, line_cap=cap, playouts=50, seed=5)
    return (r.solvable, r.states, r.reason, r.lines, r.lines_capped, [str(a) for a in r.line],
            r.playouts, r.playout_wins)


def test_plain_line_count_and_playouts_equal_the_kernel(monkeypatch):
    seen = set()
    for i, deal in enumerate(_deals(24)):
        cap = (3, 10_000)[i % 2]
        py, k = _counted("python", monkeypatch, deal, cap), _counted("kernel", monkeypatch, deal, cap)
        assert py == k, deal.to_json()
        seen.add((py[0], py[4]))
    assert (True, True) in seen and any(s[0] is not True for s in seen)  # capped counts and unsolvable/limits


def test_plain_playouts_draw_the_kernels_random_stream():
    for i, deal in enumerate(_deals(12)):
        os.environ["TANGLEKIT_ENGINE"] = "kernel"
        try:
            want = Z.playout_wins(deal, 200, 1000 + i)
        finally:
            del os.environ["TANGLEKIT_ENGINE"]
        assert playouts_plain(PlainDeal(deal), 200, 1000 + i) == want


@pytest.mark.parametrize("seed", [0, 1])
def test_generated_challenge_is_the_same_without_compiling(monkeypatch, seed):
    """The demo's `zangle solo generate --difficulty medium`: with the kernels treated as not
    compiled (plain searches and playouts within the cold budgets) it is the kernels' challenge."""
    monkeypatch.setenv("TANGLEKIT_ENGINE", "kernel")
    k = generate_challenge(seed, "medium")
    monkeypatch.delenv("TANGLEKIT_ENGINE")
    monkeypatch.setattr(engines, "kernel_ready", lambda kernel: False)
    calls = []
    real = Z.playouts_plain
    monkeypatch.setattr(Z, "playouts_plain", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    p = generate_challenge(seed, "medium")
    assert calls  # the plain playouts ran
    assert p.to_json() == k.to_json()


def test_tanglung_generate_is_the_same_without_compiling(monkeypatch):
    """The demo's `tanglung solo generate --difficulty hard`: every solve goes Python first while
    the search kernel would compile, with the kernel's challenge."""
    from tanglekit.games.tanglung import generate as G
    from tanglekit.games.tanglung import solo_search as T

    monkeypatch.setenv("TANGLEKIT_ENGINE", "kernel")
    k = G.generate_challenge("hard", seed=1)
    monkeypatch.delenv("TANGLEKIT_ENGINE")
    monkeypatch.setattr(T, "kernel_ready", lambda kernel: False)
    kernel_calls = []
    real = T.search_graph
    monkeypatch.setattr(T, "search_graph", lambda *a, **kw: kernel_calls.append(1) or real(*a, **kw))
    p = G.generate_challenge("hard", seed=1)
    assert not kernel_calls
    assert p.to_json() == k.to_json()


@pytest.mark.parametrize("board,k,seed", [("6", 3, 1), ("6", 4, 1), ("7", 3, 2), ("6", 2, 5), ("7plus", 3, 4)])
def test_qango_puzzle_is_the_same_without_compiling(monkeypatch, board, k, seed):
    """The demo's `qango puzzle generate`: while the kernels would compile, the plain search
    (``small.SmallSolver``) generates it, with the kernels' puzzle and node count; past its
    budget the kernels start again and give the same puzzle."""
    from tanglekit.games.qango import generate as G
    from tanglekit.games.qango import small

    monkeypatch.setenv("TANGLEKIT_ENGINE", "kernel")
    want = G.generate_puzzle(board, k, seed)
    monkeypatch.delenv("TANGLEKIT_ENGINE")
    monkeypatch.setattr(engines, "kernel_ready", lambda kernel: False)
    plain = []
    real = small.SmallSolver.solve
    monkeypatch.setattr(small.SmallSolver, "solve", lambda *a, **kw: plain.append(1) or real(*a, **kw))
    got = G.generate_puzzle(board, k, seed)
    assert plain  # the plain search ran
    assert (got.to_json(), got.nodes) == (want.to_json(), want.nodes)
    monkeypatch.setattr(G, "PLAIN_PUZZLE_NODES_COLD", 5)  # the budget runs out: the kernels take over
    got = G.generate_puzzle(board, k, seed)
    assert (got.to_json(), got.nodes) == (want.to_json(), want.nodes)


_COMPILED = r'''
import json, sys
from numba.core import event
names = []
class L(event.Listener):
    def on_start(self, e):
        f = e.data["dispatcher"].py_func
        if f.__module__.startswith("tanglekit."):
            names.append(f.__module__ + "." + f.__qualname__)
    def on_end(self, e):
        pass
event.register("numba:compile", L())
from tanglekit.cli import app
try:
    app(["demo", "--out", sys.argv[1]], standalone_mode=False)
finally:
    print("COMPILED " + json.dumps(sorted(set(names))))
'''

#: what a cold `tanglekit demo` may compile: the kernels of its large instances (the count of
#: the fixed 16-iamonds, the tilings counted, Tangle's move generator); its small searches (the
#: tiling pictures, the 6-iamonds, the Zangle and Tanglung challenges, the QANGO puzzle) run in
#: plain Python while their kernels are not compiled
_DEMO_KERNELS = {"tanglekit.shapes.enumerate": {"_count_kernel", "_update_running", "_precheck", "_full_check",
                                                "_normal_keys"},
                 "tanglekit.solver.dlx_firstcell": {"firstcell_count", "_build_tables", "_fits"},
                 "tanglekit.games.tangle.movegen": {"_legal_kernel"}}


def test_a_cold_demo_compiles_only_the_kernels_of_its_large_instances(tmp_path):
    """Issue 26 item 9 (a fast first run): a demo with an empty kernel cache compiles nothing
    beyond ``_DEMO_KERNELS`` (the QANGO, bitset, Zangle and Tanglung search kernels stay
    uncompiled), and still writes every picture."""
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("TANGLEKIT_ENGINE", None)
    out = subprocess.run([sys.executable, "-c", _COMPILED, str(tmp_path / "demo")], capture_output=True, text=True, check=False,
                         env=env, timeout=280)
    assert out.returncode == 0, out.stderr[-2000:]
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("COMPILED "))
    import json

    compiled = json.loads(line[len("COMPILED "):])
    extra = [n for n in compiled if n.rsplit(".", 1)[1] not in _DEMO_KERNELS.get(n.rsplit(".", 1)[0], ())]
    assert not extra, extra
    assert "tanglekit.shapes.enumerate._count_kernel" in compiled  # the listener sees compiles
    assert len(list((tmp_path / "demo").glob("*.svg"))) >= 15
