"""Tanglung census batch path (numba) against the per-layout reference path and plain Python."""

import random

import numpy as np
import pytest
from tanglekit.games.tanglung.cards import CardSet, default_card_set
from tanglekit.games.tanglung.census import (
    _Tables,
    batch_supported,
    census_summary,
    count_no_revisit_reference,
    solve_ranks,
)
from tanglekit.games.tanglung.generate import _merge, census, census_chunk, census_chunk_reference
from tanglekit.games.tanglung.layout import (
    DIAGONAL_SYMMETRIES,
    count_standard_layouts,
    rank_standard_layout,
    unrank_standard_layout,
)
from tanglekit.games.tanglung.rules import TanglungOptions
from tanglekit.games.tanglung.solo_search import move_graph, solve_solo

DEFAULT = default_card_set()
CUSTOM = CardSet.from_json({"name": "c", "cards": {"C": 2, "R": 4, "B": 2, "F": 4, "H": 2, "D": 2}})
OPTIONS = {
    "default": TanglungOptions(),
    "literal": TanglungOptions(literal_blocking=True),
    "dark-roosters": TanglungOptions(roosters_start_lit=False),
}


def _canonical_ranks(rng, n, card_set=DEFAULT):
    """n random canonical ranks (sorted), the way a sampled census picks them."""
    total = count_standard_layouts(card_set)
    out = set()
    while len(out) < n:
        lay = unrank_standard_layout(rng.randrange(total), card_set).canonical(DIAGONAL_SYMMETRIES)
        out.add(rank_standard_layout(lay, card_set))
    return sorted(out)


def test_unrank_and_canonical_match_python():
    """Kernel unranking (fresh and by next permutation) and the canonical rule vs Layout."""
    from tanglekit.games.tanglung.kernels import is_canonical, next_lanterns, unrank_lanterns

    for card_set in (DEFAULT, CUSTOM):
        tb = _Tables(TanglungOptions(), card_set)
        total = count_standard_layouts(card_set)
        rng = random.Random(1)
        seq = np.zeros(14, dtype=np.int64)
        starts = [0, total - 40] + [rng.randrange(total - 40) for _ in range(6)]
        for a in starts:
            unrank_lanterns(a, tb.counts, tb.fact, seq)
            for r in range(a, a + 40):
                if r > a:
                    assert next_lanterns(seq)
                lay = unrank_standard_layout(r, card_set)
                assert "".join(tb.kinds[j] for j in seq) == "".join(lay.cells[1:15])
                cells = np.array([len(tb.kinds)] + list(seq) + [len(tb.kinds)], dtype=np.int64)
                assert is_canonical(cells, tb.order, tb.inv_syms) == (lay.canonical(DIAGONAL_SYMMETRIES) == lay)
        unrank_lanterns(total - 1, tb.counts, tb.fact, seq)
        assert not next_lanterns(seq)  # the last arrangement has no successor


def test_move_table_matches_move_graph():
    rng = random.Random(2)
    total = count_standard_layouts()
    for opts in OPTIONS.values():
        tb = _Tables(opts, DEFAULT)
        code = {k: j for j, k in enumerate(tb.kinds)} | {"C": len(tb.kinds)}
        for _ in range(30):
            lay = unrank_standard_layout(rng.randrange(total))
            adj, adjn = move_graph(lay, opts)
            for p in range(16):
                want = sum(1 << int(q) for q in adj[p, : adjn[p]])
                assert tb.table[code[lay[p]], p] == want


@pytest.mark.parametrize("name", ["default", "dark-roosters"])
def test_no_revisit_count_matches_python_dp(name):
    from tanglekit.games.tanglung.census import _dp_workspace
    from tanglekit.games.tanglung.kernels import count_no_revisit

    opts = OPTIONS[name]
    lit0 = 0x8001 if opts.roosters_start_lit else 0
    dp = _dp_workspace()
    rng = random.Random(3)
    total = count_standard_layouts()
    counts = []
    for _ in range(12 if opts.roosters_start_lit else 4):
        lay = unrank_standard_layout(rng.randrange(total))
        adj, adjn = move_graph(lay, opts)
        lists = [[int(q) for q in adj[p, : adjn[p]]] for p in range(16)]
        om = np.array([sum(1 << q for q in lists[p]) for p in range(16)], dtype=np.int64)
        for s in (0, 15):
            got = count_no_revisit(om, s, lit0, dp)
            assert got == count_no_revisit_reference(lists, s, lit0)
            counts.append(got)
    assert not dp.cnt.any() and not dp.flag.any()  # workspace left clean
    assert any(counts)
    # a lit set whose dark cells are not one contiguous bit run (the general index)
    lay = unrank_standard_layout(12345)
    adj, adjn = move_graph(lay, OPTIONS["default"])
    lists = [[int(q) for q in adj[p, : adjn[p]]] for p in range(16)]
    om = np.array([sum(1 << q for q in lists[p]) for p in range(16)], dtype=np.int64)
    lit0 = (1 << 0) | (1 << 5) | (1 << 10) | (1 << 15)
    assert count_no_revisit(om, 0, lit0, dp) == count_no_revisit_reference(lists, 0, lit0)


@pytest.mark.parametrize("name", list(OPTIONS))
def test_batch_results_equal_solve_solo_per_layout(name):
    opts = OPTIONS[name]
    rng = random.Random(4)
    ranks = _canonical_ranks(rng, 40 if name != "dark-roosters" else 12)
    keep, moves, tours = solve_ranks(ranks, opts)
    assert keep.all()
    for r, m, t in zip(ranks, moves, tours):
        sol = solve_solo(unrank_standard_layout(r), options=opts)
        assert (None if m < 0 else int(m), int(t)) == (sol.moves, sol.optimal_tours), unrank_standard_layout(r)


def test_batch_hard_layouts_equal_solve_solo():
    """Layouts without a no-revisit tour (A* fallback) and unsolvable ones, literal blocking."""
    opts = OPTIONS["literal"]
    rng = random.Random(5)
    ranks = _canonical_ranks(rng, 300)
    keep, moves, tours = solve_ranks(ranks, opts)
    hard = [i for i in range(len(ranks)) if moves[i] != 14]
    assert any(moves[i] > 14 for i in hard) and any(moves[i] < 0 for i in hard)
    for i in hard:
        sol = solve_solo(unrank_standard_layout(ranks[i]), options=opts)
        assert (None if moves[i] < 0 else int(moves[i]), int(tours[i])) == (sol.moves, sol.optimal_tours)


def _task(key, ranks, opts, card_set=DEFAULT):
    return (key, ranks, opts.to_json(), card_set.to_json())


# (contiguous ranks per chunk, with dark roosters, sampled ranks): the default run, and -m slow
CHUNK_SIZES = [pytest.param((100, 30, 40), id="small"), pytest.param((400, 120, 150), id="full", marks=pytest.mark.slow)]


@pytest.mark.parametrize("sizes", CHUNK_SIZES)
@pytest.mark.parametrize("name", list(OPTIONS))
def test_chunk_summary_equals_reference_on_random_chunks(name, sizes):
    opts = OPTIONS[name]
    rng = random.Random(6)
    total = count_standard_layouts()
    # contiguous ranges (next-permutation path) where canonical layouts are frequent
    width = sizes[0] if name != "dark-roosters" else sizes[1]
    for a in _canonical_ranks(rng, 2):
        a = min(a, total - width)
        task = _task("r", range(a, a + width), opts)
        part = census_chunk(task)
        assert part == census_chunk_reference(task) and part["layouts"] > 0
    # a sorted list of arbitrary ranks (canonical or not: the sampled census's chunks)
    ranks = sorted(rng.sample(range(total), sizes[2]))
    task = _task("s", ranks, opts)
    assert census_chunk(task) == census_chunk_reference(task)


def test_chunk_summary_custom_card_set():
    rng = random.Random(7)
    ranks = _canonical_ranks(rng, 40, CUSTOM) + sorted(rng.sample(range(count_standard_layouts(CUSTOM)), 40))
    task = _task("c", sorted(set(ranks)), OPTIONS["literal"], CUSTOM)
    assert census_chunk(task) == census_chunk_reference(task)


def test_batch_supported_and_fallback():
    assert batch_supported(TanglungOptions(literal_blocking=True, roosters_start_lit=False), DEFAULT)
    three = CardSet.from_json({"name": "x", "cards": {"C": 3, "R": 3, "B": 3, "F": 2, "H": 3, "D": 2}})
    assert not batch_supported(TanglungOptions(), three)
    # empty chunk and a chunk without canonical layouts
    assert census_summary("e", [])["layouts"] == 0
    part = census_chunk(_task("z", range(0, 50), TanglungOptions()))
    assert part == census_chunk_reference(_task("z", range(0, 50), TanglungOptions()))


def test_merge_ties_do_not_depend_on_order():
    a = {"layouts": 1, "no_revisit": 1, "unsolvable": 0, "tours_total": 5, "moves": {"14": 1},
         "tour_bins": {"3": 1}, "max_tours": [5, "B"], "min_tours": [5, "B"]}
    b = dict(a, max_tours=[5, "A"], min_tours=[5, "A"])
    x, y = {}, {}
    _merge(x, a), _merge(x, b)
    _merge(y, b), _merge(y, a)
    assert x == y and x["max_tours"] == [5, "A"] and x["min_tours"] == [5, "A"]


def test_census_sample_exact_figures():
    """A seeded sample: summary from the batch path equals the reference path chunk by chunk."""
    s = census(sample=60, seed=11, chunk=25, workers=1)  # one process: tests/test_executors.py checks pools
    ref = {}
    rng = random.Random(11)
    total = count_standard_layouts()
    ranks = sorted({rng.randrange(total) for _ in range(60)})
    ranks = sorted({rank_standard_layout(unrank_standard_layout(r).canonical()) for r in ranks})
    for i in range(0, len(ranks), 25):
        _merge(ref, census_chunk_reference(_task("s", ranks[i : i + 25], TanglungOptions())))
    for k in ("layouts", "no_revisit", "unsolvable", "tours_total", "moves", "tour_bins", "max_tours", "min_tours"):
        assert s[k] == ref[k]
    assert s["layouts"] == len(ranks) and s["chunks"] == 3


def _executor_census(executor):
    """A tiny census through a Ray / Dask started here (no cluster address set) equals the
    local one (about 6 s for Ray, 2 s for Dask; skipped when the optional extra is missing)."""
    local = census(sample=40, seed=3, workers=1)
    other = census(sample=40, seed=3, workers=1, executor=executor)
    assert other == local and local["layouts"] > 30


def test_census_ray_executor_equals_local(monkeypatch):
    pytest.importorskip("ray")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    _executor_census("ray")


def test_census_dask_executor_equals_local(monkeypatch):
    pytest.importorskip("dask.distributed")
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    _executor_census("dask")


def test_unknown_executor():
    from tanglekit.errors import SolverError

    with pytest.raises(SolverError, match="unknown executor"):
        census(sample=2, executor="spark")


def test_census_dask_honours_scheduler_address(monkeypatch):
    """With DASK_SCHEDULER_ADDRESS set the census uses that scheduler and leaves it running."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", cluster.scheduler_address)
        local = census(sample=10, seed=5)
        assert census(sample=10, seed=5, executor="dask") == local
        with distributed.Client(cluster.scheduler_address) as client:
            assert len(client.scheduler_info()["workers"]) == 1  # still up
